import MoyaJSON

/// A schema and everything its `$ref`s reach, in other documents or its own, as one
/// self-contained draft 2020-12 schema: each schema a reference names is copied once into
/// `$defs` (named by the last token of its pointer, made unique), and every reference points
/// there. OpenAPI 3.0's and draft 4's keywords are written as 2020-12 says them (`nullable`,
/// boolean `exclusiveMinimum`, array `items`), and 3.0's siblings of `$ref`, which 3.0
/// ignores, are left out. What a client cannot resolve on its own, a tool's `inputSchema` and
/// `outputSchema`, comes from here.
///
/// Only schema positions are walked (`properties`, `items`, `allOf`, ...): a `$ref` inside an
/// `example` or an `enum` is data. A reference that leads nowhere, a schema deeper than
/// `depthLimit` or a bundle of more than `nodeLimit` schemas gives nil.
public struct SchemaBundle {
    public static let depthLimit = 64
    public static let nodeLimit = 20_000

    private let documents: [String: CompiledSchema.Document]
    private var names: [String: String] = [:]
    private var taken: Set<String> = []
    private var definitions: [(key: String, value: JSONValue)] = []
    private var nodes = 0
    private let nodeLimit: Int

    private init(documents: [CompiledSchema.Document], nodeLimit: Int = Self.nodeLimit) {
        var byURI: [String: CompiledSchema.Document] = [:]
        for document in documents { byURI[URIReference(document.uri).withoutFragment.description] = document }
        self.documents = byURI
        self.nodeLimit = nodeLimit
    }

    /// A schema to bundle with others: the schema, the URI its relative references resolve
    /// against, and its dialect.
    public typealias Root = (schema: JSONValue, uri: String, dialect: SchemaDialect)

    /// Several schemas bundled together, with one `$defs` table for them all: a schema that two
    /// of them reach is one definition, which both refer to as `#/$defs/NAME`. Each root comes
    /// back rewritten as `bundle` rewrites it, a root that only refers elsewhere left as that
    /// reference; nil for one that cannot be bundled, whose definitions may then be `true`.
    /// `sources` gives each definition's absolute reference, the place it was copied from.
    /// The definitions of the whole together are held to `nodeLimit` schemas.
    public static func bundle(
        _ roots: [Root], documents: [CompiledSchema.Document], nodeLimit: Int = 1_000_000
    ) -> (roots: [JSONValue?], definitions: [(key: String, value: JSONValue)], sources: [String: String]) {
        var bundle = SchemaBundle(documents: documents, nodeLimit: nodeLimit)
        let rewritten = roots.map { root in
            bundle.rewrite(root.schema, base: URIReference(root.uri), dialect: root.dialect, depth: 0)
        }
        var sources: [String: String] = [:]
        for (reference, name) in bundle.names { sources[name] = reference }
        return (rewritten, bundle.definitions, sources)
    }

    /// `schema`, whose relative references resolve against `uri`, bundled with what it reaches
    /// in `documents`; nil when it cannot be.
    public static func bundle(
        _ schema: JSONValue, uri: String, documents: [CompiledSchema.Document], dialect: SchemaDialect
    ) -> JSONValue? {
        var bundle = SchemaBundle(documents: documents)
        guard var root = bundle.rewrite(schema, base: URIReference(uri), dialect: dialect, depth: 0) else {
            return nil
        }
        // A root that only refers elsewhere is that schema itself, so that its `type` is at
        // the top, where a tool's output schema must say `object`.
        if case .object(let members) = root, members.count == 1, case .string(let reference)? = root["$ref"],
            reference.hasPrefix("#/$defs/"),
            let target = bundle.definitions.first(where: { "#/$defs/" + $0.key == reference })?.value
        {
            root = target
        }
        guard !bundle.definitions.isEmpty, case .object(var members) = root else { return root }
        members.removeAll { $0.key == "$defs" }
        members.append(("$defs", .object(bundle.definitions)))
        return .object(members)
    }

    /// Keywords whose value is one schema.
    static let single: Set<String> = [
        "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedItems",
        "unevaluatedProperties", "additionalItems", "contentSchema",
    ]
    /// Keywords whose value is a list of schemas.
    static let lists: Set<String> = ["allOf", "anyOf", "oneOf", "prefixItems"]
    /// Keywords whose value maps names to schemas.
    static let maps: Set<String> = ["properties", "patternProperties", "dependentSchemas", "$defs", "definitions"]

    private mutating func rewrite(_ value: JSONValue, base: URIReference, dialect: SchemaDialect, depth: Int)
        -> JSONValue?
    {
        nodes += 1
        guard depth < Self.depthLimit, nodes <= nodeLimit else { return nil }
        guard case .object(let members) = value else {
            // `true` and `false` are schemas in 2020-12 as they are; anything else is not one.
            if case .bool = value { return value }
            return nil
        }
        if case .string(let reference)? = value["$ref"] {
            guard let target = definition(for: reference, base: base, depth: depth) else { return nil }
            // OpenAPI 3.0 and drafts before 2019-09 ignore what stands beside a `$ref`.
            if dialect != .draft2020_12 { return .object([("$ref", .string(target))]) }
            var rest = members.filter { $0.key != "$ref" }
            guard let rewritten = rewriteMembers(&rest, base: base, dialect: dialect, depth: depth) else { return nil }
            return .object([("$ref", .string(target))] + rewritten)
        }
        var copy = members
        return rewriteMembers(&copy, base: base, dialect: dialect, depth: depth).map(JSONValue.object)
    }

    private mutating func rewriteMembers(
        _ members: inout [(key: String, value: JSONValue)], base: URIReference, dialect: SchemaDialect, depth: Int
    ) -> [(key: String, value: JSONValue)]? {
        var result: [(key: String, value: JSONValue)] = []
        let lookup = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        for (key, value) in members {
            switch key {
            case "$schema", "$id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$recursiveRef", "$recursiveAnchor":
                // The bundle is one 2020-12 resource: no other dialect, base or anchor in it.
                continue
            case "nullable" where dialect == .openAPI30:
                continue
            case "exclusiveMinimum", "exclusiveMaximum":
                if case .bool(let exclusive) = value {
                    guard exclusive, let bound = lookup[key == "exclusiveMinimum" ? "minimum" : "maximum"] else {
                        continue
                    }
                    result.append((key, bound))
                } else {
                    result.append((key, value))
                }
            case "minimum", "maximum":
                let exclusive = key == "minimum" ? "exclusiveMinimum" : "exclusiveMaximum"
                if lookup[exclusive] == .bool(true) { continue }
                result.append((key, value))
            case "items":
                if case .array(let list) = value {
                    var schemas: [JSONValue] = []
                    for item in list {
                        guard let made = rewrite(item, base: base, dialect: dialect, depth: depth + 1) else {
                            return nil
                        }
                        schemas.append(made)
                    }
                    result.append(("prefixItems", .array(schemas)))
                    if let more = lookup["additionalItems"] {
                        guard let made = rewrite(more, base: base, dialect: dialect, depth: depth + 1) else {
                            return nil
                        }
                        result.append(("items", made))
                    }
                } else {
                    guard let made = rewrite(value, base: base, dialect: dialect, depth: depth + 1) else { return nil }
                    result.append((key, made))
                }
            case "additionalItems":
                // With a list of `items` it became `items` above; beside one schema it means nothing.
                continue
            case "dependencies":
                // Draft 4 and 7's, split by 2020-12 into schemas and required names.
                guard case .object(let entries) = value else { continue }
                var schemas: [(key: String, value: JSONValue)] = []
                var required: [(key: String, value: JSONValue)] = []
                for (name, entry) in entries {
                    if case .array = entry {
                        required.append((name, entry))
                    } else {
                        guard let made = rewrite(entry, base: base, dialect: dialect, depth: depth + 1) else {
                            return nil
                        }
                        schemas.append((name, made))
                    }
                }
                if !schemas.isEmpty { result.append(("dependentSchemas", .object(schemas))) }
                if !required.isEmpty { result.append(("dependentRequired", .object(required))) }
            case "type" where dialect == .openAPI30 && lookup["nullable"] == .bool(true):
                if case .string(let name) = value {
                    result.append((key, .array([.string(name), .string("null")])))
                } else {
                    result.append((key, value))
                }
            case "enum" where dialect == .openAPI30 && lookup["nullable"] == .bool(true):
                result.append((key, appendingNull(value)))
            case _ where Self.single.contains(key):
                guard let made = rewrite(value, base: base, dialect: dialect, depth: depth + 1) else { return nil }
                result.append((key, made))
            case _ where Self.lists.contains(key):
                guard case .array(let list) = value else { return nil }
                var schemas: [JSONValue] = []
                for item in list {
                    guard let made = rewrite(item, base: base, dialect: dialect, depth: depth + 1) else { return nil }
                    schemas.append(made)
                }
                result.append((key, .array(schemas)))
            case _ where Self.maps.contains(key):
                guard case .object(let entries) = value else { return nil }
                var schemas: [(key: String, value: JSONValue)] = []
                for (name, entry) in entries {
                    guard let made = rewrite(entry, base: base, dialect: dialect, depth: depth + 1) else { return nil }
                    schemas.append((name, made))
                }
                // A document's own definitions are reached through `$defs` by reference, so
                // a local table is kept only when it is the schema's own (2020-12 `$defs`).
                result.append((key == "definitions" ? "$defs" : key, .object(schemas)))
            default:
                result.append((key, value))
            }
        }
        return result
    }

    private func appendingNull(_ value: JSONValue) -> JSONValue {
        guard case .array(var cases) = value, !cases.contains(.null) else { return value }
        cases.append(.null)
        return .array(cases)
    }

    /// The `$defs` reference that stands for `reference`, copying what it names on first use.
    private mutating func definition(for reference: String, base: URIReference, depth: Int) -> String? {
        let absolute = URIReference(reference).resolved(against: base)
        let key = absolute.description
        if let name = names[key] { return "#/$defs/" + Self.escaped(name) }
        guard let document = documents[absolute.withoutFragment.description] else { return nil }
        let pointer = absolute.pointer ?? []
        guard let target = document.value.value(atPath: pointer) else { return nil }
        var name = pointer.last.map(Self.cleaned) ?? "schema"
        if name.isEmpty { name = "schema" }
        let unique = taken.takeUnique(name)
        names[key] = unique
        let index = definitions.count
        definitions.append((unique, .bool(true)))
        guard
            let made = rewrite(target, base: absolute.withoutFragment, dialect: document.dialect, depth: depth + 1)
        else { return nil }
        definitions[index].value = made
        return "#/$defs/" + Self.escaped(unique)
    }

    /// A name made of letters, digits, `_`, `-` and `.`: safe in a pointer and to read.
    public static func cleaned(_ token: String) -> String {
        String(
            token.unicodeScalars.map { scalar -> Character in
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".": Character(scalar)
                default: "_"
                }
            })
    }

    static func escaped(_ name: String) -> String { name }
}
