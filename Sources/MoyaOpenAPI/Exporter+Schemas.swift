import MoyaHTTP
import MoyaSchema
import MoyaSpec

/// The schemas a service's specs refer to, gathered into one OpenAPI 3.1 document: a schema
/// of another OpenAPI document's components (`#/components/schemas/Pet`, Swagger's
/// `#/definitions/Pet`) becomes a component of the same name, a whole file (`user.json`) one
/// named after the file, and any other pointer is written in place. Schemas read in
/// OpenAPI 3.0's dialect are written in 3.1's: `nullable` as a `null` type, a boolean
/// `exclusiveMinimum` as a number, and Swagger's `discriminator` name as an object.
final class SchemaBundle {
    /// The components written, in the order they were first reached.
    private(set) var components: [(key: String, value: JSONValue)] = []
    /// Component names by the `DOCUMENT#POINTER` they were made from.
    private var names: [String: String] = [:]

    /// How deeply references written in place may nest before the rest becomes a component.
    static let maximumDepth = 64

    /// `spec`'s schema, its `$ref`s pointing into this document.
    func schema(_ spec: SchemaSpec) -> JSONValue {
        let documents = Dictionary(
            spec.documents.map { ($0.uri, $0) }, uniquingKeysWith: { first, _ in first })
        let writer = Writer(bundle: self, documents: documents)
        return writer.rewrite(spec.schema, base: URIReference(spec.uri), dialect: spec.dialect, depth: 0)
    }

    fileprivate func component(named preferred: String, key: String, make: () -> JSONValue) -> String {
        if let name = names[key] { return name }
        var name = preferred.isEmpty ? "schema" : preferred
        var number = 2
        while components.contains(where: { $0.key == name }) || names.values.contains(name) {
            name = preferred + String(number)
            number += 1
        }
        names[key] = name
        // Reserved before it is made: a schema that refers to itself finds its name.
        let index = components.count
        components.append((name, .object([])))
        components[index].value = make()
        return name
    }

    private struct Writer {
        let bundle: SchemaBundle
        let documents: [String: SchemaSpec.Document]

        /// The keywords whose values are schemas: one, a map of them, or a list of them.
        /// Any other member (`properties`' names, `enum`, `default`, `example`) is data, and
        /// is written as it is.
        static let schemaKeywords: Set<String> = [
            "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedItems",
            "unevaluatedProperties", "additionalItems", "contentSchema", "items",
        ]
        static let schemaMapKeywords: Set<String> = [
            "properties", "patternProperties", "$defs", "definitions", "dependentSchemas",
        ]
        static let schemaListKeywords: Set<String> = ["allOf", "anyOf", "oneOf", "prefixItems"]

        /// A schema rewritten: its `$ref`s into this document, its 3.0 keywords as 3.1's.
        func rewrite(_ value: JSONValue, base: URIReference, dialect: SchemaDialect, depth: Int) -> JSONValue {
            func schema(_ value: JSONValue) -> JSONValue { rewrite(value, base: base, dialect: dialect, depth: depth) }
            switch value {
            case .object(var members):
                if dialect == .openAPI30 { members = Self.upgraded(members) }
                var inline: JSONValue?
                var written: [(key: String, value: JSONValue)] = []
                for member in members {
                    guard member.key == "$ref", case .string(let text) = member.value else {
                        let value: JSONValue
                        switch member.value {
                        case .object(let entries) where Self.schemaMapKeywords.contains(member.key):
                            value = .object(entries.map { (key: $0.key, value: schema($0.value)) })
                        case .array(let items) where Self.schemaListKeywords.contains(member.key):
                            value = .array(items.map(schema))
                        case _ where Self.schemaKeywords.contains(member.key):
                            value = schema(member.value)
                        default:
                            value = member.value
                        }
                        written.append((member.key, value))
                        continue
                    }
                    switch reference(text, base: base, depth: depth) {
                    case .reference(let pointer): written.append((member.key, .string(pointer)))
                    case .inline(let schema): inline = schema
                    }
                }
                // A schema written in place of its `$ref`: alone, it is the schema; beside other
                // keywords, it is one part of an `allOf` with them.
                guard let inline else { return .object(written) }
                if written.isEmpty { return inline }
                return .object(written + [("allOf", .array([inline]))])
            default:
                return value
            }
        }

        enum Resolved {
            /// A `$ref` into the document being written.
            case reference(String)
            /// The schema itself, to write in place of the `$ref`.
            case inline(JSONValue)
        }

        /// A `$ref` into this document, or the schema it names; one to a document the spec
        /// did not read stays as written.
        func reference(_ text: String, base: URIReference, depth: Int) -> Resolved {
            let target = URIReference(text).resolved(against: base)
            let uri = target.withoutFragment
            guard let document = documents[uri.description] else { return .reference(text) }
            // A plain-name anchor is not a place to copy from: the whole document stands in.
            let tokens = target.pointer ?? []
            // The component a pointer lies in, and the rest of the pointer inside it.
            var name: String?
            var rest: [String] = []
            if tokens.isEmpty || depth >= SchemaBundle.maximumDepth {
                // A whole file, or a chain of pointers written in place that has gone deep
                // enough to be a cycle: a component, which ends it.
                let file = uri.path.split(separator: "/").last.map(String.init) ?? "schema"
                name = tokens.last ?? String(file.prefix { $0 != "." })
            } else if tokens.count >= 3, tokens[0] == "components", tokens[1] == "schemas" {
                (name, rest) = (tokens[2], Array(tokens.dropFirst(3)))
            } else if tokens.count >= 2, tokens[0] == "definitions", document.value["swagger"] != nil {
                (name, rest) = (tokens[1], Array(tokens.dropFirst(2)))
            }
            guard let name, rest.isEmpty else {
                // Any other pointer (an operation's own schema, a component's property) is
                // written in place: OpenAPI tools read a `$ref` to a component, not into one.
                let value = document.value.value(atPath: tokens) ?? .object([])
                return .inline(rewrite(value, base: uri, dialect: document.dialect, depth: depth + 1))
            }
            let start = Array(tokens.dropLast(rest.count))
            let key = uri.description + "#" + start.joined(separator: "/")
            let given = bundle.component(named: name, key: key) {
                let value = document.value.value(atPath: start) ?? .object([])
                return rewrite(value, base: uri, dialect: document.dialect, depth: depth + 1)
            }
            return .reference("#" + Names.pointer(["components", "schemas", given] + rest))
        }

        /// OpenAPI 3.0's keywords as 3.1 writes them.
        static func upgraded(_ members: [(key: String, value: JSONValue)]) -> [(key: String, value: JSONValue)] {
            var members = members
            let nullable = members.contains {
                ($0.key == "nullable" || $0.key == "x-nullable") && $0.value == .bool(true)
            }
            members.removeAll { $0.key == "nullable" || $0.key == "x-nullable" }
            if nullable, let index = members.firstIndex(where: { $0.key == "type" }),
                case .string(let type) = members[index].value
            {
                members[index].value = .array([.string(type), .string("null")])
            } else if nullable {
                // Beside `allOf` or `$ref` rather than a type: null, or the rest.
                members = [("anyOf", .array([.object([("type", .string("null"))]), .object(members)]))]
            }
            for (exclusive, bound) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
                guard let index = members.firstIndex(where: { $0.key == exclusive }) else { continue }
                if members[index].value == .bool(true), let value = members.first(where: { $0.key == bound })?.value {
                    members[index].value = value
                    members.removeAll { $0.key == bound }
                } else if case .bool = members[index].value {
                    members.remove(at: index)
                }
            }
            // Draft 4's tuple form of `items` is 2020-12's `prefixItems`.
            if let index = members.firstIndex(where: { $0.key == "items" }), case .array = members[index].value {
                members[index].key = "prefixItems"
            }
            if let index = members.firstIndex(where: { $0.key == "discriminator" }),
                case .string(let property) = members[index].value
            {
                members[index].value = .object([("propertyName", .string(property))])
            }
            return members
        }
    }
}
