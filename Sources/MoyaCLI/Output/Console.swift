import Dispatch
import MoyaHTTP
import MoyaTransport
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command writes and what it reads from its surroundings. Tests bind their own.
public struct CommandContext: Sendable {
    /// Writes bytes to standard output.
    public var writeOut: @Sendable ([UInt8]) -> Void
    /// Writes bytes to standard error.
    public var writeError: @Sendable ([UInt8]) -> Void
    /// The environment variables the command sees.
    public var environment: Environment
    /// Whether standard output is a terminal, which turns on pretty, coloured bodies.
    public var outputIsTerminal: Bool
    /// Whether standard error is a terminal, which turns on progress bars.
    public var errorIsTerminal: Bool
    /// Whether the process exits as soon as the command returns, as the executable's does.
    /// The transport's threads and connections are then left to the exit, as curl leaves
    /// its, instead of being shut down one by one first (see `release(_:)`).
    public var exitsWhenDone = false
    /// Reads standard input to its end, for `call --body @-`.
    public var readInput: @Sendable () -> [UInt8] = { readAll(STDIN_FILENO) }
    /// Standard input's lines as they are typed, for a WebSocket `call` in its interactive
    /// mode; they end at the input's end.
    public var inputLines: @Sendable () -> AsyncStream<String> = { lines(of: STDIN_FILENO) }
    /// Whether standard input is a terminal, which makes a WebSocket `call` without a script
    /// interactive.
    public var inputIsTerminal = false
    /// What a command that runs until it is stopped (`serve`) waits on: the signal that
    /// stops it. Nil waits for the process's SIGINT, SIGTERM or SIGHUP; a test that runs
    /// `serve` in-process gives its own.
    public var stopSignal: (@Sendable () async -> Int32)?
    /// The program moya-cli hands `import` and `export` to (`HelperProgram`), run in this
    /// process instead of replacing it or being started: for a host that links moya-cli-tools'
    /// library, MoyaTools, as the tests do. It takes the program's command line, its name
    /// first, writes to the two writers it is given, and returns its status. Nil: the program
    /// is run as an executable.
    public var helper: HelperRunner?
    public typealias HelperRunner =
        @Sendable (
            _ arguments: [String], _ writeOut: @escaping @Sendable ([UInt8]) -> Void,
            _ writeError: @escaping @Sendable ([UInt8]) -> Void
        ) -> Int32

    /// Creates a context.
    public init(
        environment: Environment, writeOut: @escaping @Sendable ([UInt8]) -> Void,
        writeError: @escaping @Sendable ([UInt8]) -> Void, outputIsTerminal: Bool = false,
        errorIsTerminal: Bool = false
    ) {
        self.environment = environment
        self.writeOut = writeOut
        self.writeError = writeError
        self.outputIsTerminal = outputIsTerminal
        self.errorIsTerminal = errorIsTerminal
    }

    /// A context writing to two file descriptors, each a terminal or not as `isatty` says.
    public static func descriptors(output: Int32, error: Int32, environment: Environment) -> CommandContext {
        CommandContext(
            environment: environment,
            writeOut: { text in writeAll(output, text) },
            writeError: { text in writeAll(error, text) },
            outputIsTerminal: isatty(output) == 1,
            errorIsTerminal: isatty(error) == 1)
    }

    /// The process's own standard streams and environment.
    public static var process: CommandContext {
        var context = descriptors(output: STDOUT_FILENO, error: STDERR_FILENO, environment: .process)
        context.exitsWhenDone = true
        context.inputIsTerminal = isatty(STDIN_FILENO) == 1
        return context
    }

    /// Shuts a session down, or, when the process exits next, keeps it as it is until then:
    /// stopping its event loop and closing its connections would only delay the exit.
    func release(_ session: Session) async {
        if exitsWhenDone {
            Leftovers.keep(session)
        } else {
            await session.shutdown()
        }
    }

    /// Waits for a warm-up and stops its thread, or, when the process exits next, leaves it.
    func release(_ warmUp: TransportWarmUp) async {
        if exitsWhenDone {
            Leftovers.keep(warmUp)
        } else {
            await warmUp.finish()
        }
    }

    /// The context commands run in.
    @TaskLocal public static var current: CommandContext = .process

    /// Writes a line to standard output.
    func line(_ text: String) {
        writeOut(Array((text + "\n").utf8))
    }

    /// Writes a line to standard error.
    func errorLine(_ text: String) {
        writeError(Array((text + "\n").utf8))
    }

    /// Reads a descriptor to its end; a read error ends it too.
    static func readAll(_ descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return bytes }
            bytes += buffer.prefix(count)
        }
    }

    /// A descriptor's lines, without their line ends, read on a thread of their own since
    /// a read waits for the typist: the lines end at the descriptor's end or a read error.
    static func lines(of descriptor: Int32) -> AsyncStream<String> {
        let (lines, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(1024))
        DispatchQueue.global().async {
            var line: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                for byte in buffer.prefix(count) {
                    // A line is at most 16 MiB, what one event holds; a longer one goes in parts.
                    guard byte == UInt8(ascii: "\n") || line.count >= 1 << 24 else {
                        line.append(byte)
                        continue
                    }
                    if line.last == UInt8(ascii: "\r") { line.removeLast() }
                    continuation.yield(String(decoding: line, as: UTF8.self))
                    line.removeAll(keepingCapacity: true)
                }
            }
            if !line.isEmpty { continuation.yield(String(decoding: line, as: UTF8.self)) }
            continuation.finish()
        }
        return lines
    }

    /// Writes all of `bytes` to a file descriptor, retrying short writes.
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}

/// What is left running for the process's exit to end: held here so that nothing is
/// deinitialised first (an HTTP client must be shut down before it is).
private enum Leftovers {
    static let objects = Mutex<[any Sendable & AnyObject]>([])

    static func keep(_ object: any Sendable & AnyObject) {
        objects.withLock { $0.append(object) }
    }
}
