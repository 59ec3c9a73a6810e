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

    /// `json` written out on one line, as `call --events json` prints it: data that is a JSON
    /// text on one line is written as it came, checked but not parsed and written again, so
    /// a fast stream is not slowed by it.
    public var jsonLine: String {
        let dataText: String
        if !data.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }), JSONValue.isValid(data) {
            dataText = data
        } else {
            dataText = JSONValue.string(data).serialized(escapeSlashes: false)
        }
        var line = "{\"event\":" + Self.quoted(event) + ",\"id\":" + Self.quoted(id) + ",\"data\":" + dataText
        if let retry { line += ",\"retry\":\(retry)" }
        return line + "}"
    }

    private static func quoted(_ text: String?) -> String {
        switch text {
        case nil: "null"
        case "message": "\"message\""
        case let text?: JSONValue.string(text).serialized(escapeSlashes: false)
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
