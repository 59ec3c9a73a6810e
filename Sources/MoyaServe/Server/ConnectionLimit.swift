import NIOCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `serve`'s open connections, kept under a cap below the file descriptor limit so that
/// accepting never runs out of descriptors: over the cap, the connection idle the longest is
/// closed to make room, and when none is idle the new one is. Also what a stop closes when its
/// grace is over.
final class ConnectionLimit: Sendable {
    private struct Entry {
        var channel: any Channel
        /// Whether a request is being answered.
        var busy: Bool
        /// When the connection last finished a request, as a sequence number.
        var lastUsed: UInt64
    }

    private struct State {
        var open: [ObjectIdentifier: Entry] = [:]
        var clock: UInt64 = 0
    }

    /// The most connections open at once.
    let cap: Int
    private let state = Mutex(State())

    init(cap: Int) {
        self.cap = cap
    }

    /// Descriptors kept back from connections: the listener, the log, spec files, libdispatch.
    static let reserve = 64

    /// Raises the soft descriptor limit to the hard one, as servers do, and gives the cap
    /// under it.
    static func raisingDescriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(resourceLimitFiles, &limit) == 0 else { return 1024 - reserve }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            // macOS refuses more than OPEN_MAX for the soft limit.
            raised.rlim_cur = min(limit.rlim_max, 1 << 20)
            if setrlimit(resourceLimitFiles, &raised) == 0 { limit = raised }
        }
        // RLIM_INFINITY is the largest value, which the clamp turns into a million.
        let usable = min(UInt64(limit.rlim_cur), 1 << 20)
        return max(16, Int(usable) - reserve)
    }

    #if canImport(Glibc)
        private static let resourceLimitFiles = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let resourceLimitFiles = RLIMIT_NOFILE
    #endif

    /// Takes `channel` in; returns the connection to close to stay under the cap: the one idle
    /// the longest, else `channel` itself when every other is answering.
    func opened(_ channel: any Channel) -> (any Channel)? {
        state.withLock { state in
            state.clock += 1
            state.open[ObjectIdentifier(channel)] = Entry(channel: channel, busy: false, lastUsed: state.clock)
            guard state.open.count > cap else { return nil }
            let idle = state.open.values.filter { !$0.busy && $0.channel !== channel }
            guard let oldest = idle.min(by: { $0.lastUsed < $1.lastUsed }) else {
                state.open[ObjectIdentifier(channel)] = nil
                return channel
            }
            state.open[ObjectIdentifier(oldest.channel)] = nil
            return oldest.channel
        }
    }

    /// Marks `channel` as answering a request, or done with one.
    func setBusy(_ channel: any Channel, _ busy: Bool) {
        state.withLock { state in
            state.clock += 1
            state.open[ObjectIdentifier(channel)]?.busy = busy
            state.open[ObjectIdentifier(channel)]?.lastUsed = state.clock
        }
    }

    /// Forgets a closed connection.
    func closed(_ channel: any Channel) {
        _ = state.withLock { $0.open.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// How many connections are open.
    var count: Int { state.withLock { $0.open.count } }

    /// Closes every connection, answering or not: a stop's grace is over.
    func closeAll() {
        let channels = state.withLock { state in
            defer { state.open.removeAll() }
            return state.open.values.map(\.channel)
        }
        for channel in channels { channel.close(promise: nil) }
    }
}
