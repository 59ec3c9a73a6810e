import Synchronization

/// The events a WebSocket conversation waits for, handed over as they are read: a script's
/// `expect` steps take them in order. An event is tried against the waiting step as it is
/// read, before the stream may end at it; one read while nothing waits is held for the next
/// step, the newest 1,024 and 16 MiB of data at most.
public final class EventFeed: Sendable {
    /// What a wait came to.
    public enum Outcome: Sendable {
        /// The event the step waited for.
        case event(StreamEvent)
        /// The time ran out first.
        case timedOut
        /// The stream ended first.
        case ended
    }

    private struct Waiter {
        let id: Int
        let matches: @Sendable (StreamEvent) -> Bool
        let continuation: CheckedContinuation<Outcome, Never>
    }

    private struct State {
        var held: [StreamEvent] = []
        var heldBytes = 0
        var waiter: Waiter?
        var ended = false
        var waits = 0
        /// A wait that ran out, or was cancelled, before it began waiting.
        var over: (id: Int, outcome: Outcome)?
    }

    private static let mostHeld = 1024
    /// The most bytes of data held, but for the newest event: 16 MiB.
    private static let mostHeldBytes = 16 << 20
    private let state = Mutex(State())

    /// An open feed.
    public init() {}

    /// The next event read: the waiting step's, if it is the one it waits for.
    func yield(_ event: StreamEvent) {
        let waiter = state.withLock { state -> Waiter? in
            guard !state.ended else { return nil }
            if let waiter = state.waiter {
                guard waiter.matches(event) else { return nil }
                state.waiter = nil
                return waiter
            }
            state.held.append(event)
            state.heldBytes += event.data.utf8.count
            while state.held.count > Self.mostHeld || (state.heldBytes > Self.mostHeldBytes && state.held.count > 1) {
                state.heldBytes -= state.held.removeFirst().data.utf8.count
            }
            return nil
        }
        waiter?.continuation.resume(returning: .event(event))
    }

    /// No event comes after those given.
    func end() {
        let waiter = state.withLock { state -> Waiter? in
            state.ended = true
            state.held = []
            state.heldBytes = 0
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.continuation.resume(returning: .ended)
    }

    /// The next event `matches` holds for, passing over the others, waiting at most `seconds`.
    /// One caller at a time; cancelled, it ends as the stream does.
    public func next(within seconds: Double, where matches: @escaping @Sendable (StreamEvent) -> Bool) async -> Outcome
    {
        let id = state.withLock { state in
            state.waits += 1
            return state.waits
        }
        let timer = Task {
            try await Task.sleep(for: .milliseconds(Int((seconds * 1000).rounded(.up))))
            finish(id, .timedOut)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Outcome? in
                    while !state.held.isEmpty {
                        let event = state.held.removeFirst()
                        state.heldBytes -= event.data.utf8.count
                        if matches(event) { return .event(event) }
                    }
                    if state.ended { return .ended }
                    if let over = state.over, over.id == id { return over.outcome }
                    state.waiter = Waiter(id: id, matches: matches, continuation: continuation)
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            finish(id, .ended)
        }
    }

    /// Ends wait `id` with `outcome`, whether it waits yet or is about to.
    private func finish(_ id: Int, _ outcome: Outcome) {
        let waiter = state.withLock { state -> Waiter? in
            guard let waiter = state.waiter, waiter.id == id else {
                state.over = (id, outcome)
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.continuation.resume(returning: outcome)
    }
}
