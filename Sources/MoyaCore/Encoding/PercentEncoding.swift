/// Percent-encoding of UTF-8 text, shared by queries, paths and path segments.
public enum PercentEncoding {
    /// `text` with every byte that `keeps` refuses written as `%XX`, uppercase hex.
    public static func encode(_ text: String, keeping keeps: (UInt8) -> Bool) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if keeps(byte) {
                output.append(byte)
            } else {
                append(byte, to: &output)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends `%XX` for `byte`.
    static func append(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "%"))
        output.append(hexDigit(byte >> 4))
        output.append(hexDigit(byte & 0x0F))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }

    /// RFC 3986's unreserved characters: letters, digits and `-._~`.
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
