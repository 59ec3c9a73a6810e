import MoyaJSON

/// The `format`s asserted when asked: what each name allows. A format not listed here, and
/// any value of a type the format does not name, passes. OpenAPI's `int32` and `int64` bound
/// numbers; the others are strings'.
enum Formats {
    static func holds(_ format: String, _ value: JSONValue) -> Bool {
        switch (format, value) {
        case ("int32", .integer(let int)): return Int32(exactly: int) != nil
        case ("int32", .number(let double)): return Int32(exactly: double) != nil || double != double.rounded()
        // An integer parses as a double only past `Int`, int64's range: one just past its
        // minimum rounds to the minimum itself, which is why that bound is excluded.
        case ("int64", .number(let double)):
            return double != double.rounded() || (double > -0x1p63 && double < 0x1p63)
        default: break
        }
        guard case .string(let text) = value else { return true }
        switch format {
        case "date": return isDate(Substring(text))
        case "date-time":
            guard let t = text.firstIndex(where: { $0 == "T" || $0 == "t" }) else { return false }
            return isDate(text[..<t]) && isTime(text[text.index(after: t)...])
        case "time": return isTime(Substring(text))
        case "email":
            let parts = text.split(separator: "@", omittingEmptySubsequences: false)
            return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty && !text.contains(" ")
        case "ipv4": return isIPv4(Substring(text))
        case "uuid":
            let groups = text.split(separator: "-", omittingEmptySubsequences: false).map(\.count)
            return groups == [8, 4, 4, 4, 12] && text.allSatisfy { $0 == "-" || $0.isHexDigit }
        case "uri":
            let reference = URIReference(text)
            return reference.scheme.map { !$0.isEmpty && $0.first?.isLetter == true } ?? false && !text.contains(" ")
        default: return true
        }
    }

    private static func digits(_ text: Substring, _ count: Int) -> Int? {
        guard text.count == count, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) else { return nil }
        return Int(text)
    }

    static func isDate(_ text: Substring) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, let year = digits(parts[0], 4), let month = digits(parts[1], 2),
            let day = digits(parts[2], 2), (1...12).contains(month), day >= 1
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= days[month - 1]
    }

    static func isTime(_ text: Substring) -> Bool {
        var rest = text
        var offset: Substring = ""
        if let zone = rest.firstIndex(where: { $0 == "Z" || $0 == "z" || $0 == "+" || $0 == "-" }) {
            offset = rest[zone...]
            rest = rest[..<zone]
        } else {
            return false
        }
        if let dot = rest.firstIndex(of: ".") {
            let fraction = rest[rest.index(after: dot)...]
            guard !fraction.isEmpty, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
            rest = rest[..<dot]
        }
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let hour = digits(parts[0], 2), let minute = digits(parts[1], 2),
            let second = digits(parts[2], 2), hour < 24, minute < 60, second <= 60
        else { return false }
        if offset == "Z" || offset == "z" { return true }
        let zone = offset.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
        guard zone.count == 2, let zoneHour = digits(zone[0], 2), let zoneMinute = digits(zone[1], 2) else {
            return false
        }
        return zoneHour < 24 && zoneMinute < 60
    }

    static func isIPv4(_ text: Substring) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }),
                    part.count == 1 || part.first != "0", let value = Int(part)
                else { return false }
                return value <= 255
            }
    }
}
