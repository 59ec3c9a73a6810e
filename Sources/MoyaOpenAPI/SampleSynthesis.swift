import MoyaCore
import OpenAPIKit

/// A value that fits a schema, for a response that has no example: the schema's own example,
/// default or first enum value where it has one, else a value of its type and format.
enum SampleSynthesis {
    /// How deep a made-up value goes; a recursive schema stops here with `null`.
    static let depthLimit = 8

    static func value(_ schema: DereferencedJSONSchema) -> JSONValue {
        value(schema, depth: 0)
    }

    private static func value(_ schema: DereferencedJSONSchema, depth: Int) -> JSONValue {
        guard depth < depthLimit else { return .null }
        if let example = schema.examples.first.flatMap(JSONBridge.value) { return example }
        if let value = schema.defaultValue.flatMap(JSONBridge.value) { return value }
        if let value = schema.allowedValues?.first.flatMap(JSONBridge.value) { return value }
        switch schema {
        case .null: return .null
        case .boolean: return .bool(true)
        case .integer(_, let context):
            return .integer(context.minimum.map { $0.value } ?? 0)
        case .number(_, let context):
            return .number(context.minimum.map { $0.value } ?? 0)
        case .string(let core, _):
            switch core.format {
            case .dateTime: return .string("2024-01-01T00:00:00Z")
            case .date: return .string("2024-01-01")
            default: break
            }
            switch core.formatString {
            case "binary", "byte": return .string("")
            case "email": return .string("user@example.com")
            case "uuid": return .string("00000000-0000-4000-8000-000000000000")
            case "uri", "url": return .string("https://example.com")
            case "ipv4": return .string("192.0.2.1")
            default: return .string("string")
            }
        case .object(_, let context):
            return .object(
                context.properties.sorted { $0.key < $1.key }.map {
                    (key: $0.key, value: value($0.value, depth: depth + 1))
                })
        case .array(_, let context):
            return .array(context.items.map { [value($0, depth: depth + 1)] } ?? [])
        case .all(let schemas, _):
            var members: [(key: String, value: JSONValue)] = []
            for part in schemas {
                guard case .object(let more) = value(part, depth: depth + 1) else { continue }
                for member in more where !members.contains(where: { $0.key == member.key }) { members.append(member) }
            }
            return .object(members.sorted { $0.key < $1.key })
        case .one(let schemas, _), .any(let schemas, _):
            return schemas.first.map { value($0, depth: depth + 1) } ?? .null
        case .not, .fragment:
            return .null
        }
    }
}
