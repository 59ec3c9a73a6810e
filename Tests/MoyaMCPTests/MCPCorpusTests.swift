import Foundation
import MoyaCore
import MoyaMCP
import MoyaOpenAPI
import MoyaSchema
import MoyaSpec
import TestSupport
import XCTest

/// The shared corpus of real API descriptions (`../shared/openapi-real`) as MCP tools: each
/// imported, then catalogued as `moya-cli mcp` catalogues it. Every GET operation is a
/// read-only tool, every input schema is valid JSON Schema 2020-12 by the draft's metaschema
/// (MoyaSchema), and no name is over 64 characters. `.ci/run` checks the same over stdio
/// with the Python SDK's client and the `jsonschema` package (scripts/mcp-python-client.py).
final class MCPCorpusTests: XCTestCase {
    static let nameCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")

    func testEveryRealDocumentListsItsGETOperationsAsReadOnlyToolsWithValidSchemas() throws {
        let corpus = try Repository.shared("openapi-real", variable: "OPENAPI_REAL")
        let documents = try FileManager.default.contentsOfDirectory(atPath: corpus).filter {
            $0.hasSuffix(".yaml") || $0.hasSuffix(".json")
        }.sorted()
        XCTAssertEqual(documents.count, 10)
        let metaschema = try metaschemaRegistry()
        // The metaschema refuses what is not a schema, so that a pass below means something.
        if let metaschema { XCTAssertFalse(metaschema.errors(in: .object([("type", .integer(5))])).isEmpty) }
        let folder = NSTemporaryDirectory() + "moya-cli-mcp-corpus-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for document in documents {
            // A spec reads files in its own folder only: the document goes beside it.
            let path = folder + "/" + document
            try FileManager.default.copyItem(atPath: corpus + "/" + document, toPath: path)
            let spec = folder + "/" + document.split(separator: ".")[0] + ".moya.yaml"
            let bytes = try XCTUnwrap(FileManager.default.contents(atPath: path))
            let imported = try OpenAPIImporter.importSpec(Array(bytes), file: path, spec: spec)
            let service = try SpecCompiler(environment: Environment([:])).compile(Array(imported.spec.utf8), file: spec)
            let catalog = ToolCatalog(services: [service], exposure: ToolExposure())
            let gets = service.targets.filter { $0.method == .get }.map { service.name + "." + $0.name }
            let readOnly = Set(catalog.exposed.filter(\.isReadOnly).map(\.fullName))
            XCTAssertEqual(Set(gets).subtracting(readOnly), [], document)
            XCTAssertEqual(catalog.exposed.count, catalog.exposed.filter(\.isReadOnly).count, document)
            XCTAssertEqual(Set(catalog.all.map(\.name)).count, catalog.all.count, "\(document): names not unique")
            for tool in catalog.all {
                XCTAssertLessThanOrEqual(tool.name.utf8.count, 64, tool.name)
                XCTAssertTrue(tool.name.allSatisfy(Self.nameCharacters.contains), tool.name)
                for schema in [tool.inputSchema] + (tool.outputSchema.map { [$0] } ?? []) {
                    let errors = metaschema?.errors(in: schema) ?? []
                    XCTAssertEqual(errors.map(\.description), [], "\(document) \(tool.name)")
                }
            }
        }
    }

    /// The draft 2020-12 metaschema and its vocabularies from JSON_SCHEMA_METASCHEMAS (PyPI's
    /// jsonschema-specifications, which `.ci/run` sets); nil, with a note, where it is unset.
    func metaschemaRegistry() throws -> SchemaValidator? {
        guard let folder = ProcessInfo.processInfo.environment["JSON_SCHEMA_METASCHEMAS"] else {
            if ProcessInfo.processInfo.environment["MOYA_SHARED_REQUIRED"] != nil {
                XCTFail("JSON_SCHEMA_METASCHEMAS is not set")
            }
            print(
                "MCPCorpusTests: JSON_SCHEMA_METASCHEMAS unset; input schemas are compiled, not checked against the metaschema"
            )
            return nil
        }
        let registry = SchemaRegistry()
        let base = "https://json-schema.org/draft/2020-12/"
        let vocabularies = [
            "core", "applicator", "unevaluated", "validation", "meta-data", "format-annotation", "content",
        ]
        for name in vocabularies {
            let data = try XCTUnwrap(FileManager.default.contents(atPath: folder + "/draft202012/vocabularies/" + name))
            registry.add(try JSONValue(parsing: data), uri: base + "meta/" + name)
        }
        let root = try XCTUnwrap(FileManager.default.contents(atPath: folder + "/draft202012/metaschema.json"))
        return SchemaValidator(schema: try JSONValue(parsing: root), uri: base + "schema", registry: registry)
    }
}
