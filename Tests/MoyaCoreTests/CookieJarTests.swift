import Foundation
import MoyaCore
import XCTest

@testable import MoyaHTTP

/// RFC 6265's storage and sending rules, case by case.
final class CookieJarTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    func header(_ setCookies: [String], from origin: String, to destination: String) -> String? {
        var jar = CookieJar()
        jar.store(setCookies, from: URL(string: origin)!, now: now)
        return jar.header(for: URL(string: destination)!, now: now)
    }

    func testHostOnlyAndDomainCookies() {
        XCTAssertEqual(header(["a=1"], from: "http://api.example.com/x", to: "http://api.example.com/"), "a=1")
        XCTAssertNil(header(["a=1"], from: "http://api.example.com/", to: "http://www.api.example.com/"))
        XCTAssertEqual(
            header(["a=1; Domain=.example.com"], from: "http://api.example.com/", to: "http://www.example.com/"), "a=1")
        XCTAssertNil(header(["a=1; Domain=other.com"], from: "http://api.example.com/", to: "http://other.com/"))
        XCTAssertNil(header(["a=1; Domain=0.1"], from: "http://127.0.0.1/", to: "http://127.0.0.1/"))
    }

    /// RFC 6265 5.3 step 5, by the Public Suffix List: a cookie for `com`, `co.uk` or a
    /// private suffix such as `github.io` is no cookie of a site's, and another site never
    /// gets it; set by the suffix's own host, it stays that host's.
    func testAPublicSuffixIsNoCookiesDomain() throws {
        XCTAssertNil(header(["a=1; Domain=com"], from: "http://a.evil.com/", to: "http://b.victim.com/"))
        XCTAssertNil(header(["a=1; Domain=com"], from: "http://a.evil.com/", to: "http://a.evil.com/"))
        // The rest needs the list itself: libpsl, which CI installs.
        guard PublicSuffixList.isAvailable || ProcessInfo.processInfo.environment["MOYA_SHARED_REQUIRED"] == "1" else {
            throw XCTSkip("libpsl.so.5 is not installed: only one-label domains are taken as public suffixes")
        }
        XCTAssertNil(header(["a=1; Domain=.co.uk"], from: "http://a.evil.co.uk/", to: "http://b.victim.co.uk/"))
        XCTAssertNil(
            header(["a=1; Domain=github.io"], from: "https://evil.github.io/", to: "https://victim.github.io/"))
        XCTAssertEqual(
            header(["a=1; Domain=evil.com"], from: "http://a.evil.com/", to: "http://b.evil.com/"), "a=1")
        XCTAssertEqual(header(["a=1; Domain=co.uk"], from: "http://co.uk/", to: "http://co.uk/"), "a=1")
        XCTAssertNil(header(["a=1; Domain=co.uk"], from: "http://co.uk/", to: "http://x.co.uk/"))
    }

    func testPathsSecureAndOrder() {
        let cookies = ["a=1; Path=/", "b=2; Path=/docs", "c=3; Path=/docs/", "d=4; Secure"]
        XCTAssertEqual(header(cookies, from: "http://h/", to: "http://h/docs/x"), "c=3; b=2; a=1")
        XCTAssertEqual(header(cookies, from: "http://h/", to: "http://h/docsx"), "a=1")
        XCTAssertEqual(header(cookies, from: "https://h/", to: "https://h/"), "a=1; d=4")
        // The default path is the request path up to its last slash.
        XCTAssertNil(header(["e=5"], from: "http://h/a/b", to: "http://h/c"))
        XCTAssertEqual(header(["e=5"], from: "http://h/a/b", to: "http://h/a/z"), "e=5")
    }

    func testExpiryAndReplacement() {
        XCTAssertNil(header(["a=1; Max-Age=0"], from: "http://h/", to: "http://h/"))
        XCTAssertNil(header(["a=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT"], from: "http://h/", to: "http://h/"))
        // Max-Age wins over Expires.
        XCTAssertEqual(
            header(["a=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT; Max-Age=60"], from: "http://h/", to: "http://h/"),
            "a=1")
        XCTAssertEqual(header(["a=1", "a=2"], from: "http://h/", to: "http://h/"), "a=2")
        XCTAssertNil(header(["a=1", "a=2; Max-Age=-1"], from: "http://h/", to: "http://h/"))
        XCTAssertNil(header(["=1", "novalue"], from: "http://h/", to: "http://h/"))
    }

    func testDatesReadLeniently() {
        let cases: [(String, Double?)] = [
            ("Wed, 21 Oct 2015 07:28:00 GMT", 1_445_412_480),
            ("Wednesday, 21-Oct-15 07:28:00 GMT", 1_445_412_480),
            ("Wed Oct 21 07:28:00 2015", 1_445_412_480),
            ("Thu, 01 Jan 1970 00:00:00 GMT", 0),
            ("Sat, 29 Feb 2020 12:00:00 GMT", 1_582_977_600),
            ("Wed, 21 Oct 2015 25:28:00 GMT", nil),
            ("21 Oct 2015", nil),
            ("", nil),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(CookieDate.parse(text)?.timeIntervalSince1970, expected, text)
        }
    }
}
