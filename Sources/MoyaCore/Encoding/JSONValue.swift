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

    /// The value as text: a string as itself, anything else as its JSON.
    public var text: String {
        if case .string(let text) = self { return text }
        return serialized(escapeSlashes: false)
    }

    /// Converts a parameter value (strings, numbers, booleans, arrays, dictionaries) to JSON.
    public init(parameter value: any Sendable) throws {
        try self.init(anyParameter: value)
    }

    // Parameters are read synchronously, so looking at them as `Any` is safe; it lets an
    // `Optional` inside them be unwrapped, which a cast to `any Sendable` cannot do.
    init(anyParameter value: Any) throws {
        switch value {
        case let json as JSONValue: self = json
        case let string as String: self = .string(string)
        case let bool as Bool: self = .bool(bool)
        case let int as Int: self = .integer(int)
        case let double as Double:
            guard double.isFinite else { throw ParameterEncodingError("\(double) is not a JSON number") }
            self = .number(double)
        case let float as Float: self = try JSONValue(anyParameter: Double(float))
        case let integer as any BinaryInteger:
            guard let int = Int(exactly: integer) else { throw ParameterEncodingError("\(integer) is too large") }
            self = .integer(int)
        case let array as [Any]: self = .array(try array.map(JSONValue.init(anyParameter:)))
        case let dictionary as [String: Any]:
            self = .object(
                try dictionary.keys.sorted().map { key in
                    (key: key, value: try JSONValue(anyParameter: dictionary[key] ?? JSONValue.null))
                })
        case let optional as any OptionalParameter:
            guard let wrapped = optional.wrappedParameter else {
                self = .null
                return
            }
            self = try JSONValue(anyParameter: wrapped)
        default:
            throw ParameterEncodingError("a value of type \(type(of: value)) is not valid JSON")
        }
    }

    /// The parameter form of this value: `String`, `Int`, `Double`, `Bool`, arrays and
    /// dictionaries; `null` becomes an absent optional.
    public var parameterValue: any Sendable {
        switch self {
        case .null: String?.none
        case .bool(let value): value
        case .integer(let value): value
        case .number(let value): value
        case .string(let value): value
        case .array(let values): values.map(\.parameterValue)
        case .object(let members):
            Dictionary(members.map { ($0.key, $0.value.parameterValue) }, uniquingKeysWith: { _, last in last })
        }
    }
}

/// Lets a parameter that is an `Optional` be looked inside.
protocol OptionalParameter {
    var wrappedParameter: Any? { get }
}

extension Optional: OptionalParameter {
    var wrappedParameter: Any? { self.map { $0 } }
}
