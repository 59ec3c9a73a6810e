import MoyaCLI
import MoyaCore
import TestSupport
import XCTest

/// What real API descriptions bring: one bad spot costs only itself, JSON is read as JSON,
/// and every document of the real corpus imports, validates and passes its stubbed checks.
extension ImportOpenAPITests {
    /// Public APIs' descriptions, from the shared copy beside the repository, or from
    /// `$OPENAPI_REAL`.
    static func requireRealCorpus() throws -> String {
        try Repository.shared("openapi-real", variable: "OPENAPI_REAL")
    }

    /// Each kind of spot that used to refuse the whole document is repaired, or left out,
    /// with one warning naming its JSON pointer, in document order: enum values of another
    /// type, an integer bound past `Int`, 3.0's boolean `exclusiveMinimum` in 3.1, a response
    /// `$ref` into `requestBodies`, a URL `$ref`, an operation OpenAPIKit refuses. A recursive
    /// schema's sample stops at the cycle; a `$ref` deeper than a component and one into
    /// another file (which has a `$ref` of its own) resolve.
    func testOneBadSpotCostsOnlyItself() async throws {
        let document = fixtures + "/lenient-3.1.yaml"
        let at = "moya-cli: warning: \(document)#/paths"
        try await assertImport(
            document, golden: fixtures + "/lenient-3.1.spec.yaml",
            warnings: [
                "\(at)/~1search/get/parameters/0/schema/enum: enum values true, false are not of type string; read as strings",
                "\(at)/~1search/get/parameters/1/schema/maximum: maximum 9.223372036854776e+18 is out of range for an integer; left out",
                "\(at)/~1search/get/parameters/1/schema/exclusiveMinimum: exclusiveMinimum: true is OpenAPI 3.0's; read as exclusiveMinimum: 1",
                "\(at)/~1search/get/responses/400/$ref: '#/components/requestBodies/Problem' is a requestBodies component where one of responses belongs; read as one",
                "\(at)/~1pets/get/responses/404/$ref: 'https://example.com/common.yaml#/NotFound' is a URL, which import does not fetch; read as a response with no content",
                "\(at)/~1broken/get/parameters/0: Found neither a $ref nor a Parameter in .parameters[0] for the GET endpoint under '/broken'; the operation is left out",
                // The last line counts what the import left out.
                "moya-cli: warning: 1 of 7 operations are left out; the warnings above say why",
            ])
        // An operation that only redirects answers with its redirect and `Location`; a `*/*`
        // response is answered with a concrete type.
        let spec = fixtures + "/lenient-3.1.spec.yaml"
        let rows: [(target: String, out: String)] = [
            ("lenient.moved", "HTTP/1.1 307 Temporary Redirect\nLocation: /new\n\n"),
            ("lenient.anything", "HTTP/1.1 200 OK\nContent-Type: application/json\n\n{\"ok\":true}"),
        ]
        for row in rows {
            let (status, out, error) = await CommandTests.run([
                "call", row.target, "--specs", spec, "--stub", "immediate", "-i",
            ])
            XCTAssertEqual(status, 0, error)
            XCTAssertEqual(out, row.out, row.target)
        }
    }

    /// A JSON document is read by the JSON parser: a surrogate pair is one character, C1,
    /// DEL and NEL survive raw or escaped, and the spec and the stubbed body write each
    /// escaped, with `{` and `${` kept as text. A JSON syntax error names its line and column.
    func testJSONIsReadAsJSON() async throws {
        let document = fixtures + "/escapes-3.0.json"
        try await assertImport(document, golden: fixtures + "/escapes-3.0.spec.yaml", warnings: [])
        let (stubbed, out, _) = await CommandTests.run([
            "call", "escapes.say", "--specs", fixtures + "/escapes-3.0.spec.yaml", "--stub", "immediate",
        ])
        XCTAssertEqual(stubbed, 0)
        XCTAssertEqual(
            out,
            #"{"brace":"{id} ${HOME}","c1":"a\u009fb","del":"a\u007fb","nel":"a\u0085b","raw":"a\u009fb","thumb":"👍"}"#)

        let directory = try temporaryDirectory()
        let bad = directory + "/bad.json"
        try "{\"openapi\": \"3.0.3\",\n  \"info\": {\"title\": \"x\" \"version\": \"1\"}}\n".write(
            toFile: bad, atomically: true, encoding: .utf8)
        let (status, written, error) = await CommandTests.run(["import", "openapi", bad])
        XCTAssertEqual(status, 65)
        XCTAssertEqual(written, "")
        XCTAssertEqual(error, "moya-cli: error: \(bad): 2:25: expected ',' or '}'\n")
    }

    /// What export must write back for the real corpus to round-trip: a `500`, a `5XX` and a
    /// `default` response at the same status; a path param import renamed beside a query
    /// param of its name; a scheme name that camel case would change (`oauth_2_0`);
    /// multipart fields' descriptions. Long descriptions are folded, and read back whole.
    func testWhatTheCorpusRoundTripsThrough() async throws {
        let document = fixtures + "/roundtrip-3.0.yaml"
        try await assertImport(
            document, golden: fixtures + "/roundtrip-3.0.spec.yaml",
            warnings: [
                "moya-cli: warning: \(document)#/components/securitySchemes/oauth_2_0: OAuth flows have no place in a spec; the token is read from ROUND_TRIP_OAUTH_2_0_TOKEN as a bearer token"
            ])
        let (status, out, error) = await CommandTests.run([
            "describe", "roundTrip.getList", "--specs", fixtures + "/roundtrip-3.0.spec.yaml",
        ])
        XCTAssertEqual(status, 0, error)
        XCTAssertTrue(
            out.contains(
                "Returns one list with all of its members, its owner, the time it was made and the time it was last changed, as the API keeps them."
            ), out)
    }

    /// Every document of the real corpus imports (exit 0), and its spec validates, passes
    /// `check --stub immediate` with at most 5 % of its operations skipped, and round-trips
    /// through `export openapi`.
    func testTheRealCorpusImports() async throws {
        let corpus = try Self.requireRealCorpus()
        let names = try FileManager.default.contentsOfDirectory(atPath: corpus)
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }.sorted()
        XCTAssertEqual(names.count, 10)
        for name in names {
            try await assertImportsAndChecks(corpus + "/" + name)
            try await assertServedChecksPass(corpus + "/" + name)
        }
    }

    /// A document imports (exit 0, no error), its spec validates, passes `check --stub
    /// immediate` with at most 5 % of its checks skipped, and round-trips through export.
    func assertImportsAndChecks(_ document: String) async throws {
        let name = (document as NSString).lastPathComponent
        let directory = try temporaryDirectory()
        let written = directory + "/spec.yaml"
        let (status, _, error) = await CommandTests.run(["import", "openapi", document, "-o", written])
        XCTAssertEqual(status, 0, "\(name): \(error.suffix(2_000))")
        guard status == 0 else { return }
        XCTAssertFalse(error.contains(": error:"), "\(name): \(error.suffix(2_000))")
        let (valid, _, validError) = await CommandTests.run(["validate", written])
        XCTAssertEqual(valid, 0, "\(name): \(validError.suffix(2_000))")
        let (checked, checkOut, _) = await CommandTests.run(["check", written, "--stub", "immediate"])
        XCTAssertEqual(checked, 0, "\(name): \(checkOut.suffix(2_000))")
        // Each operation gets a check with example values for its required params: at most
        // 5 % are skipped for params no example could be made for.
        let summary = try XCTUnwrap(
            checkOut.firstMatch(of: /(\d+) checks: \d+ passed, 0 failed, (\d+) skipped/), "\(name): \(checkOut)")
        let (total, skipped) = (Int(summary.1) ?? 0, Int(summary.2) ?? 0)
        XCTAssertLessThanOrEqual(skipped * 20, total, "\(name): \(skipped) of \(total) checks skipped")
        try await assertRoundTrip(document, spec: written)
    }

    /// Against `serve` of the same import, every check passes with writes and deletes allowed:
    /// what import writes for a request is what `serve` takes, and what `serve` answers is
    /// what the checks expect. A target with a base URL of its own (an operation's `servers`,
    /// read from a variable of its own) is sent to `serve` too, under the same path. Every
    /// failure is listed.
    func assertServedChecksPass(_ document: String) async throws {
        let name = (document as NSString).lastPathComponent
        let spec = try temporaryDirectory() + "/spec.yaml"
        let (imported, _, importError) = await CommandTests.run(["import", "openapi", document, "-o", spec])
        XCTAssertEqual(imported, 0, "\(name): \(importError.suffix(2_000))")
        var text = try String(contentsOfFile: spec, encoding: .utf8)
        let served = try await ServeTests.Served([spec, "--no-auth"])
        var environment: [String: String] = [:]
        for match in text.matches(of: /\n *baseURL: "\$\{([A-Z0-9_]+):-[a-z]+:\/\/[^\/"]*([^"]*)\}"/) {
            environment[String(match.1)] = served.url + match.2
        }
        XCTAssertFalse(environment.isEmpty, "\(name): no baseURL read from a variable")
        // A host the document makes a server variable (`https://{upload-server}/api`) keeps its
        // scheme: in a copy beside the spec (where its `$ref`s resolve), serve's address.
        text = text.replacing(/baseURL: "https?:\/\/\$\{[A-Z0-9_]+:-[^}"]*\}/) { _ in "baseURL: \"" + served.url }
        let sent = (spec as NSString).deletingLastPathComponent + "/sent.yaml"
        try text.write(toFile: sent, atomically: true, encoding: .utf8)
        let (status, out, error) = await CommandTests.run(
            ["check", sent, "--allow-writes", "--allow-deletes"], environment: environment)
        let stopped = await served.stop()
        try FileManager.default.removeItem(atPath: sent)
        let lines = out.split(separator: "\n")
        let failures = lines.indices.filter { lines[$0].hasPrefix("FAIL") }.map { lines[$0...].prefix(2) }
        XCTAssertEqual(
            status, 0,
            "\(name) against serve: \(failures.map { $0.joined(separator: "\n") }.joined(separator: "\n")) "
                + error.suffix(500))
        XCTAssertEqual(stopped.status, 0, name)
    }
}
