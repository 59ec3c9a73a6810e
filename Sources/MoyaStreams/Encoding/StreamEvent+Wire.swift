import MoyaJSON

extension StreamEvent {
    /// The event as a server of `kind` sends it, which the decoder reads back as this event:
    /// SSE fields and a blank line (each line of the data a `data:` line); an NDJSON line; a
    /// JSON text sequence's record. Data with a line break that one line cannot hold is
    /// written as a JSON string. WebSocket messages have no body of their own: a stub's are
    /// written as SSE events are, and read back as messages.
    public func wire(as kind: StreamKind) -> [UInt8] {
        switch kind {
        case .sse, .websocket:
            var text = ""
            if let event { text += "event: \(event)\n" }
            if let id { text += "id: \(id)\n" }
            if let retry { text += "retry: \(retry)\n" }
            var line = ""
            var afterCR = false
            for character in data.unicodeScalars {
                if character == "\n", afterCR {
                    afterCR = false
                    continue
                }
                afterCR = character == "\r"
                if character == "\n" || character == "\r" {
                    text += "data: " + line + "\n"
                    line = ""
                } else {
                    line.unicodeScalars.append(character)
                }
            }
            text += "data: " + line + "\n\n"
            return Array(text.utf8)
        case .ndjson, .jsonSeq:
            let oneLine =
                data.contains(where: { $0 == "\n" || $0 == "\r" })
                ? JSONValue.string(data).serialized(escapeSlashes: false) : data
            return (kind == .jsonSeq ? [0x1E] : []) + Array((oneLine + "\n").utf8)
        }
    }

    /// The `Content-Type` a stream of `kind` is sent with; a stub of WebSocket messages has
    /// none, so that it is read as the target declares.
    public static func contentType(of kind: StreamKind) -> String? {
        switch kind {
        case .websocket: nil
        case .sse: "text/event-stream"
        case .ndjson: "application/x-ndjson"
        case .jsonSeq: "application/json-seq"
        }
    }
}
