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
}
