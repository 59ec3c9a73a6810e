import MoyaJSON

/// Plain YAML scalars typed by the core schema, as a spec reads every typed value: `~` and
/// `null` null, `true` a bool, `7` and `0x1F` integers, `1.5` a float; anything else, and
/// every quoted scalar, text.
package enum YAMLScalar {
    /// A plain scalar's value by the core schema: null, a bool, an integer or a float; nil for
    /// text and for quoted scalars. Every typed value in a spec is read this way.
    package static func plainValue(_ node: YAMLNode) -> JSONValue? {
        guard case .scalar(let text, .plain) = node.content else { return nil }
        if node.isNull { return .null }
        if let bool = parseBool(text) { return .bool(bool) }
        if let int = parseInteger(text) { return .integer(int) }
        if let double = parseFloat(text) { return .number(double) }
        return nil
    }

    package static func parseBool(_ text: String) -> Bool? {
        switch text {
        case "true", "True", "TRUE": true
        case "false", "False", "FALSE": false
        default: nil
        }
    }

    package static func parseInteger(_ text: String) -> Int? {
        // Most scalars are words; looking at the first byte spares them the number parsers.
        guard let first = text.utf8.first,
            first == UInt8(ascii: "-") || first == UInt8(ascii: "+")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
        else { return nil }
        if let value = Int(text) { return value }
        let bytes = Array(text.utf8)
        if first == UInt8(ascii: "+"), let value = Int(text.dropFirst()) { return value }
        if bytes.count > 2, first == UInt8(ascii: "0") {
            let radix: Int? =
                switch bytes[1] {
                case UInt8(ascii: "x"): 16
                case UInt8(ascii: "o"): 8
                default: nil
                }
            if let radix, let value = Int(String(decoding: bytes[2...], as: UTF8.self), radix: radix) { return value }
        }
        return nil
    }

    package static func parseFloat(_ text: String) -> Double? {
        guard let first = text.utf8.first,
            first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
            let value = Double(text), value.isFinite
        else { return nil }
        return value
    }
}
