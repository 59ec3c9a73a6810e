import Foundation
import MoyaCLI
import TestSupport
import XCTest

/// The spots real documents broke import on, one of each, in documents of our own: each
/// costs only itself, every operation is a target, and the spec validates, passes its checks
/// and round-trips.
extension ImportOpenAPITests {
    func testRealWorldSpotsCostOnlyThemselves() async throws {
        let document = fixtures + "/variants-3.0.yaml"
        let at = "moya-cli: warning: \(document)#/paths"
        try await assertImport(
            document, golden: fixtures + "/variants-3.0.spec.yaml",
            warnings: [
                "\(at)/~1search/get/security/missing: no security scheme is named 'missing'; the requirement is left out",
                "\(at)/~1files/post/requestBody/content/multipart~1form-data/schema/properties/attributes: "
                    + "part 'attributes' holds JSON; it is sent as JSON text, its example the default",
                "\(at)/~1files/post/requestBody/content/multipart~1form-data/schema/properties/copies: "
                    + "part 'copies' is an array of files; it is sent as one file",
                "\(at)/~1charges/put/requestBody/content/application~1x-www-form-urlencoded/schema/properties/Meta: "
                    + "field 'Meta' holds JSON; it is sent as JSON text, its example the default",
                "\(at)/~1search/get/parameters/0/schema/default: the default \"20 - incident_summary\" is not a value "
                    + "of type int; left out",
                "\(at)/~1search/get/parameters/1/schema/default: the default \"c\" is not a value of type enum; left out",
                "\(at)/~1payments/post/responses/200/content/application~1json: the sample made from the schema breaks "
                    + "it ($: matches 2 of oneOf's 2 schemas; expected exactly one); it is left out, so the sample has "
                    + "no body",
            ])
        try await assertRoundTrip(document)
    }

    /// The shapes pages are known by become `paginate:`, each with a note saying why: a
    /// `Link` header, a next URL in the body (nested, and OData's), a cursor param the body
    /// gives back, a page number (given a default) and an offset stepped by the page size. A
    /// body that is not paged, and a POST, get none.
    func testPagedOperationsGetPaginate() async throws {
        let document = fixtures + "/paged-3.0.yaml"
        let at = "moya-cli: note: \(document)#/paths"
        try await assertImport(
            document, golden: fixtures + "/paged-3.0.spec.yaml",
            warnings: [
                "\(at)/~1repos/get: paginate: { next: link }, since its 200 response declares a Link header",
                "\(at)/~1users/get: paginate: { items: \"$.data\", next: { url: \"$.links.next\" } }, since its 200 "
                    + "response has a next URL at $.links.next",
                "\(at)/~1files/get: paginate: { items: \"$.value\", next: { url: \"$['@odata.nextLink']\" } }, since "
                    + "its 200 response has a next URL at $['@odata.nextLink']",
                "\(at)/~1events/get: paginate: { items: \"$.events\", next: { param: page_token, from: "
                    + "\"$.meta.nextPageToken\" } }, since the query param 'page_token' takes back the cursor at "
                    + "$.meta.nextPageToken",
                "\(at)/~1search/get: paginate: { items: \"$.results\", next: { param: page, increment: 1 } }, since "
                    + "the query param 'page' numbers the pages",
                "\(at)/~1logs/get: paginate: { next: { param: offset, increment: 50 } }, since the query param "
                    + "'offset' skips items, 50 a page as 'limit' says",
            ])
    }

    /// Swagger 2.0: a field OpenAPI does not define costs only itself, draft 4's tuple form
    /// of `items` keeps the definitions (and the `$ref` inside it resolves), and `x-nullable`
    /// lets the example's null through.
    func testSwaggerSpotsCostOnlyThemselves() async throws {
        let document = fixtures + "/flasgger-2.0.json"
        try await assertImport(
            document, golden: fixtures + "/flasgger-2.0.spec.yaml",
            warnings: [
                "moya-cli: warning: \(document)#/definitions/Message/properties/channel/items: a list of item schemas "
                    + "is draft 4's tuple form, which OpenAPI 3.0 does not have; read as items that match any of them",
                "moya-cli: warning: \(document)#/info/contact/responsibleOrganization: 'responsibleOrganization' is "
                    + "not a field OpenAPI defines, nor an x- extension; left out",
            ])
        try await assertRoundTrip(document)
    }

    /// `unevaluatedProperties: false` beside an `anyOf`, in a component: the example the
    /// branch that holds evaluates is kept, and validates.
    func testUnevaluatedPropertiesBesideAnyOfInAComponent() async throws {
        let document = fixtures + "/unevaluated-3.1.yaml"
        try await assertImport(document, golden: fixtures + "/unevaluated-3.1.spec.yaml", warnings: [])
    }

    /// The copy of a document beside the spec never takes the spec's own name (it is
    /// `api.openapi.yaml` beside `api.yaml`, still named after its source), and the spec never
    /// replaces the document.
    func testTheSpecNeverOverwritesADocument() async throws {
        let directory = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/out", withIntermediateDirectories: true)
        let document = directory + "/api.yaml"
        try FileManager.default.copyItem(atPath: fixtures + "/unevaluated-3.1.yaml", toPath: document)
        let (status, _, error) = await CommandTests.run([
            "import", "openapi", document, "-o", directory + "/out/api.yaml",
        ])
        XCTAssertEqual(status, 0, error)
        XCTAssertTrue(
            error.hasSuffix(
                "to \(directory)/out/api.openapi.yaml, beside the spec: a spec reads files only in its folder\n"),
            error)
        let spec = try String(contentsOfFile: directory + "/out/api.yaml", encoding: .utf8)
        XCTAssertTrue(spec.contains(#"$ref: "api.openapi.yaml#/components/schemas/Payment""#), spec)
        let (valid, _, validError) = await CommandTests.run(["validate", directory + "/out/api.yaml"])
        XCTAssertEqual(valid, 0, validError)

        let before = try Data(contentsOf: URL(fileURLWithPath: document))
        let (refused, _, refusal) = await CommandTests.run(["import", "openapi", document, "-o", document])
        XCTAssertEqual(refused, 64)
        XCTAssertEqual(
            refusal,
            "moya-cli: error: the spec would replace \(document), the document it is made from; write it to another file\n"
        )
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: document)), before)
    }
}
