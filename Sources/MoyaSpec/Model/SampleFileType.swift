import MoyaHTTP

/// The media types of sample files by extension, in one table: what `serve` answers a
/// `file:` sample with, and the extension `--record` gives a body it writes to a file, so
/// that a recorded file is served as the type it came with.
public enum SampleFileType {
    /// Extensions and their media types. A type's first extension is the one recorded; an
    /// extension's first type is the one served.
    static let table: [(fileExtension: String, mediaType: String)] = [
        ("json", "application/json"), ("html", "text/html; charset=utf-8"), ("htm", "text/html; charset=utf-8"),
        ("xml", "application/xml"), ("xml", "text/xml"), ("csv", "text/csv; charset=utf-8"),
        ("txt", "text/plain; charset=utf-8"), ("text", "text/plain; charset=utf-8"),
        ("md", "text/plain; charset=utf-8"),
        ("png", "image/png"), ("jpg", "image/jpeg"), ("jpeg", "image/jpeg"), ("gif", "image/gif"),
        ("svg", "image/svg+xml"), ("pdf", "application/pdf"), ("webp", "image/webp"), ("zip", "application/zip"),
        ("gz", "application/gzip"),
    ]

    /// The media type of a file by its extension; `application/octet-stream` for one not
    /// listed.
    public static func mediaType(ofFile path: String) -> String {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        return table.first { $0.fileExtension == ext }?.mediaType ?? "application/octet-stream"
    }

    /// The extension for a body of `contentType`: the table's, `json` for any other JSON
    /// type, else `bin`. Never `yaml`: a YAML file in a specs folder is read as a spec.
    public static func fileExtension(forContentType contentType: String?) -> String {
        guard let contentType else { return "bin" }
        let essence = Self.essence(contentType)
        if let found = table.first(where: { Self.essence($0.mediaType) == essence }) { return found.fileExtension }
        return JSONValue.isJSONMediaType(contentType) ? "json" : "bin"
    }

    /// A media type without its parameters, lowercased.
    private static func essence(_ mediaType: String) -> String {
        (mediaType.split(separator: ";").first ?? "").filter { $0 != " " && $0 != "\t" }.lowercased()
    }
}
