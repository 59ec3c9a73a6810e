/// How a response's body is cut into events: a target's `stream:` declares it, or the
/// response's `Content-Type` names it.
public enum StreamKind: String, Sendable, Hashable, CaseIterable {
    /// Server-Sent Events (`text/event-stream`), read by the WHATWG event-stream rules.
    case sse
    /// Newline-delimited JSON (`application/x-ndjson`, `application/jsonl`): one event a line.
    case ndjson
    /// JSON text sequences (RFC 7464, `application/json-seq`): one event a record.
    case jsonSeq = "json-seq"
    /// A WebSocket's messages (RFC 6455): one event a message, at a `ws:` or `wss:` URL.
    case websocket

    /// Whether the stream's events ride on a response body, as all but a WebSocket's do.
    public var isBody: Bool { self != .websocket }

    /// The kind a `Content-Type` names, or nil for a body that is not a stream.
    public init?(contentType: String) {
        let type = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let essence = type.filter { $0 != " " && $0 != "\t" }.lowercased()
        switch essence {
        case "text/event-stream": self = .sse
        case "application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines",
            "application/jsonlines", "application/stream+json":
            self = .ndjson
        case "application/json-seq": self = .jsonSeq
        default: return nil
        }
    }
}
