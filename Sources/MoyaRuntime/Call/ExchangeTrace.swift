import MoyaHTTP
import MoyaSpec
import MoyaTransport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a report shows of one exchange, as `-vv` prints it and with every secret masked by
/// the exchange's redactor: the request from its masked twin, the response's headers masked
/// and its body scrubbed (a JSON body masked string by string, then pretty-printed), each
/// body cut at `bodyLimit` bytes.
public struct ExchangeTrace: Sendable {
    /// The most of a body a trace keeps, in UTF-8 bytes; the rest is counted.
    public static let bodyLimit = 2048

    /// The method, the URL (a password in it masked) and the headers as sent.
    public var method: String
    public var url: String
    public var requestHeaders: [(name: String, value: String)]
    /// The request body as it may be printed, cut.
    public var requestBody: String?
    /// The response's status, headers and body; nil status when no response came.
    public var status: Int?
    public var responseHeaders: [(name: String, value: String)]
    public var responseBody: String?
    /// Why no response came.
    public var failure: String?
    /// How long the exchange took.
    public var seconds: Double

    /// The trace of `exchange`; nil when nothing was sent (the call could not be made).
    /// `wire` gives the header fields a live request went out with (`Session.wireHeaders`),
    /// so that the transport's (`Host`, `Accept-Encoding`, `Content-Length`, the jar's
    /// cookies) show as `-v` shows them; nil for a stubbed exchange, which sent nothing.
    public init?(_ exchange: Exchange, wire: (@Sendable (Request) -> HTTPHeaders)? = nil) {
        let redactor = exchange.response.map(exchange.redactor.exchanged) ?? exchange.redactor
        guard let request = redactor.maskedRequest ?? exchange.response?.request else { return nil }
        let printable = redactor.printable(request)
        method = printable.method.rawValue
        url = printable.url
        requestHeaders = printable.headers
        if let wire, let sent = exchange.response?.request {
            requestHeaders = redactor.wire(printable.headers, sent: wire(sent))
        }
        switch printable.body {
        case nil: requestBody = nil
        case .text(let text)?: requestBody = Self.cut(Self.pretty(text, redactor: nil), bodyBytes: text.utf8.count)
        case .binary(let count, _)?: requestBody = "<\(count) bytes of binary data>"
        case .file(let path)?: requestBody = "<file \(path)>"
        }
        seconds = exchange.seconds
        failure = exchange.failure?.reason
        guard let response = exchange.response else {
            status = nil
            responseHeaders = []
            responseBody = nil
            return
        }
        status = response.statusCode
        responseHeaders = response.headers.map { ($0.name, redactor.header(name: $0.name, value: $0.value)) }
        responseBody = Self.body(response.data, redactor: redactor)
    }

    /// A response body as it may be shown: not at all when a secret is taken from it, JSON
    /// masked and pretty, text scrubbed, and cut.
    static func body(_ data: Data, redactor: Redactor) -> String? {
        guard !data.isEmpty else { return nil }
        if redactor.isEnabled, redactor.hidesResponseBody {
            return "<\(data.count) bytes, not shown: a secret is taken from it>"
        }
        guard let text = String(validating: data, as: UTF8.self) else { return "<\(data.count) bytes of binary data>" }
        return cut(pretty(text, redactor: redactor), bodyBytes: data.count)
    }

    /// The largest JSON body pretty-printed; a larger one is shown as it came, scrubbed, so
    /// that a report of large bodies costs a pass over each, not a parse.
    static let prettyLimit = 1 << 20

    /// JSON text pretty-printed (masked by `redactor` first, when given), any other text as
    /// it is, scrubbed by `redactor`.
    static func pretty(_ text: String, redactor: Redactor?) -> String {
        // Only what might be JSON is parsed: an HTML page or plain text is not.
        let first = text.utf8.first { !" \t\r\n".utf8.contains($0) }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "["), text.utf8.count <= prettyLimit,
            let json = try? JSONValue(parsing: Data(text.utf8))
        {
            // Only what the preview keeps is written.
            return (redactor.map { $0.scrubbing(json) } ?? json).serialized(
                pretty: true, escapeSlashes: false, limit: bodyLimit)
        }
        return redactor?.scrub(text) ?? text
    }

    /// `text`, shown for a body of `bodyBytes`, cut at `bodyLimit` bytes on a character, with
    /// a line saying so.
    static func cut(_ text: String, bodyBytes: Int) -> String {
        guard text.utf8.count > bodyLimit else { return text }
        var kept = 0
        var end = text.startIndex
        for index in text.indices {
            let next = kept + text[index].utf8.count
            guard next <= bodyLimit else { break }
            kept = next
            end = text.index(after: index)
        }
        return text[..<end] + "\n… cut here: the body is \(bodyBytes) bytes"
    }
}
