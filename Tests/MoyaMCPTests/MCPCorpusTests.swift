import Foundation
import MoyaCompiler
import MoyaCore
import MoyaMCPProtocol
import MoyaOpenAPI
import MoyaRuntime
import MoyaSchema
import MoyaSpec
import Synchronization
import TestSupport
import XCTest

@testable import MoyaMCP

/// The shared corpus of real API descriptions (`../shared/openapi-real`) as MCP tools: each
/// imported, then catalogued as `moya-cli mcp` catalogues it. Every GET operation is a
/// read-only tool, every input schema is valid JSON Schema 2020-12 by the draft's metaschema
/// (MoyaSchema), and no name is over 64 characters. `.ci/run` checks the same over stdio
/// with the Python SDK's client and the `jsonschema` package (scripts/mcp-python-client.py).
final class MCPCorpusTests: XCTestCase {
    static let nameCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")

    func testEveryRealDocumentListsItsGETOperationsAsReadOnlyToolsWithValidSchemas() throws {
        let corpus = try Self.importedCorpus()
        XCTAssertEqual(corpus.count, 10)
        let metaschema = try metaschemaRegistry()
        // The metaschema refuses what is not a schema, so that a pass below means something.
        if let metaschema { XCTAssertFalse(metaschema.errors(in: .object([("type", .integer(5))])).isEmpty) }
        for (document, service) in corpus {
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

    /// Everyday use, round five, item 8: every page of every corpus document's `tools/list`,
    /// with writes and deletes allowed, is under 500 KB, every tool keeps its input schema, and
    /// no output schema carries an annotation (a page of Box's was 1.8 MB before).
    func testEveryListingPageIsUnder500KB() throws {
        for (document, service) in try Self.importedCorpus() {
            let exposure = ToolExposure(allowsWrites: true, allowsDeletes: true)
            let server = ToolServer(
                client: SpecClient(services: [service], logins: nil), exposure: exposure,
                options: ToolServer.Options(), audit: nil)
            var cursor: String?
            var listed = 0
            repeat {
                let page = try server.page(cursor: cursor).get()
                let bytes = page.serialized(escapeSlashes: false).utf8.count
                XCTAssertLessThan(bytes, 500 * 1024, "\(document) page at \(cursor ?? "0")")
                guard case .array(let tools)? = page["tools"] else { return XCTFail(document) }
                XCTAssertFalse(tools.isEmpty, document)
                for tool in tools {
                    XCTAssertNotNil(tool["inputSchema"], document)
                    if let output = tool["outputSchema"] {
                        XCTAssertFalse(Self.annotates(output), "\(document) \(tool["name"]?.stringValue ?? "")")
                    }
                }
                listed += tools.count
                cursor = page["nextCursor"]?.stringValue
            } while cursor != nil
            XCTAssertEqual(listed, ToolCatalog(services: [service], exposure: exposure).exposed.count, document)
        }
    }

    /// Whether a schema has an annotation keyword at a place a schema stands.
    static func annotates(_ schema: JSONValue) -> Bool {
        guard case .object(let members) = schema else { return false }
        return members.contains { member in
            if ToolCatalog.annotations.contains(member.key) { return true }
            if ToolCatalog.subschemaMaps.contains(member.key), case .object(let named) = member.value {
                return named.contains { annotates($0.value) }
            }
            if ToolCatalog.subschemaLists.contains(member.key), case .array(let items) = member.value {
                return items.contains(where: annotates)
            }
            return ToolCatalog.subschema.contains(member.key) && annotates(member.value)
        }
    }

    /// Tools that say everything a call can, on the real corpus: every write tool can set its
    /// body, and every operation with a response schema has an `outputSchema` (valid 2020-12)
    /// that its stubbed answer's `structuredContent` meets. Each GET tool is called through the
    /// server, stubbed, with arguments made from its input schema.
    func testEveryToolCanSetItsBodyAndHasItsOutputSchema() async throws {
        let metaschema = try metaschemaRegistry()
        var totals = (writes: 0, bodiless: 0, bodies: 0, schemas: 0, outputs: 0, called: 0, structured: 0)
        var report: [String] = []
        for (document, service) in try Self.importedCorpus() {
            let exposure = ToolExposure(allowsWrites: true, allowsDeletes: true)
            let catalog = ToolCatalog(services: [service], exposure: exposure)
            var overrides = CallPolicy.Overrides()
            overrides.stub = .immediate
            let server = ToolServer(
                client: SpecClient(services: [service], overrides: overrides, logins: nil), exposure: exposure,
                options: ToolServer.Options(), audit: nil)
            var counts = (writes: 0, bodiless: 0, bodies: 0, schemas: 0, outputs: 0, called: 0, structured: 0)
            for tool in catalog.exposed {
                guard case .target(_, let target) = tool.subject else { continue }
                let properties = tool.inputSchema["properties"]
                if !tool.isReadOnly, target.task.sendsBody(target.method) {
                    counts.writes += 1
                    let bodyArgument = properties?["body"] != nil || properties?["moya.body"] != nil
                    let settable: Bool
                    if case .data = target.task {
                        // A fixed document: only a body argument sets it.
                        settable = bodyArgument
                        if bodyArgument { counts.bodies += 1 }
                    } else {
                        settable = target.params.contains { properties?[$0.name] != nil } || bodyArgument
                    }
                    if !settable {
                        counts.bodiless += 1
                        report.append("\(document) \(tool.name): cannot set its body")
                    }
                }
                guard target.schema != nil else { continue }
                counts.schemas += 1
                guard let output = tool.outputSchema else {
                    report.append("\(document) \(tool.name): no outputSchema")
                    continue
                }
                counts.outputs += 1
                XCTAssertEqual(output["type"], .string("object"), tool.name)
                XCTAssertEqual(metaschema?.errors(in: output).map(\.description) ?? [], [], "\(document) \(tool.name)")
                guard tool.isReadOnly, let arguments = Self.arguments(for: tool.inputSchema) else { continue }
                counts.called += 1
                let outcome = try await server.call(tool.name, arguments: arguments)
                if outcome.structured != nil {
                    counts.structured += 1
                } else if !outcome.isError || !outcome.text.contains("output schema") {
                    // No sample body to structure (a 204, a text sample): nothing to hold.
                    counts.called -= 1
                } else {
                    report.append("\(document) \(tool.name): \(outcome.text.prefix(200))")
                }
            }
            totals.writes += counts.writes
            totals.bodiless += counts.bodiless
            totals.bodies += counts.bodies
            totals.schemas += counts.schemas
            totals.outputs += counts.outputs
            totals.called += counts.called
            totals.structured += counts.structured
            print(
                "MCPCorpusTests: \(document): \(counts.writes) write tools, \(counts.bodies) by a body argument, "
                    + "\(counts.bodiless) cannot set their body; "
                    + "\(counts.outputs) of \(counts.schemas) with a response schema have an outputSchema; "
                    + "\(counts.structured) of \(counts.called) stubbed calls structured")
        }
        print("MCPCorpusTests: in all: \(totals)")
        XCTAssertEqual(report, [])
    }

    /// Each document of the corpus imported and compiled, once for the tests that read them.
    static func importedCorpus() throws -> [(document: String, service: ServiceSpec)] {
        if let known = imported.withLock({ $0 }) { return known }
        let corpus = try Repository.shared("openapi-real", variable: "OPENAPI_REAL")
        let documents = try FileManager.default.contentsOfDirectory(atPath: corpus).filter {
            $0.hasSuffix(".yaml") || $0.hasSuffix(".json")
        }.sorted()
        let folder = NSTemporaryDirectory() + "moya-cli-mcp-corpus-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var services: [(document: String, service: ServiceSpec)] = []
        for document in documents {
            // A spec reads files in its own folder only: the document goes beside it.
            let path = folder + "/" + document
            try FileManager.default.copyItem(atPath: corpus + "/" + document, toPath: path)
            let spec = folder + "/" + document.split(separator: ".")[0] + ".moya.yaml"
            let bytes = try XCTUnwrap(FileManager.default.contents(atPath: path))
            let imported = try OpenAPIImporter.importSpec(Array(bytes), file: path, spec: spec)
            services.append(
                (
                    document,
                    try SpecCompiler(environment: Environment([:])).compile(Array(imported.spec.utf8), file: spec)
                ))
        }
        imported.withLock { $0 = services }
        return services
    }

    private static let imported = Mutex<[(document: String, service: ServiceSpec)]?>(nil)

    /// Arguments that meet an input schema's required properties: the default, the first enum
    /// case, or the least value of the type; nil when a property's type is not known.
    static func arguments(for schema: JSONValue) -> JSONValue? {
        guard case .array(let required)? = schema["required"] else { return .object([]) }
        var members: [(key: String, value: JSONValue)] = []
        for case .string(let name) in required {
            guard let property = schema["properties"]?[name] else { return nil }
            if let value = property["default"] {
                members.append((name, value))
            } else if case .array(let cases)? = property["enum"], let first = cases.first {
                members.append((name, first))
            } else {
                switch property["type"] {
                case .string("integer")?, .string("number")?:
                    members.append((name, property["minimum"] ?? .integer(1)))
                case .string("boolean")?: members.append((name, .bool(true)))
                case .string("array")?: members.append((name, .array([])))
                case .string("string")?: members.append((name, .string("a")))
                default: return nil
                }
            }
        }
        return .object(members)
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
