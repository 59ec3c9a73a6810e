import MoyaHTTP
import Synchronization

/// The sessions of the handshake's revisions over HTTP (up to 2025-11-25): `initialize` makes
/// one, named by a random `Mcp-Session-Id`, and every later request names it. A session holds
/// the revision it agreed on and the requests it has running, which its
/// `notifications/cancelled` may cancel. When tokens are required, a session belongs to the
/// caller that opened it (the token's issuer and subject): another caller's requests do not
/// find it, and each caller keeps at most `perOwnerLimit`, so that one caller's sessions never
/// push out another's. They live in this process: behind a load balancer, a
/// session's requests must reach the instance that made it (docs/mcp.md). 2026-07-28 has none.
final class SessionTable: Sendable {
    struct Session {
        var revision: String
        /// Who opened it: `issuer subject` of its token; nil when no token is required.
        var owner: String?
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

    /// The most sessions one caller with a token keeps: its own least recently used idle one
    /// goes first.
    let perOwnerLimit: Int

    init(limit: Int = 10_000, perOwnerLimit: Int = 64, idleLimit: Duration = .seconds(3600)) {
        self.limit = limit
        self.perOwnerLimit = perOwnerLimit
        self.idleLimit = idleLimit
    }

    /// A new session at `revision` for `owner`, and its id: 128 random bits as hex; nil when
    /// no room can be made without ending another caller's session or a running request.
    func open(revision: String, owner: String? = nil) -> String? {
        var generator = SystemRandomNumberGenerator()
        let id = (0..<2).map { _ in
            let word = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - word.count) + word
        }.joined()
        let now = ContinuousClock.now
        return sessions.withLock { sessions -> String? in
            sessions = sessions.filter { now - $0.value.lastUsed < idleLimit || !$0.value.running.isEmpty }
            let own = owner.map { owner in sessions.filter { $0.value.owner == owner } }
            if let own, own.count >= perOwnerLimit {
                guard let oldest = Self.leastRecentlyUsedIdle(own) else { return nil }
                sessions[oldest] = nil
            }
            if sessions.count >= limit {
                // With tokens, a caller makes room only among its own; without, callers are
                // not told apart.
                guard let oldest = Self.leastRecentlyUsedIdle(own ?? sessions) else { return nil }
                sessions[oldest] = nil
            }
            sessions[id] = Session(revision: revision, owner: owner, lastUsed: now)
            return id
        }
    }

    private static func leastRecentlyUsedIdle(_ sessions: [String: Session]) -> String? {
        sessions.filter { $0.value.running.isEmpty }.min { $0.value.lastUsed < $1.value.lastUsed }?.key
    }

    /// The revision of session `id`, marking it used; nil when there is no such session of
    /// `owner`'s.
    func touch(_ id: String, owner: String? = nil) -> String? {
        sessions.withLock { sessions in
            guard let session = sessions[id], session.owner == owner else { return nil }
            sessions[id]?.lastUsed = .now
            return sessions[id]?.revision
        }
    }

    /// Ends session `id` of `owner`'s, cancelling what it has running; false when there was none.
    func close(_ id: String, owner: String? = nil) -> Bool {
        let removed = sessions.withLock { sessions -> Session? in
            guard sessions[id]?.owner == owner else { return nil }
            return sessions.removeValue(forKey: id)
        }
        guard let session = removed else { return false }
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
