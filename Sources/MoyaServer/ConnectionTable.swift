import NIOCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The open connections, under a cap and each client address's share of it, so that accepting
/// never runs out of descriptors and one client filling its share locks out only itself. Over
/// the cap, the connection idle the longest is closed to make room, and when none is idle the
/// new one is; over its address's share, the new one is. Also what a stop closes when its
/// grace is over.
final class ConnectionTable: Sendable {
    /// A client, as its share is counted: an IPv4 address, or an IPv6 address's /64 (what one
    /// host is usually given).
    struct Address: Hashable, Sendable {
        /// The IPv4 address, or the /64's eight bytes, with the family in the top bits.
        let bits: UInt64

        init(_ address: SocketAddress?) {
            switch address {
            case .v4(let v4)?: bits = 4 << 60 | UInt64(v4.address.sin_addr.s_addr)
            case .v6(let v6)?:
                bits = withUnsafeBytes(of: v6.address.sin6_addr) { raw in
                    raw.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                }
            default: bits = 0
            }
        }
    }

    private struct Entry {
        var channel: any Channel
        var address: Address
        /// Whether a request is being answered.
        var busy: Bool
        /// When the connection last started or finished a request, as a sequence number.
        var lastUsed: UInt64
    }

    private struct State {
        var open: [ObjectIdentifier: Entry] = [:]
        var byAddress: [Address: Int] = [:]
        var clock: UInt64 = 0

        mutating func remove(_ id: ObjectIdentifier) -> Entry? {
            guard let entry = open.removeValue(forKey: id) else { return nil }
            let own = byAddress[entry.address, default: 1] - 1
            byAddress[entry.address] = own > 0 ? own : nil
            return entry
        }
    }

    let cap: Int
    let perAddress: Int?
    private let state = Mutex(State())

    init(cap: Int, perAddress: Int?) {
        self.cap = cap
        self.perAddress = perAddress
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

    /// Takes `channel` in; returns the connection to close: `channel` itself when its address
    /// is over its share or every other connection is answering, the one idle the longest when
    /// the cap is passed, else nil.
    func opened(_ channel: any Channel) -> (any Channel)? {
        let address = Address(channel.remoteAddress)
        return state.withLock { state in
            if let perAddress, state.byAddress[address, default: 0] >= perAddress { return channel }
            state.clock += 1
            state.open[ObjectIdentifier(channel)] = Entry(
                channel: channel, address: address, busy: false, lastUsed: state.clock)
            state.byAddress[address, default: 0] += 1
            guard state.open.count > cap else { return nil }
            let idle = state.open.values.filter { !$0.busy && $0.channel !== channel }
            guard let oldest = idle.min(by: { $0.lastUsed < $1.lastUsed }) else {
                _ = state.remove(ObjectIdentifier(channel))
                return channel
            }
            _ = state.remove(ObjectIdentifier(oldest.channel))
            return oldest.channel
        }
    }

    /// Marks `channel` as answering a request, or done with one.
    func setBusy(_ channel: any Channel, _ busy: Bool) {
        state.withLock { state in
            state.clock += 1
            let clock = state.clock
            guard let index = state.open.index(forKey: ObjectIdentifier(channel)) else { return }
            state.open.values[index].busy = busy
            state.open.values[index].lastUsed = clock
        }
    }

    /// Forgets a closed connection.
    func closed(_ channel: any Channel) {
        _ = state.withLock { $0.remove(ObjectIdentifier(channel)) }
    }

    /// Closes every connection, answering or not: a stop's grace is over.
    func closeAll() {
        let channels = state.withLock { state in
            defer {
                state.open.removeAll()
                state.byAddress.removeAll()
            }
            return state.open.values.map(\.channel)
        }
        for channel in channels { channel.close(promise: nil) }
    }
}

/// The bytes of request bodies held by every connection together, under a bound.
final class BufferedBytes: Sendable {
    private let count = Atomic<Int>(0)
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Counts `bytes` more; false, counting nothing, when that would pass the bound.
    func take(_ bytes: Int) -> Bool {
        let now = count.wrappingAdd(bytes, ordering: .relaxed).newValue
        guard now <= limit else {
            count.wrappingSubtract(bytes, ordering: .relaxed)
            return false
        }
        return true
    }

    func give(_ bytes: Int) {
        count.wrappingSubtract(bytes, ordering: .relaxed)
    }
}
