import Foundation
import MoyaCore
import XCTest

@testable import MoyaHTTP

/// Server text scrubbed of secrets: every spelling JSON allows, in one pass over any size.
final class RedactorTests: XCTestCase {
    func scrub(_ text: String, _ secrets: Set<String>) -> String {
        Redactor(secretValues: secrets).scrub(text)
    }

    /// A secret echoed with `\u` escapes, in either case of hex, wholly or in part, past the
    /// Basic Multilingual Plane as a surrogate pair, and with `\/` for a slash.
    func testJSONEscapesOfASecretAreMasked() {
        let secrets: Set<String> = ["grün-schlüssel", "key🔑/x"]
        XCTAssertEqual(scrub(#"{"k":"gr\u00fcn-schl\u00fcssel"}"#, secrets), #"{"k":"••••"}"#)
        XCTAssertEqual(scrub(#"{"k":"gr\u00FCn-schl\u00FCssel"}"#, secrets), #"{"k":"••••"}"#)
        XCTAssertEqual(
            scrub(
                #"{"k":"\u0067\u0072\u00fc\u006e\u002d\u0073\u0063\u0068\u006c\u00fc\u0073\u0073\u0065\u006c!"}"#,
                secrets),
            #"{"k":"••••!"}"#)
        XCTAssertEqual(scrub(#"["key\ud83d\udd11\/x", "key🔑/x"]"#, secrets), #"["••••", "••••"]"#)
        // What is not the secret stays: an escape of another character, a lone surrogate.
        XCTAssertEqual(scrub(#"{"k":"gr\u00fdn","l":"\ud83d"}"#, secrets), #"{"k":"gr\u00fdn","l":"\ud83d"}"#)
    }

    /// The forms an encoder gives are masked as before: percent-encoded, form-encoded,
    /// base64, JSON inside JSON.
    func testEncodedFormsAreMasked() {
        let secret = "tok/en+1=x?"
        let text =
            "a=tok%2Fen%2B1%3Dx%3F b=tok%2fen%2b1%3dx%3f c=\(Data(secret.utf8).base64EncodedString()) "
            + #"d="{\"t\":\"tok\/en+1=x?\"}""#
        XCTAssertEqual(scrub(text, [secret]), #"a=•••• b=•••• c=•••• d="{\"t\":\"••••\"}""#)
    }

    /// A body of 30 MB with two secrets here and there is scrubbed whole, each one found.
    func testALargeBodyIsScrubbedInOnePass() {
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 30 << 20)
        let secrets = ["s3cret-one", "s3cret-two"]
        for (index, offset) in stride(from: 1000, to: bytes.count - 100, by: 5 << 20).enumerated() {
            let secret = Array(secrets[index % 2].utf8)
            bytes.replaceSubrange(offset..<(offset + secret.count), with: secret)
        }
        let scrubbed = Redactor(secretValues: Set(secrets)).scrub(bytes: bytes)
        let text = String(decoding: scrubbed, as: UTF8.self)
        XCTAssertFalse(text.contains("s3cret"))
        XCTAssertEqual(text.components(separatedBy: "••••").count - 1, 6)
    }

    /// A redactor grows as values are bound after it was made (a login's token), keeping what
    /// it held; `--show-secrets` (disabled) stays disabled.
    func testAddingKeepsWhatWasBound() {
        let first = Redactor(secretHeaders: ["X-Key"], secretValues: ["first-secret"])
        let grown = first.adding(["second-secret", "ab"], headers: ["X-Other"])
        XCTAssertEqual(grown.scrub("first-secret second-secret"), "•••• ••••")
        XCTAssertEqual(grown.header(name: "x-other", value: "v"), "••••")
        XCTAssertEqual(grown.header(name: "X-Key", value: "v"), "••••")
        // A short secret is not searched for in text, but a JSON string that is one is masked.
        XCTAssertEqual(grown.scrub("ab"), "ab")
        XCTAssertEqual(
            grown.masking(.object([(key: "t", value: .string("ab")), (key: "u", value: .string("abc"))])),
            .object([(key: "t", value: .string("••••")), (key: "u", value: .string("abc"))]))
        let showing = Redactor(isEnabled: false).adding(["first-secret"])
        XCTAssertEqual(showing.scrub("first-secret"), "first-secret")
    }

    /// A `SecretSet` grows only into a new set: the set a redactor was made from, and the
    /// redactor, keep what they held; empty values are never secret, header names are
    /// compared lowercased, and adding what a set holds gives the same set.
    func testASecretSetGrowsIntoANewSet() {
        let first = SecretSet(values: ["t0ken", ""], headers: ["X-Key"])
        XCTAssertEqual(first.values, ["t0ken"])
        XCTAssertEqual(first.headers, ["x-key"])
        let redactor = Redactor(secrets: first)
        let grown = first.adding(["l0gin-token"], headers: ["X-Session"])
        XCTAssertEqual(first, SecretSet(values: ["t0ken"], headers: ["x-key"]))
        XCTAssertEqual(grown.values, ["t0ken", "l0gin-token"])
        XCTAssertTrue(grown.contains(header: "x-SESSION"))
        XCTAssertTrue(first.isSubset(of: grown))
        XCTAssertEqual(grown.adding(first), grown)
        XCTAssertEqual([first, SecretSet(values: ["other"])].joined().values, ["t0ken", "other"])
        XCTAssertEqual(redactor.scrub("t0ken l0gin-token"), "•••• l0gin-token")
        XCTAssertEqual(redactor.adding(grown).scrub("t0ken l0gin-token"), "•••• ••••")
        XCTAssertEqual(redactor.adding(grown).secrets, grown)
        XCTAssertEqual(redactor.header(name: "X-Session", value: "v"), "v")
        XCTAssertEqual(redactor.adding(grown).header(name: "X-Session", value: "v"), "••••")
        // A redactor holding a masked request keeps it, and its secrets, through a copy.
        var request = Request(url: URL(string: "http://127.0.0.1/x")!)
        request.method = .post
        var holding = redactor
        holding.maskedRequest = request
        let copied = holding
        XCTAssertEqual(copied.printable(request).url, "http://127.0.0.1/x")
        XCTAssertEqual(copied.maskedRequest?.method, .post)
        XCTAssertEqual(copied.secrets, first)
    }

    /// The credentials an exchange carried are secrets of everything printed of it: the
    /// request's Authorization after its scheme, its cookies, and what the server set.
    func testAnExchangesCredentialsAreItsSecrets() {
        var request = Request(url: URL(string: "http://127.0.0.1/x")!)
        request.headers.add(name: "Authorization", value: "Bearer bearer-v4lue")
        request.headers.add(name: "Cookie", value: "a=cookie-v4lue")
        let response = Response(
            statusCode: 200, data: Data(), request: request,
            response: ResponseHead(
                statusCode: 200, headers: HTTPHeaders(fields: [(name: "Set-Cookie", value: "sid=set-v4lue; Path=/")])))
        let redactor = Redactor().exchanged(response)
        XCTAssertEqual(
            redactor.scrub(#"{"auth":"bearer-v4lue","c":"cookie-v4lue","s":"set-v4lue"}"#),
            #"{"auth":"••••","c":"••••","s":"••••"}"#)
    }

    /// What makes a name a credential's, for `-H` and a login's response: one rule.
    func testCredentialNames() {
        for name in ["Authorization", "X-Api-Key", "X-Auth-Token", "client_secret", "sessionId", "Cookie", "password"] {
            XCTAssertTrue(CredentialNames.isCredential(name: name), name)
        }
        for name in ["Accept", "Content-Type", "X-Request-Id", "author", "User-Agent"] {
            XCTAssertFalse(CredentialNames.isCredential(name: name), name)
        }
        let json = JSONValue.object([
            (key: "access_token", value: .string("a")),
            (key: "user", value: .object([(key: "password", value: .string("p"))])),
            (key: "name", value: .string("n")),
        ])
        XCTAssertEqual(CredentialNames.members(of: json), ["a", "p"])
    }
}
