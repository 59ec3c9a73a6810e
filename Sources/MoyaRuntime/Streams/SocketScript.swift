import MoyaHTTP
import MoyaJSON
import MoyaSpec
import MoyaStreams

/// A WebSocket target's script, said on the open socket: each step in order, an `expect`
/// waiting for the message its condition holds for. The first step that fails ends the
/// stream, named by its place (`script[2]`); a stream that ends while a step other than an
/// `expect` is under way has not failed.
enum SocketScript {
    /// The conversation of `steps`; nil for no steps.
    static func conversation(_ steps: [SocketStep]) -> EventReader.Conversation? {
        guard !steps.isEmpty else { return nil }
        return { socket, events in
            for (index, step) in steps.enumerated() {
                let place = "script[\(index)]"
                do {
                    switch step {
                    case .send(let text):
                        try await socket.send(.text(text))
                    case .expect(let condition, let text, let within):
                        switch await events.next(within: within, where: { StreamSpec.meets(condition, $0) }) {
                        case .event: continue
                        case .timedOut:
                            return "\(place): no message met \(text) within \(JSONValue.format(within)) s"
                        case .ended:
                            return "\(place): the stream ended before a message met \(text)"
                        }
                    case .ping(let within):
                        let answered = try await Self.within(within) { try await socket.ping([]) }
                        if !answered { return "\(place): no pong within \(JSONValue.format(within)) s" }
                    case .wait(let seconds):
                        try await _Concurrency.Task.sleep(for: Seconds.duration(seconds))
                    case .close(let code):
                        try await socket.close(code: UInt16(clamping: code))
                    }
                } catch {
                    if _Concurrency.Task.isCancelled { return nil }
                    return "\(place): \(error)"
                }
            }
            return nil
        }
    }

    /// Whether `work` finished within `seconds`.
    private static func within(_ seconds: Double, _ work: @escaping @Sendable () async throws -> Void) async throws
        -> Bool
    {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await work()
                return true
            }
            group.addTask {
                try await _Concurrency.Task.sleep(for: Seconds.duration(seconds))
                return false
            }
            defer { group.cancelAll() }
            return try await group.next() ?? false
        }
    }
}
