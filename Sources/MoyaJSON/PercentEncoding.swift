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

    /// `text` with each `%XX` decoded, and with `plusIsSpace` each `+` as a space, as form
    /// bodies and queries write it. A `%` not followed by two hex digits stays as written, and
    /// bytes that are not UTF-8 become U+FFFD.
    public static func decode(_ text: Substring, plusIsSpace: Bool = false) -> String {
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "%")) || (plusIsSpace && bytes.contains(UInt8(ascii: "+"))) else {
            return String(text)
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                let low = hexValue(bytes[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
                continue
            }
            output.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Appends `%XX` for `byte`.
    public static func append(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "%"))
        output.append(hexDigit(byte >> 4))
        output.append(hexDigit(byte & 0x0F))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }

    /// RFC 6265's cookie-octet but `%`: what a cookie's value holds as it is. The rest (space,
    /// `"`, `,`, `;`, `\\`, `%`, controls and every byte past ASCII) is percent-encoded, so
    /// that a value cannot end its pair or the header, and decodes back exactly.
    public static func isCookieOctet(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x21, 0x23...0x24, 0x26...0x2B, 0x2D...0x3A, 0x3C...0x5B, 0x5D...0x7E: true
        default: false
        }
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
