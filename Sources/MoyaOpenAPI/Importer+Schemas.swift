import MoyaHTTP
import MoyaSchema
import OpenAPIKit

/// The document as written, whose schemas a spec's `schema:` and `requestSchema:` refer to
/// by JSON pointer, and against which each example is checked before it becomes a sample.
final class SchemaSource {
    /// The document as written: an OpenAPI 3.x or Swagger 2.0 one.
    let raw: JSONValue
    let isSwagger2: Bool
    /// The document's path relative to the spec's folder, as the spec's `$ref`s write it.
    let reference: String
    private let registry = SchemaRegistry()
    private let uri: String
    private let dialect: SchemaDialect
    /// Whether every `$ref` in it stays in it; a document that reaches another file is not
    /// checked here (`validate` reads the files).
    private lazy var isSelfContained = SchemaRegistry.references(in: raw).allSatisfy { $0.hasPrefix("#") }
    private var checked = 0

    init(raw: JSONValue, isSwagger2: Bool, reference: String, version: String) {
        self.raw = raw
        self.isSwagger2 = isSwagger2
        self.reference = reference
        uri = "urn:moya-cli:document"
        // A Swagger 2.0 document's schemas are draft 4's, as a 3.0 document's are.
        dialect = isSwagger2 || version.hasPrefix("3.0") ? .openAPI30 : .draft2020_12
        registry.add(raw, uri: uri, dialect: dialect)
    }

    /// The pointer to the value at `tokens`, following each `$ref` to this document on the
    /// way (a response or a parameter from the components); nil where the path leaves it.
    func pointer(_ tokens: [String]) -> [String]? {
        var path: [String] = []
        var current = raw
        for token in tokens {
            guard let next = follow(current, &path)?.value(atPath: [token]) else { return nil }
            path.append(token)
            current = next
        }
        return follow(current, &path) == nil ? nil : path
    }

    /// `value` with its chain of `#/…` references followed, at most 32 of them.
    private func follow(_ value: JSONValue, _ path: inout [String]) -> JSONValue? {
        var current = value
        for _ in 0..<32 {
            guard case .string(let reference)? = current["$ref"], reference.hasPrefix("#/"),
                let tokens = URIReference(reference).pointer
            else { return current }
            path = tokens
            guard let target = raw.value(atPath: path) else { return nil }
            current = target
        }
        return nil
    }

    /// The schema of a response's JSON content, from the operation's pointer (`paths`, the
    /// path, the method) and the status as written; nil without JSON content or a schema.
    func responseSchema(operation: [String], status: String, content: [String]) -> [String]? {
        let response = operation + ["responses", status]
        // Swagger's `produces`, read into the content's media types, says whether it is JSON.
        guard let key = Self.jsonKey(content) else { return nil }
        return pointer(response + (isSwagger2 ? ["schema"] : ["content", key, "schema"]))
    }

    /// The schema of an operation's JSON request body; in Swagger 2.0, its `in: body`
    /// parameter's, the operation's own or its path's.
    func requestSchema(operation: [String], content: [String]) -> [String]? {
        guard let key = Self.jsonKey(content) else { return nil }
        guard isSwagger2 else { return pointer(operation + ["requestBody", "content", key, "schema"]) }
        for owner in [operation, Array(operation.dropLast())] {
            guard let list = pointer(owner + ["parameters"]), case .array(let parameters)? = raw.value(atPath: list)
            else { continue }
            for index in parameters.indices {
                let at = owner + ["parameters", String(index)]
                if let found = pointer(at), raw.value(atPath: found)?["in"] == .string("body") {
                    return pointer(at + ["schema"])
                }
            }
        }
        return nil
    }

    /// The first JSON media type among a content's keys, as written, else a wildcard, which
    /// import answers as JSON.
    private static func jsonKey(_ keys: [String]) -> String? {
        func type(_ key: String) -> String {
            key.split(separator: ";").first.map { $0.filter { $0 != " " }.lowercased() } ?? ""
        }
        return keys.filter { type($0) == "application/json" || type($0).hasSuffix("+json") }.min()
            ?? keys.filter { type($0).contains("*") }.min()
    }

    /// The `$ref` a spec writes to the schema at `pointer`: `api.yaml#/components/schemas/Pet`.
    func reference(to pointer: [String]) -> String {
        // A URI reference: what would end the path or start a query or fragment is escaped.
        let path = PercentEncoding.encode(reference) { byte in !" #%?".utf8.contains(byte) }
        return path + Self.fragment(pointer)
    }

    /// A pointer as a URI fragment: `#/components/schemas/Pet`, `%` escaped as the
    /// registry unescapes it.
    private static func fragment(_ pointer: [String]) -> String {
        "#" + Names.pointer(pointer).replacing("%", with: "%25")
    }

    /// Each way `value` breaks the schema at `pointer`; nil when the schema reaches another
    /// file, which is not checked here.
    func errors(in value: JSONValue, schema pointer: [String]) -> [SchemaError]? {
        guard isSelfContained else { return nil }
        checked += 1
        var validator = SchemaValidator(
            schema: .object([("$ref", .string(uri + Self.fragment(pointer)))]), uri: "urn:moya-cli:example:\(checked)",
            dialect: dialect, registry: registry)
        // Formats too: a sample is what a mock answers, and a client's validator may assert them.
        validator.assertsFormat = true
        return validator.errors(in: value)
    }
}

extension SchemaSource {
    /// How deep a value made from the document goes before it makes only required members.
    static let leanDepth = 8
    /// How deep it goes at all: past this a member is left out, as a cycle's is.
    static let maximumDepth = 32

    /// A value that meets the schema at `pointer`, made from the document as written: the
    /// fallback when the value made from OpenAPIKit's reading does not meet it (OpenAPIKit
    /// drops an object's `required` beside an `allOf`, and reads `nullable` in 3.1). Each
    /// example or default is used only where it meets its own schema, and of a `oneOf` or
    /// `anyOf` the first choice that meets the whole is taken.
    func value(at pointer: [String]) -> JSONValue? {
        var made = 0
        return make(pointer, depth: 0, trail: [], made: &made)
    }

    /// `required` adds member names to make however deep: those another part of the same
    /// `allOf` requires.
    private func make(
        _ start: [String], depth: Int, trail: Set<[String]>, made: inout Int, required alsoRequired: Set<String> = []
    ) -> JSONValue? {
        var path = start
        guard depth < Self.maximumDepth, let schema = follow(raw.value(atPath: start) ?? .null, &path),
            !trail.contains(path)
        else { return nil }
        guard case .object = schema else { return schema == .bool(false) ? nil : .null }
        // `enum: []` allows no value: none is made up.
        if schema["enum"] == .array([]) { return nil }
        made += 1
        let trail = trail.union([path])
        let lean = depth >= Self.leanDepth || made > SampleSynthesis.budget
        func fits(_ value: JSONValue) -> Bool { errors(in: value, schema: path)?.isEmpty ?? true }

        var given: [JSONValue] = []
        if let example = schema["example"] { given.append(example) }
        if case .array(let examples)? = schema["examples"], let first = examples.first { given.append(first) }
        if let value = schema["default"] { given.append(value) }
        if let value = schema["const"] { given.append(value) }
        if case .array(let values)? = schema["enum"], let first = values.first(where: { $0 != .null }) {
            given.append(first)
        }
        if let found = given.first(where: fits) { return found }

        // The schema's own keywords, then each `allOf` part merged in.
        var required = alsoRequired
        if case .array(let names)? = schema["required"] { required.formUnion(names.compactMap(\.stringValue)) }
        var value = own(schema, path, depth: depth, trail: trail, lean: lean, required: required, made: &made)
        if case .array(let parts)? = schema["allOf"] {
            for index in parts.indices {
                guard
                    let part = make(
                        path + ["allOf", String(index)], depth: depth + 1, trail: trail, made: &made,
                        required: required)
                else { continue }
                value = Self.merge(value, part)
            }
        }
        for keyword in ["oneOf", "anyOf"] {
            guard case .array(let choices)? = schema[keyword] else { continue }
            var first: JSONValue?
            for index in choices.indices {
                guard
                    let choice = make(path + [keyword, String(index)], depth: depth + 1, trail: trail, made: &made)
                else { continue }
                let merged = Self.merge(value, choice)
                if fits(merged) { return merged }
                first = first ?? merged
            }
            if let first { value = first }
        }
        return value
    }

    /// The value a schema's type and bounds describe, before `allOf`, `oneOf` and `anyOf`;
    /// nil when it names no type.
    private func own(
        _ schema: JSONValue, _ path: [String], depth: Int, trail: Set<[String]>, lean: Bool,
        required: Set<String>, made: inout Int
    ) -> JSONValue? {
        var type: String?
        switch schema["type"] {
        case .string(let name)?: type = name
        case .array(let names)?: type = names.compactMap(\.stringValue).first { $0 != "null" } ?? "null"
        default:
            if schema["properties"] != nil || schema["required"] != nil { type = "object" }
            if schema["items"] != nil { type = "array" }
        }
        func number(_ keyword: String) -> Double? { schema[keyword]?.numberValue }
        switch type {
        case "object"?:
            var members: [(key: String, value: JSONValue)] = []
            if case .object(let properties)? = schema["properties"] {
                for property in properties.sorted(by: { $0.key < $1.key })
                where !lean || required.contains(property.key) {
                    guard
                        let value = make(
                            path + ["properties", property.key], depth: depth + 1, trail: trail, made: &made)
                    else { continue }
                    members.append((property.key, value))
                }
            }
            // A name this schema requires with no schema here is another part's to describe;
            // null holds its place.
            var own: Set<String> = []
            if case .array(let names)? = schema["required"] { own = Set(names.compactMap(\.stringValue)) }
            for name in own.sorted() where !members.contains(where: { $0.key == name }) {
                members.append((name, .null))
            }
            // As many members as `minProperties` asks: the described ones left out when lean,
            // then made-up names for `additionalProperties`' values.
            let least = min(Int(exactly: number("minProperties") ?? 0) ?? 0, 100)
            if members.count < least, case .object(let properties)? = schema["properties"] {
                for property in properties.sorted(by: { $0.key < $1.key }) where members.count < least {
                    guard !members.contains(where: { $0.key == property.key }),
                        let value = make(
                            path + ["properties", property.key], depth: depth + 1, trail: trail, made: &made)
                    else { continue }
                    members.append((property.key, value))
                }
            }
            if members.count < least, schema["patternProperties"] == nil, schema["propertyNames"] == nil,
                schema["additionalProperties"] != .bool(false)
            {
                let extra =
                    schema["additionalProperties"].flatMap { additional in
                        additional == .bool(true)
                            ? JSONValue.string("string")
                            : make(path + ["additionalProperties"], depth: depth + 1, trail: trail, made: &made)
                    } ?? .string("string")
                SampleSynthesis.pad(&members, to: least, with: extra)
            }
            return .object(members.sorted { $0.key < $1.key })
        case "array"?:
            let minimum = Int(exactly: number("minItems") ?? 0) ?? 0
            let count = lean ? minimum : max(1, minimum)
            guard count > 0, count <= 100,
                let item = make(path + ["items"], depth: depth + 1, trail: trail, made: &made)
            else { return .array([]) }
            return .array(Array(repeating: item, count: count))
        case "string"?:
            let minLength = Int(exactly: number("minLength") ?? 0) ?? 0
            let maxLength = number("maxLength").flatMap { Int(exactly: $0) }
            if let pattern = schema["pattern"]?.stringValue, let text = PatternExample.example(for: pattern),
                text.count >= minLength, text.count <= maxLength ?? .max
            {
                return .string(text)
            }
            return .string(
                SampleSynthesis.string(
                    format: schema["format"]?.stringValue ?? "", minLength: minLength, maxLength: maxLength))
        case "integer"?, "number"?:
            var value = 0.0
            if let minimum = number("minimum") {
                value = schema["exclusiveMinimum"] == .bool(true) ? minimum + 1 : minimum
            } else if let minimum = number("exclusiveMinimum") {
                value = minimum + 1
            } else if let maximum = number("maximum"), maximum < 0 {
                value = schema["exclusiveMaximum"] == .bool(true) ? maximum - 1 : maximum
            } else if let maximum = number("exclusiveMaximum"), maximum <= 0 {
                value = maximum - 1
            }
            if type == "integer" { return Int(exactly: value.rounded(.up)).map(JSONValue.integer) ?? .integer(0) }
            return .number(value)
        case "boolean"?: return .bool(true)
        case "null"?: return .null
        default: return nil
        }
    }

    /// `part` merged into `value`: an object's members added, a null member filled; else the
    /// first value that is not null.
    private static func merge(_ value: JSONValue?, _ part: JSONValue) -> JSONValue {
        guard case .object(var members)? = value, case .object(let more) = part else {
            if let value, value != .null { return value }
            return part
        }
        for member in more {
            if let index = members.firstIndex(where: { $0.key == member.key }) {
                if members[index].value == .null { members[index].value = member.value }
            } else {
                members.append(member)
            }
        }
        return .object(members.sorted { $0.key < $1.key })
    }
}
