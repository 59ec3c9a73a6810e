import MoyaCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A request as `--dry-run` prints it, secrets redacted.
struct RequestPrinter {
    let request: Request
    let redactor: Redactor

    /// `METHOD URL`, the headers, a blank line and the body.
    var text: String {
        var lines = ["\(request.method.rawValue) \(redactor.text(request.url.absoluteString))"]
        for field in request.headers {
            lines.append("\(field.name): \(redactor.header(name: field.name, value: field.value))")
        }
        switch request.body {
        case .data(let data)?:
            lines.append("")
            if let text = String(validating: data, as: UTF8.self) {
                lines.append(redactor.text(text))
            } else {
                lines.append("<\(data.count) bytes of binary data>")
            }
        case .file(let url)?:
            lines.append("")
            lines.append("<the contents of \(url.path)>")
        case nil:
            break
        }
        return lines.joined(separator: "\n")
    }

    /// One JSON object: method, url, headers, and body (UTF-8 text or null), with bodyBase64
    /// when the body is not UTF-8 and bodyFile for an upload.
    var json: String {
        var headers: [(key: String, value: JSONValue)] = []
        for field in request.headers {
            headers.append((key: field.name, value: .string(redactor.header(name: field.name, value: field.value))))
        }
        var members: [(key: String, value: JSONValue)] = [
            (key: "method", value: .string(request.method.rawValue)),
            (key: "url", value: .string(redactor.text(request.url.absoluteString))),
            (key: "headers", value: .object(headers)),
        ]
        switch request.body {
        case .data(let data)?:
            if let text = String(validating: data, as: UTF8.self) {
                members.append((key: "body", value: .string(redactor.text(text))))
            } else {
                members.append((key: "body", value: .null))
                members.append((key: "bodyBase64", value: .string(data.base64EncodedString())))
            }
        case .file(let url)?:
            members.append((key: "body", value: .null))
            members.append((key: "bodyFile", value: .string(url.path)))
        case nil:
            members.append((key: "body", value: .null))
        }
        return JSONValue.object(members).serialized(escapeSlashes: false)
    }
}
