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
        Self.append(#"{"event":"#, to: &out)
        Self.appendQuoted(event, to: &out)
        Self.append(#","id":"#, to: &out)
        Self.appendQuoted(id, to: &out)
        Self.append(#","data":"#, to: &out)
        switch JSONValue.shape(of: data) {
        case .oneLine: Self.append(data, to: &out)
        // JSON across lines (SSE `data:` lines joined), written again on one.
        case .lines: Self.append(value.serialized(escapeSlashes: false), to: &out)
        case .invalid: Self.appendQuoted(data, to: &out)
        }
        if let retry { Self.append(#","retry":\#(retry)"#, to: &out) }
        Self.append("}\n", to: &out)
    }

    /// `text` as a JSON string, or `null`.
    private static func appendQuoted(_ text: String?, to out: inout [UInt8]) {
        guard let text else {
            append("null", to: &out)
            return
        }
        if text == "message" {
            append(#""message""#, to: &out)
            return
        }
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            out.append(UInt8(ascii: "\""))
            append(text, to: &out)
            out.append(UInt8(ascii: "\""))
        } else {
            append(JSONValue.string(text).serialized(escapeSlashes: false), to: &out)
        }
    }

    /// Appends `text`'s bytes in one copy.
    private static func append(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { out.append(contentsOf: $0) }
    }

    /// Appends a literal's bytes.
    private static func append(_ text: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
