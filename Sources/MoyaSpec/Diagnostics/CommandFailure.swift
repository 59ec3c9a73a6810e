/// A failure that ends a command: one line for stderr and the status to exit with. A command's
/// own failures are made by kind (`usage`, `missingSpec`, ...), and each kind names its status
/// here, once; any other `Problem` is carried with the status it says.
public struct CommandFailure: Problem, CustomStringConvertible {
    /// What happened, as one sentence.
    public var message: String
    /// The exit status.
    public var status: ExitStatus
    /// Lines printed before the error line, such as spec diagnostics.
    public var details: [String]

    /// A failure whose status another failure decided (an interrupted run, the last of several
    /// failures); a command's own failures come from the kinds below.
    package init(_ message: String, carrying status: ExitStatus, details: [String] = []) {
        self.message = message
        self.status = status
        self.details = details
    }

    /// The command line is wrong: an unknown name, a flag that needs another, a value that
    /// cannot be read. Exit 64.
    public static func usage(_ message: String, details: [String] = []) -> CommandFailure {
        CommandFailure(message, carrying: .usage, details: details)
    }

    /// A spec file, folder or service the command line names is not there. Exit 66.
    public static func missingSpec(_ message: String) -> CommandFailure {
        CommandFailure(message, carrying: .missingSpec)
    }

    /// What the command writes (a spec, a report, the audit log, the trust list) cannot be
    /// written. Exit 73.
    public static func cannotWrite(_ message: String) -> CommandFailure {
        CommandFailure(message, carrying: .cannotWrite)
    }

    /// The work itself failed: a request that could not be sent, a flow that failed, a port
    /// that cannot be listened on, a program that cannot be run. Exit 1.
    public static func failed(_ message: String) -> CommandFailure {
        CommandFailure(message, carrying: .transportFailure)
    }

    /// `--key-path` names nothing in the response. Exit 7.
    public static func keyPathMissing(_ message: String) -> CommandFailure {
        CommandFailure(message, carrying: .keyPathMissing)
    }

    /// What a command made or read is not a valid spec or document. Exit 65.
    public static func invalidSpec(_ message: String, details: [String] = []) -> CommandFailure {
        CommandFailure(message, carrying: .invalidSpec, details: details)
    }

    /// `call --all` stopped before the last page. Exit 9.
    public static func pagingStopped(_ message: String) -> CommandFailure {
        CommandFailure(message, carrying: .pagingStopped)
    }

    /// `problem` as it is presented: its message, its details and its own exit status.
    public init(_ problem: some Problem) {
        self.init(problem.message, carrying: problem.exitStatus, details: problem.details)
    }

    public var exitStatus: ExitStatus { status }

    public var description: String { message }
}
