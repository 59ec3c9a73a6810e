import MoyaHTTP
import MoyaSchema
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The Swift type of a schema's values.
indirect enum ModelType: Hashable {
    /// A type the file declares, by its name in the service's namespace.
    case named(String)
    case string, integer, number, boolean
    /// Any JSON: a schema that says nothing a Swift type could hold more closely.
    case any
    case array(ModelType)
    case dictionary(ModelType)
    case optional(ModelType)

    var code: String {
        switch self {
        case .named(let name): name
        case .string: "String"
        case .integer: "Int"
        case .number: "Double"
        case .boolean: "Bool"
        case .any: "JSONValue"
        case .array(let element): "[\(element.code)]"
        case .dictionary(let value): "[String: \(value.code)]"
        case .optional(let wrapped): wrapped.code + "?"
        }
    }

    /// The type, or nil, once: an optional is not made optional again.
    var orNil: ModelType {
        if case .optional = self { return self }
        return .optional(self)
    }

    var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }

    /// The type without its optional.
    var unwrapped: ModelType {
        if case .optional(let wrapped) = self { return wrapped }
        return self
    }
}

/// A stored property of a generated struct.
struct ModelProperty {
    /// The member's name in JSON.
    var key: String
    /// Its Swift name, in backticks where it is a keyword.
    var name: String
    var type: ModelType
    /// Stored in an `Indirect` box: its type contains the struct again.
    var boxed = false
    var summary: String?
}

/// What one generated type is.
enum ModelDeclaration {
    /// An object schema, its `allOf` merged in.
    case structure([ModelProperty])
    /// A string enum, with each value's case name; unknown values are `unknown(String)`.
    case stringEnum([(member: String, value: String)])
    /// `oneOf` or `anyOf`: a case for each member; decoded by the discriminator's value when it
    /// names one, else as the first member that decodes.
    case union(
        cases: [(member: String, type: ModelType)],
        discriminator: (property: String, values: [(value: String, member: String)])?)
    /// Another name for a type.
    case alias(ModelType)
}

/// A type the file declares.
struct Model {
    var name: String
    var summary: String?
    var declaration: ModelDeclaration
}

/// The models a service's targets use, planned from their schemas: each target's response
/// schema (its default sample's, then each named sample's) and request schema, bundled
/// together so that a component two targets name is one type. Only the types these reach
/// are declared, in the order they are first reached, so the file is the same for the same
/// spec.
struct ModelPlan {
    private(set) var models: [Model] = []
    /// Each target's response type, by target name: the type its default sample's schema
    /// decodes to.
    private(set) var responses: [String: ModelType] = [:]
    /// Each named sample's type, by target name then sample name.
    private(set) var sampleTypes: [String: [String: ModelType]] = [:]
    /// Whether a struct stores a property in an `Indirect` box.
    private(set) var boxes = false
    /// Whether a union is decoded by a discriminator.
    private(set) var discriminates = false

    private var definitions: [String: JSONValue] = [:]
    /// The name each named definition (a component, a `definitions` entry, a file) gives its
    /// type; a schema copied from elsewhere in a document (an operation's) is named by
    /// where it is used instead.
    private var definitionNames: [String: String] = [:]
    private var definitionTypes: [String: ModelType] = [:]
    /// Definitions whose type is being worked out and is not a type of its own: a reference
    /// back to one is a cycle of names no Swift `typealias` can make, and is `JSONValue`.
    private var aliasing: Set<String> = []
    private var taken: Set<String>

    /// Names a model must not take: the types the generated code names, and the service's own.
    static let reserved: Set<String> = [
        "Call", "Indirect", "ModelKey", "CodingKeys", "CodingKey", "Codable", "Decodable", "Encodable", "Hashable",
        "Equatable", "Decoder", "Encoder", "DecodingError", "EncodingError", "JSONDecoder", "JSONEncoder",
        "RawRepresentable", "Response", "MoyaError", "MoyaProvider", "Target", "Swift", "Foundation", "Date", "UUID",
        "Set", "Float", "Int64", "Result", "Unknown",
    ]

    static let depthLimit = 64

    init(service: ServiceSpec, typeName: String, taken: Set<String>) {
        self.taken = taken.union([typeName])
        var roots: [SchemaBundle.Root] = []
        var documents: [String: SchemaSpec.Document] = [:]
        /// (target, sample or nil for the default, or "" for the request), in order.
        var owners: [(target: String, sample: String?)] = []
        func add(_ spec: SchemaSpec, _ owner: (target: String, sample: String?)) {
            roots.append((spec.schema, spec.uri, spec.dialect))
            for document in spec.documents where documents[document.uri] == nil { documents[document.uri] = document }
            owners.append(owner)
        }
        for target in service.targets {
            if let schema = target.schema { add(schema, (target.name, nil)) }
            for name in target.sampleSchemas.keys.sorted() {
                if let schema = target.sampleSchemas[name] { add(schema, (target.name, name)) }
            }
            if let schema = target.requestSchema { add(schema, (target.name, "")) }
        }
        guard !roots.isEmpty else { return }
        let bundled = SchemaBundle.bundle(roots, documents: documents.keys.sorted().compactMap { documents[$0] })
        for definition in bundled.definitions { definitions[definition.key] = definition.value }
        for (key, source) in bundled.sources {
            if let name = Self.componentName(source) { definitionNames[key] = Self.modelName(name) }
        }
        for (owner, root) in zip(owners, bundled.roots) {
            let base = SwiftName.type(owner.target)
            switch owner.sample {
            case nil:
                responses[owner.target] = type(of: root ?? .bool(true), named: base + "Response", depth: 0)
            case "":
                // Declared for code that builds a body; the cases keep their params.
                _ = type(of: root ?? .bool(true), named: base + "Request", depth: 0)
            case let sample?:
                let named = base + SwiftName.type(sample) + "Response"
                sampleTypes[owner.target, default: [:]][sample] = type(of: root ?? .bool(true), named: named, depth: 0)
            }
        }
        boxRecursiveProperties()
    }

    // MARK: - Types

    /// The type of `schema`'s values; a struct, enum or union it needs is declared, named
    /// `name` (made unique).
    private mutating func type(of schema: JSONValue, named name: String, depth: Int, key: String? = nil) -> ModelType {
        guard depth < Self.depthLimit, case .object = schema else { return .any }
        if case .string(let reference)? = schema["$ref"] {
            guard reference.hasPrefix("#/$defs/") else { return .any }
            return definitionType(String(reference.dropFirst("#/$defs/".count)), named: name, depth: depth + 1)
        }
        let (words, nullable) = Self.typeWords(schema)
        let base: ModelType
        switch Self.shape(of: schema, in: definitions) {
        case .union(let members):
            base = union(schema, members, named: name, depth: depth, key: key)
        case .single(let member):
            base = type(of: member, named: name, depth: depth + 1)
        case .structure(let properties, let required):
            base = structure(
                properties, required: required, summary: Self.summary(schema), named: name, depth: depth, key: key)
        case .stringEnum(let values):
            base = declare(name, summary: Self.summary(schema), key: key) { _, _ in
                var used: Set<String> = ["unknown"]
                return .stringEnum(
                    values.map { value in
                        let member = SwiftName.member(value, avoiding: SwiftName.reservedEnumCases, suffix: "Value")
                        return (SwiftName.unique(member, in: &used), value)
                    })
            }
        case .plain:
            base = plain(schema, words, named: name, depth: depth)
        }
        return nullable || Self.enumAllowsNull(schema) || Self.unionAllowsNull(schema) ? base.orNil : base
    }

    /// A type for a schema whose `type` says it all: a scalar, an array, a map or any JSON.
    private mutating func plain(_ schema: JSONValue, _ words: [String], named name: String, depth: Int) -> ModelType {
        var word = words.count == 1 ? words[0] : nil
        if words.isEmpty {
            if schema["items"] != nil {
                word = "array"
            } else if let constant = schema["const"] {
                word = constant.typeName
            } else if case .array(let values)? = schema["enum"], let first = values.first(where: { $0 != .null }),
                values.allSatisfy({ $0 == .null || $0.typeName == first.typeName })
            {
                word = first.typeName
            }
        }
        switch word {
        case "string": return .string
        case "integer": return .integer
        case "number": return .number
        case "boolean": return .boolean
        case "array":
            guard let items = schema["items"] else { return .array(.any) }
            return .array(type(of: items, named: name + "Item", depth: depth + 1))
        case "object":
            if let more = schema["additionalProperties"], case .object(let members) = more, !members.isEmpty {
                return .dictionary(type(of: more, named: name + "Value", depth: depth + 1))
            }
            return .dictionary(.any)
        default: return .any
        }
    }

    /// The type a `$defs` entry stands for, worked out once.
    private mutating func definitionType(_ key: String, named suggestion: String, depth: Int) -> ModelType {
        if let known = definitionTypes[key] { return known }
        guard let schema = definitions[key], !aliasing.contains(key) else { return .any }
        let name = definitionNames[key] ?? suggestion
        switch Self.shape(of: schema, in: definitions) {
        case .structure, .stringEnum, .union:
            // A type of its own, named by the definition: known before its members are, so
            // that a member can name it again.
            let made = type(of: schema, named: name, depth: depth, key: key)
            definitionTypes[key] = made
            return made
        case .single, .plain:
            aliasing.insert(key)
            let aliased = type(of: schema, named: name, depth: depth)
            aliasing.remove(key)
            // A named definition that is a scalar, an array or a map keeps its name as a
            // typealias, unless it is merely another definition's name or any JSON.
            guard case .named = aliased.unwrapped else {
                if definitionNames[key] == nil {
                    definitionTypes[key] = aliased
                    return aliased
                }
                if aliased == .any { definitionTypes[key] = .any; return .any }
                let alias = declare(name, summary: Self.summary(schema)) { _, _ in .alias(aliased.unwrapped) }
                let made = aliased.isOptional ? alias.orNil : alias
                definitionTypes[key] = made
                return made
            }
            definitionTypes[key] = aliased
            return aliased
        }
    }

    /// Declares a type: its name is taken first, so that what `build` reaches may refer to it.
    private mutating func declare(
        _ name: String, summary: String?, key: String? = nil,
        _ build: (inout ModelPlan, String) -> ModelDeclaration
    ) -> ModelType {
        // A name the target's own enums took is the model's with `Model` added.
        let unique = SwiftName.unique(taken.contains(name) ? name + "Model" : name, in: &taken)
        let index = models.count
        models.append(Model(name: unique, summary: summary, declaration: .alias(.any)))
        if let key { definitionTypes[key] = .named(unique) }
        let declaration = build(&self, unique)
        models[index].declaration = declaration
        return .named(unique)
    }

    private mutating func structure(
        _ properties: [(key: String, value: JSONValue)], required: Set<String>, summary: String?, named name: String,
        depth: Int, key: String?
    ) -> ModelType {
        declare(name, summary: summary, key: key) { plan, unique in
            var used: Set<String> = []
            return .structure(
                properties.map { property in
                    let member = SwiftName.member(
                        property.key, avoiding: ModelPlan.reservedProperties, suffix: "Value")
                    var type = plan.type(
                        of: property.value, named: unique + SwiftName.type(property.key), depth: depth + 1)
                    if !required.contains(property.key) { type = type.orNil }
                    return ModelProperty(
                        key: property.key, name: SwiftName.unique(member, in: &used), type: type,
                        summary: Self.summary(property.value))
                })
        }
    }

    /// Names a property must not take: a stored property cannot be called so.
    static let reservedProperties: Set<String> = ["self", "super", "init", "Type", "hashValue", "Protocol"]

    private mutating func union(
        _ schema: JSONValue, _ members: [JSONValue], named name: String, depth: Int, key: String?
    ) -> ModelType {
        let discriminator = Self.discriminator(schema)
        return declare(name, summary: Self.summary(schema), key: key) { plan, unique in
            var used: Set<String> = []
            var cases: [(member: String, type: ModelType)] = []
            var values: [(value: String, member: String)] = []
            for member in members {
                let reference = Self.definitionName(member)
                var label = discriminator?.mapping.first { $0.target == reference }?.value
                if label == nil, case .string(let title)? = member["title"] { label = title }
                if label == nil { label = reference }
                let caseName = SwiftName.unique(
                    SwiftName.member(
                        label ?? Self.kindName(member), avoiding: SwiftName.reservedEnumCases, suffix: "Case"),
                    in: &used)
                let type = plan.type(
                    of: member, named: unique + SwiftName.type(SwiftName.bare(caseName)), depth: depth + 1)
                // Two members of one Swift type (a date and a date-time string) are one case.
                let existing = cases.first { $0.type == type }?.member
                if existing == nil { cases.append((caseName, type)) }
                guard let discriminator, let reference else { continue }
                let named = discriminator.mapping.filter { $0.target == reference }.map(\.value)
                for value in named.isEmpty ? [reference] : named { values.append((value, existing ?? caseName)) }
            }
            // Any JSON decodes from anything: it is tried last.
            cases = cases.filter { $0.type.unwrapped != .any } + cases.filter { $0.type.unwrapped == .any }
            if discriminator != nil, !values.isEmpty { plan.discriminates = true }
            return .union(
                cases: cases,
                discriminator: discriminator.flatMap { values.isEmpty ? nil : ($0.property, values) })
        }
    }

    // MARK: - Recursion

    /// Boxes each property through which a struct contains itself, directly or through other
    /// structs: Swift gives a struct no infinite size. Arrays, maps and unions (indirect
    /// enums) already hold their values apart.
    private mutating func boxRecursiveProperties() {
        var index: [String: Int] = [:]
        for (position, model) in models.enumerated() { index[model.name] = position }
        /// The struct a type stores inline, through aliases and optionals.
        func stored(_ type: ModelType, _ hops: Int = 0) -> Int? {
            guard hops < 64, case .named(let name) = type.unwrapped, let position = index[name] else { return nil }
            switch models[position].declaration {
            case .structure: return position
            case .alias(let aliased): return stored(aliased, hops + 1)
            default: return nil
            }
        }
        var edges: [[Int]] = Array(repeating: [], count: models.count)
        for (position, model) in models.enumerated() {
            guard case .structure(let properties) = model.declaration else { continue }
            edges[position] = properties.compactMap { stored($0.type) }
        }
        let component = Self.components(edges)
        for (position, model) in models.enumerated() {
            guard case .structure(var properties) = model.declaration else { continue }
            var changed = false
            for offset in properties.indices {
                guard let target = stored(properties[offset].type), component[target] == component[position] else {
                    continue
                }
                properties[offset].boxed = true
                changed = true
            }
            if changed {
                models[position].declaration = .structure(properties)
                boxes = true
            }
        }
    }

    /// The strongly connected component of each node (Tarjan's, without recursion).
    static func components(_ edges: [[Int]]) -> [Int] {
        let count = edges.count
        var indices = Array(repeating: -1, count: count)
        var lowLinks = Array(repeating: 0, count: count)
        var onStack = Array(repeating: false, count: count)
        var component = Array(repeating: -1, count: count)
        var stack: [Int] = []
        var next = 0
        var components = 0
        for start in 0..<count where indices[start] < 0 {
            var work: [(node: Int, edge: Int)] = [(start, 0)]
            indices[start] = next
            lowLinks[start] = next
            next += 1
            stack.append(start)
            onStack[start] = true
            while let (node, edge) = work.last {
                if edge < edges[node].count {
                    work[work.count - 1].edge += 1
                    let target = edges[node][edge]
                    if indices[target] < 0 {
                        indices[target] = next
                        lowLinks[target] = next
                        next += 1
                        stack.append(target)
                        onStack[target] = true
                        work.append((target, 0))
                    } else if onStack[target] {
                        lowLinks[node] = min(lowLinks[node], indices[target])
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last { lowLinks[parent.node] = min(lowLinks[parent.node], lowLinks[node]) }
                guard lowLinks[node] == indices[node] else { continue }
                while let member = stack.popLast() {
                    onStack[member] = false
                    component[member] = components
                    if member == node { break }
                }
                components += 1
            }
        }
        return component
    }
}

// MARK: - Reading schemas

extension ModelPlan {
    /// What a schema is, as far as the kind of Swift type goes.
    enum Shape {
        /// Properties, with `allOf` merged in.
        case structure([(key: String, value: JSONValue)], required: Set<String>)
        case stringEnum([String])
        /// Two or more members of a `oneOf` or `anyOf`, `null` aside.
        case union([JSONValue])
        /// One schema that is all there is to it (a one-member `allOf` or `oneOf`).
        case single(JSONValue)
        case plain
    }

    static func shape(of schema: JSONValue, in definitions: [String: JSONValue]) -> Shape {
        for word in ["oneOf", "anyOf"] {
            guard case .array(let list)? = schema[word] else { continue }
            let members = list.filter { !isNull($0) && !isConstraint($0) }
            if members.count >= 2 { return .union(members) }
            if members.count == 1, schema["properties"] == nil, schema["allOf"] == nil { return .single(members[0]) }
        }
        if case .array(let list)? = schema["allOf"] {
            var visited: Set<String> = []
            let merged = self.merged(schema, definitions, &visited, depth: 0)
            if !merged.properties.isEmpty { return .structure(merged.properties, required: merged.required) }
            let members = list.filter { !isConstraint($0) }
            if members.count == 1, schema["properties"] == nil { return .single(members[0]) }
        }
        if case .array(let values)? = schema["enum"] {
            let strings = values.compactMap { value -> String? in
                if case .string(let text) = value { return text }
                return nil
            }
            if !strings.isEmpty, strings.count == values.filter({ $0 != .null }).count {
                var unique: [String] = []
                for text in strings where !unique.contains(text) { unique.append(text) }
                return .stringEnum(unique)
            }
            return .plain
        }
        if case .object(let properties)? = schema["properties"], !properties.isEmpty {
            let (words, _) = typeWords(schema)
            guard words.isEmpty || words.contains("object") else { return .plain }
            return .structure(properties, required: required(schema))
        }
        return .plain
    }

    /// A schema's properties with those of its `allOf` members (through references), the
    /// first to name a property giving its schema.
    static func merged(
        _ schema: JSONValue, _ definitions: [String: JSONValue], _ visited: inout Set<String>, depth: Int
    ) -> (properties: [(key: String, value: JSONValue)], required: Set<String>) {
        guard depth < depthLimit else { return ([], []) }
        var schema = schema
        if case .string(let reference)? = schema["$ref"], reference.hasPrefix("#/$defs/") {
            let key = String(reference.dropFirst("#/$defs/".count))
            guard !visited.contains(key), let target = definitions[key] else { return ([], []) }
            visited.insert(key)
            schema = target
        }
        var properties: [(key: String, value: JSONValue)] = []
        var required = self.required(schema)
        func add(_ more: [(key: String, value: JSONValue)]) {
            for property in more {
                if let index = properties.firstIndex(where: { $0.key == property.key }) {
                    if isEmpty(properties[index].value) { properties[index].value = property.value }
                } else {
                    properties.append(property)
                }
            }
        }
        if case .array(let members)? = schema["allOf"] {
            for member in members {
                let inner = merged(member, definitions, &visited, depth: depth + 1)
                add(inner.properties)
                required.formUnion(inner.required)
            }
        }
        if case .object(let own)? = schema["properties"] { add(own) }
        return (properties, required)
    }

    static func required(_ schema: JSONValue) -> Set<String> {
        guard case .array(let names)? = schema["required"] else { return [] }
        return Set(
            names.compactMap {
                if case .string(let name) = $0 { return name }
                return nil
            })
    }

    /// The `type` words besides `null`, and whether `null` is one.
    static func typeWords(_ schema: JSONValue) -> (words: [String], nullable: Bool) {
        switch schema["type"] {
        case .string(let word)?: return word == "null" ? ([], true) : ([word], false)
        case .array(let list)?:
            let words = list.compactMap { word -> String? in
                if case .string(let text) = word { return text }
                return nil
            }
            return (words.filter { $0 != "null" }, words.contains("null"))
        default: return ([], false)
        }
    }

    /// Whether a `oneOf` or `anyOf` has a member that is `null` alone.
    static func unionAllowsNull(_ schema: JSONValue) -> Bool {
        ["oneOf", "anyOf"].contains { word in
            guard case .array(let members)? = schema[word] else { return false }
            return members.contains(where: isNull)
        }
    }

    static func enumAllowsNull(_ schema: JSONValue) -> Bool {
        guard case .array(let values)? = schema["enum"] else { return false }
        return values.contains(.null)
    }

    /// `{"type": "null"}`, an enum of null alone, or OpenAPI 3.0's way of saying null: a
    /// nullable object that may have no members.
    static func isNull(_ schema: JSONValue) -> Bool {
        let (words, nullable) = typeWords(schema)
        if nullable, words.isEmpty { return true }
        if nullable, words == ["object"], schema["additionalProperties"] == .bool(false),
            schema["properties"] == nil || schema["properties"] == .object([])
        {
            return true
        }
        return schema["enum"] == .array([.null])
    }

    /// A member that only constrains (`required`, `not`, a description) and has no type of its
    /// own, as `oneOf: [{required: [a]}, {required: [b]}]` beside properties.
    static func isConstraint(_ schema: JSONValue) -> Bool {
        guard case .object(let members) = schema else { return false }
        let shaping: Set<String> = [
            "type", "properties", "items", "$ref", "enum", "const", "oneOf", "anyOf", "allOf", "additionalProperties",
        ]
        return !members.contains { shaping.contains($0.key) }
    }

    static func isEmpty(_ schema: JSONValue) -> Bool {
        switch schema {
        case .bool(true): true
        case .object(let members): members.allSatisfy { ["description", "title", "example"].contains($0.key) }
        default: false
        }
    }

    /// The first line of a schema's title or description.
    static func summary(_ schema: JSONValue) -> String? {
        for word in ["description", "title"] {
            guard case .string(let text)? = schema[word],
                let first = text.split(whereSeparator: \.isNewline).first.map({ String($0) }),
                first.contains(where: { !$0.isWhitespace })
            else { continue }
            return SwiftName.comment(first)
        }
        return nil
    }

    /// The `$defs` name a member refers to.
    static func definitionName(_ schema: JSONValue) -> String? {
        guard case .string(let reference)? = schema["$ref"], reference.hasPrefix("#/$defs/") else { return nil }
        return String(reference.dropFirst("#/$defs/".count))
    }

    /// A union case's name for a member with no title or name: its kind, or for an object the
    /// property that sets it apart.
    static func kindName(_ schema: JSONValue) -> String {
        let (words, _) = typeWords(schema)
        if case .object(let properties)? = schema["properties"], let first = properties.first {
            let names = required(schema)
            return "with " + (properties.first { names.contains($0.key) }?.key ?? first.key)
        }
        if words == ["array"] { return "list" }
        return words.first ?? "json"
    }

    /// The discriminator's property, and its mapping as (value, `$defs` name) pairs.
    static func discriminator(_ schema: JSONValue) -> (property: String, mapping: [(value: String, target: String)])? {
        guard case .string(let property)? = schema["discriminator"]?["propertyName"] else { return nil }
        var mapping: [(value: String, target: String)] = []
        if case .object(let entries)? = schema["discriminator"]?["mapping"] {
            for entry in entries {
                guard case .string(let target) = entry.value else { continue }
                let last = target.split(separator: "/").last.map(String.init) ?? target
                mapping.append((entry.key, SchemaBundle.cleaned(last)))
            }
        }
        return (property, mapping)
    }

    /// The name of the component an absolute reference names: the last token of a pointer
    /// into `schemas`, `definitions` or `$defs`, or a whole file's name without its extension;
    /// nil for any other place in a document.
    static func componentName(_ reference: String) -> String? {
        guard let hash = reference.firstIndex(of: "#"), reference.index(after: hash) < reference.endIndex else {
            let file = reference.split(separator: "/").last.map(String.init) ?? reference
            return file.split(separator: ".").first.map(String.init)
        }
        let tokens = reference[reference.index(after: hash)...].split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.replacing("~1", with: "/").replacing("~0", with: "~") }
        guard tokens.count >= 3, ["schemas", "definitions", "$defs"].contains(tokens[tokens.count - 2]) else {
            return nil
        }
        return tokens.last.map(String.init)
    }

    /// The Swift name a definition's type prefers.
    static func modelName(_ key: String) -> String {
        let name = SwiftName.type(key)
        return reserved.contains(name) ? name + "Model" : name
    }
}
