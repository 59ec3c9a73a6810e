import Foundation
import MoyaCore
import XCTest

@testable import MoyaTransport

/// Which proxy a request takes, from `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY`.
final class ProxySettingsTests: XCTestCase {
    func proxy(_ url: String, _ environment: [String: String]) -> String? {
        let settings = ProxySettings(environment: Environment(environment))
        guard let text = settings.proxyURL(for: URL(string: url)!), let chosen = try? ProxySettings.proxy(named: text)
        else { return nil }
        return "\(chosen.host):\(chosen.port)"
    }

    func testTheSchemePicksTheProxy() {
        let environment = ["HTTP_PROXY": "http://plain.proxy:3128", "HTTPS_PROXY": "secure.proxy:8443"]
        XCTAssertEqual(proxy("http://api.test/x", environment), "plain.proxy:3128")
        XCTAssertEqual(proxy("https://api.test/x", environment), "secure.proxy:8443")
        XCTAssertEqual(proxy("https://api.test/x", ["HTTP_PROXY": "p:1"]), "p:1", "HTTPS falls back to HTTP_PROXY")
        XCTAssertEqual(proxy("http://api.test/x", ["http_proxy": "lower:2"]), "lower:2", "lowercase names work too")
        XCTAssertNil(proxy("http://api.test/x", [:]))
    }

    func testNoProxyMatchesHostsAndDomains() {
        let environment = ["HTTP_PROXY": "p:1", "NO_PROXY": "localhost, .internal.test,exact.test"]
        XCTAssertNil(proxy("http://localhost:8080/", environment))
        XCTAssertNil(proxy("http://a.internal.test/", environment))
        XCTAssertNil(proxy("http://exact.test/", environment))
        XCTAssertEqual(proxy("http://inexact.test/", environment), "p:1")
        XCTAssertNil(proxy("http://anything/", ["HTTP_PROXY": "p:1", "NO_PROXY": "*"]))
    }

    func testExplicitProxyURLs() throws {
        let plain = try ProxySettings.proxy(named: "http://proxy.test:3128")
        XCTAssertEqual("\(plain.host):\(plain.port)", "proxy.test:3128")
        let bare = try ProxySettings.proxy(named: "proxy.test")
        XCTAssertEqual("\(bare.host):\(bare.port)", "proxy.test:80")
        let credentials = try ProxySettings.proxy(named: "http://ann:s3cret@proxy.test:8080")
        XCTAssertEqual(credentials.port, 8080)
        XCTAssertNotNil(credentials.authorization, "user and password become Basic proxy authorization")
        XCTAssertThrowsError(try ProxySettings.proxy(named: "socks5://proxy.test:1080"))
        XCTAssertThrowsError(try ProxySettings.proxy(named: "http://"))
        XCTAssertThrowsError(try ProxySettings.proxy(named: "http://proxy.test:70000"))
        do {
            _ = try ProxySettings.proxy(named: "ftp://ann:s3cret@proxy.test")
            XCTFail("an ftp proxy is refused")
        } catch {
            XCTAssertEqual(error.message, "the proxy 'ftp://ann:••••@proxy.test' is not an http://HOST[:PORT] URL")
        }
    }

    /// Each request picks its proxy: one session that reaches two hosts uses each one's.
    func testEachRequestChoosesItsProxy() async throws {
        let environment = ["HTTP_PROXY": "http://127.0.0.1:1", "NO_PROXY": "localhost"]
        let session = Session(configuration: Session.Configuration(environment: Environment(environment)))
        let direct = try session.httpClient(for: URL(string: "http://localhost:9/")!)
        let proxied = try session.httpClient(for: URL(string: "http://api.test/")!)
        XCTAssertFalse(direct === proxied, "a direct request and a proxied one use different clients")
        XCTAssertTrue(try session.httpClient(for: URL(string: "http://localhost:10/")!) === direct)
        await session.shutdown()
    }

    func testAMalformedProxyFailsTheRequest() async {
        let session = Session(configuration: Session.Configuration(environment: ["HTTP_PROXY": "socks5://p:1"]))
        do {
            _ = try await session.send(Request(url: URL(string: "http://api.test/")!))
            XCTFail("a malformed proxy is an error, not a direct connection")
        } catch {
            XCTAssertEqual(
                error.errorDescription, "The request failed: the proxy 'socks5://p:1' is not an http://HOST[:PORT] URL."
            )
        }
        await session.shutdown()
    }
}
