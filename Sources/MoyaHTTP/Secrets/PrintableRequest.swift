#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A request as it may be printed: every part as text, secrets already masked.
public struct PrintableRequest: Sendable {
    /// A body as it may be printed.
    public enum Body: Sendable, Equatable {
        /// UTF-8 text.
        case text(String)
        /// Bytes that are not UTF-8, with their base64.
        case binary(count: Int, base64: String)
        /// An upload from a local file.
        case file(path: String)
    }

    /// The method.
    public var method: Method
    /// The URL, with a password in it masked.
    public var url: String
    /// The header fields in order.
    public var headers: [(name: String, value: String)]
    /// The body, if any.
    public var body: Body?
    /// The header fields, by index, that read an environment variable a shell expands: each
    /// as one double-quoted shell word, `"Authorization: Bearer ${TOKEN}"`, for `--curl`.
    public var shellWords: [Int: String] = [:]

    /// With `masking`, a URL's password is masked; `text` turns each part's text into what
    /// may be printed, `header` each header's value, and `shell` a header that reads the
    /// environment into a shell word.
    init(
        _ request: Request, masking: Bool, text unmask: (String) -> String, header: (String, String) -> String,
        shell: (String, String) -> String? = { _, _ in nil }
    ) {
        method = request.method
        let url = request.url.absoluteString
        self.url = unmask(masking ? Self.maskingPassword(url) : url)
        headers = []
        for (index, field) in request.headers.enumerated() {
            let shown = header(field.name, field.value)
            headers.append((name: field.name, value: unmask(shown)))
            if let word = shell(field.name, shown) { shellWords[index] = word }
        }
        switch request.body {
        case nil: body = nil
        case .file(let url)?: body = .file(path: url.path)
        case .data(let data)?:
            if let text = String(validating: data, as: UTF8.self) {
                body = .text(unmask(text))
            } else {
                body = .binary(count: data.count, base64: data.base64EncodedString())
            }
        }
    }

    /// `scheme://user:password@host/...` with the password masked; the rest as it is.
    public static func maskingPassword(_ url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://") else { return url }
        let authorityStart = schemeEnd.upperBound
        let authorityEnd = url[authorityStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        let authority = url[authorityStart..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else {
            return url
        }
        return String(url[..<authority.index(after: colon)]) + Redactor.mask + String(url[at...])
    }
}
