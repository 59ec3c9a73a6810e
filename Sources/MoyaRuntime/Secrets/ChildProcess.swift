#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program a secret's source names, run to its end or its time limit: no shell, stdin from
/// `/dev/null`, stdout and stderr read into memory (each bounded), in the environment the
/// command sees. It runs in a process group of its own, which its time limit ends whole: a
/// child it leaves holding stdout is killed with it, never outlives moya-cli. Written on `posix_spawn` rather than a process library: a read is one spawn
/// and one wait, and a call that reads a `pass` secret is to cost no more than the `pass show`
/// it runs (bench/secrets.sh).
struct ChildProcess {
    /// How the program ended.
    struct Outcome {
        /// Its exit status; nil when a signal ended it.
        var status: Int32?
        /// The signal that ended it, if one did.
        var signal: Int32?
        /// What it printed on stdout, the first `limit` bytes.
        var output: [UInt8]
        /// What it printed on stderr, the first `limit` bytes: never shown, since it may hold
        /// anything, but told apart from nothing.
        var errors: [UInt8]
        /// Whether the time limit ran out, and the program was killed.
        var timedOut: Bool
    }

    /// Why the program did not start.
    struct StartFailure: Error {
        var reason: String
    }

    /// The most bytes kept of each stream.
    static let limit = 1 << 20

    /// Runs `argv` (its first word a path, or a name looked up on `environment`'s `PATH`) for
    /// at most `timeout` seconds.
    static func run(_ argv: [String], environment: [String], path: String?, timeout: Double) throws(StartFailure)
        -> Outcome
    {
        guard let name = argv.first, let program = locate(name, path: path) else {
            let name = argv.first ?? ""
            throw StartFailure(
                reason: name.contains("/") ? "\(name) is not an executable file" : "\(name) is not on PATH")
        }
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        guard pipe(&output) == 0 else { throw StartFailure(reason: String(cString: strerror(errno))) }
        guard pipe(&errors) == 0 else {
            close(output[0])
            close(output[1])
            throw StartFailure(reason: String(cString: strerror(errno)))
        }
        // Not inherited by a program another thread starts meanwhile.
        for fd in output + errors { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        // The child starts with the default signal actions and none blocked, whatever moya-cli
        // set for its own (SIGPIPE ignored, SIGINT handled).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // Its own group, led by it, so that the whole of what it starts can be ended.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let arguments = argv.map { strdup($0) } + [nil]
        let variables = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in arguments { free(pointer) }
            for pointer in variables { free(pointer) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, program, &actions, &attributes, arguments, variables)
        close(output[1])
        close(errors[1])
        guard spawned == 0 else {
            close(output[0])
            close(errors[0])
            throw StartFailure(reason: "cannot run \(program): \(String(cString: strerror(spawned)))")
        }
        let deadline = ContinuousClock.now + .milliseconds(Int64((timeout * 1000).rounded(.up)))
        var outcome = Outcome(status: nil, signal: nil, output: [], errors: [], timedOut: false)
        let drained = drain(output[0], into: &outcome.output, errors[0], into: &outcome.errors, until: deadline)
        close(output[0])
        close(errors[0])
        var status: Int32 = 0
        guard drained else {
            // The time limit passed with a stream still open: the program, or what it left
            // behind holding it, is ended, group and all.
            kill(-pid, SIGKILL)
            outcome.timedOut = true
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            return outcome
        }
        // Both streams are closed; the program has ended, or is ending, unless it left a
        // child holding them no more. Its time limit still holds.
        while true {
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid { break }
            if waited < 0, errno != EINTR { break }
            if ContinuousClock.now >= deadline {
                kill(-pid, SIGKILL)
                outcome.timedOut = true
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
                break
            }
            usleep(1000)
        }
        if outcome.timedOut { return outcome }
        if status & 0x7f == 0 {
            outcome.status = (status >> 8) & 0xff
        } else {
            outcome.signal = status & 0x7f
        }
        return outcome
    }

    /// Reads both pipes until each ends or `deadline` passes; false when it passed first,
    /// the bytes cut short.
    private static func drain(
        _ first: Int32, into firstBytes: inout [UInt8], _ second: Int32, into secondBytes: inout [UInt8],
        until deadline: ContinuousClock.Instant
    ) -> Bool {
        var open = [first: true, second: true]
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while open.values.contains(true) {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return false }
            let milliseconds = Int32(
                clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            var fds = [first, second].filter { open[$0] == true }.map {
                pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
            }
            let ready = poll(&fds, nfds_t(fds.count), milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                return true
            }
            for entry in fds where entry.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count <= 0 {
                    if count < 0, errno == EINTR || errno == EAGAIN { continue }
                    open[entry.fd] = false
                    continue
                }
                if entry.fd == first {
                    if firstBytes.count < limit { firstBytes += buffer[..<min(count, limit - firstBytes.count)] }
                } else if secondBytes.count < limit {
                    secondBytes += buffer[..<min(count, limit - secondBytes.count)]
                }
            }
        }
        return true
    }

    /// `name` itself when it holds a `/`, else the first executable file of that name on
    /// `path`.
    static func locate(_ name: String, path: String?) -> String? {
        guard !name.isEmpty else { return nil }
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        for directory in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where !directory.isEmpty {
            let candidate = directory + "/" + name
            var info = stat()
            if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 {
                return String(candidate)
            }
        }
        return nil
    }
}
