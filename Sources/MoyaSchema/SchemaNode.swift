import MoyaJSON
import MoyaRegex

/// One schema, its keywords read once into what evaluation needs.
final class SchemaNode {
    /// A reference, resolved on first use: `$ref`, or `$dynamicRef` with the anchor name that
    /// makes it dynamic.
    final class Reference {
        let uri: URIReference
        let dynamicName: String?
        var target: SchemaNode?
        var resolved = false

        init(uri: URIReference, dynamicName: String?) {
            self.uri = uri
            self.dynamicName = dynamicName
        }
    }

    /// A JSON type as `type` names it; `integer` is a number with no fraction.
    enum Kind: String {
        case null, boolean, object, array, number, string, integer
    }

    /// One keyword, compiled.
    enum Keyword {
        case type([Kind])
        case enumeration([JSONValue])
        case constant(JSONValue)
        case multipleOf(Double)
        case maximum(Double, exclusive: Bool)
        case minimum(Double, exclusive: Bool)
        case maxLength(Int)
        case minLength(Int)
        case pattern(Pattern)
        case format(String)
        case prefixItems([SchemaNode])
        /// `items` from index `from` on: after `prefixItems`, or after an array `items`
        /// (draft 7's `additionalItems`).
        case items(SchemaNode, from: Int)
        case contains(SchemaNode, minimum: Int, maximum: Int?)
        case maxItems(Int)
        case minItems(Int)
        case uniqueItems
        case maxProperties(Int)
        case minProperties(Int)
        case required([String])
        case properties([String: SchemaNode])
        case patternProperties([(Pattern, SchemaNode)])
        case additionalProperties(SchemaNode, named: Set<String>, patterns: [Pattern])
        case propertyNames(SchemaNode)
        case dependentRequired([(String, [String])])
        case dependentSchemas([(String, SchemaNode)])
        case allOf([SchemaNode])
        case anyOf([SchemaNode])
        case oneOf([SchemaNode])
        case not(SchemaNode)
        case conditional(if: SchemaNode, then: SchemaNode?, else: SchemaNode?)
        case ref(Reference)
        case unevaluatedProperties(SchemaNode)
        case unevaluatedItems(SchemaNode)
    }

    /// A `pattern`'s regular expression, compiled once by MoyaRegex; one it cannot compile
    /// matches nothing and is reported when the schema is used.
    struct Pattern {
        let source: String
        let regex: Result<RegularExpression, RegularExpression.SyntaxError>

        init(_ source: String) {
            self.source = source
            regex = Result { () throws(RegularExpression.SyntaxError) in try RegularExpression(source) }
        }

        /// Whether the pattern matches somewhere in `text`; throws when a backtracking
        /// pattern ran out of steps.
        func matches(_ text: String) throws(RegularExpression.BudgetExceeded) -> Bool {
            guard case .success(let regex) = regex else { return false }
            return try regex.matches(in: text)
        }
    }

    let location: SchemaRegistry.Location
    let scope: SchemaRegistry.Scope
    /// `true` or `false` for a boolean schema.
    private(set) var constant: Bool?
    private(set) var keywords: [(name: String, keyword: Keyword)] = []
    /// Whether `nullable: true` lets null through `type` (OpenAPI 3.0.3: the schema's other
    /// keywords, `enum` or `allOf`, still apply to it).
    private(set) var nullable = false

    init(location: SchemaRegistry.Location, scope: SchemaRegistry.Scope) {
        self.location = location
        self.scope = scope
    }

    /// The schema's path, for errors: `#/properties/id`.
    var path: String { location.fragment }

    func compile(_ value: JSONValue, registry: SchemaRegistry) {
        switch value {
        case .bool(let bool):
            constant = bool
            return
        case .object(let members):
            compile(SchemaRegistry.lookup(members), order: members.map(\.key), registry: registry)
        default:
            // Not a schema: it constrains nothing.
            constant = true
        }
    }

    private func compile(_ schema: [String: JSONValue], order: [String], registry: SchemaRegistry) {
        let dialect = scope.dialect
        func child(_ tokens: String...) -> SchemaNode? {
            var here = location
            for token in tokens { here = here.appending(token) }
            return registry.node(at: here)
        }
        func reference(_ text: String, dynamic: Bool) -> Reference {
            let uri = URIReference(text).resolved(against: scope.base)
            let reference = Reference(uri: uri, dynamicName: dynamic ? uri.fragment : nil)
            registry.unresolved.append(reference)
            return reference
        }
        if dialect.refIgnoresSiblings, case .string(let text)? = schema["$ref"] {
            keywords = [("$ref", .ref(reference(text, dynamic: false)))]
            return
        }
        let validates = registry.validates(in: scope.resource)
        // Swagger 2.0's `x-nullable`, read in 3.0's dialect, says what 3.0's `nullable` does.
        if dialect == .openAPI30, schema["nullable"] == .bool(true) || schema["x-nullable"] == .bool(true) {
            nullable = true
        }
        for name in order {
            guard let value = schema[name] else { continue }
            var keyword: Keyword?
            switch name {
            case "$ref":
                if case .string(let text) = value { keyword = .ref(reference(text, dynamic: false)) }
            case "$dynamicRef" where dialect == .draft2020_12:
                if case .string(let text) = value { keyword = .ref(reference(text, dynamic: true)) }
            case "allOf", "anyOf", "oneOf":
                guard case .array(let items) = value else { break }
                let nodes = items.indices.compactMap { child(name, String($0)) }
                keyword = name == "allOf" ? .allOf(nodes) : name == "anyOf" ? .anyOf(nodes) : .oneOf(nodes)
            case "not":
                keyword = child(name).map(Keyword.not)
            case "if" where dialect == .draft2020_12 || dialect == .draft7:
                guard let condition = child("if") else { break }
                let then = schema["then"] != nil ? child("then") : nil
                let otherwise = schema["else"] != nil ? child("else") : nil
                // Alone, `if` still leaves its annotations when it holds.
                keyword = .conditional(if: condition, then: then, else: otherwise)
            case "properties":
                guard case .object(let entries) = value else { break }
                var nodes: [String: SchemaNode] = [:]
                for (key, _) in entries { nodes[key] = child(name, key) }
                keyword = .properties(nodes)
            case "patternProperties":
                guard case .object(let entries) = value else { break }
                keyword = .patternProperties(
                    entries.compactMap { key, _ in child(name, key).map { (Pattern(key), $0) } })
            case "additionalProperties":
                guard let node = child(name) else { break }
                var named: Set<String> = []
                if case .object(let entries)? = schema["properties"] { named = Set(entries.map(\.key)) }
                var patterns: [Pattern] = []
                if case .object(let entries)? = schema["patternProperties"] {
                    patterns = entries.map { Pattern($0.key) }
                }
                keyword = .additionalProperties(node, named: named, patterns: patterns)
            case "propertyNames" where dialect != .draft4 && dialect != .openAPI30:
                keyword = child(name).map(Keyword.propertyNames)
            case "dependentSchemas" where dialect == .draft2020_12:
                guard case .object(let entries) = value else { break }
                keyword = .dependentSchemas(entries.compactMap { key, _ in child(name, key).map { (key, $0) } })
            case "dependencies" where dialect != .draft2020_12:
                guard case .object(let entries) = value else { break }
                var names: [(String, [String])] = []
                var schemas: [(String, SchemaNode)] = []
                for (key, entry) in entries {
                    if case .array(let items) = entry {
                        names.append((key, items.compactMap { if case .string(let text) = $0 { text } else { nil } }))
                    } else if let node = child(name, key) {
                        schemas.append((key, node))
                    }
                }
                if validates, !names.isEmpty { keywords.append((name, .dependentRequired(names))) }
                if !schemas.isEmpty { keyword = .dependentSchemas(schemas) }
            case "prefixItems" where dialect == .draft2020_12:
                guard case .array(let items) = value else { break }
                keyword = .prefixItems(items.indices.compactMap { child(name, String($0)) })
            case "items":
                if case .array(let items) = value, dialect != .draft2020_12 {
                    keyword = .prefixItems(items.indices.compactMap { child(name, String($0)) })
                } else if let node = child(name) {
                    var from = 0
                    if dialect == .draft2020_12, case .array(let prefix)? = schema["prefixItems"] {
                        from = prefix.count
                    }
                    keyword = .items(node, from: from)
                }
            case "additionalItems" where dialect != .draft2020_12:
                guard case .array(let prefix)? = schema["items"], let node = child(name) else { break }
                keyword = .items(node, from: prefix.count)
            case "contains" where dialect != .draft4 && dialect != .openAPI30:
                guard let node = child(name) else { break }
                var minimum = 1
                var maximum: Int?
                if dialect == .draft2020_12, validates {
                    if let value = schema["minContains"].flatMap(Self.count) { minimum = value }
                    maximum = schema["maxContains"].flatMap(Self.count)
                }
                keyword = .contains(node, minimum: minimum, maximum: maximum)
            case "unevaluatedProperties" where dialect == .draft2020_12:
                keyword = child(name).map(Keyword.unevaluatedProperties)
            case "unevaluatedItems" where dialect == .draft2020_12:
                keyword = child(name).map(Keyword.unevaluatedItems)
            case "format":
                if case .string(let text) = value { keyword = .format(text) }
            default:
                if validates { keyword = validation(name, value, schema) }
            }
            if let keyword { keywords.append((name, keyword)) }
        }
        // The unevaluated keywords see what every other keyword evaluated, so they go last.
        let isUnevaluated = { (entry: (name: String, keyword: Keyword)) in entry.name.hasPrefix("unevaluated") }
        keywords = keywords.filter { !isUnevaluated($0) } + keywords.filter(isUnevaluated)
    }

    /// A keyword of the validation vocabulary.
    private func validation(_ name: String, _ value: JSONValue, _ schema: [String: JSONValue]) -> Keyword? {
        let dialect = scope.dialect
        switch name {
        case "type":
            switch value {
            case .string(let text): return Kind(rawValue: text).map { .type([$0]) }
            case .array(let items):
                return .type(items.compactMap { if case .string(let text) = $0 { Kind(rawValue: text) } else { nil } })
            default: return nil
            }
        case "enum":
            if case .array(let items) = value { return .enumeration(items) }
            return nil
        case "const" where dialect != .draft4 && dialect != .openAPI30:
            return .constant(value)
        case "multipleOf":
            return Self.number(value).map(Keyword.multipleOf)
        case "maximum", "minimum":
            guard let bound = Self.number(value) else { return nil }
            let exclusive =
                dialect.exclusiveBoundsAreBooleans
                && schema[name == "maximum" ? "exclusiveMaximum" : "exclusiveMinimum"] == .bool(true)
            return name == "maximum" ? .maximum(bound, exclusive: exclusive) : .minimum(bound, exclusive: exclusive)
        case "exclusiveMaximum" where !dialect.exclusiveBoundsAreBooleans:
            return Self.number(value).map { .maximum($0, exclusive: true) }
        case "exclusiveMinimum" where !dialect.exclusiveBoundsAreBooleans:
            return Self.number(value).map { .minimum($0, exclusive: true) }
        case "maxLength": return Self.count(value).map(Keyword.maxLength)
        case "minLength": return Self.count(value).map(Keyword.minLength)
        case "pattern":
            if case .string(let text) = value { return .pattern(Pattern(text)) }
            return nil
        case "maxItems": return Self.count(value).map(Keyword.maxItems)
        case "minItems": return Self.count(value).map(Keyword.minItems)
        case "uniqueItems": return value == .bool(true) ? .uniqueItems : nil
        case "maxProperties": return Self.count(value).map(Keyword.maxProperties)
        case "minProperties": return Self.count(value).map(Keyword.minProperties)
        case "required":
            guard case .array(let items) = value else { return nil }
            return .required(items.compactMap { if case .string(let text) = $0 { text } else { nil } })
        case "dependentRequired" where dialect == .draft2020_12:
            guard case .object(let entries) = value else { return nil }
            return .dependentRequired(
                entries.map { key, names in
                    guard case .array(let items) = names else { return (key, []) }
                    return (key, items.compactMap { if case .string(let text) = $0 { text } else { nil } })
                })
        default:
            return nil
        }
    }

    static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .integer(let int): Double(int)
        case .number(let double): double
        default: nil
        }
    }

    /// A non-negative whole number, as `1` or `1.0`.
    static func count(_ value: JSONValue) -> Int? {
        switch value {
        case .integer(let int) where int >= 0: return int
        case .number(let double) where double >= 0 && double.rounded() == double && double < 9e18: return Int(double)
        default: return nil
        }
    }
}
