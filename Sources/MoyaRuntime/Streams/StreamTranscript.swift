import MoyaHTTP
import MoyaJSON
import MoyaSpec
import MoyaStreams
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A stream's events as a check or a flow step reads them: kept, up to a bound, and given to
/// the expectations as one JSON array, `[{"event":…,"id":…,"data":…}, …]`, so that `json:`
/// paths, captures and reports read a stream as they read any body.
final class StreamTranscript: EventSink {
    /// The most events kept; a stream with more fails its check, naming the bound.
    static let maximumEvents = 10_000
    /// The most bytes of event data kept: a body's limit.
    static let maximumBytes = 64 << 20

    private struct State {
        var events: [StreamEvent] = []
        var bytes = 0
        var overflowed = false
    }

    private let state = Mutex(State())

    func open(_ head: ResponseHead, kind: StreamKind) {}

    func take(_ event: StreamEvent) {
        state.withLock { state in
            guard !state.overflowed else { return }
            guard state.events.count < Self.maximumEvents, event.data.utf8.count <= Self.maximumBytes - state.bytes
            else {
                state.overflowed = true
                return
            }
            state.bytes += event.data.utf8.count
            state.events.append(event)
        }
    }

    func flush() {}

    /// The events kept, and whether more came than are kept.
    var events: (events: [StreamEvent], overflowed: Bool) {
        state.withLock { ($0.events, $0.overflowed) }
    }

    /// The events as the JSON array checks read.
    static func body(of events: [StreamEvent]) -> Data {
        Data(JSONValue.array(events.map(\.json)).serialized(escapeSlashes: false).utf8)
    }
}

/// A body that is not a stream, held as `Session.send` holds one: up to a limit.
final class HeldBody: ResponseStream {
    private let limit: Int
    private let held = Mutex(Data())

    init(limit: Int) {
        self.limit = limit
    }

    func receive(head: ResponseHead) throws {}

    func receive(_ bytes: UnsafeRawBufferPointer) throws {
        try held.withLock { held in
            guard bytes.count <= limit - held.count else {
                throw NetworkError(
                    .badServerResponse,
                    "the response body is larger than \(ByteCount.format(limit)), the most that is held in memory")
            }
            held.append(contentsOf: bytes)
        }
    }

    var data: Data { held.withLock { $0 } }
}
