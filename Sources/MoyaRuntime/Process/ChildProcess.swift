#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one way moya-cli starts another program, on `posix_spawn`: a secret's source (`pass`,
/// `secret-tool`, a spec's `command`) and the helper program that imports Arazzo documents,
/// each run to its end or its time limit, and the helper program that takes over a command
/// (`replace`). No shell; stdin from `/dev/null`; stdout and stderr read into memory, each
/// bounded; the default signal actions, whatever moya-cli set for its own. A secret's program
/// runs in a process group of its own, which its time limit ends whole: a child it leaves
/// holding stdout is killed with it, never outlives moya-cli. Written on `posix_spawn` rather
/// than a process library: a read is one spawn and one wait, and a call that reads a `pass`
/// secret is to cost no more than the `pass show` it runs (bench/secrets.sh; swift-subprocess
/// was weighed in bench/RESULTS.md).
package struct ChildProcess {
    /// How the program ended.
    package struct Outcome {
        /// Its exit status; nil when a signal ended it.
        package var status: Int32?
        /// The signal that ended it, if one did.
        package var signal: Int32?
        /// What it printed on stdout, the first `limit` bytes.
        package var output: [UInt8]
        /// What it printed on stderr, the first `limit` bytes: never shown, since it may hold
        /// anything, but told apart from nothing.
        package var errors: [UInt8]
        /// Whether the time limit ran out, and the program was killed.
        package var timedOut: Bool
    }

    /// Why the program did not start.
    package struct StartFailure: Error {
        package var reason: String
    }

    /// The most bytes kept of each stream.
    static let limit = 1 << 20

    /// Runs `argv` (its first word a path, or a name looked up on `path`; or `executable`,
    /// run under that first word) in `environment` (nil: moya-cli's own) for at most `timeout`
    /// seconds (nil: to its end). With `ownGroup`, it leads a process group of its own, which
    /// the time limit kills whole; without, Ctrl-C at the terminal reaches it as it does
    /// moya-cli.
    package static func run(
        _ argv: [String], executable: String? = nil, environment: [String]?, path: String?, timeout: Double?,
        ownGroup: Bool = true
    ) throws(StartFailure) -> Outcome {
        guard let name = argv.first, let program = executable ?? locate(name, path: path) else {
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
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let arguments = argv.map { strdup($0) } + [nil]
        let variables = environment.map { $0.map { strdup($0) } + [nil] }
        defer {
            for pointer in arguments { free(pointer) }
            for pointer in variables ?? [] { free(pointer) }
        }
        var pid = pid_t()
        let spawned =
            variables.map { posix_spawn(&pid, program, &actions, &attributes, arguments, $0) }
            ?? posix_spawn(&pid, program, &actions, &attributes, arguments, environ)
        close(output[1])
        close(errors[1])
        guard spawned == 0 else {
            close(output[0])
            close(errors[0])
            throw StartFailure(reason: "cannot run \(program): \(String(cString: strerror(spawned)))")
        }
        // Without a time limit, a year stands for none.
        let deadline = ContinuousClock.now + .milliseconds(Int64(((timeout ?? 31_536_000) * 1000).rounded(.up)))
        let group = ownGroup ? -pid : pid
        var outcome = Outcome(status: nil, signal: nil, output: [], errors: [], timedOut: false)
        let drained = drain(output[0], into: &outcome.output, errors[0], into: &outcome.errors, until: deadline)
        close(output[0])
        close(errors[0])
        var status: Int32 = 0
        guard drained else {
            // The time limit passed with a stream still open: the program, or what it left
            // behind holding it, is ended, group and all.
            kill(group, SIGKILL)
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
                kill(group, SIGKILL)
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

    /// Replaces this process with `executable`, run as `argv`, as a shell's `exec` does: the
    /// helper program that takes over a command. Returns only when it could not, saying why.
    package static func replace(with executable: String, _ argv: [String]) -> StartFailure {
        let arguments = argv.map { strdup($0) } + [nil]
        execv(executable, arguments)
        let reason = String(cString: strerror(errno))
        for pointer in arguments { free(pointer) }
        return StartFailure(reason: "cannot run \(executable): \(reason)")
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
