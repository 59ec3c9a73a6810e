extension JSONValue {
    /// Whether `text` is one JSON text (RFC 8259), whitespace around it allowed, checked
    /// without building a value: what a caller that passes valid JSON on as it is asks, such
    /// as a stream's event printed as JSON. Nesting deeper than 512 is not valid, as the parser
    /// refuses it.
    public static func isValid(_ text: String) -> Bool {
        shape(of: text) != .invalid
    }

    /// What `text` is as JSON: not JSON, one JSON text on one line, or one across lines (a
    /// line break in its whitespace, the only place JSON has one).
    public static func shape(of text: String) -> JSONTextShape {
        var text = text
        return text.withUTF8 { bytes in
            var validator = JSONValidator(bytes: bytes)
            guard validator.document() else { return .invalid }
            return validator.sawLineBreak ? .lines : .oneLine
        }
    }
}

/// What a text is as JSON (`JSONValue.shape(of:)`).
public enum JSONTextShape: Sendable {
    /// Not one JSON text.
    case invalid
    /// One JSON text, on one line.
    case oneLine
    /// One JSON text, with a line break in its whitespace.
    case lines
}

/// A JSON grammar check over UTF-8 bytes that keeps nothing: the parser's rules without its
/// values.
private struct JSONValidator {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var sawLineBreak = false

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func document() -> Bool {
        guard value(depth: 0) else { return false }
        skipWhitespace()
        return index == bytes.count
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09: index += 1
            case 0x0A, 0x0D:
                sawLineBreak = true
                index += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int) -> Bool {
        skipWhitespace()
        guard index < bytes.count, depth < 512 else { return false }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object(depth: depth + 1)
        case UInt8(ascii: "["): return array(depth: depth + 1)
        case UInt8(ascii: "\""): return string()
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return number()
        }
    }

    mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    mutating func object(depth: Int) -> Bool {
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return true
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), string() else { return false }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
            index += 1
            guard value(depth: depth) else { return false }
            skipWhitespace()
            guard index < bytes.count else { return false }
            index += 1
            switch bytes[index - 1] {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return true
            default: return false
            }
        }
    }

    mutating func array(depth: Int) -> Bool {
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return true
        }
        while true {
            guard value(depth: depth) else { return false }
            skipWhitespace()
            guard index < bytes.count else { return false }
            index += 1
            switch bytes[index - 1] {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "]"): return true
            default: return false
            }
        }
    }

    mutating func string() -> Bool {
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return true
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return false }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    continue
                case UInt8(ascii: "u"):
                    guard bytes.count - index >= 4 else { return false }
                    for _ in 0..<4 {
                        guard Self.isHexDigit(bytes[index]) else { return false }
                        index += 1
                    }
                default:
                    return false
                }
            case 0..<0x20:
                return false
            default:
                continue
            }
        }
        return false
    }

    mutating func number() -> Bool {
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { return false }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() > 0 else { return false }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return false }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() > 0 else { return false }
        }
        return true
    }

    mutating func digits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
