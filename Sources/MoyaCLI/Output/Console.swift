import MoyaCore

#if canImport(Glibc)
    import Glibc
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

    /// Creates a context.
    public init(
        environment: Environment, writeOut: @escaping @Sendable ([UInt8]) -> Void,
        writeError: @escaping @Sendable ([UInt8]) -> Void
    ) {
        self.environment = environment
        self.writeOut = writeOut
        self.writeError = writeError
    }

    /// The process's own standard streams and environment.
    public static var process: CommandContext {
        CommandContext(
            environment: .process,
            writeOut: { text in writeAll(STDOUT_FILENO, text) },
            writeError: { text in writeAll(STDERR_FILENO, text) })
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
