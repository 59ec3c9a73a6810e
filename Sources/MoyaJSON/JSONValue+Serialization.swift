#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension JSONValue {
    /// The JSON text of this value. Compact by default; `pretty` indents by two spaces and
    /// writes `"key" : value`, as `JSONSerialization`'s pretty printing does. Slashes are
    /// escaped as `\/`, as Foundation's encoders do; control characters, C1 ones included,
    /// as `\u`.
    public func serialized(pretty: Bool = false, escapeSlashes: Bool = true) -> String {
        serialized(pretty: pretty, escapeSlashes: escapeSlashes, limit: .max)
    }

    /// The start of the JSON text, as `serialized(pretty:escapeSlashes:)` writes it: writing
    /// stops at the first element boundary past `limit` UTF-8 bytes. For a preview that is cut
    /// anyway, so that a deep, wide value costs the preview, not its whole indented text.
    public func serialized(pretty: Bool = false, escapeSlashes: Bool = true, limit: Int) -> String {
        var output = ""
        write(to: &output, pretty: pretty, escapeSlashes: escapeSlashes, indent: 0, limit: limit)
        return output
    }

    /// The JSON text as UTF-8 bytes.
    public func data(pretty: Bool = false) -> Data {
        Data(serialized(pretty: pretty).utf8)
    }

    /// A number as JSON writes it: integral values without a fraction.
    public static func format(_ double: Double) -> String {
        if double.rounded() == double, abs(double) < 9_007_199_254_740_992 {
            return String(Int(double))
        }
        return "\(double)"
    }

    private func write(to output: inout String, pretty: Bool, escapeSlashes: Bool, indent: Int, limit: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let value): output += String(value)
        case .number(let value): output += Self.format(value)
        case .string(let value): Self.writeString(value, to: &output, escapeSlashes: escapeSlashes)
        case .array(let values):
            guard !values.isEmpty else {
                output += "[]"
                return
            }
            output += "["
            for (index, value) in values.enumerated() {
                if output.utf8.count > limit { return }
                if index > 0 { output += "," }
                if pretty { Self.newline(&output, indent: indent + 1) }
                value.write(to: &output, pretty: pretty, escapeSlashes: escapeSlashes, indent: indent + 1, limit: limit)
            }
            if pretty { Self.newline(&output, indent: indent) }
            output += "]"
        case .object(let members):
            guard !members.isEmpty else {
                output += "{}"
                return
            }
            output += "{"
            for (index, member) in members.enumerated() {
                if output.utf8.count > limit { return }
                if index > 0 { output += "," }
                if pretty { Self.newline(&output, indent: indent + 1) }
                Self.writeString(member.key, to: &output, escapeSlashes: escapeSlashes)
                output += pretty ? " : " : ":"
                member.value.write(
                    to: &output, pretty: pretty, escapeSlashes: escapeSlashes, indent: indent + 1, limit: limit)
            }
            if pretty { Self.newline(&output, indent: indent) }
            output += "}"
        }
    }

    private static func newline(_ output: inout String, indent: Int) {
        output += "\n"
        output += String(repeating: "  ", count: indent)
    }

    private static func writeString(_ string: String, to output: inout String, escapeSlashes: Bool) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "/" where escapeSlashes: output += "\\/"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            // C0, DEL and C1 controls: YAML readers refuse them raw, and a terminal may act
            // on them (U+009B is an 8-bit CSI).
            case let control where control.value < 0x20 || (0x7F...0x9F).contains(control.value):
                let hex = String(control.value, radix: 16, uppercase: false)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

/// An object member's name, as Codable's keyed containers take it.
private struct MemberKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension JSONValue: Encodable {

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .integer(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let values):
            var container = encoder.unkeyedContainer()
            for value in values { try container.encode(value) }
        case .object(let members):
            var container = encoder.container(keyedBy: MemberKey.self)
            for member in members { try container.encode(member.value, forKey: MemberKey(stringValue: member.key)) }
        }
    }
}

extension JSONValue: Decodable {
    /// Any JSON value. Codable's keyed containers keep no order, so a decoded object's members
    /// are in the order of their keys: the same whatever order they came in, so that a value
    /// decoded, encoded and decoded again is equal to itself.
    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: MemberKey.self) {
            var members: [(key: String, value: JSONValue)] = []
            for key in object.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                members.append((key.stringValue, try object.decode(JSONValue.self, forKey: key)))
            }
            self = .object(members)
        } else if var array = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            if let count = array.count { items.reserveCapacity(count) }
            while !array.isAtEnd { items.append(try array.decode(JSONValue.self)) }
            self = .array(items)
        } else {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .null
            } else if let bool = try? value.decode(Bool.self) {
                self = .bool(bool)
            } else if let integer = try? value.decode(Int.self) {
                self = .integer(integer)
            } else if let number = try? value.decode(Double.self) {
                self = .number(number)
            } else {
                self = .string(try value.decode(String.self))
            }
        }
    }
}
