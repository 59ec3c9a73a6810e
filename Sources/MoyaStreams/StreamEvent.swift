import MoyaJSON

/// One event of a stream: an SSE event, an NDJSON line, a JSON text sequence's record or a
/// WebSocket message.
public struct StreamEvent: Sendable, Hashable {
    /// Its place in the stream, from 0.
    public var index: Int
    /// The SSE event type (`message` when the stream names none); nil for other kinds.
    public var event: String?
    /// The SSE last event ID when the event was dispatched; nil when there is none.
    public var id: String?
    /// The event's data: SSE `data:` lines joined by line feeds, or the line or record.
    public var data: String
    /// The reconnection time an SSE `retry:` field set since the event before, in ms.
    public var retry: Int?

    /// An event.
    public init(index: Int, event: String? = nil, id: String? = nil, data: String, retry: Int? = nil) {
        self.index = index
        self.event = event
        self.id = id
        self.data = data
        self.retry = retry
    }

    /// The data as JSON when it is a JSON text, else as a string.
    public var value: JSONValue {
        guard let first = data.utf8.first(where: { !Self.isWhitespace($0) }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == UInt8(ascii: "\"")
                || first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
                || first == UInt8(ascii: "t") || first == UInt8(ascii: "f") || first == UInt8(ascii: "n"),
            let parsed = try? JSONValue(parsing: data)
        else { return .string(data) }
        return parsed
    }

    /// The event as one JSON object, `{"event":…,"id":…,"data":…}`, with `data` parsed when
    /// it is JSON and `retry` when the event set one: what `call --events json` prints.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("event", event.map(JSONValue.string) ?? .null),
            ("id", id.map(JSONValue.string) ?? .null),
            ("data", value),
        ]
        if let retry { members.append(("retry", .integer(retry))) }
        return .object(members)
    }

    /// `json` written out on one line and a line feed, appended to `out`, as `call --events
    /// json` prints it: data that is a JSON text on one line is written as it came, checked but
    /// not parsed and written again, and nothing is built on the way, so a fast stream is not
    /// slowed by it.
    public func writeJSONLine(into out: inout [UInt8]) {
        out.append(contentsOf: #"{"event":"#.utf8)
        Self.appendQuoted(event, to: &out)
        out.append(contentsOf: #","id":"#.utf8)
        Self.appendQuoted(id, to: &out)
        out.append(contentsOf: #","data":"#.utf8)
        if JSONValue.isValid(data) {
            if data.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
                // JSON across lines (SSE `data:` lines joined), written again on one.
                out.append(contentsOf: value.serialized(escapeSlashes: false).utf8)
            } else {
                out.append(contentsOf: data.utf8)
            }
        } else {
            Self.appendQuoted(data, to: &out)
        }
        if let retry { out.append(contentsOf: #","retry":\#(retry)"#.utf8) }
        out.append(contentsOf: "}\n".utf8)
    }

    /// `text` as a JSON string, or `null`.
    private static func appendQuoted(_ text: String?, to out: inout [UInt8]) {
        guard let text else {
            out.append(contentsOf: "null".utf8)
            return
        }
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: text.utf8)
            out.append(UInt8(ascii: "\""))
        } else {
            out.append(contentsOf: JSONValue.string(text).serialized(escapeSlashes: false).utf8)
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
