import Foundation
import MoyaCLI
import MoyaCore
import TestSupport
import XCTest

/// What the imported variants spec sends, to a real server on 127.0.0.1: an array in a path,
/// a target with its own base URL, repeated multipart parts, and a file upload.
final class VariantCallTests: XCTestCase {
    var server: TestServer!
    let spec = CommandTests.root + "/Tests/Fixtures/openapi/variants-3.0.spec.yaml"

    override func setUpWithError() throws {
        server = try TestServer()
    }

    override func tearDown() {
        server.stop()
    }

    /// Runs `call` with the service's base URL at the echo server and the upload server's
    /// nowhere, or the other way round with `upload`.
    func call(_ arguments: [String], upload: Bool = false) async throws -> (Int32, [String: Any], String) {
        let capture = CommandTests.Capture()
        let echo = server.baseURL + "/echo"
        let environment = [
            "VARIANTS_URL": upload ? "http://127.0.0.1:1" : echo,
            "VARIANTS_UPLOAD_URL": upload ? echo : "http://127.0.0.1:1",
        ]
        let context = CommandContext(
            environment: Environment(environment), writeOut: { capture.appendOut($0) },
            writeError: { capture.appendError($0) })
        let status = await MoyaCLI.run(["call"] + arguments + ["--specs", spec], context: context)
        let json = (try? JSONSerialization.jsonObject(with: capture.outBytes) as? [String: Any]) ?? [:]
        return (status, json, capture.error)
    }

    func testArraysInPathsAreSimpleStyle() async throws {
        let (status, echo, error) = try await call(["variants.getItems", "--ids", "1", "--ids", "2"])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(echo["uri"] as? String, "/echo/items/1,2")
        let (_, labels, _) = try await call(["variants.getLabels", "--ids", "a/b", "--ids", "c"])
        XCTAssertEqual(labels["uri"] as? String, "/echo/labels/.a%2Fb,c", "each item encoded; the comma literal")
    }

    /// The upload goes to the operation's own server; an array part repeats, one per item.
    func testATargetWithItsOwnServerSendsThere() async throws {
        let file = NSTemporaryDirectory() + "variants-\(UUID().uuidString).txt"
        try "file body".write(toFile: file, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: file) }
        let (status, echo, error) = try await call(
            ["variants.upload", "--file", file, "--tags", "x", "--tags", "y"], upload: true)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(echo["uri"] as? String, "/echo/files")
        let body = try XCTUnwrap(echo["body"] as? String)
        XCTAssertEqual(body.components(separatedBy: "name=\"tags\"").count, 3, body)
        XCTAssertTrue(body.contains("{\"name\":\"a.txt\",\"parent\":\"0\"}"), body)
        XCTAssertTrue(body.contains("file body"), body)
        // The service's own targets still go to the service's base URL.
        let (refused, _, failure) = try await call(["variants.getItems", "--ids", "1"], upload: true)
        XCTAssertEqual(refused, 1, failure)
    }

    func testABinaryBodyIsAFileUpload() async throws {
        let file = NSTemporaryDirectory() + "variants-\(UUID().uuidString).png"
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: file))
        addTeardownBlock { try? FileManager.default.removeItem(atPath: file) }
        let (status, echo, error) = try await call(["variants.putAvatar", "--file", file])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(echo["method"] as? String, "PUT")
        let headers = (echo["headers"] as? [[String]]) ?? []
        XCTAssertEqual(headers.first { $0[0].lowercased() == "content-type" }?[1], "image/png")
        XCTAssertEqual(headers.first { $0[0].lowercased() == "content-length" }?[1], "4")
    }
}

/// A param's rules, from the document's schema: `call` refuses a value that breaks one before
/// anything is sent (exit 64, the param and the rule named; a secret's value never shown),
/// and `--no-validate-args` sends it anyway.
extension VariantCallTests {
    func testArgumentsAreHeldToTheirRules() async throws {
        let rows: [(arguments: [String], message: String)] = [
            (["--page", "0"], "param 'page': expected >= 1, got 0"),
            (["--term", "AB"], #"param 'term': expected to match /^[a-z]+$/, got "AB""#),
            (["--sizes", "1", "--sizes", "0"], "param 'sizes': item 1: expected > 0, got 0"),
            (
                ["--sizes", "1", "--sizes", "2", "--sizes", "3", "--sizes", "4"],
                "param 'sizes': expected at most 3 items, got 4"
            ),
        ]
        for row in rows {
            let (status, _, error) = try await call(["variants.search"] + row.arguments)
            XCTAssertEqual(status, 64, error)
            XCTAssertEqual(error, "moya-cli: error: \(row.message); --no-validate-args sends it anyway\n")
        }
        // The format is asserted too.
        let (format, _, formatError) = try await call(["variants.search", "--term", "ab"])
        XCTAssertEqual(format, 64)
        XCTAssertEqual(
            formatError,
            #"moya-cli: error: param 'term': expected an email, got "ab"; --no-validate-args sends it anyway"#
                + "\n")
        let (status, echo, error) = try await call(["variants.search", "--page", "0", "--no-validate-args"])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(echo["uri"] as? String, "/echo/search?page=0")
        let (valid, within, validError) = try await call(["variants.search", "--page", "50", "--sizes", "0.5"])
        XCTAssertEqual(valid, 0, validError)
        XCTAssertEqual(within["uri"] as? String, "/echo/search?page=50&sizes=0.5")
    }
}
