/// The parts of a `multipart/form-data` body (RFC 7578), for `serve` to read a request's
/// fields from: each part's name, file name and content.
enum MultipartReading {
    struct Part {
        var name: String
        var fileName: String?
        var content: ArraySlice<UInt8>
    }

    /// The parts of `body`, split at the boundary `contentType` names; nil when it names none
    /// or the body does not end with the closing boundary.
    static func parts(of body: [UInt8], contentType: String) -> [Part]? {
        guard let boundary = parameter("boundary", in: contentType), !boundary.isEmpty else { return nil }
        let delimiter = Array("--\(boundary)".utf8)
        let separator = Array("\r\n--\(boundary)".utf8)
        guard var at = find(delimiter, in: body, from: 0) else { return nil }
        at += delimiter.count
        var parts: [Part] = []
        while true {
            // `--` after a boundary closes the body.
            if body[at...].starts(with: Array("--".utf8)) { return parts }
            guard body[at...].starts(with: Array("\r\n".utf8)) else { return nil }
            at += 2
            guard let headEnd = find(Array("\r\n\r\n".utf8), in: body, from: at),
                let end = find(separator, in: body, from: headEnd + 4)
            else { return nil }
            let head = String(decoding: body[at..<headEnd], as: UTF8.self)
            let disposition = head.split(separator: "\r\n").first {
                $0.lowercased().hasPrefix("content-disposition:")
            }
            if let disposition, let name = parameter("name", in: String(disposition)) {
                parts.append(
                    Part(
                        name: name, fileName: parameter("filename", in: String(disposition)),
                        content: body[(headEnd + 4)..<end]))
            }
            at = end + separator.count
        }
    }

    /// A header parameter's value (`boundary=abc`, `name="file"`), unquoted.
    static func parameter(_ name: String, in header: String) -> String? {
        for piece in header.split(separator: ";").dropFirst() {
            let pair = piece.drop { $0 == " " || $0 == "\t" }
            guard let equals = pair.firstIndex(of: "="), pair[..<equals].lowercased() == name else { continue }
            var value = pair[pair.index(after: equals)...]
            while value.last == " " || value.last == "\t" { value = value.dropLast() }
            if value.count >= 2, value.first == "\"", value.last == "\"" {
                value = value.dropFirst().dropLast()
            }
            return String(value)
        }
        return nil
    }

    /// Where `needle` first starts in `bytes` at or after `start`.
    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, bytes.count >= needle.count else { return nil }
        var index = start
        while index <= bytes.count - needle.count {
            if bytes[index] == first, bytes[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
