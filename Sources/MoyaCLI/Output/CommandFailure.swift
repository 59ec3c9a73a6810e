import MoyaSpec

extension ExitStatus {
    /// The signal a status stands for: 128 + the signal's number, for the signals that cancel
    /// a command. The executable ends by that signal once the command has cleaned up, so that
    /// a shell sees a death by signal (and stops a loop on Ctrl-C, as it does for curl); the
    /// shell then reports the same status.
    var signal: Int32? {
        Interrupts.signals.first { $0.status == self }?.number
    }
}

/// A failure that ends a command: one line for stderr and the status to exit with.
public struct CommandFailure: Error, Sendable, CustomStringConvertible {
    /// What happened, as one sentence.
    public var message: String
    /// The exit status.
    public var status: ExitStatus
    /// Lines printed before the error line, such as spec diagnostics.
    public var details: [String]

    /// Creates a failure.
    public init(_ message: String, status: ExitStatus, details: [String] = []) {
        self.message = message
        self.status = status
        self.details = details
    }

    public var description: String { message }
}
