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
        var budget = EventBudget(events: maximumEvents, bytes: maximumBytes)
    }

    private let state = Mutex(State())

    func open(_ head: ResponseHead, kind: StreamKind) {}

    func take(_ event: StreamEvent) {
        state.withLock { state in
            if state.budget.admits(event) { state.events.append(event) }
        }
    }

    func flush() {}

    /// The events kept, and whether more came than are kept.
    var events: (events: [StreamEvent], overflowed: Bool) {
        state.withLock { ($0.events, $0.budget.overflowed) }
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

/// What a keeper of a stream's events holds at most: a number of events and of bytes of their
/// data. Once an event would go past either, it keeps none after.
struct EventBudget {
    let events: Int
    let bytes: Int
    private var count = 0
    private var used = 0
    /// Whether an event went past the budget.
    private(set) var overflowed = false

    init(events: Int, bytes: Int) {
        self.events = events
        self.bytes = bytes
    }

    /// Whether `event` is kept, counting it if it is.
    mutating func admits(_ event: StreamEvent) -> Bool {
        guard !overflowed else { return false }
        let size = event.data.utf8.count
        guard count < events, size <= bytes - used else {
            overflowed = true
            return false
        }
        count += 1
        used += size
        return true
    }
}
