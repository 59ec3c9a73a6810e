import MoyaCLI
import TestSupport
import XCTest

/// `import openapi` carries the document's schemas, and holds its examples to them.
extension ImportOpenAPITests {
    /// Each target's `schema:` and `requestSchema:`, and an error sample's own, are `$ref`s
    /// into the document beside the spec. An example that breaks its schema is left out with
    /// a warning naming the first violation: a named one gives way to the others, and where
    /// none is left (a 404's example, a schema's own example) the sample is made from the
    /// schema as written. The spec validates, and the schemas come back through export.
    func testExamplesThatBreakTheirSchemasAreLeftOut() async throws {
        let document = fixtures + "/drift-3.0.yaml"
        let pointer = "\(document)#/paths"
        try await assertImport(
            document, golden: fixtures + "/drift-3.0.spec.yaml",
            warnings: [
                "moya-cli: warning: \(pointer)/~1pets~1{id}/get/responses/200/content/application~1json/examples/stale: "
                    + "example 'stale' breaks its schema ($.id: expected integer, got string); it is left out",
                "moya-cli: warning: \(pointer)/~1pets~1{id}/get/responses/404/content/application~1json: "
                    + "the example breaks its schema ($.title: expected string, got integer); it is left out",
                "moya-cli: warning: \(pointer)/~1pets/post/responses/201/content/application~1json: "
                    + "the example breaks its schema ($: missing required property 'kind'); it is left out",
            ])
        try await assertRoundTrip(document)
    }

    /// The document can live in the specs folder beside the spec import wrote: a folder's
    /// YAML file with a top-level `openapi` key is not read as a spec, even one named like
    /// the service (`drift.yaml` for the service `drift`), and the spec's `$ref`s name it
    /// from there.
    func testTheDocumentLivesBesideItsSpec() async throws {
        let specs = try temporaryDirectory()
        try FileManager.default.copyItem(atPath: fixtures + "/drift-3.0.yaml", toPath: specs + "/drift.yaml")
        let (imported, _, importError) = await CommandTests.run([
            "import", "openapi", specs + "/drift.yaml", "-o", specs + "/drift.moya.yaml",
        ])
        XCTAssertEqual(imported, 0, importError)
        let spec = try String(contentsOfFile: specs + "/drift.moya.yaml", encoding: .utf8)
        XCTAssertTrue(spec.contains(#"schema: { $ref: "drift.yaml#/components/schemas/Pet" }"#), spec)

        let (valid, out, error) = await CommandTests.run(["validate", specs])
        XCTAssertEqual(valid, 0, error)
        XCTAssertEqual(out, "ok: 1 service, 2 targets\n")
        let (called, body, callError) = await CommandTests.run([
            "call", "drift.showPet", "--id", "1", "--stub", "immediate", "--specs", specs,
        ])
        XCTAssertEqual(called, 0, callError)
        XCTAssertEqual(body, #"{"id":1,"kind":"dog","name":"Rex"}"#)
    }
}
