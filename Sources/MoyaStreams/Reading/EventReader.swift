import MoyaHTTP
import MoyaJSON
import Synchronization

/// Where a stream's events go as they are read.
public protocol EventSink: Sendable {
    /// The stream opened with `head`, read as `kind`.
    func open(_ head: ResponseHead, kind: StreamKind)
    /// The next event.
    func take(_ event: StreamEvent)
    /// The events a chunk of the body held have all been taken: a sink that batches writes
    /// them now.
    func flush()
}

/// Reads a live response as events, as they arrive, and ends it at its first bound.
///
/// The head decides: a response whose `Content-Type` names a stream, or a 2xx response of a
/// target that declares one, is read as events, each handed to `sink`; any other body goes to
/// `otherwise` untouched. Holds at most one event, never the stream. A WebSocket's messages
/// are its events, one each, while its `conversation` talks.
public final class EventReader: MessageStream {
    /// What is said on a WebSocket once it opens, given the events as they are read: nil when
    /// it went as written, else what went wrong, which ends the stream.
    public typealias Conversation = @Sendable (_ socket: any SocketWriter, _ events: EventFeed) async -> String?

    /// What a stream came to.
    public struct Summary: Sendable, Hashable {
        /// The kind it was read as.
        public var kind: StreamKind
        /// The events read.
        public var events: Int
        /// The body bytes read.
        public var bytes: Int
        /// The seconds from the head to the end.
        public var seconds: Double
        /// Why it ended.
        public var stop: StreamStop
        /// Whether the bound that ended it was a default, not one the target gave: a stream
        /// that ends so did not end as asked.
        public var byDefault: Bool
        /// The SSE last event ID, for resuming.
        public var lastEventID: String?
        /// The reconnection time the stream set, in ms.
        public var reconnectionTime: Int?
        /// When the stream opened: its first connection's head.
        public var opened: ContinuousClock.Instant
        /// What went wrong in a WebSocket's conversation, which ended it.
        public var failure: String?

        /// Whether the stream ended without reaching a bound: the server ended it, or the
        /// connection failed once it had opened. Such a stream may be resumed.
        public var mayResume: Bool { stop == .end }

        /// Why a stream ended by a default bound did not end as asked, naming the `server`
        /// when given; nil for a stream that ended as asked.
        public func defaultBoundReason(server: String?) -> String? {
            guard byDefault else { return nil }
            let stream = "the stream" + (server.map { " from \($0)" } ?? "")
            if stop == .idle {
                return stream + " sent no event for \(JSONValue.format(StreamBounds.defaultIdle)) s, the default idle "
                    + "bound; give the target stream: { idle: … } to wait longer"
            }
            return stream + " sent an event larger than \(ByteCount.format(StreamBounds.defaultEventLimit)), "
                + "the most held; give the target stream: { maxBytes: … } to hold more"
        }
    }

    private struct State {
        var kind: StreamKind?
        var decoder: EventDecoder?
        var forwarding = false
        var opened: ContinuousClock.Instant?
        var lastEvent: ContinuousClock.Instant?
        var bytes = 0
        var stop: StreamStop?
        var byDefault = false
        var ended: ContinuousClock.Instant?
        var failure: String?
    }

    private let declared: StreamKind?
    private let bounds: StreamBounds
    private let idle: Double?
    private let until: (@Sendable (StreamEvent) -> Bool)?
    private let sink: any EventSink
    /// Where a body that is not a stream goes.
    public let otherwise: (any ResponseStream)?
    private let state = Mutex(State())
    /// The stream this connection resumes, if it does.
    private let resuming: Summary?
    private let conversation: Conversation?
    /// The events a conversation waits for; nil without one.
    private let feed: EventFeed?

    /// A reader for a target that declares `declared` (or nil to go by `Content-Type`), ended
    /// by `bounds` or by an event `until` holds for. A stream without any bound ends after
    /// `StreamBounds.defaultIdle` without an event.
    public init(
        declared: StreamKind?, bounds: StreamBounds, until: (@Sendable (StreamEvent) -> Bool)? = nil,
        otherwise: (any ResponseStream)? = nil, sink: any EventSink, resuming: Summary? = nil,
        conversation: Conversation? = nil
    ) {
        self.resuming = resuming
        self.conversation = conversation
        feed = conversation == nil ? nil : EventFeed()
        self.declared = declared
        self.bounds = bounds
        idle = bounds.isEmpty && until == nil ? StreamBounds.defaultIdle : bounds.idle
        self.until = until
        self.otherwise = otherwise
        self.sink = sink
    }

    /// The kind a response with `head` is read as, or nil when its body is not a stream: a
    /// WebSocket's for a 101 that switched to one; the kind its `Content-Type` names; else,
    /// for a 2xx, the declared one, unless the type says the body is one JSON document (an
    /// endpoint that streams only when asked answers JSON otherwise).
    public static func kind(of head: ResponseHead, declared: StreamKind?) -> StreamKind? {
        if head.statusCode == 101 {
            return head.headers["Upgrade"]?.lowercased() == "websocket" ? .websocket : nil
        }
        // A WebSocket that did not open answers with a body, as any response does.
        if declared == .websocket { return nil }
        let type = head.headers["Content-Type"]
        if let type, let kind = StreamKind(contentType: type) { return kind }
        guard (200..<300).contains(head.statusCode) else { return nil }
        if let type, JSONValue.isJSONMediaType(type) { return nil }
        return declared
    }

    public func receive(head: ResponseHead) throws {
        let kind = Self.kind(of: head, declared: declared)
        state.withLock { state in
            state.kind = kind
            state.forwarding = kind == nil
            if let kind {
                let limit = bounds.maxBytes ?? StreamBounds.defaultEventLimit
                if let resuming {
                    // A resumed stream goes on: its events, bytes and time count from the first
                    // connection, and its last event is the one the idle time runs from.
                    state.decoder = EventDecoder(
                        kind: kind, limit: limit, resuming: resuming.events, lastEventID: resuming.lastEventID,
                        reconnectionTime: resuming.reconnectionTime)
                    state.opened = resuming.opened
                    state.bytes = resuming.bytes
                    state.lastEvent = .now
                } else {
                    state.decoder = EventDecoder(kind: kind, limit: limit)
                    state.opened = .now
                }
            }
        }
        if let kind {
            sink.open(head, kind: kind)
        } else {
            try otherwise?.receive(head: head)
        }
    }

    /// Thrown from an event's dispatch to stop reading at it.
    private struct Stopped: Error {}

    public func receive(_ bytes: UnsafeRawBufferPointer) throws {
        let forwarding = state.withLock { $0.forwarding }
        if forwarding {
            try otherwise?.receive(bytes)
            return
        }
        let ends = try state.withLock { state throws -> Bool in
            guard state.stop == nil, var decoder = state.decoder else { return true }
            // Taken out while it reads, so that its buffers are its own and grow in place
            // instead of being copied at each chunk.
            state.decoder = nil
            defer { state.decoder = decoder }
            var taken = bytes
            var cut = false
            if let most = bounds.maxBytes, bytes.count > most - state.bytes {
                taken = UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.startIndex + max(most - state.bytes, 0))])
                cut = true
            }
            state.bytes += taken.count
            // The idle time runs from the chunk that brought the last event: the clock is read
            // once a chunk, not once an event.
            let before = decoder.count
            defer { if decoder.count != before { state.lastEvent = .now } }
            do {
                try decoder.decode(taken) { event in try dispatch(event, stop: &state.stop) }
            } catch is Stopped {
                sink.flush()
                return true
            } catch is StreamTooLarge {
                sink.flush()
                state.stop = .maxBytes
                state.byDefault = bounds.maxBytes == nil
                return true
            }
            sink.flush()
            if cut {
                state.stop = .maxBytes
                return true
            }
            return false
        }
        if ends { throw ResponseStreamEnded() }
    }

    /// Hands `event` on, and stops the stream at it when a bound says so.
    private func dispatch(_ event: StreamEvent, stop: inout StreamStop?) throws {
        sink.take(event)
        feed?.yield(event)
        if let until, until(event) {
            stop = .until
            throw Stopped()
        }
        if let most = bounds.maxEvents, event.index + 1 >= most {
            stop = .maxEvents
            throw Stopped()
        }
    }

    // MARK: - WebSocket messages

    public var messageLimit: Int { bounds.maxBytes ?? StreamBounds.defaultEventLimit }

    public func receive(message: SocketMessage) throws {
        let ends = state.withLock { state -> Bool in
            guard state.stop == nil, var decoder = state.decoder else { return true }
            let size =
                switch message {
                case .text(let text): text.utf8.count
                case .binary(let bytes): bytes.count
                }
            if let most = bounds.maxBytes, size > most - state.bytes {
                state.stop = .maxBytes
                return true
            }
            state.bytes += size
            state.lastEvent = .now
            let event = decoder.event(of: message)
            state.decoder = decoder
            defer { sink.flush() }
            do {
                try dispatch(event, stop: &state.stop)
            } catch {
                return true
            }
            return false
        }
        if ends {
            feed?.end()
            throw ResponseStreamEnded()
        }
    }

    public func messageTooLarge() {
        state.withLock { state in
            guard state.stop == nil else { return }
            state.stop = .maxBytes
            state.byDefault = bounds.maxBytes == nil
            state.ended = .now
        }
        feed?.end()
    }

    public func talk(on socket: any SocketWriter) async {
        guard let conversation, let feed else { return }
        let failure = await conversation(socket, feed)
        feed.end()
        guard let failure else { return }
        state.withLock { state in
            state.failure = failure
            if state.stop == nil {
                state.stop = .end
                state.ended = .now
            }
        }
        try? await socket.close(code: 1000)
    }

    public func deadline() -> ContinuousClock.Instant? {
        state.withLock { state in
            guard state.stop == nil, state.failure == nil, let opened = state.opened else { return nil }
            let ends = [
                bounds.maxTime.map { opened + .seconds($0) },
                idle.map { (state.lastEvent ?? opened) + .seconds($0) },
            ].compactMap { $0 }
            return ends.min()
        }
    }

    public func expire() {
        state.withLock { state in
            guard state.stop == nil, let opened = state.opened else { return }
            let now = ContinuousClock.now
            if let maxTime = bounds.maxTime, opened + .seconds(maxTime) <= now {
                state.stop = .maxTime
            } else {
                state.stop = .idle
                state.byDefault = bounds.idle == nil
            }
            state.ended = now
        }
        feed?.end()
    }

    /// Reads a whole response at once, as a stub answers: its head and body, to the bounds
    /// that need no clock. Nil when the body is not a stream.
    public func read(whole response: Response) -> Summary? {
        guard let head = response.response else { return nil }
        do {
            try receive(head: head)
            try response.data.withUnsafeBytes { try receive($0) }
        } catch {
            // A bound ended it: the rest of the body is not read.
        }
        return finish()
    }

    /// Whether the body was read as events.
    public var isStream: Bool { state.withLock { $0.kind != nil } }

    /// Ends the reading, when the body ended by itself: a last record without its delimiter
    /// is an event. Nil when the body was not read as events.
    public func finish() -> Summary? {
        state.withLock { state in
            guard let kind = state.kind, var decoder = state.decoder, let opened = state.opened else { return nil }
            if state.stop == nil {
                state.stop = .end
                do {
                    try decoder.finish { event in
                        state.lastEvent = .now
                        sink.take(event)
                    }
                } catch {}
                sink.flush()
                state.decoder = decoder
            }
            let ended = state.ended ?? .now
            state.ended = ended
            let elapsed = (ended - opened).components
            return Summary(
                kind: kind, events: decoder.count, bytes: state.bytes,
                seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18, stop: state.stop ?? .end,
                byDefault: state.byDefault, lastEventID: decoder.lastEventID,
                reconnectionTime: decoder.reconnectionTime, opened: opened, failure: state.failure)
        }
    }
}
