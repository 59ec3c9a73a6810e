import MoyaHTTP

/// A Swagger 2.0 document read as the OpenAPI 3.0 document it describes, so that the rest of
/// import reads one kind. What moves:
///
/// - `schemes`, `host` and `basePath` become servers, one per scheme (`https` when none is
///   given); without a `host`, the server is the base path alone.
/// - `definitions`, `parameters`, `responses` and `securityDefinitions` become components,
///   and their `$ref`s follow them.
/// - A `body` parameter becomes the request body, with a media type for each type the
///   operation `consumes`; `formData` parameters become a form or multipart body whose schema
///   is an object of them.
/// - A parameter's type keywords become its schema; `collectionFormat` becomes a `style` and
///   `explode` (`csv`, the default, is `form` with `explode: false` in the query); `x-example`
///   becomes its example.
/// - A response's schema and `examples` become content, for each type the operation
///   `produces`.
/// - In schemas, `type: file` is a binary string, `x-nullable` is `nullable`, and a
///   `discriminator` names its property.
///
/// What has no equivalent (`tsv` arrays) is read the nearest way, with a warning naming its
/// JSON pointer in the 2.0 document.
struct Swagger2 {
    let root: JSONValue
    private(set) var warnings: [(pointer: [String], message: String)] = []

    init(_ root: JSONValue) {
        self.root = root
    }

    /// Where a 2.0 component lives in the 3.0 document, by its pointer's prefix.
    static let movedPrefixes = [
        ("#/definitions/", "#/components/schemas/"), ("#/parameters/", "#/components/parameters/"),
        ("#/responses/", "#/components/responses/"), ("#/securityDefinitions/", "#/components/securitySchemes/"),
    ]

    /// A 3.0 pointer in a warning, as the 2.0 document's: `#/components/schemas/Pet` is
    /// `#/definitions/Pet`.
    static func originalPointers(_ text: String) -> String {
        movedPrefixes.reduce(text) { text, moved in text.replacing(moved.1, with: moved.0) }
    }

    mutating func convert() -> JSONValue {
        var document: [(key: String, value: JSONValue)] = [("openapi", .string("3.0.3"))]
        document.append(("info", root["info"] ?? .object([])))
        if let docs = root["externalDocs"] { document.append(("externalDocs", docs)) }
        document.append(("servers", .array(servers())))
        for key in ["tags", "security"] { if let value = root[key] { document.append((key, value)) } }
        var paths: [(key: String, value: JSONValue)] = []
        if case .object(let items)? = root["paths"] {
            for (path, item) in items {
                paths.append((path, pathItem(item, at: ["paths", path])))
            }
        }
        document.append(("paths", .object(paths)))
        let components = self.components()
        if !components.isEmpty { document.append(("components", .object(components))) }
        document += Self.extensions(of: root)
        return .object(document)
    }

    // MARK: - Servers and components

    func servers() -> [JSONValue] {
        let basePath = root["basePath"].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? "/"
        guard case .string(let host)? = root["host"], !host.isEmpty else {
            return [.object([("url", .string(basePath))])]
        }
        var schemes: [String] = []
        if case .array(let values)? = root["schemes"] {
            for case .string(let scheme) in values where ["http", "https"].contains(scheme.lowercased()) {
                schemes.append(scheme.lowercased())
            }
        }
        if schemes.isEmpty { schemes = ["https"] }
        let path = basePath == "/" ? "" : basePath
        return schemes.map { .object([("url", .string("\($0)://\(host)\(path)"))]) }
    }

    mutating func components() -> [(key: String, value: JSONValue)] {
        var components: [(key: String, value: JSONValue)] = []
        if case .object(let definitions)? = root["definitions"], !definitions.isEmpty {
            components.append(("schemas", .object(definitions.map { ($0.key, schema($0.value)) })))
        }
        if case .object(let parameters)? = root["parameters"] {
            // Body and form parameters are request bodies in 3.0; operations take them in.
            let kept = parameters.filter { !Self.isBodyLike($0.value) }
                .map { ($0.key, parameter($0.value, at: ["parameters", $0.key])) }
            if !kept.isEmpty { components.append(("parameters", .object(kept))) }
        }
        if case .object(let responses)? = root["responses"], !responses.isEmpty {
            let produces = Self.types(root["produces"]) ?? ["application/json"]
            components.append(
                ("responses", .object(responses.map { ($0.key, response($0.value, produces: produces)) })))
        }
        if case .object(let schemes)? = root["securityDefinitions"], !schemes.isEmpty {
            components.append(("securitySchemes", .object(schemes.map { ($0.key, securityScheme($0.value)) })))
        }
        return components
    }

    func securityScheme(_ scheme: JSONValue) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        let description = scheme["description"].map { [(key: "description", value: $0)] } ?? []
        switch scheme["type"] {
        case .string("basic")?:
            members = [("type", .string("http")), ("scheme", .string("basic"))]
        case .string("oauth2")?:
            let names = [
                "implicit": "implicit", "password": "password", "application": "clientCredentials",
                "accessCode": "authorizationCode",
            ]
            var flow: [(key: String, value: JSONValue)] = []
            for key in ["authorizationUrl", "tokenUrl"] { if let url = scheme[key] { flow.append((key, url)) } }
            flow.append(("scopes", scheme["scopes"] ?? .object([])))
            let name = scheme["flow"].flatMap { if case .string(let text) = $0 { names[text] } else { nil } }
            members = [("type", .string("oauth2")), ("flows", .object([(name ?? "implicit", .object(flow))]))]
        default:
            // apiKey reads the same in both.
            guard case .object(let given) = scheme else { return scheme }
            return .object(given)
        }
        return .object(members + description + Self.extensions(of: scheme))
    }

    // MARK: - Paths and operations

    static let methods = ["get", "put", "post", "delete", "options", "head", "patch"]

    mutating func pathItem(_ item: JSONValue, at pointer: [String]) -> JSONValue {
        guard case .object(let members) = item, item["$ref"] == nil else { return item }
        let shared = Self.list(item["parameters"])
        var converted: [(key: String, value: JSONValue)] = []
        let kept = shared.enumerated().filter { !Self.isBodyLike(resolved($0.element)) }
        if !kept.isEmpty {
            converted.append(
                (
                    "parameters",
                    .array(kept.map { parameter($0.element, at: pointer + ["parameters", String($0.offset)]) })
                ))
        }
        for (key, value) in members {
            if Self.methods.contains(key) {
                converted.append((key, operation(value, shared: shared, at: pointer + [key])))
            } else if ["summary", "description", "servers"].contains(key) || key.hasPrefix("x-") {
                converted.append((key, value))
            }
        }
        return .object(converted)
    }

    mutating func operation(_ operation: JSONValue, shared: [JSONValue], at pointer: [String]) -> JSONValue {
        guard case .object(let members) = operation else { return operation }
        let consumes = Self.types(operation["consumes"]) ?? Self.types(root["consumes"]) ?? ["application/json"]
        let produces = Self.types(operation["produces"]) ?? Self.types(root["produces"]) ?? ["application/json"]
        // The path item's parameters, less those the operation redeclares (same name and place).
        let own = Self.list(operation["parameters"])
        let keys = Set(own.map { Self.key(of: resolved($0)) })
        let inherited = shared.filter { !keys.contains(Self.key(of: resolved($0))) }
        let all =
            inherited.map { (value: $0, pointer: pointer.dropLast() + ["parameters"]) }
            + own.enumerated().map { (value: $0.element, pointer: pointer + ["parameters", String($0.offset)]) }

        var converted: [(key: String, value: JSONValue)] = []
        for (key, value) in members {
            switch key {
            case "tags", "summary", "description", "externalDocs", "operationId", "deprecated", "security":
                converted.append((key, value))
            case "parameters":
                let kept = own.enumerated().filter { !Self.isBodyLike(resolved($0.element)) }
                if !kept.isEmpty {
                    converted.append(
                        (
                            "parameters",
                            .array(kept.map { parameter($0.element, at: pointer + ["parameters", String($0.offset)]) })
                        ))
                }
            case "responses":
                guard case .object(let responses) = value else { continue }
                converted.append(
                    ("responses", .object(responses.map { ($0.key, response($0.value, produces: produces)) })))
            default:
                if key.hasPrefix("x-") { converted.append((key, value)) }
            }
        }
        if let body = requestBody(all.map { (resolved($0.value), $0.pointer) }, consumes: consumes) {
            let index = converted.firstIndex { $0.key == "responses" } ?? converted.endIndex
            converted.insert(("requestBody", body), at: index)
        }
        return .object(converted)
    }

    /// The request body that an operation's `body` or `formData` parameters describe.
    mutating func requestBody(_ parameters: [(value: JSONValue, pointer: [String])], consumes: [String]) -> JSONValue? {
        if let body = parameters.first(where: { $0.value["in"] == .string("body") })?.value {
            let schema = body["schema"].map(schema) ?? .object([])
            var examples: [(key: String, value: JSONValue)] = []
            if case .object(let given)? = body["x-examples"] { examples = given }
            let types = consumes.filter { !Self.formTypes.contains($0) }
            let content = (types.isEmpty ? ["application/json"] : types).map {
                type -> (key: String, value: JSONValue) in
                var media: [(key: String, value: JSONValue)] = [("schema", schema)]
                if let example = examples.first(where: { $0.key == type })?.value { media.append(("example", example)) }
                return (type, .object(media))
            }
            var members: [(key: String, value: JSONValue)] = []
            if let description = body["description"] { members.append(("description", description)) }
            members.append(("content", .object(content)))
            if body["required"] == .bool(true) { members.append(("required", .bool(true))) }
            return .object(members)
        }
        let fields = parameters.filter { $0.value["in"] == .string("formData") }
        guard !fields.isEmpty else { return nil }
        let hasFile = fields.contains { $0.value["type"] == .string("file") }
        // A file can only go in a multipart body.
        let type =
            hasFile
            ? "multipart/form-data"
            : consumes.first(where: { Self.formTypes.contains($0) }) ?? "application/x-www-form-urlencoded"
        var properties: [(key: String, value: JSONValue)] = []
        var required: [JSONValue] = []
        var encoding: [(key: String, value: JSONValue)] = []
        for (field, pointer) in fields {
            guard case .string(let name)? = field["name"] else { continue }
            var members = Self.members(of: parameterSchema(field))
            if let description = field["description"] { members.append(("description", description)) }
            properties.append((name, .object(members)))
            if field["required"] == .bool(true) { required.append(.string(name)) }
            if let (style, explode) = style(of: field, at: pointer), style != "form" || !explode {
                encoding.append((name, .object([("style", .string(style)), ("explode", .bool(explode))])))
            }
        }
        var schema: [(key: String, value: JSONValue)] = [
            ("type", .string("object")), ("properties", .object(properties)),
        ]
        if !required.isEmpty { schema.append(("required", .array(required))) }
        var media: [(key: String, value: JSONValue)] = [("schema", .object(schema))]
        if !encoding.isEmpty { media.append(("encoding", .object(encoding))) }
        var members: [(key: String, value: JSONValue)] = [("content", .object([(type, .object(media))]))]
        if !required.isEmpty { members.append(("required", .bool(true))) }
        return .object(members)
    }

    static let formTypes: Set<String> = ["application/x-www-form-urlencoded", "multipart/form-data"]

    // MARK: - Parameters

    /// A query, header or path parameter: its type keywords as its schema.
    mutating func parameter(_ parameter: JSONValue, at pointer: [String]) -> JSONValue {
        if case .string(let reference)? = parameter["$ref"] {
            return .object([("$ref", .string(Self.moved(reference)))])
        }
        guard case .object(let given) = parameter else { return parameter }
        var members: [(key: String, value: JSONValue)] = []
        for (key, value) in given where ["name", "in", "description", "required", "allowEmptyValue"].contains(key) {
            members.append((key, value))
        }
        // A path parameter is required by definition; flasgger's descriptions leave it unsaid.
        if parameter["in"] == .string("path"), parameter["required"] != .bool(true) {
            members.removeAll { $0.key == "required" }
            members.append(("required", .bool(true)))
            warnings.append(
                (pointer + ["required"], "a path parameter is required, which this one does not say; read as required"))
        }
        members.append(("schema", parameterSchema(parameter)))
        if let (style, explode) = style(of: parameter, at: pointer) {
            members += [("style", .string(style)), ("explode", .bool(explode))]
        }
        if let example = parameter["x-example"] { members.append(("example", example)) }
        members += Self.extensions(of: parameter).filter { $0.key != "x-example" }
        return .object(members)
    }

    /// The keywords of a 2.0 parameter, header or `items` that a 3.0 schema holds.
    func parameterSchema(_ parameter: JSONValue) -> JSONValue {
        guard case .object(let given) = parameter else { return .object([]) }
        let keywords: Set<String> = [
            "type", "format", "default", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength",
            "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "enum", "multipleOf",
        ]
        // A file is a binary string, whatever format the parameter gave it.
        let isFile = parameter["type"] == .string("file")
        var members: [(key: String, value: JSONValue)] = []
        for (key, value) in given where keywords.contains(key) {
            if key == "type", isFile {
                members += [("type", .string("string")), ("format", .string("binary"))]
            } else if key != "format" || !isFile {
                members.append((key, value))
            }
        }
        if let items = parameter["items"] { members.append(("items", parameterSchema(items))) }
        if parameter["x-nullable"] == .bool(true) { members.append(("nullable", .bool(true))) }
        return .object(members)
    }

    /// An array parameter's `collectionFormat` as a 3.0 style: `csv` (the default) is
    /// `form` unexploded in the query and a form body, and `simple` in a path or header.
    mutating func style(of parameter: JSONValue, at pointer: [String]) -> (style: String, explode: Bool)? {
        guard parameter["type"] == .string("array") else { return nil }
        let location = parameter["in"].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? ""
        var format =
            parameter["collectionFormat"].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? "csv"
        let inForm = location == "query" || location == "formData"
        if format == "tsv" || (!inForm && format != "csv") {
            warnings.append(
                (pointer + ["collectionFormat"], "collectionFormat \(format) has no OpenAPI 3 style here; read as csv"))
            format = "csv"
        }
        guard inForm else { return location == "path" || location == "header" ? ("simple", false) : nil }
        switch format {
        case "multi": return ("form", true)
        case "ssv": return ("spaceDelimited", false)
        case "pipes": return ("pipeDelimited", false)
        default: return ("form", false)
        }
    }

    // MARK: - Responses and schemas

    func response(_ response: JSONValue, produces: [String]) -> JSONValue {
        if case .string(let reference)? = response["$ref"] {
            return .object([("$ref", .string(Self.moved(reference)))])
        }
        var members: [(key: String, value: JSONValue)] = [("description", response["description"] ?? .string(""))]
        if case .object(let headers)? = response["headers"], !headers.isEmpty {
            members.append(
                (
                    "headers",
                    .object(
                        headers.map { name, header in
                            var converted: [(key: String, value: JSONValue)] = []
                            if let description = header["description"] {
                                converted.append(("description", description))
                            }
                            converted.append(("schema", parameterSchema(header)))
                            return (name, .object(converted))
                        })
                ))
        }
        var examples: [(key: String, value: JSONValue)] = []
        if case .object(let given)? = response["examples"] { examples = given }
        let schema = response["schema"].map(schema)
        var types = schema == nil ? [] : produces
        for example in examples where !types.contains(example.key) { types.append(example.key) }
        if !types.isEmpty {
            members.append(
                (
                    "content",
                    .object(
                        types.map { type in
                            var media: [(key: String, value: JSONValue)] = []
                            if let schema { media.append(("schema", schema)) }
                            if let example = examples.first(where: { $0.key == type })?.value {
                                media.append(("example", example))
                            }
                            return (type, .object(media))
                        })
                ))
        }
        return .object(members + Self.extensions(of: response))
    }

    /// A 2.0 schema as 3.0's: `$ref`s to definitions moved, `type: file` a binary string,
    /// `x-nullable` as `nullable`, a discriminator's property name as an object. The
    /// document's depth, which the reader bounds, bounds the recursion.
    func schema(_ schema: JSONValue) -> JSONValue {
        guard case .object(let given) = schema else { return schema }
        var members: [(key: String, value: JSONValue)] = []
        for (key, value) in given {
            switch (key, value) {
            case ("$ref", .string(let reference)):
                members.append((key, .string(Self.moved(reference))))
            case ("type", .string("file")):
                members += [("type", .string("string")), ("format", .string("binary"))]
            case ("x-nullable", let flag):
                members.append(("nullable", flag))
            case ("discriminator", .string(let property)):
                members.append((key, .object([("propertyName", .string(property))])))
            case ("properties", .object(let properties)), ("patternProperties", .object(let properties)):
                members.append((key, .object(properties.map { ($0.key, self.schema($0.value)) })))
            case ("items", .array(let schemas)):
                members.append((key, .array(schemas.map(self.schema))))
            case ("items", _), ("additionalProperties", _), ("not", _):
                members.append((key, self.schema(value)))
            case ("allOf", .array(let schemas)), ("anyOf", .array(let schemas)), ("oneOf", .array(let schemas)):
                members.append((key, .array(schemas.map(self.schema))))
            default:
                members.append((key, value))
            }
        }
        return .object(members)
    }

    // MARK: - Helpers

    /// A `$ref` to a 2.0 component, pointing where 3.0 keeps it.
    static func moved(_ reference: String) -> String {
        for (old, new) in movedPrefixes where reference.hasPrefix(old) {
            return new + reference.dropFirst(old.count)
        }
        return reference
    }

    /// A parameter, its `$ref` into the document's `parameters` followed.
    func resolved(_ parameter: JSONValue) -> JSONValue {
        guard case .string(let reference)? = parameter["$ref"], reference.hasPrefix("#/parameters/") else {
            return parameter
        }
        let name = String(reference.dropFirst("#/parameters/".count))
            .replacing("~1", with: "/").replacing("~0", with: "~")
        return root["parameters"]?[name] ?? parameter
    }

    static func isBodyLike(_ parameter: JSONValue) -> Bool {
        parameter["in"] == .string("body") || parameter["in"] == .string("formData")
    }

    static func key(of parameter: JSONValue) -> String {
        "\(parameter["in"]?.text ?? "") \(parameter["name"]?.text ?? "")"
    }

    static func list(_ value: JSONValue?) -> [JSONValue] {
        if case .array(let items)? = value { return items }
        return []
    }

    static func types(_ value: JSONValue?) -> [String]? {
        guard case .array(let items)? = value else { return nil }
        let types = items.compactMap { if case .string(let text) = $0 { text } else { nil } }
        return types.isEmpty ? nil : types
    }

    static func members(of value: JSONValue) -> [(key: String, value: JSONValue)] {
        if case .object(let members) = value { return members }
        return []
    }

    static func extensions(of value: JSONValue) -> [(key: String, value: JSONValue)] {
        members(of: value).filter { $0.key.hasPrefix("x-") }
    }
}
