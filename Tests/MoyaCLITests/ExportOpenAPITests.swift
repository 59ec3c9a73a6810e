import MoyaCLI
import MoyaCore
import MoyaJSON
import TestSupport
import XCTest

/// `moya-cli export openapi`: the document passes OpenAPIKit's validation (the command
/// refuses one that does not), and import, export, import gives the spec back byte for byte.
final class ExportOpenAPITests: XCTestCase {
    var fixtures: String { CommandTests.root + "/Tests/Fixtures/openapi" }

    func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "export-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// Findings 8 and 19: a secret's default is never written; a query API key is a security
    /// scheme; `${VAR}` in a path is a path param and in an environment's URL a server
    /// variable, each with its default; no environment value is written.
    func testSecretsAndVariablesExportAsTheyAreDeclared() async throws {
        let spec = fixtures + "/keys.spec.yaml"
        let golden = fixtures + "/keys.openapi.json"
        let (status, out, error) = try CommandTests.runProcess(
            ["export", "openapi", "keys", "--specs", spec],
            environment: ["KEYS_API_KEY": "EnvKeyValue77", "API_VERSION": "EnvVersion88", "STAGING_HOST": "EnvHost66"])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(
            out, try String(contentsOfFile: golden, encoding: .utf8),
            "regenerate with: moya-cli export openapi keys --specs \(spec) -o \(golden)")
        for value in ["ExportSecretDefault99", "EnvKeyValue77", "EnvVersion88", "EnvHost66"] {
            XCTAssertFalse(out.contains(value), value)
        }
        // And it imports again: the query key joins the query-string task.
        let (again, spec2, againError) = await CommandTests.run(["import", "openapi", golden])
        XCTAssertEqual(again, 0, againError)
        XCTAssertTrue(
            spec2.contains(#"parameters: { token: "{token}", region: "{region}", k: "${KEYS_API_KEY:-}" }"#), spec2)
    }

    /// A schema that refers to itself through pointers written in place (not components)
    /// ends in a component once the chain is deep, rather than recursing without end.
    /// A target whose method OpenAPI 3.1 has no operation for (QUERY, CONNECT, WebDAV's COPY)
    /// is left out and named; the rest is the document.
    func testATargetWithNoOpenAPIOperationIsLeftOutAndNamed() async throws {
        let folder = try temporaryDirectory()
        try """
        service: dav
        baseURL: https://dav.example
        targets:
          list: { path: /files }
          search: { path: /files, method: QUERY }
          copy: { path: /files/a, method: COPY }

        """.write(toFile: folder + "/dav.yaml", atomically: true, encoding: .utf8)
        let (status, out, error) = await CommandTests.run(["export", "openapi", "dav", "--specs", folder + "/dav.yaml"])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(
            error,
            "moya-cli: note: search: OpenAPI 3.1 has no QUERY operation; the target is left out\n"
                + "moya-cli: note: copy: OpenAPI 3.1 has no COPY operation; the target is left out\n")
        XCTAssertTrue(out.contains("\"operationId\" : \"list\""), out)
        XCTAssertFalse(out.contains("\"search\"") || out.contains("\"copy\""), out)
    }

    func testASelfReferringPointerEndsInAComponent() async throws {
        let specs = CommandTests.root + "/Tests/Fixtures/export-cycle"
        let (status, out, error) = await CommandTests.run(["export", "openapi", "cycle", "--specs", specs])
        XCTAssertEqual(status, 0, error)
        let document = try JSONValue(parsing: Data(out.utf8))
        guard case .object(let components)? = document.value(atPath: ["components", "schemas"]) else {
            return XCTFail(out)
        }
        XCTAssertEqual(components.map(\.key), ["next"])
        XCTAssertEqual(
            document.value(atPath: [
                "paths", "/", "get", "responses", "200", "content", "application/json", "schema", "properties", "next",
                "$ref",
            ]), .string("#/components/schemas/next"))
    }

    func testRoundTripsOfTheImportFixtures() async throws {
        try await assertRoundTrip(fixtures + "/shop-3.0.yaml")
        try await assertRoundTrip(fixtures + "/forms-3.1.json")
        try await assertRoundTrip(fixtures + "/styles-3.0.yaml")
        try await assertRoundTrip(fixtures + "/lenient-3.1.yaml")
        try await assertRoundTrip(fixtures + "/roundtrip-3.0.yaml")
    }

    /// A spec with streams exports OpenAPI 3.2, each stream's media type with its per-event
    /// `itemSchema`, and imports back to the same spec; the 3.2 example round-trips too.
    func testStreamsExportOpenAPI32AndRoundTrip() async throws {
        try await assertRoundTrip(fixtures + "/streams-3.2.yaml")
        let directory = NSTemporaryDirectory() + "streams-32-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let imported = await CommandTests.run([
            "import", "openapi", fixtures + "/streams-3.2.yaml", "-o", directory + "/llm.yaml",
        ])
        XCTAssertEqual(imported.0, 0, imported.2)
        let (status, out, error) = await CommandTests.run(["export", "openapi", "llm", "--specs", directory])
        XCTAssertEqual(status, 0, error)
        let document = try JSONValue(parsing: out)
        XCTAssertEqual(document["openapi"], .string("3.2.0"))
        XCTAssertEqual(
            document["paths"]?["/logs"]?["get"]?["responses"]?["200"]?["content"]?.serialized(escapeSlashes: false),
            #"{"application/x-ndjson":{"itemSchema":{"type":"object","properties":{"level":{"type":"string"}}}}}"#)
        XCTAssertEqual(
            document["paths"]?["/chat"]?["post"]?["responses"]?["200"]?["content"]?.serialized(escapeSlashes: false),
            #"{"text/event-stream":{}}"#)
        let examples = try Repository.shared("collections", variable: "MOYA_COLLECTIONS") + "/openapi-3.2/examples"
        try await assertRoundTrip(examples + "/3.2-tags-example.yaml")
    }

    func testRoundTripsOfTheOpenAPIInitiativeExamples() async throws {
        let examples = try ImportOpenAPITests.requireExamples()
        for name in try FileManager.default.contentsOfDirectory(atPath: examples).sorted() where name.hasSuffix(".yaml")
        {
            try await assertRoundTrip(examples + "/" + name)
        }
    }

    func testTheBundledSpecsExportValidDocuments() async throws {
        for service in ["github", "httpbin", "myservice", "translator"] {
            let (status, out, error) = await CommandTests.run([
                "export", "openapi", service, "--specs", CommandTests.root + "/specs",
            ])
            XCTAssertEqual(status, 0, "\(service): \(error)")
            XCTAssertTrue(out.hasPrefix("{\n  \"openapi\" : \"3.1.0\""), out)
            // No value from the environment is written, not even a default token.
            XCTAssertFalse(out.contains("demo-token"), service)
        }
        let (status, out, _) = await CommandTests.run([
            "export", "openapi", "myservice", "--specs", CommandTests.root + "/specs",
        ])
        XCTAssertEqual(status, 0)
        XCTAssertTrue(out.contains(#""operationId" : "showUser""#), out)
        XCTAssertTrue(out.contains(#""404" : {"#), out)
    }
}
