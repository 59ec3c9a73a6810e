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

/// A failure that ends a command: one line for stderr and the status to exit with. A command
/// line's own problems are made here; any other `Problem` is carried as it says.
public struct CommandFailure: Problem, CustomStringConvertible {
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

    /// `problem` as it is presented: its message, its details and its own exit status.
    public init(_ problem: some Problem) {
        self.init(problem.message, status: problem.exitStatus, details: problem.details)
    }

    public var exitStatus: ExitStatus { status }

    public var description: String { message }
}
