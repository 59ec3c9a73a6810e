import MoyaCompiler
import MoyaCore
import MoyaOpenAPI
import MoyaSpec
import XCTest

/// The importer and exporter in-process: they are pure functions from a document to a spec's
/// text and from a compiled service to a document, so no executable is needed.
final class ImportExportTests: XCTestCase {
    /// A document of one operation with a schema `$ref`, which OpenAPIToolTests imports too.
    static let document = """
        openapi: 3.0.3
        info: { title: Pets, version: "1" }
        servers: [{ url: "https://pets.example.com/v1" }]
        paths:
          /pets/{petId}:
            get:
              operationId: showPet
              parameters:
                - { name: petId, in: path, required: true, schema: { type: integer } }
                - { name: verbose, in: query, schema: { type: boolean } }
              responses:
                "200":
                  description: a pet
                  content:
                    application/json:
                      schema: { $ref: "#/components/schemas/Pet" }
                      example: { id: 7, name: Rex }
        components:
          schemas:
            Pet:
              type: object
              required: [id, name]
              properties: { id: { type: integer }, name: { type: string, pattern: "^[A-Z]" } }
        """

    /// The document and the imported spec, side by side in a scratch folder, where the spec's
    /// schema `$ref`s find the document.
    func imported() throws -> (OpenAPIImport, ServiceSpec) {
        let folder = NSTemporaryDirectory() + "moya-openapi-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        try Self.document.write(toFile: folder + "/pets.yaml", atomically: true, encoding: .utf8)
        let imported = try OpenAPIImporter.importSpec(
            Array(Self.document.utf8), file: folder + "/pets.yaml", spec: folder + "/pets.moya.yaml")
        let service = try SpecCompiler(environment: Environment([:])).compile(
            Array(imported.spec.utf8), file: folder + "/pets.moya.yaml")
        return (imported, service)
    }

    func testAnOperationBecomesATargetThatCompiles() throws {
        let (imported, service) = try imported()
        XCTAssertEqual(imported.service, "pets")
        XCTAssertEqual(imported.warnings, [])
        XCTAssertTrue(imported.spec.contains(#"baseURL: "${PETS_URL:-https://pets.example.com/v1}""#), imported.spec)
        XCTAssertTrue(imported.spec.contains(#"path: "/pets/{petId}""#), imported.spec)
        XCTAssertTrue(imported.spec.contains("schema: { $ref: \"pets.yaml#/components/schemas/Pet\" }"), imported.spec)
        let target = try XCTUnwrap(service.targets.first)
        XCTAssertEqual(target.name, "showPet")
        XCTAssertEqual(target.params.map(\.name).sorted(), ["petId", "verbose"])
        XCTAssertEqual(target.params.first { $0.name == "petId" }?.isRequired, true)
    }

    func testAnImportedServiceExportsAsAValidDocument() throws {
        let (_, service) = try imported()
        let exported = try OpenAPIExporter.export(service)
        let json = try JSONValue(parsing: exported)
        XCTAssertEqual(json["openapi"]?.text.hasPrefix("3."), true, exported)
        XCTAssertNotNil(json.value(atPath: ["paths", "/pets/{petId}", "get"]), exported)
        XCTAssertEqual(
            json.value(atPath: ["paths", "/pets/{petId}", "get", "operationId"]), .string("showPet"), exported)
    }

    func testADocumentThatIsNotOpenAPIIsRefusedWithAReason() {
        XCTAssertThrowsError(try OpenAPIImporter.importSpec(Array("just: yaml\n".utf8), file: "x.yaml")) { error in
            XCTAssertFalse("\(error)".isEmpty)
        }
        XCTAssertThrowsError(try OpenAPIImporter.importSpec(Array("{".utf8), file: "x.json"))
    }
}
