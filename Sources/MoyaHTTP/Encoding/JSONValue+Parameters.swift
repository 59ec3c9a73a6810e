/// Moya parameters (`[String: Any]` of strings, numbers, booleans, arrays and dictionaries)
/// as JSON values and back.
extension JSONValue {
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
