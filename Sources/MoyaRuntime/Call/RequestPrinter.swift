import MoyaHTTP

/// A request as `--dry-run` prints it, from its printable form, so secrets are masked.
public struct RequestPrinter: Sendable {
    /// What is printed.
    public let request: PrintableRequest

    /// The printable form of `request` that `redactor` gives.
    public init(request: Request, redactor: Redactor) {
        self.request = redactor.printable(request)
    }

    /// A printable request as it is.
    public init(_ request: PrintableRequest) {
        self.request = request
    }

    /// `METHOD URL`, the headers, a blank line and the body.
    public var text: String {
        var lines = ["\(request.method.rawValue) \(request.url)"]
        for field in request.headers { lines.append("\(field.name): \(field.value)") }
        switch request.body {
        case .text(let text)?:
            lines += ["", text]
        case .binary(let count, _)?:
            lines += ["", "<\(count) bytes of binary data>"]
        case .file(let path)?:
            lines += ["", "<the contents of \(path)>"]
        case nil:
            break
        }
        return lines.joined(separator: "\n")
    }

    /// One JSON object: method, url, headers, and body (UTF-8 text or null), with bodyBase64
    /// when the body is not UTF-8 and bodyFile for an upload.
    public var json: String {
        var members: [(key: String, value: JSONValue)] = [
            (key: "method", value: .string(request.method.rawValue)),
            (key: "url", value: .string(request.url)),
            (key: "headers", value: .object(request.headers.map { (key: $0.name, value: .string($0.value)) })),
        ]
        switch request.body {
        case .text(let text)?:
            members.append((key: "body", value: .string(text)))
        case .binary(_, let base64)?:
            members += [(key: "body", value: .null), (key: "bodyBase64", value: .string(base64))]
        case .file(let path)?:
            members += [(key: "body", value: .null), (key: "bodyFile", value: .string(path))]
        case nil:
            members.append((key: "body", value: .null))
        }
        return JSONValue.object(members).serialized(escapeSlashes: false)
    }
}
