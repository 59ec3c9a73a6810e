import MoyaHTTP

/// The rules of an OpenAPI 3.2 document that OpenAPIKit does not hold it to, each stated by
/// the specification and its published schema: where `querystring` may stand, which fields
/// exclude each other (an example's `value` and `dataValue`, an encoding's `encoding` and
/// `prefixEncoding`, …), where `allowReserved` means something, the names a header or a path
/// parameter may have, and the document's own shape. A document that breaks one is refused,
/// each problem at its JSON pointer.
///
/// The walk follows the document's structure, not every value: a problem is found where the
/// object it is about can stand. Its depth is the document's, which the reader bounds first.
struct OpenAPI32Rules {
    /// A rule broken at a place.
    struct Problem: Equatable {
        var pointer: [String]
        var message: String
    }

    private(set) var problems: [Problem] = []

    /// The problems of `document`, in the order they stand.
    static func problems(in document: JSONValue) -> [Problem] {
        var rules = OpenAPI32Rules()
        rules.document(document)
        return rules.problems
    }

    private static let topLevel: Set<String> = [
        "openapi", "$self", "info", "jsonSchemaDialect", "servers", "paths", "webhooks", "components", "security",
        "tags", "externalDocs",
    ]
    /// The methods a path item has a field for, which `additionalOperations` may not name.
    private static let fixedMethods = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"]

    private mutating func problem(_ pointer: [String], _ message: String) {
        problems.append(Problem(pointer: pointer, message: message))
    }

    private static func members(_ value: JSONValue?) -> [(key: String, value: JSONValue)] {
        if case .object(let members)? = value { return members }
        return []
    }

    private static func items(_ value: JSONValue?) -> [JSONValue] {
        if case .array(let items)? = value { return items }
        return []
    }

    private static func isReference(_ value: JSONValue) -> Bool { value["$ref"] != nil }

    // MARK: - The document

    private mutating func document(_ root: JSONValue) {
        let members = Self.members(root)
        for member in members where !Self.topLevel.contains(member.key) && !member.key.hasPrefix("x-") {
            problem([member.key], "'\(member.key)' is not a field of an OpenAPI document")
        }
        if root["paths"] == nil, root["components"] == nil, root["webhooks"] == nil {
            problem([], "a document has at least one of paths, components or webhooks")
        }
        if let servers = root["servers"] { self.servers(servers, ["servers"]) }
        for (path, item) in Self.members(root["paths"]) { pathItem(item, ["paths", path]) }
        for (name, item) in Self.members(root["webhooks"]) { pathItem(item, ["webhooks", name]) }
        components(root["components"], ["components"])
    }

    private mutating func servers(_ servers: JSONValue, _ at: [String]) {
        guard case .array(let list) = servers else {
            problem(at, "servers is a list of server objects, such as - url: https://api.example.com")
            return
        }
        for (index, server) in list.enumerated() {
            for (name, variable) in Self.members(server["variables"]) {
                if case .array(let values)? = variable["enum"], values.isEmpty {
                    problem(at + [String(index), "variables", name, "enum"], "a server variable's enum is not empty")
                }
            }
        }
    }

    private mutating func components(_ components: JSONValue?, _ at: [String]) {
        for (name, schema) in Self.members(components?["schemas"]) { self.schema(schema, at + ["schemas", name]) }
        for (name, response) in Self.members(components?["responses"]) {
            self.response(response, at + ["responses", name])
        }
        for (name, parameter) in Self.members(components?["parameters"]) {
            self.parameter(parameter, at + ["parameters", name])
        }
        for (name, example) in Self.members(components?["examples"]) { self.example(example, at + ["examples", name]) }
        for (name, body) in Self.members(components?["requestBodies"]) {
            content(body["content"], at + ["requestBodies", name, "content"])
        }
        for (name, header) in Self.members(components?["headers"]) { self.header(header, at + ["headers", name]) }
        for (name, item) in Self.members(components?["pathItems"]) { pathItem(item, at + ["pathItems", name]) }
        for (name, callback) in Self.members(components?["callbacks"]) {
            for (expression, item) in Self.members(callback) { pathItem(item, at + ["callbacks", name, expression]) }
        }
        for (name, media) in Self.members(components?["mediaTypes"]) {
            mediaType(media, at + ["mediaTypes", name])
        }
    }

    // MARK: - Paths and operations

    private mutating func pathItem(_ item: JSONValue, _ at: [String]) {
        parameters(item["parameters"], at + ["parameters"])
        for method in Self.fixedMethods {
            if let operation = item[method] { self.operation(operation, at + [method]) }
        }
        for (method, operation) in Self.members(item["additionalOperations"]) {
            if Self.fixedMethods.contains(method.lowercased()) {
                problem(
                    at + ["additionalOperations", method],
                    "\(method) has a field of its own in a path item, so additionalOperations may not name it")
            }
            self.operation(operation, at + ["additionalOperations", method])
        }
    }

    private mutating func operation(_ operation: JSONValue, _ at: [String]) {
        parameters(operation["parameters"], at + ["parameters"])
        content(operation["requestBody"]?["content"], at + ["requestBody", "content"])
        for (status, response) in Self.members(operation["responses"]) {
            self.response(response, at + ["responses", status])
        }
        for (name, callback) in Self.members(operation["callbacks"]) {
            for (expression, item) in Self.members(callback) { pathItem(item, at + ["callbacks", name, expression]) }
        }
    }

    /// A list of parameters: each on its own, and one `querystring` at most, never beside a
    /// `query` parameter.
    private mutating func parameters(_ list: JSONValue?, _ at: [String]) {
        let parameters = Self.items(list)
        for (index, parameter) in parameters.enumerated() { self.parameter(parameter, at + [String(index)]) }
        let places = parameters.map { $0["in"]?.text }
        let querystrings = places.indices.filter { places[$0] == "querystring" }
        if querystrings.count > 1 {
            problem(at + [String(querystrings[1])], "a querystring parameter is the whole query: one at most")
        }
        if let first = querystrings.first, places.contains("query") {
            problem(at + [String(first)], "a querystring parameter is the whole query: no query parameter beside it")
        }
    }

    // MARK: - Parameters, headers and examples

    private mutating func parameter(_ parameter: JSONValue, _ at: [String]) {
        guard !Self.isReference(parameter) else { return }
        let place = parameter["in"]?.text
        if case .string(let name)? = parameter["name"] {
            if place == "path", name.contains(where: { $0 == "{" || $0 == "}" }) {
                problem(at + ["name"], "a path parameter's name has no { or }")
            }
            if place == "header", !Self.isToken(name) {
                problem(at + ["name"], "a header's name is a token (RFC 9110): letters, digits and !#$%&'*+-.^_`|~")
            }
        }
        if parameter["schema"] != nil, parameter["content"] != nil {
            problem(at, "a parameter has a schema or a content, not both")
        }
        if place == "querystring", parameter["content"] == nil {
            problem(at, "a querystring parameter has a content, not a schema")
        }
        if parameter["content"] != nil {
            for key in ["style", "explode", "allowReserved"] where parameter[key] != nil {
                problem(at + [key], "\(key) goes with a schema; a parameter with a content has none")
            }
        } else if parameter["allowReserved"] != nil {
            // A cookie's style is form unless it says.
            let style = parameter["style"]?.text ?? "form"
            let allowed = place == "path" || place == "query" || (place == "cookie" && style == "form")
            if !allowed {
                problem(
                    at + ["allowReserved"],
                    "allowReserved is for a path or query parameter, or a cookie of style form, which percent-encode")
            }
        }
        examples(parameter, at)
        content(parameter["content"], at + ["content"])
        if let schema = parameter["schema"] { self.schema(schema, at + ["schema"]) }
    }

    private mutating func header(_ header: JSONValue, _ at: [String]) {
        guard !Self.isReference(header) else { return }
        if header["allowReserved"] != nil {
            problem(at + ["allowReserved"], "a header has no allowReserved: its values are not percent-encoded")
        }
        examples(header, at)
        content(header["content"], at + ["content"])
        if let schema = header["schema"] { self.schema(schema, at + ["schema"]) }
    }

    /// A map of headers by name: each name a token, each header on its own.
    private mutating func headers(_ headers: JSONValue?, _ at: [String]) {
        for (name, header) in Self.members(headers) {
            if !Self.isToken(name) {
                problem(at + [name], "a header's name is a token (RFC 9110): letters, digits and !#$%&'*+-.^_`|~")
            }
            self.header(header, at + [name])
        }
    }

    /// `example` and `examples`, which exclude each other, and each example.
    private mutating func examples(_ owner: JSONValue, _ at: [String]) {
        if owner["example"] != nil, owner["examples"] != nil {
            problem(at + ["example"], "example and examples exclude each other")
        }
        for (name, example) in Self.members(owner["examples"]) { self.example(example, at + ["examples", name]) }
    }

    private mutating func example(_ example: JSONValue, _ at: [String]) {
        guard !Self.isReference(example) else { return }
        let pairs = [
            ("value", "externalValue"), ("value", "dataValue"), ("value", "serializedValue"),
            ("serializedValue", "externalValue"),
        ]
        for (one, other) in pairs where example[one] != nil && example[other] != nil {
            problem(at + [other], "an example's \(one) and \(other) exclude each other")
        }
    }

    // MARK: - Bodies

    private mutating func response(_ response: JSONValue, _ at: [String]) {
        guard !Self.isReference(response) else { return }
        headers(response["headers"], at + ["headers"])
        content(response["content"], at + ["content"])
    }

    private mutating func content(_ content: JSONValue?, _ at: [String]) {
        for (type, media) in Self.members(content) { mediaType(media, at + [type]) }
    }

    private mutating func mediaType(_ media: JSONValue, _ at: [String]) {
        guard !Self.isReference(media) else { return }
        for key in ["schema", "itemSchema"] {
            if let schema = media[key] { self.schema(schema, at + [key]) }
        }
        examples(media, at)
        encodings(media, at)
    }

    /// `encoding` beside `prefixEncoding` or `itemEncoding`, which it excludes, and each encoding.
    private mutating func encodings(_ owner: JSONValue, _ at: [String]) {
        if owner["encoding"] != nil {
            for key in ["prefixEncoding", "itemEncoding"] where owner[key] != nil {
                problem(at + [key], "encoding and \(key) exclude each other")
            }
        }
        for (name, encoding) in Self.members(owner["encoding"]) { self.encoding(encoding, at + ["encoding", name]) }
        for (index, encoding) in Self.items(owner["prefixEncoding"]).enumerated() {
            self.encoding(encoding, at + ["prefixEncoding", String(index)])
        }
        if let encoding = owner["itemEncoding"] { self.encoding(encoding, at + ["itemEncoding"]) }
    }

    private mutating func encoding(_ encoding: JSONValue, _ at: [String]) {
        headers(encoding["headers"], at + ["headers"])
        encodings(encoding, at)
    }

    // MARK: - Schemas

    /// The subschemas a schema holds, each by its key: one (`items`), a map (`properties`) or
    /// a list (`allOf`).
    private static let oneSchema = [
        "items", "not", "additionalProperties", "if", "then", "else", "contains", "propertyNames",
        "unevaluatedItems", "unevaluatedProperties", "contentSchema",
    ]
    private static let schemaMaps = ["properties", "patternProperties", "$defs", "dependentSchemas"]
    private static let schemaLists = ["allOf", "anyOf", "oneOf", "prefixItems"]

    private mutating func schema(_ schema: JSONValue, _ at: [String]) {
        switch schema {
        case .object: break
        case .bool: return
        default:
            problem(at, "a schema is an object or a boolean, not \(schema.kindName)")
            return
        }
        if let xml = schema["xml"], xml["nodeType"] != nil {
            for key in ["attribute", "wrapped"] where xml[key] != nil {
                problem(at + ["xml", key], "xml's nodeType replaces \(key): the two exclude each other")
            }
        }
        for key in Self.oneSchema {
            if let sub = schema[key] { self.schema(sub, at + [key]) }
        }
        for key in Self.schemaMaps {
            for (name, sub) in Self.members(schema[key]) { self.schema(sub, at + [key, name]) }
        }
        for key in Self.schemaLists {
            for (index, sub) in Self.items(schema[key]).enumerated() { self.schema(sub, at + [key, String(index)]) }
        }
    }

    /// Whether `name` is an RFC 9110 token.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
    }
}
