import MoyaCore

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
        descriptors(output: STDOUT_FILENO, error: STDERR_FILENO, environment: .process)
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
