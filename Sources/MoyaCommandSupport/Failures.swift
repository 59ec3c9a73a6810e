import MoyaSpec

// The failures a command ends with that no library makes. Each has one kind, and
// `ExitStatus(for:)` gives its status; a command's other failures are the libraries' own
// problems (`SpecError`, `SendFailure`, `SecretFailure`, `FileFailure`, `UsageError`…),
// thrown as they are.

/// A program moya-cli hands work to (moya-cli-tools) is missing or cannot start, or ended
/// with a status of its own, which the command ends with too.
public struct HelperFailure: Problem, CustomStringConvertible {
    public var message: String
    /// The status it exited with, when it ran.
    public var exited: Int32?

    public init(_ message: String, exited: Int32? = nil) {
        self.message = message
        self.exited = exited
    }

    public var failureKind: FailureKind { exited.map(FailureKind.relayed) ?? .unavailable }
}

/// A server (`serve`, `mcp --http`) could not start: its port cannot be listened on, or what
/// it needs to check tokens or speak TLS could not be had.
public struct ListenFailure: Problem, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var failureKind: FailureKind { .failed }
}

/// What a command ran failed: checks (`2 of 9 checks failed`), a flow, a workflow that is not
/// there to run.
public struct RunFailure: Problem, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var failureKind: FailureKind { .failed }
}

/// A run's coverage fell below `--min-coverage`.
public struct CoverageShortfall: Problem, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var failureKind: FailureKind { .failed }
}

/// `--key-path` names nothing in the response.
public struct KeyPathMissing: Problem, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var failureKind: FailureKind { .keyPathMissing }
}

/// `call --all` stopped before the last page.
public struct PagingStopped: Problem, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var failureKind: FailureKind { .pagingStopped }
}

/// A stream ended at a bound its target did not give: no event for the default idle time, or
/// one event larger than is held. What arrived before was printed.
public struct StreamStopped: Problem, CustomStringConvertible {
    public var message: String
    /// Whether it ended for want of an event (a timeout), else for an event too large.
    public var timedOut: Bool

    public init(_ message: String, timedOut: Bool) {
        self.message = message
        self.timedOut = timedOut
    }

    public var failureKind: FailureKind { .network(timedOut ? .timedOut : .badServerResponse) }
}

/// What a command made, read or was held to is not valid: a document that does not import,
/// a spec an import made that does not compile, tools that differ from `--lock`.
public struct InvalidDocument: Problem, CustomStringConvertible {
    public var message: String
    public var details: [String]

    public init(_ message: String, details: [String] = []) {
        self.message = message
        self.details = details
    }

    public var failureKind: FailureKind { .invalid }
}

/// A signal ended the command, after its cleanup: `interrupted by SIGINT`.
public struct Interrupted: Problem, CustomStringConvertible {
    public var message: String
    /// The signal's number.
    public var signal: Int32

    public init(_ message: String, signal: Int32) {
        self.message = message
        self.signal = signal
    }

    public var failureKind: FailureKind { .interrupted(signal: signal) }
}

/// Several failures told one by one, ended as one: `2 of 5 secrets could not be read`, of the
/// kind of the one it names.
public struct FailureSummary: Problem, CustomStringConvertible {
    public var message: String
    public var failureKind: FailureKind

    public init(_ message: String, of failure: any Error) {
        self.message = message
        self.failureKind = FailureKind(of: failure)
    }

}

extension Error {
    /// The one line a command says of it: a problem's message, else what it describes itself as.
    public var failureMessage: String { (self as? any Problem)?.message ?? String(describing: self) }
    /// The lines said before that one: a problem's details, such as spec diagnostics.
    public var failureDetails: [String] { (self as? any Problem)?.details ?? [] }
}

/// How a command presents a failure: each detail, then one `moya-cli: error:` line, with what a
/// spec or a server wrote in them unable to drive the terminal; and the status it exits with.
/// moya-cli (`MoyaCLI.run`) and moya-cli-tools present every failure so.
public struct FailureReport: Sendable {
    /// The lines for stderr.
    public let lines: [String]
    /// The exit status.
    public let status: ExitStatus

    public init(_ error: any Error) {
        lines =
            error.failureDetails.map(TerminalText.escapingControls)
            + ["moya-cli: error: " + TerminalText.escapingControls(error.failureMessage)]
        status = ExitStatus(for: error)
    }
}
