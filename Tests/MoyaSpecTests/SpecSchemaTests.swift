import Foundation
import MoyaCore
import MoyaSchema
import XCTest

@testable import MoyaCompiler
@testable import MoyaSpec

/// The spec format's JSON Schema (`schema/moya-cli-spec.schema.json`, `moya-cli schema`) held
/// to the compiler: every spec the compiler takes, the schema takes; every fixture invalid by
/// its shape, the schema refuses; and the keys of each level are the same on both sides, read
/// from one table.
final class SpecSchemaTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static let schema: JSONValue = {
        (try? JSONValue(parsing: Data(SpecSchema.text.utf8))) ?? .null
    }()

    /// Every mapping level of the format: the compiler's list of its keys (the one its
    /// `reader.fields(known:)` reads, by name), and where the schema lists them, a
    /// `properties` object's keys or a `required` array's names.
    static let levels: [(name: String, keys: [String], pointers: [String])] = {
        var levels: [(name: String, keys: [String], pointers: [String])] = [
            ("serviceKeys", SpecCompiler.serviceKeys, ["/properties"]),
            ("environmentKeys", SpecCompiler.environmentKeys, ["/$defs/environment/properties"]),
            ("headerValueKeys", SpecCompiler.headerValueKeys, ["/$defs/headerValue/anyOf/1/properties"]),
            ("stubKeys", SpecCompiler.stubKeys, ["/$defs/stub/anyOf/1/properties"]),
            ("serviceMCPKeys", SpecCompiler.serviceMCPKeys, ["/properties/mcp/properties"]),
            ("secretSourceKeys", SpecCompiler.secretSourceKeys, ["/$defs/secretSource/properties"]),
            (
                "authKeys", SpecCompiler.authKeys,
                [
                    "/$defs/auth/anyOf/1/properties", "/$defs/auth/anyOf/2/properties",
                    "/$defs/auth/anyOf/3/properties",
                    "/$defs/loginAuth/required",
                ]
            ),
            ("basicAuthKeys", SpecCompiler.basicAuthKeys, ["/$defs/auth/anyOf/2/properties/basic/properties"]),
            ("customAuthKeys", SpecCompiler.customAuthKeys, ["/$defs/auth/anyOf/3/properties/custom/properties"]),
            ("loginAuthKeys", CompileContext.loginAuthKeys, ["/$defs/loginAuth/properties"]),
            ("loginKeys", CompileContext.loginKeys, ["/$defs/login/properties"]),
            ("loginCustomKeys", CompileContext.loginCustomKeys, ["/$defs/loginAuth/properties/custom/properties"]),
            ("targetKeys", SpecCompiler.targetKeys, ["/$defs/target/properties"]),
            ("paramKeys", CompileContext.paramKeys, ["/$defs/param/anyOf/1/properties"]),
            ("dataFileKeys", CompileContext.dataFileKeys, ["/$defs/task/anyOf/2/properties/data/anyOf/1/properties"]),
            ("partKeys", CompileContext.partKeys, ["/$defs/task/anyOf/6/properties/multipart/items/properties"]),
            ("sampleKeys", SpecCompiler.sampleKeys, ["/$defs/sample/anyOf/1/properties"]),
            ("checkKeys", CompileContext.checkKeys, ["/$defs/check/properties"]),
            ("expectKeys", CompileContext.expectKeys, ["/$defs/expect/properties"]),
            ("predicateKeys", CompileContext.predicateKeys, ["/$defs/predicate/anyOf/1/properties"]),
            ("paginateKeys", CompileContext.paginateKeys, ["/$defs/paginate/properties"]),
            ("streamKeys", CompileContext.streamKeys, ["/$defs/stream/anyOf/1/properties"]),
            (
                "socketStepKeys", CompileContext.socketStepKeys,
                (1...6).map { "/$defs/socketStep/anyOf/\($0)/properties" }
            ),
            ("eventExpectKeys", CompileContext.eventExpectKeys, ["/$defs/expect/properties/events/properties"]),
            ("sampleEventKeys", CompileContext.sampleEventKeys, ["/$defs/sampleEvent/properties"]),
            (
                "nextPageKeys", CompileContext.nextPageKeys,
                (1...3).map { "/$defs/paginate/properties/next/anyOf/\($0)/properties" }
            ),
            ("flowKeys", CompileContext.flowKeys, ["/$defs/flow/properties"]),
            ("stepKeys", CompileContext.stepKeys, ["/$defs/step/properties"]),
            ("captureKeys", CompileContext.captureKeys, ["/$defs/capture/anyOf/1/properties"]),
            ("retryKeys", CompileContext.retryKeys, ["/$defs/step/properties/retry/properties"]),
        ]
        // Each task kind is one of `task`'s forms, in the compiler's order, after plain and null.
        for (index, kind) in CompileContext.taskKinds.enumerated() {
            levels.append(
                ("taskKeys", CompileContext.taskKeys[kind] ?? [], ["/$defs/task/anyOf/\(index + 2)/properties"]))
        }
        return levels
    }()

    /// The value at a JSON pointer into the schema.
    static func value(at pointer: String) -> JSONValue? {
        var value: JSONValue? = schema
        for token in pointer.split(separator: "/").map(String.init) {
            switch value {
            case .object(let members)?: value = members.first { $0.key == token }?.value
            case .array(let items)?: value = Int(token).flatMap { items.indices.contains($0) ? items[$0] : nil }
            default: return nil
            }
        }
        return value
    }

    /// The names at a pointer: a `properties` object's keys, or a `required` array's strings.
    static func names(at pointer: String) -> [String]? {
        switch value(at: pointer) {
        case .object(let members)?: members.map(\.key)
        case .array(let items)?: items.compactMap { if case .string(let text) = $0 { text } else { nil } }
        default: nil
        }
    }

    /// A YAML document as JSON, its scalars typed as the compiler types them.
    static func json(_ node: YAMLNode) -> JSONValue {
        switch node.content {
        case .scalar(let text, _): YAMLScalar.plainValue(node) ?? .string(text)
        case .sequence(let items): .array(items.map(json))
        case .mapping(let pairs): .object(pairs.map { (key: $0.key.scalar ?? "", value: json($0.value)) })
        }
    }

    static func document(_ path: String) -> JSONValue? {
        guard let bytes = FileManager.default.contents(atPath: path),
            let node = try? YAMLLoader.load(Array(bytes))
        else { return nil }
        return json(node)
    }

    // MARK: - The schema

    func testTheSchemaIsTheFileAndADraft202012Schema() throws {
        let file = try String(contentsOfFile: Self.root + "/schema/moya-cli-spec.schema.json", encoding: .utf8)
        XCTAssertEqual(SpecSchema.text + "\n", file, "run scripts/spec-schema.sh")
        guard case .object(let members) = Self.schema else { return XCTFail("the schema is not a JSON object") }
        XCTAssertEqual(Self.value(at: "/$schema"), .string("https://json-schema.org/draft/2020-12/schema"))
        XCTAssertEqual(Self.value(at: "/$id"), .string(SpecSchema.id))
        XCTAssertTrue(members.contains { $0.key == "title" })
        // Against the draft's own metaschema and vocabularies, from PyPI's
        // jsonschema-specifications, which `.ci/run` names (JSON_SCHEMA_METASCHEMAS).
        guard let folder = ProcessInfo.processInfo.environment["JSON_SCHEMA_METASCHEMAS"] else {
            if ProcessInfo.processInfo.environment["MOYA_SHARED_REQUIRED"] != nil {
                XCTFail("JSON_SCHEMA_METASCHEMAS is not set")
            }
            print("SpecSchemaTests: JSON_SCHEMA_METASCHEMAS unset; the schema is not checked against the metaschema")
            return
        }
        let base = "https://json-schema.org/draft/2020-12/"
        var documents: [CompiledSchema.Document] = []
        for name in ["core", "applicator", "unevaluated", "validation", "meta-data", "format-annotation", "content"] {
            let data = try XCTUnwrap(FileManager.default.contents(atPath: folder + "/draft202012/vocabularies/" + name))
            documents.append(
                CompiledSchema.Document(
                    uri: base + "meta/" + name, value: try JSONValue(parsing: data), dialect: .draft2020_12))
        }
        let root = try XCTUnwrap(FileManager.default.contents(atPath: folder + "/draft202012/metaschema.json"))
        let metaschema = CompiledSchema(
            schema: try JSONValue(parsing: root), uri: base + "schema", documents: documents)
        XCTAssertEqual(metaschema.errors(in: Self.schema).map(\.message), [])
        // And a schema that breaks the metaschema is refused: the check can fail.
        XCTAssertFalse(metaschema.isValid(.object([("type", .integer(3))])))
    }

    // MARK: - The keys

    /// Every level's keys are the compiler's, and every `properties` in the schema is a level.
    func testEveryLevelHasTheCompilersKeys() {
        for level in Self.levels {
            var names: [String] = []
            for pointer in level.pointers {
                guard let found = Self.names(at: pointer) else {
                    XCTFail("\(level.name): nothing at \(pointer)")
                    continue
                }
                names += found
            }
            XCTAssertEqual(Set(names), Set(level.keys), "\(level.name) at \(level.pointers)")
        }
        var pointers: [String] = []
        func walk(_ value: JSONValue, _ pointer: String) {
            switch value {
            case .object(let members):
                for (key, member) in members {
                    if key == "properties" { pointers.append(pointer + "/properties") }
                    walk(member, pointer + "/" + key)
                }
            case .array(let items):
                for (index, item) in items.enumerated() { walk(item, pointer + "/\(index)") }
            default: break
            }
        }
        walk(Self.schema, "")
        let covered = Set(Self.levels.flatMap(\.pointers))
        XCTAssertEqual(
            pointers.filter { !covered.contains($0) }, [], "properties the table does not hold to the compiler")
    }

    /// Every key list the compiler reads a mapping with is one of the table's.
    func testEveryListTheCompilerReadsIsInTheTable() throws {
        let folder = Self.root + "/Sources/MoyaCompiler"
        let names = Set(Self.levels.map(\.name))
        for file in try FileManager.default.contentsOfDirectory(atPath: folder)
        where file.hasPrefix("SpecCompiler") && file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for match in text.matches(of: /known: (?:Self\.|SpecCompiler\.|CompileContext\.)?(\w+)/) {
                let name = String(match.1)
                guard name != "nil" else { continue }
                XCTAssertTrue(names.contains(name), "\(file): known: \(name) is not in the schema's table")
            }
        }
    }

    // MARK: - Specs

    /// Every spec the compiler takes, in specs/, Examples/ and the fixtures, the schema takes.
    func testEveryValidSpecValidates() throws {
        let validator = CompiledSchema(schema: Self.schema)
        var checked = 0
        for folder in ["specs", "Examples", "Tests/Fixtures"] {
            let base = Self.root + "/" + folder
            guard let enumerator = FileManager.default.enumerator(atPath: base) else { continue }
            for case let relative as String in enumerator
            where relative.hasSuffix(".yaml") || relative.hasSuffix(".yml") {
                guard !relative.hasPrefix("invalid/"), !relative.contains("/invalid/") else { continue }
                let path = base + "/" + relative
                // A spec is what the compiler takes; other YAML (variables, OpenAPI) is not one.
                guard (try? SpecCompiler(environment: Environment([:])).compile(file: path)) != nil,
                    let document = Self.document(path)
                else { continue }
                checked += 1
                let errors = validator.errors(in: document).map { "\($0.instancePath): \($0.message)" }
                XCTAssertEqual(errors, [], "\(folder)/\(relative)")
            }
        }
        XCTAssertGreaterThan(checked, 20)
    }

    /// The line that marks an invalid fixture whose problem is its shape (an unknown key, a
    /// value of the wrong type or outside its values, a missing key), which the schema must
    /// refuse too; CI's Python check reads the same mark. The others' problems are meaning the
    /// schema cannot see (an undeclared param, a bad URL, a rule on the wrong type), or YAML
    /// that does not load; the schema takes those that load.
    static let refusedMark = "\n# schema: refuses"

    func testInvalidFixturesFailByShapeOnly() throws {
        let validator = CompiledSchema(schema: Self.schema)
        let folder = Self.root + "/Tests/Fixtures/invalid"
        var refusedCount = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where file.hasSuffix(".yaml") {
            XCTAssertNil(
                try? SpecCompiler(environment: Environment([:])).compile(file: folder + "/" + file), "\(file) compiles")
            let refused = try String(contentsOfFile: folder + "/" + file, encoding: .utf8).contains(Self.refusedMark)
            guard let document = Self.document(folder + "/" + file) else {
                XCTAssertFalse(refused, "\(file) does not load")
                continue
            }
            XCTAssertEqual(validator.isValid(document), !refused, file)
            if refused { refusedCount += 1 }
        }
        XCTAssertGreaterThan(refusedCount, 15)
    }
}
