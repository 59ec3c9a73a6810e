import MoyaCompiler
import MoyaCore
import MoyaOpenAPI
import MoyaSpec
import TestSupport
import XCTest

/// OpenAPI 3.2's own schema tests (`../shared/collections/openapi-3.2/schema-tests`): every
/// document that must pass imports and its spec compiles; every one that must fail is refused,
/// each with the place and the rule it breaks.
final class OpenAPI32RulesTests: XCTestCase {
    /// What each failing document is refused for: its first problem's place and rule.
    static let refusals: [String: String] = [
        "encoding-enc-item-exclusion":
            "/components/requestBodies/encoding-with-prefixEncoding-not-allowed/content/multipart~1mixed/prefixEncoding/0/prefixEncoding: encoding and prefixEncoding exclude each other",
        "encoding-enc-prefix-exclusion":
            "/components/requestBodies/encoding-with-itemEncoding-not-allowed/content/multipart~1mixed/prefixEncoding/0/itemEncoding: encoding and itemEncoding exclude each other",
        "example-examples": "/components/parameters/animal/example: example and examples exclude each other",
        "example-object-old-exclusions":
            "/components/examples/CannotHaveBoth/externalValue: an example's value and externalValue exclude each other",
        "example-object-old-vs-data":
            "/components/examples/NoValueWithDataValue/dataValue: an example's value and dataValue exclude each other",
        "example-object-old-vs-ser":
            "/components/examples/CannotHaveBoth/serializedValue: an example's value and serializedValue exclude each other",
        "example-object-ser-exclusions":
            "/components/examples/CannotHaveBoth/externalValue: an example's serializedValue and externalValue exclude each other",
        "header-object-allowReserved":
            "/components/headers/Style/allowReserved: a header has no allowReserved: its values are not percent-encoded",
        "header-object-name":
            "/paths/~1foo/get/responses/default/headers/Bad=Header: a header's name is a token (RFC 9110): letters, digits and !#$%&'*+-.^_`|~",
        "invalid_schema_types": "/components/schemas/invalid_null: a schema is an object or a boolean, not null",
        "media-type-enc-item-exclusion":
            "/components/requestBodies/encoding-with-itemEncoding-not-allowed/content/multipart~1mixed/itemEncoding: encoding and itemEncoding exclude each other",
        "media-type-enc-prefix-exclusion":
            "/components/requestBodies/encoding-with-prefixEncoding-not-allowed/content/multipart~1mixed/prefixEncoding: encoding and prefixEncoding exclude each other",
        "no_containers": "/: a document has at least one of paths, components or webhooks",
        "operation-object-query-with-querystring":
            "/components/pathItems/my-path-item/get/parameters/0: a querystring parameter is the whole query: no query parameter beside it",
        "operation-object-two-querystrings":
            "/components/pathItems/my-path-item/get/parameters/1: a querystring parameter is the whole query: one at most",
        "parameter-object-content-not-with-style":
            "/components/parameters/content-not-with-style/style: style goes with a schema; a parameter with a content has none",
        "parameter-object-cookie-allowReserved":
            "/components/parameters/my_cookie/allowReserved: allowReserved is for a path or query parameter, or a cookie of style form, which percent-encode",
        "parameter-object-header-allowReserved":
            "/components/parameters/header/allowReserved: allowReserved is for a path or query parameter, or a cookie of style form, which percent-encode",
        "parameter-object-header-name":
            "/components/parameters/BadHeader/name: a header's name is a token (RFC 9110): letters, digits and !#$%&'*+-.^_`|~",
        "parameter-object-path-name": "/components/parameters/BadPath/name: a path parameter's name has no { or }",
        "parameter-object-querystring-not-with-schema":
            "/components/parameters/querystring-not-with-schema: a querystring parameter has a content, not a schema",
        "path-item-object-conflicting-additional-operation":
            "/paths/~1pets~1{id}/additionalOperations/POST: POST has a field of its own in a path item, so additionalOperations may not name it",
        "path-item-object-query-with-querystring":
            "/components/pathItems/my-path-item/parameters/0: a querystring parameter is the whole query: no query parameter beside it",
        "path-item-object-two-querystrings":
            "/components/pathItems/my-path-item/parameters/1: a querystring parameter is the whole query: one at most",
        "server_enum_empty": "/servers/0/variables/var/enum: a server variable's enum is not empty",
        "servers": "/servers: servers is a list of server objects, such as - url: https://api.example.com",
        "unknown_container": "/overlays: 'overlays' is not a field of an OpenAPI document",
        "xml-attr-exclusion":
            "/components/schemas/Attr/xml/attribute: xml's nodeType replaces attribute: the two exclude each other",
        "xml-wrapped-exclusion":
            "/components/schemas/List/xml/wrapped: xml's nodeType replaces wrapped: the two exclude each other",
    ]

    static func documents(_ set: String) throws -> [(name: String, path: String)] {
        let folder =
            try Repository.shared("collections", variable: "MOYA_COLLECTIONS") + "/openapi-3.2/schema-tests/" + set
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".yaml") }.sorted()
            .map { (String($0.dropLast(5)), folder + "/" + $0) }
    }

    func testEveryPassingDocumentImportsAndCompiles() throws {
        let documents = try Self.documents("pass")
        XCTAssertEqual(documents.count, 37)
        // Each imported beside a copy of itself, which its spec's `$ref`s name.
        let folder = NSTemporaryDirectory() + "moya-openapi-32-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, path) in documents {
            let bytes = try XCTUnwrap(FileManager.default.contents(atPath: path))
            let copy = folder + "/" + name + ".yaml"
            try bytes.write(to: URL(fileURLWithPath: copy))
            do {
                let spec = folder + "/" + name + ".moya.yaml"
                let imported = try OpenAPIImporter.importSpec(Array(bytes), file: copy, spec: spec)
                _ = try SpecCompiler(environment: Environment([:])).compile(Array(imported.spec.utf8), file: spec)
            } catch {
                XCTFail("\(name): \(error)")
            }
        }
    }

    func testEveryFailingDocumentIsRefusedAtItsPlace() throws {
        let documents = try Self.documents("fail")
        XCTAssertEqual(documents.map(\.name), Self.refusals.keys.sorted())
        for (name, path) in documents {
            let bytes = try XCTUnwrap(FileManager.default.contents(atPath: path))
            XCTAssertThrowsError(
                try OpenAPIImporter.importSpec(Array(bytes), file: path, spec: "/tmp/\(name).moya.yaml"), name
            ) { error in
                let message = "\(error)"
                let expected = "not a valid OpenAPI 3.2.0 document: at " + (Self.refusals[name] ?? "?")
                XCTAssertTrue(message.hasPrefix(expected), "\(name): \(message)")
            }
        }
    }

    /// 3.2's `query` operation is a `QUERY` target, `additionalOperations` one of a registered
    /// method (`COPY`) a target of it, and a `querystring` form's properties query params.
    func testQueryAndAdditionalOperationsBecomeTargets() throws {
        let path = Repository.fixtures + "/openapi/methods-3.2.yaml"
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: path))
        let imported = try OpenAPIImporter.importSpec(
            Array(bytes), file: path, spec: Repository.fixtures + "/openapi/m.moya.yaml")
        let service = try SpecCompiler(environment: Environment([:])).compile(
            Array(imported.spec.utf8), file: Repository.fixtures + "/openapi/m.moya.yaml")
        XCTAssertEqual(
            service.targets.map { "\($0.name) \($0.method.rawValue) \($0.path)" },
            ["search QUERY /search", "copyIt COPY /search", "find GET /find"])
        // A querystring that is a form of an object: its properties are query params.
        XCTAssertEqual(service.target(named: "find")?.params.map(\.name), ["a"])
        XCTAssertTrue(
            imported.spec.contains("      parameters: { a: \"{a}\" }\n      encoding: queryString\n"), imported.spec)
        XCTAssertEqual(imported.warnings.map(\.description), [])
    }

    /// The rules are OpenAPI 3.2's: a 3.1 document that breaks one imports as before.
    func testTheRulesAreThreePointTwosOnly() throws {
        let document = """
            openapi: 3.1.0
            info: { title: T, version: "1" }
            paths:
              /a:
                get:
                  parameters:
                    - { name: h, in: header, allowReserved: true, schema: { type: string } }
                  responses: { "200": { description: ok } }
            """
        XCTAssertNoThrow(
            try OpenAPIImporter.importSpec(Array(document.utf8), file: "/tmp/t.yaml", spec: "/tmp/t.moya.yaml"))
        let refused = document.replacingOccurrences(of: "3.1.0", with: "3.2.0")
        XCTAssertThrowsError(
            try OpenAPIImporter.importSpec(Array(refused.utf8), file: "/tmp/t.yaml", spec: "/tmp/t.moya.yaml"))
    }
}
