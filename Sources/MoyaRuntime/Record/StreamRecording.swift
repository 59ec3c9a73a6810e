import MoyaHTTP
import MoyaStreams
import Synchronization

/// A stream's events kept as they arrive, each with the time since the one before, for
/// `--record` to write as a stream sample, while `forward` prints them. Holds at most
/// `maximumEvents` events and `maximumBytes` of their data: a stream past them is not recorded.
public final class StreamRecording: EventSink {
    public static let maximumEvents = 10_000
    public static let maximumBytes = 1 << 20

    private struct State {
        var events: [RecordedSample.Event] = []
        var last: ContinuousClock.Instant?
        var budget = EventBudget(events: maximumEvents, bytes: maximumBytes)
    }

    private let forward: any EventSink
    private let state = Mutex(State())

    public init(forwarding forward: any EventSink) {
        self.forward = forward
    }

    public func open(_ head: ResponseHead, kind: StreamKind) {
        state.withLock { $0.last = .now }
        forward.open(head, kind: kind)
    }

    public func take(_ event: StreamEvent) {
        state.withLock { state in
            let now = ContinuousClock.now
            defer { state.last = now }
            guard state.budget.admits(event) else { return }
            let delay = state.last.map { (now - $0) / .seconds(1) } ?? 0
            // SSE's default type is not written: a sample without one reads back as `message`.
            let type = event.event == "message" ? nil : event.event
            state.events.append(
                RecordedSample.Event(event: type, id: event.id, data: event.data, retry: event.retry, delay: delay))
        }
        forward.take(event)
    }

    public func flush() {
        forward.flush()
    }

    /// The events kept, or nil when the stream went past what is kept.
    public var events: [RecordedSample.Event]? {
        state.withLock { $0.budget.overflowed ? nil : $0.events }
    }
}
