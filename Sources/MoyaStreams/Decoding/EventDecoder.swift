import MoyaHTTP
import MoyaJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads a stream's body into events by its kind: the one entry point for SSE, NDJSON and
/// JSON text sequences, numbering the events from 0.
public struct EventDecoder: Sendable {
    private enum Framing: Sendable {
        case sse(SSEDecoder)
        case records(RecordDecoder)
    }

    private var framing: Framing
    /// Whether the events are WebSocket messages, a stub's written as SSE events are: a text
    /// message has no event type.
    private let messages: Bool
    /// The number the next event gets: how many were dispatched.
    public private(set) var count = 0

    /// A decoder for `kind` that holds at most `limit` bytes of one event.
    public init(kind: StreamKind, limit: Int) {
        framing =
            kind == .sse || kind == .websocket
            ? .sse(SSEDecoder(limit: limit)) : .records(RecordDecoder(kind: kind, limit: limit))
        messages = kind == .websocket
    }

    /// A decoder that goes on from an earlier connection's: its events numbered from `count`,
    /// with its last event ID and reconnection time, as a resumed SSE stream keeps them.
    public init(kind: StreamKind, limit: Int, resuming count: Int, lastEventID: String?, reconnectionTime: Int?) {
        self.init(kind: kind, limit: limit)
        self.count = count
        if case .sse(var decoder) = framing {
            decoder.resume(lastEventID: lastEventID ?? "", reconnectionTime: reconnectionTime)
            framing = .sse(decoder)
        }
    }

    /// The SSE last event ID, for a resumed stream's `Last-Event-ID`; nil when there is none.
    public var lastEventID: String? {
        guard case .sse(let decoder) = framing, !decoder.lastEventID.isEmpty else { return nil }
        return decoder.lastEventID
    }

    /// The reconnection time an SSE stream set with `retry:`, in ms.
    public var reconnectionTime: Int? {
        guard case .sse(let decoder) = framing else { return nil }
        return decoder.reconnectionTime
    }

    /// Reads the next bytes of the body, handing each event they complete to `dispatch`.
    public mutating func decode(_ bytes: UnsafeRawBufferPointer, dispatch: (StreamEvent) throws -> Void) throws {
        switch framing {
        case .sse(var decoder):
            framing = .records(RecordDecoder(kind: .ndjson, limit: 0))
            defer { framing = .sse(decoder) }
            guard messages else {
                try decoder.decode(bytes, next: &count, dispatch: dispatch)
                return
            }
            try decoder.decode(bytes, next: &count) { event in
                var message = event
                if message.event == "message" { message.event = nil }
                try dispatch(message)
            }
        case .records(var decoder):
            framing = .records(RecordDecoder(kind: .ndjson, limit: 0))
            defer { framing = .records(decoder) }
            try decoder.decode(bytes, next: &count, dispatch: dispatch)
        }
    }

    /// A WebSocket message as the next event: a text message's text, a binary message as
    /// base64 with the type `binary`.
    public mutating func event(of message: SocketMessage) -> StreamEvent {
        defer { count += 1 }
        switch message {
        case .text(let text): return StreamEvent(index: count, data: text)
        case .binary(let bytes):
            return StreamEvent(index: count, event: "binary", data: Data(bytes).base64EncodedString())
        }
    }

    /// The body ended: a record without its last delimiter is dispatched; an SSE event
    /// without its blank line is not (WHATWG).
    public mutating func finish(dispatch: (StreamEvent) throws -> Void) throws {
        guard case .records(var decoder) = framing else { return }
        defer { framing = .records(decoder) }
        try decoder.finish(next: &count, dispatch: dispatch)
    }
}
