#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A JSON document whose objects keep their keys in the order they were given.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number with no fractional part that fits an `Int`.
    case integer(Int)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its members in order.
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.integer(let a), .number(let b)), (.number(let b), .integer(let a)): Double(a) == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && a.elementsEqual(b) { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(serialized())
    }

    /// The value of member `key` of an object, or nil.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The value reached by following `path`: a member's name into an object, an index into
    /// an array; nil when a step leads nowhere.
    public func value(atPath path: some Sequence<String>) -> JSONValue? {
        var current = self
        for step in path {
            switch current {
            case .object:
                guard let next = current[step] else { return nil }
                current = next
            case .array(let items):
                guard let index = Int(step), items.indices.contains(index) else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }

    /// Whether a `Content-Type` names JSON: `application/json`, `text/json`, `…+json`,
    /// parameters and case aside.
    public static func isJSONMediaType(_ contentType: String) -> Bool {
        let essence = (contentType.split(separator: ";").first ?? "").filter { $0 != " " && $0 != "\t" }.lowercased()
        return essence.hasSuffix("/json") || essence.hasSuffix("+json")
    }

    /// The JSON Schema type name of the value: `null`, `boolean`, `integer`, `number`,
    /// `string`, `array` or `object`.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer: "integer"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The value as text: a string as itself, anything else as its JSON.
    public var text: String {
        if case .string(let text) = self { return text }
        return serialized(escapeSlashes: false)
    }

    /// The text of a string, else nil.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// A number's value, else nil.
    public var numberValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }
}
