import MoyaHTTP
import OpenAPIKit

/// A value that fits a schema, for a response that has no example: the schema's own example,
/// default or first enum value where it has one, else a value of its type, format and bounds.
/// Import checks the value against the document as written, and makes another from it where
/// this one breaks the schema (`SchemaSource.value(at:)`).
///
/// A recursive schema stops at the cycle (`DocumentRepair.cycleMarker`): the member is left
/// out, an array is empty. Past `depthLimit`, or once `budget` values are made, only required
/// members are made, and arrays are as short as they may be.
struct SampleSynthesis {
    /// How deep a made-up value goes with every member.
    static let depthLimit = 8
    /// How many values one sample may hold before it makes only what it must.
    static let budget = 2_000

    private var made = 0

    static func value(_ schema: DereferencedJSONSchema) -> JSONValue {
        var synthesis = SampleSynthesis()
        return synthesis.value(schema, depth: 0) ?? .object([])
    }

    /// Whether `schema` is where a recursive schema was cut.
    static func closesCycle(_ schema: DereferencedJSONSchema) -> Bool {
        core(of: schema).title?.hasPrefix(DocumentRepair.cycleMarker) == true
    }

    /// A value for `schema`; nil where a cycle closes. `required` adds member names that must
    /// be made even past the depth limit: those another part of the same `allOf` requires.
    private mutating func value(
        _ schema: DereferencedJSONSchema, depth: Int, required alsoRequired: Set<String> = []
    ) -> JSONValue? {
        if Self.closesCycle(schema) { return nil }
        made += 1
        let lean = depth >= Self.depthLimit || made > Self.budget
        let core = Self.core(of: schema)
        if let example = core.examples.first.flatMap(JSONBridge.value) { return example }
        if let value = core.defaultValue.flatMap(JSONBridge.value) { return value }
        if let value = core.allowedValues?.lazy.compactMap(JSONBridge.value).first(where: { $0 != .null }) {
            return value
        }
        // `enum: []` allows no value: none is made up.
        if core.allowedValues?.isEmpty == true { return nil }
        switch schema {
        case .null: return .null
        case .boolean: return .bool(true)
        case .integer(_, let context):
            return .integer(Self.integer(minimum: context.minimum, maximum: context.maximum))
        case .number(_, let context):
            if let minimum = context.minimum {
                return .number(minimum.exclusive ? minimum.value + 1 : minimum.value)
            }
            if let maximum = context.maximum, maximum.value < 0 {
                return .number(maximum.exclusive ? maximum.value - 1 : maximum.value)
            }
            return .number(0)
        case .string(let core, let context):
            // A pattern's own example where one can be made, when it fits the lengths.
            if let pattern = context.pattern, let text = PatternExample.example(for: pattern),
                text.count >= context.minLength, text.count <= context.maxLength ?? .max
            {
                return .string(text)
            }
            return .string(
                Self.string(format: core.formatString ?? "", minLength: context.minLength, maxLength: context.maxLength)
            )
        case .object(_, let context):
            let required = alsoRequired.union(Self.requiredNames(context))
            var members: [(key: String, value: JSONValue)] = []
            for (name, property) in context.properties.sorted(by: { $0.key < $1.key }) {
                guard !lean || required.contains(name), let value = value(property, depth: depth + 1) else { continue }
                members.append((key: name, value: value))
            }
            // As many members as `minProperties` asks: the described ones left out when lean,
            // then made-up names for `additionalProperties`' values.
            let least = min(context.minProperties, 100)
            for (name, property) in context.properties.sorted(by: { $0.key < $1.key }) where members.count < least {
                guard !members.contains(where: { $0.key == name }), let value = value(property, depth: depth + 1)
                else { continue }
                members.append((key: name, value: value))
            }
            if members.count < least {
                switch context.additionalProperties {
                case .a(false)?: break
                case .b(let schema)?:
                    if let extra = value(schema, depth: depth + 1) { Self.pad(&members, to: least, with: extra) }
                default: Self.pad(&members, to: least, with: .string("string"))
                }
            }
            return .object(members)
        case .array(_, let context):
            guard let items = context.items else { return .array([]) }
            let count = lean ? context.minItems : max(1, context.minItems)
            guard count > 0, let item = value(items, depth: depth + 1) else { return .array([]) }
            return .array(Array(repeating: item, count: min(count, context.maxItems ?? count)))
        case .all(let schemas, _):
            var members: [(key: String, value: JSONValue)] = []
            // Parts that describe a scalar (`allOf: [{type: string}, {nullable: false}]`)
            // give the first scalar one of them makes; object parts are merged.
            var scalar: JSONValue?
            var hasObject = false
            // A member one part requires and another describes is made, however deep.
            let required = schemas.reduce(into: alsoRequired) { names, part in
                if case .object(_, let context) = part { names.formUnion(Self.requiredNames(context)) }
            }
            for part in schemas {
                let made = value(part, depth: depth + 1, required: required)
                guard case .object(let more)? = made else {
                    if scalar == nil, let made, made != .null { scalar = made }
                    continue
                }
                hasObject = true
                // A part that only names a member (a required name with no schema, which
                // comes out as `null`) gives way to one that describes it.
                for member in more {
                    if let index = members.firstIndex(where: { $0.key == member.key }) {
                        if members[index].value == .null { members[index].value = member.value }
                    } else {
                        members.append(member)
                    }
                }
            }
            if !hasObject, let scalar { return scalar }
            return .object(members.sorted { $0.key < $1.key })
        case .one(let schemas, _), .any(let schemas, _):
            // A choice that is not `null` where there is one, and not where a cycle closes.
            let ordered =
                schemas.filter { if case .null = $0 { false } else { true } }
                + schemas.filter {
                    if case .null = $0 { true } else { false }
                }
            for option in ordered where !Self.closesCycle(option) {
                if let value = value(option, depth: depth + 1) { return value }
            }
            return nil
        case .not, .fragment:
            return .null
        }
    }

    /// Made-up members (`key1`, `key2`, …, each `extra`) added until there are `least`: what
    /// `minProperties` asks of a made-up object once the members its schema describes are in.
    static func pad(_ members: inout [(key: String, value: JSONValue)], to least: Int, with extra: JSONValue) {
        var number = 1
        while members.count < least {
            let key = "key\(number)"
            number += 1
            if !members.contains(where: { $0.key == key }) { members.append((key: key, value: extra)) }
        }
    }

    /// A request body's value without the members its schema marks `readOnly`, or with
    /// `writeOnly` a response's without those it marks `writeOnly`, at any depth the schema
    /// describes (through objects, array items and `allOf`): OpenAPI says neither is sent
    /// that way.
    ///
    /// A member another part of the same `allOf` requires stays: a validator holds the value
    /// to that part, which does not say the member is read-only (`keeping`).
    static func withoutReadOnly(
        _ value: JSONValue, _ schema: DereferencedJSONSchema, writeOnly: Bool = false, depth: Int = 0,
        keeping: Set<String> = []
    ) -> JSONValue {
        // The value's depth bounds the walk; the document's depth bounds the value's.
        guard depth < OpenAPIReader.maximumDepth else { return value }
        switch (schema, value) {
        case (.object(_, let context), .object(let members)):
            return .object(
                members.compactMap { member in
                    guard let property = context.properties[member.key] else { return member }
                    let core = core(of: property)
                    guard !(writeOnly ? core.writeOnly : core.readOnly) || keeping.contains(member.key) else {
                        return nil
                    }
                    return (
                        member.key,
                        withoutReadOnly(member.value, property, writeOnly: writeOnly, depth: depth + 1)
                    )
                })
        case (.array(_, let context), .array(let items)):
            guard let itemSchema = context.items else { return value }
            return .array(items.map { withoutReadOnly($0, itemSchema, writeOnly: writeOnly, depth: depth + 1) })
        case (.all(let schemas, _), _):
            let required = schemas.reduce(into: keeping) { names, part in
                if case .object(_, let context) = part { names.formUnion(requiredNames(context)) }
            }
            return schemas.reduce(value) {
                withoutReadOnly($0, $1, writeOnly: writeOnly, depth: depth + 1, keeping: required)
            }
        default:
            return value
        }
    }

    /// The names of an object's required properties, read from each property's core context:
    /// OpenAPIKit's `requiredProperties` asks each property's `required`, which rebuilds the
    /// property's whole `JSONSchema` first (a fifth of Discord's import).
    static func requiredNames(_ context: DereferencedJSONSchema.ObjectContext) -> Set<String> {
        var names: Set<String> = []
        for (name, schema) in context.properties where core(of: schema).required { names.insert(name) }
        return names
    }

    /// The schema's own keywords. OpenAPIKit's accessors on `DereferencedJSONSchema` rebuild
    /// the whole subschema for each read, which made samples quadratic in a schema's size.
    static func core(of schema: DereferencedJSONSchema) -> any JSONSchemaContext {
        switch schema {
        case .null(let core): core
        case .boolean(let core): core
        case .number(let core, _): core
        case .integer(let core, _): core
        case .string(let core, _): core
        case .object(let core, _): core
        case .array(let core, _): core
        case .all(_, let core), .one(_, let core), .any(_, let core), .not(_, let core): core
        case .fragment(let core): core
        }
    }

    /// An integer within `minimum` and `maximum`: the least it may be, else 0 when 0 fits.
    static func integer(
        minimum: DereferencedJSONSchema.IntegerContext.Bound?, maximum: DereferencedJSONSchema.IntegerContext.Bound?
    ) -> Int {
        if let minimum {
            return minimum.exclusive && minimum.value < .max ? minimum.value + 1 : minimum.value
        }
        if let maximum, maximum.value <= 0 {
            return maximum.exclusive && maximum.value > .min ? maximum.value - 1 : maximum.value
        }
        return 0
    }

    /// A string of `format`, padded to `minLength` and cut to `maxLength`.
    static func string(format: String, minLength: Int, maxLength: Int?) -> String {
        var text =
            switch format {
            case "date-time": "2024-01-01T00:00:00Z"
            case "date": "2024-01-01"
            case "time": "00:00:00Z"
            case "binary", "byte": ""
            case "email": "user@example.com"
            case "uuid": "00000000-0000-4000-8000-000000000000"
            case "uri", "url": "https://example.com"
            case "hostname": "example.com"
            case "ipv4": "192.0.2.1"
            case "ipv6": "2001:db8::1"
            default: "string"
            }
        if text.count < minLength { text += String(repeating: "x", count: min(minLength, 10_000) - text.count) }
        if let maxLength, text.count > maxLength { text = String(text.prefix(max(0, maxLength))) }
        return text
    }
}
