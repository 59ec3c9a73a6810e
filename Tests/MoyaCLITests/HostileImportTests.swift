import MoyaCLI
import MoyaCore
import MoyaRuntime
import MoyaSpec
import XCTest

/// `import openapi` on documents written to attack whoever imports them: text that reads the
/// environment, ends a line of the spec, drives the terminal, or nests without end.
final class HostileImportTests: XCTestCase {
    var fixtures: String { CommandTests.root + "/Tests/Fixtures/openapi" }
    var document: String { fixtures + "/hostile-3.0.yaml" }
    var golden: String { fixtures + "/hostile-3.0.spec.yaml" }
    let service = "hostileHeadersX"
    /// The variables the document names, each set to a value that must never be printed.
    static let secrets = [
        "GITHUB_TOKEN": "ghp_leakedAAAA1", "AWS_SECRET_ACCESS_KEY": "aws_leakedBBBB2",
        "NPM_TOKEN": "npm_leakedCCCC3", "HOME": "/home/leakedDDDD4",
    ]

    func assertNoSecret(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        for (name, value) in Self.secrets where text.contains(value) {
            XCTFail("\(name)'s value is printed:\n\(text)", file: file, line: line)
        }
    }

    /// The whole spec is the golden file: every document string escaped, `${` as `$${`, the
    /// title's line breaks inside the comment's quotes, the media type with CR LF left out.
    func testTheSpecIsTheGoldenFile() async throws {
        let (status, out, error) = await CommandTests.run(
            ["import", "openapi", document], environment: Self.secrets, in: fixtures)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(
            out, try String(contentsOfFile: golden, encoding: .utf8),
            "regenerate with: moya-cli import openapi \(document) -o \(golden)")
        // One comment line, then the service: nothing the title held became a key.
        let lines = out.split(separator: "\n")
        XCTAssertTrue(lines[0].hasPrefix("# Imported from hostile-3.0.yaml"))
        XCTAssertEqual(lines[1], "service: \(service)")
        XCTAssertFalse(lines.contains { $0.hasPrefix("headers:") || $0.hasPrefix("stub:") }, out)
        XCTAssertFalse(out.contains("X-Injected"), out)
        assertNoSecret(out + error)
    }

    /// Finding 1: what a document wrote as `${VAR}` is sent and printed as that text, with
    /// the variables set.
    func testDocumentTextNeverReadsTheEnvironment() async {
        let specs = ["--specs", golden]
        let dryRun = await CommandTests.run(
            ["call", "\(service).listItems", "--dry-run"] + specs, environment: Self.secrets)
        XCTAssertEqual(dryRun.0, 0, dryRun.2)
        XCTAssertEqual(
            dryRun.1,
            """
            GET https://eu%24%7BGITHUB_TOKEN%7D.example.com/v1/items?q=%24%7BGITHUB_TOKEN%7D
            User-Agent: moya-cli/\(Version.current)
            Accept: */*

            """)
        let body = await CommandTests.run(
            ["call", "\(service).addItem", "--dry-run"] + specs, environment: Self.secrets)
        XCTAssertTrue(body.1.hasSuffix("\n{\"name\":\"${NPM_TOKEN}\"}\n"), body.1)
        let stubbed = await CommandTests.run(
            ["call", "\(service).listItems", "--stub", "immediate"] + specs, environment: Self.secrets)
        XCTAssertEqual(
            stubbed.1,
            #"{"note":"line\nbreak\u0085nel","token":"${GITHUB_TOKEN}"}"#)
        let listed = await CommandTests.run(["list"] + specs, environment: Self.secrets)
        let described = await CommandTests.run(["describe", "\(service).listItems"] + specs, environment: Self.secrets)
        let checked = await CommandTests.run(["check", golden, "--stub", "immediate"], environment: Self.secrets)
        XCTAssertEqual(checked.0, 0, checked.1)
        for outcome in [dryRun, body, stubbed, listed, described, checked] {
            assertNoSecret(outcome.1 + outcome.2)
            XCTAssertFalse((outcome.1 + outcome.2).contains("\u{1B}"), outcome.1)
        }
    }

    /// Finding 4: warnings quote document text with its controls escaped: no ESC, no raw CR
    /// or LF inside a line, no bidirectional override.
    func testWarningsEscapeTheDocumentsControls() throws {
        let (_, _, error) = try CommandTests.runProcess(["import", "openapi", document], environment: Self.secrets)
        XCTAssertEqual(
            error.split(separator: "\n").map(String.init),
            [
                "moya-cli: warning: \(document)#/paths/~1items/get/parameters/2: cookie param 'session\\u{1b}[31m\\r\\nSet-Cookie: x' has a name a cookie cannot have; left out",
                "moya-cli: warning: \(document)#/paths/~1items/get/responses/200/content/text~1plain\\r\\nX-Injected: 1: a media type with a control character is not a valid header; left out",
            ])
        for scalar in error.unicodeScalars where scalar != "\n" {
            XCTAssertFalse(TerminalText.isControl(scalar), "U+\(String(scalar.value, radix: 16)) in \(error)")
        }
    }

    /// The openapi fuzz target's finding: a path template that no parameter declares made a
    /// spec that did not compile ("a bug in import openapi"); it is a string param now.
    func testAPathTemplateNoParameterDeclaresIsAStringParam() async throws {
        let document = fixtures + "/undeclared-path-param.json"
        let (status, out, error) = await CommandTests.run(["import", "openapi", document])
        XCTAssertEqual(status, 0, error)
        XCTAssertTrue(
            error.contains(
                "#/paths/~11v1~1{apiVersion}~1search/get: the path names {apiVersion}, which no path parameter declares; it is a string param\n"
            ), error)
        XCTAssertTrue(out.contains("      apiVersion: { type: string }\n"), out)
        XCTAssertTrue(out.contains(#"    path: "/1v1/{apiVersion}/search""#), out)
    }

    /// Finding 13: a schema 250 levels deep (a minute in OpenAPIKit before) is refused before it
    /// is decoded, at once.
    func testADeepDocumentIsRefusedBeforeDecoding() async throws {
        var schema = #"{"type":"string"}"#
        for _ in 0..<250 { schema = #"{"type":"object","properties":{"a":"# + schema + "}}" }
        let text =
            #"{"openapi":"3.1.0","info":{"title":"deep","version":"1"},"paths":{"/x":{"get":{"responses":"#
            + #"{"200":{"description":"ok","content":{"application/json":{"schema":"# + schema + "}}}}}}}}"
        let file = NSTemporaryDirectory() + "deep-\(getpid()).json"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let start = Date()
        let (status, out, error) = await CommandTests.run(["import", "openapi", file])
        XCTAssertLessThan(Date().timeIntervalSince(start), 30, "a deep document took minutes before")
        XCTAssertEqual(status, 65)
        XCTAssertEqual(out, "")
        let pointer =
            "/paths/~1x/get/responses/200/content/application~1json/schema"
            + String(repeating: "/properties/a", count: 28) + "/properties"
        XCTAssertEqual(
            error,
            "moya-cli: error: \(file): the document nests deeper than 64 levels at \(pointer); import reads documents up to that depth\n"
        )
    }

    /// Round three, findings 10 and 24: a chain of 10,000 component `$ref`s (a stack overflow
    /// in OpenAPIKit's lookup) is cut at 64 with one warning; a `LINK` operation, which no spec
    /// method holds, is left out with a warning, not a crash of import; `1e999` and an integer
    /// past 64 bits are left out with a warning each, not written as `inf` or clamped.
    func testChainsMethodsAndNumbersNoSpecHolds() async throws {
        let folder = NSTemporaryDirectory() + "hostile-import-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var schemas = (0..<10_000).map { "\"S\($0)\":{\"$ref\":\"#/components/schemas/S\($0 + 1)\"}" }
        schemas.append(#""S10000":{"type":"string"}"#)
        let chain =
            #"{"openapi":"3.0.3","info":{"title":"chain","version":"1"},"paths":{"/a":{"get":{"#
            + #""operationId":"a","responses":{"200":{"description":"ok","content":{"application/json":"#
            + ##"{"schema":{"$ref":"#/components/schemas/S0"}}}}}}}},"components":{"schemas":{"##
            + schemas.joined(separator: ",") + "}}}"
        try chain.write(toFile: folder + "/chain.json", atomically: true, encoding: .utf8)
        let (status, out, error) = await CommandTests.run(["import", "openapi", "chain.json"], in: folder)
        XCTAssertEqual(status, 0, error)
        XCTAssertTrue(out.contains("targets:\n  a:\n"), out)
        XCTAssertTrue(
            error.contains(
                "chain.json#/components/schemas: 153 $refs make a chain of schemas longer than 64; cut there, "
                    + "where samples and params stop"), error)

        // Trust round four, finding 18: each $ref points into the next component, 10,000 long.
        var into = (0..<9_999).map {
            "\"s\($0)\":{\"type\":\"object\",\"properties\":{\"x\":{\"$ref\":\"#/components/schemas/s\($0 + 1)/properties/x\"}}}"
        }
        into.append(#""s9999":{"type":"object","properties":{"x":{"type":"string"}}}"#)
        try chain.replacing(schemas.joined(separator: ","), with: into.joined(separator: ",")).replacing(
            "#/components/schemas/S0", with: "#/components/schemas/s0"
        ).write(toFile: folder + "/into.json", atomically: true, encoding: .utf8)
        let (intoStatus, intoOut, intoError) = await CommandTests.run(
            ["import", "openapi", "into.json"], in: folder)
        XCTAssertEqual(intoStatus, 0, String(intoError.prefix(2000)))
        XCTAssertTrue(intoOut.contains("targets:\n  a:\n"), intoOut)
        XCTAssertTrue(
            intoError.hasPrefix(
                "moya-cli: warning: into.json#/components/schemas/s64/properties/x/$ref: "
                    + "'#/components/schemas/s65/properties/x' is past a chain of 64 $refs into other components; "
                    + "cut there, read as a schema that takes any value\n"), String(intoError.prefix(2000)))

        // Found by the openapi-refs fuzz target: 24 schemas that each name the next twice
        // would be 2^24 copies once dereferenced; cut where a schema passes 20,000.
        let twice = (0..<24).map { index in
            let next = "#/components/schemas/t\((index + 1) % 24)"
            return "\"t\(index)\":{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"array\",\"items\":"
                + "{\"$ref\":\"\(next)\"}},\"y\":{\"$ref\":\"\(next)\"}}}"
        }
        try chain.replacing(schemas.joined(separator: ","), with: twice.joined(separator: ",")).replacing(
            "#/components/schemas/S0", with: "#/components/schemas/t0"
        ).write(toFile: folder + "/twice.json", atomically: true, encoding: .utf8)
        let (twiceStatus, twiceOut, twiceError) = await CommandTests.run(
            ["import", "openapi", "twice.json"], in: folder)
        XCTAssertEqual(twiceStatus, 0, twiceError)
        XCTAssertTrue(twiceOut.contains("targets:\n  a:\n"), twiceOut)
        XCTAssertTrue(
            twiceError.hasPrefix(
                "moya-cli: warning: twice.json#/components/schemas: 1 $ref makes a schema that names others more "
                    + "than 20000 times over, counting each $ref where it stands; cut there, where samples and "
                    + "params stop\n"), twiceError)

        let odd =
            #"{"openapi":"3.2.0","info":{"title":"odd","version":"1"},"paths":{"/a":{"#
            + #""additionalOperations":{"FROB":{"operationId":"frobA","responses":{"200":{"description":"ok"}}}},"#
            + #""get":{"operationId":"getA","parameters":[{"name":"big","in":"query","schema":{"type":"number","#
            + #""default":1e999}},{"name":"huge","in":"query","schema":{"type":"integer","#
            + #""default":-9223372036854775809}}],"responses":{"200":{"description":"ok"}}}}}}"#
        try odd.write(toFile: folder + "/odd.json", atomically: true, encoding: .utf8)
        let (oddStatus, oddOut, oddError) = await CommandTests.run(["import", "openapi", "odd.json"], in: folder)
        XCTAssertEqual(oddStatus, 0, oddError)
        XCTAssertTrue(oddOut.contains("  getA:\n"), oddOut)
        XCTAssertFalse(
            oddOut.contains("frobA") || oddOut.contains("inf") || oddOut.contains("9223372036854775808"), oddOut)
        let oddWarnings: [String] = oddError.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            oddWarnings,
            [
                "moya-cli: warning: odd.json#/paths/~1a/get/parameters/0/schema/default: a number past what a spec "
                    + "holds (infinite, or an integer past 64 bits); left out (and 1 more like it; --verbose lists "
                    + "every one)",
                "moya-cli: warning: odd.json#/servers: no servers; the base URL is http://127.0.0.1:4010, where "
                    + "moya-cli serve listens",
                "moya-cli: warning: odd.json#/paths/~1a/additionalOperations/FROB: the method FROB is not in IANA's "
                    + "HTTP Method Registry, which a spec's methods are; the operation is left out",
            ])
    }
}
