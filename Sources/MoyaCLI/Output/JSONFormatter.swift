/// Re-indents a valid JSON document, four spaces a level, optionally with ANSI colours for keys,
/// strings, numbers, booleans and null. It walks the tokens of the original text, so numbers and
/// string escapes print exactly as the server sent them and members keep their order.
package struct JSONFormatter {
    /// The ANSI colour of each kind of token.
    enum Style: String {
        case key = "\u{1B}[1;34m"
        case string = "\u{1B}[32m"
        case number = "\u{1B}[36m"
        case bool = "\u{1B}[33m"
        case null = "\u{1B}[35m"
        case reset = "\u{1B}[0m"
    }

    var colored: Bool
    private(set) var output: [UInt8] = []
    private var depth = 0

    init(colored: Bool) {
        self.colored = colored
    }

    /// The formatted document with a final newline. `bytes` should already be known to be
    /// JSON; anything else is re-indented as far as it goes, never trapped on.
    package static func format(_ bytes: [UInt8], colored: Bool) -> [UInt8] {
        var formatter = JSONFormatter(colored: colored)
        formatter.output.reserveCapacity(bytes.count * 2)
        formatter.run(bytes)
        formatter.output.append(UInt8(ascii: "\n"))
        return formatter.output
    }

    private mutating func run(_ bytes: [UInt8]) {
        // A UTF-8 byte order mark, which the parser tolerates, is not printed.
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        // Whether the next string is an object key: true after `{` and after `,` inside an object.
        var expectsKey = false
        var containers: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                index += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                var next = index + 1
                while next < bytes.count, Self.isSpace(bytes[next]) { next += 1 }
                if next < bytes.count, bytes[next] == close {
                    output.append(byte)
                    output.append(close)
                    index = next + 1
                    continue
                }
                output.append(byte)
                containers.append(byte)
                depth += 1
                newline()
                expectsKey = byte == UInt8(ascii: "{")
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                // Only valid JSON comes here, but a stray closer must not pop past the top.
                guard containers.popLast() != nil else {
                    output.append(byte)
                    index += 1
                    continue
                }
                depth -= 1
                newline()
                output.append(byte)
                index += 1
            case UInt8(ascii: ","):
                output.append(byte)
                newline()
                expectsKey = containers.last == UInt8(ascii: "{")
                index += 1
            case UInt8(ascii: ":"):
                output.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
                index += 1
            case UInt8(ascii: "\""):
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                    end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                end = min(end + 1, bytes.count)
                paint(bytes[index..<end], expectsKey ? .key : .string)
                expectsKey = false
                index = end
            default:
                var end = index
                while end < bytes.count, !Self.isDelimiter(bytes[end]) { end += 1 }
                let style: Style =
                    switch byte {
                    case UInt8(ascii: "t"), UInt8(ascii: "f"): .bool
                    case UInt8(ascii: "n"): .null
                    default: .number
                    }
                paint(bytes[index..<end], style)
                index = max(end, index + 1)
            }
        }
    }

    private mutating func paint(_ token: ArraySlice<UInt8>, _ style: Style) {
        guard colored else {
            output.append(contentsOf: token)
            return
        }
        output.append(contentsOf: style.rawValue.utf8)
        output.append(contentsOf: token)
        output.append(contentsOf: Style.reset.rawValue.utf8)
    }

    private mutating func newline() {
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 4))
    }

    /// JSON's insignificant whitespace.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
            || byte == UInt8(ascii: ":")
    }
}
