import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A pseudo-terminal pair: commands write to `follower`, which `isatty` calls a terminal, and
/// the test reads what arrived from the leader side. Raw mode, so bytes arrive unchanged.
final class PseudoTerminal {
    let leader: Int32
    let follower: Int32

    /// Glibc's module map leaves out the X/Open pty calls, so they are looked up by name.
    private static func function<T>(_ name: String, as type: T.Type) throws -> T {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, name) else {
            throw POSIXError(.ENOSYS)
        }
        return unsafeBitCast(symbol, to: type)
    }

    init() throws {
        let openLeader = try Self.function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
        let grant = try Self.function("grantpt", as: (@convention(c) (Int32) -> Int32).self)
        let unlock = try Self.function("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
        let name = try Self.function("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
        leader = openLeader(O_RDWR | O_NOCTTY)
        guard leader >= 0, grant(leader) == 0, unlock(leader) == 0, let name = name(leader) else {
            throw POSIXError(.ENOTTY)
        }
        follower = open(name, O_RDWR | O_NOCTTY)
        guard follower >= 0 else { throw POSIXError(.ENOTTY) }
        var settings = termios()
        tcgetattr(follower, &settings)
        cfmakeraw(&settings)
        tcsetattr(follower, TCSANOW, &settings)
        _ = fcntl(leader, F_SETFL, fcntl(leader, F_GETFL) | O_NONBLOCK)
    }

    /// Everything written so far.
    func drain() -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(leader, &buffer, buffer.count)
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    deinit {
        close(follower)
        close(leader)
    }
}
