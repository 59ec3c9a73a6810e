import MoyaHTTP
import Synchronization

/// The sessions of the handshake's revisions over HTTP (up to 2025-11-25): `initialize` makes
/// one, named by a random `Mcp-Session-Id`, and every later request names it. A session holds
/// the revision it agreed on and the requests it has running, which its
/// `notifications/cancelled` may cancel. They live in this process: behind a load balancer, a
/// session's requests must reach the instance that made it (docs/mcp.md). 2026-07-28 has none.
final class SessionTable: Sendable {
    struct Session {
        var revision: String
        var lastUsed: ContinuousClock.Instant
        /// Requests running, by their id as JSON.
        var running: [String: _Concurrency.Task<JSONValue, Never>] = [:]
        /// Requests the client cancelled, whose answer is an error instead.
        var cancelled: Set<String> = []
    }

    private let sessions = Mutex<[String: Session]>([:])
    /// The most sessions kept: the least recently used idle one goes first.
    let limit: Int
    /// A session unused this long is forgotten.
    let idleLimit: Duration

    init(limit: Int = 10_000, idleLimit: Duration = .seconds(3600)) {
        self.limit = limit
        self.idleLimit = idleLimit
    }

    /// A new session at `revision`, and its id: 128 random bits as hex.
    func open(revision: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let id = (0..<2).map { _ in
            let word = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - word.count) + word
        }.joined()
        let now = ContinuousClock.now
        sessions.withLock { sessions in
            sessions = sessions.filter { now - $0.value.lastUsed < idleLimit || !$0.value.running.isEmpty }
            if sessions.count >= limit,
                let oldest = sessions.filter({ $0.value.running.isEmpty }).min(by: {
                    $0.value.lastUsed < $1.value.lastUsed
                })
            {
                sessions[oldest.key] = nil
            }
            sessions[id] = Session(revision: revision, lastUsed: now)
        }
        return id
    }

    /// The revision of session `id`, marking it used; nil when there is no such session.
    func touch(_ id: String) -> String? {
        sessions.withLock { sessions in
            guard sessions[id] != nil else { return nil }
            sessions[id]?.lastUsed = .now
            return sessions[id]?.revision
        }
    }

    /// Ends session `id`, cancelling what it has running; false when there was none.
    func close(_ id: String) -> Bool {
        guard let session = sessions.withLock({ $0.removeValue(forKey: id) }) else { return false }
        for task in session.running.values { task.cancel() }
        return true
    }

    /// Runs `work` as request `key` of session `id`, where `cancel(_:in:)` can reach it; the
    /// answer is `cancelled` when the client cancelled it first.
    func run(
        _ key: String, in id: String, cancelled: JSONValue, _ work: @escaping @Sendable () async -> JSONValue
    ) async -> JSONValue {
        let task = _Concurrency.Task { await work() }
        let taken = sessions.withLock { sessions -> Bool in
            guard sessions[id] != nil, sessions[id]?.running[key] == nil else { return false }
            sessions[id]?.running[key] = task
            return true
        }
        let answer = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        guard taken else { return answer }
        let wasCancelled = sessions.withLock { sessions -> Bool in
            sessions[id]?.running[key] = nil
            return sessions[id]?.cancelled.remove(key) != nil
        }
        return wasCancelled ? cancelled : answer
    }

    /// `notifications/cancelled` for request `key` of session `id`.
    func cancel(_ key: String, in id: String) {
        let task: _Concurrency.Task<JSONValue, Never>? = sessions.withLock { sessions in
            guard let task = sessions[id]?.running[key] else { return nil }
            sessions[id]?.cancelled.insert(key)
            return task
        }
        task?.cancel()
    }

    var count: Int { sessions.withLock { $0.count } }
}
