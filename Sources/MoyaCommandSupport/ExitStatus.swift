import MoyaSpec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every exit status moya-cli and moya-cli-tools use, in one place, which both share, and the
/// one table from a failure to its status (`init(for:)`). The man page, the README and
/// docs/exit-codes.md list the same.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Everything worked.
    case success = 0
    /// The request could not be sent or answered: refused, reset, TLS or DNS. `check` uses it
    /// when a check fails.
    case transportFailure = 1
    /// The request timed out.
    case timeout = 2
    /// The response failed validation with a 3xx status.
    case redirectStatus = 3
    /// The response failed validation with a 4xx status.
    case clientErrorStatus = 4
    /// The response failed validation with a 5xx status.
    case serverErrorStatus = 5
    /// Too many redirects.
    case tooManyRedirects = 6
    /// A `--key-path` that is not in the response.
    case keyPathMissing = 7
    /// The response failed a custom validation list with a 1xx or 2xx status.
    case unexpectedStatus = 8
    /// `call --all` stopped before the last page: a next page off the target's origin, a page
    /// whose items cannot be read, or a next page that repeats one.
    case pagingStopped = 9
    /// The command line was wrong.
    case usage = 64
    /// A spec is invalid.
    case invalidSpec = 65
    /// A spec file or directory is missing, or a secret's source has nothing (`SecretVault`).
    case missingSpec = 66
    /// A program moya-cli runs failed or is not installed: a secret's source exited with
    /// another status or was stopped at its time limit, or moya-cli-tools (which does import,
    /// export and Arazzo) is missing or cannot start, as sysexits' EX_UNAVAILABLE. (A source
    /// that has nothing is 66, as a missing spec is: EX_NOINPUT.)
    case unavailable = 69
    /// A file moya-cli writes could not be written: `--output` or a download, `--record`'s
    /// spec or sample, a report, the trust list.
    case cannotWrite = 73
    /// A spec found in the working directory read a set variable, and its folder is not
    /// trusted (`moya-cli trust`), as sysexits' EX_NOPERM.
    case untrusted = 77
    /// The terminal hung up (SIGHUP) during the request.
    case hungUp = 129
    /// Interrupted with Ctrl-C (SIGINT).
    case interrupted = 130
    /// Terminated (SIGTERM) during the request.
    case terminated = 143

    /// What the status means, as the README and the man page list it.
    public var summary: String {
        switch self {
        case .success: "Success."
        case .transportFailure: "Transport failure: refused, reset, TLS or DNS; for check, a check failed."
        case .timeout: "Timeout."
        case .redirectStatus: "The response failed validation with a 3xx status."
        case .clientErrorStatus: "The response failed validation with a 4xx status."
        case .serverErrorStatus: "The response failed validation with a 5xx status."
        case .tooManyRedirects: "Too many redirects."
        case .keyPathMissing: "A --key-path that is not in the response."
        case .unexpectedStatus: "The response failed a custom validation list with a 1xx or 2xx status."
        case .pagingStopped:
            "--all stopped before the last page: a next URL off the target's origin, a page whose items cannot be read, or a next page that repeats one."
        case .usage: "Usage: the command line is wrong."
        case .invalidSpec: "Invalid spec."
        case .missingSpec: "Missing spec, or a secret's source has nothing."
        case .unavailable:
            "A program moya-cli runs failed or is not installed: a secret's source, or moya-cli-tools."
        case .cannotWrite:
            "A file could not be written: --output or a download, --record's spec or sample, a report, the trust list."
        case .untrusted: "A spec found in the working directory is not trusted: run moya-cli trust."
        case .hungUp: "Hung up (SIGHUP): ended by the signal, after cleanup."
        case .interrupted: "Interrupted (Ctrl-C, SIGINT): ended by the signal, after cleanup."
        case .terminated: "Terminated (SIGTERM): ended by the signal, after cleanup."
        }
    }

    /// The status a command exits with for `error`: the one table, by its kind
    /// (`FailureKind(of:)`).
    public init(for error: any Error) {
        self.init(kind: FailureKind(of: error))
    }

    /// The status for a failure of `kind`.
    public init(kind: FailureKind) {
        switch kind.base {
        case .usage: self = .usage
        case .missing: self = .missingSpec
        case .unwritable: self = .cannotWrite
        case .invalid: self = .invalidSpec
        case .untrusted: self = .untrusted
        case .unavailable: self = .unavailable
        case .failed: self = .transportFailure
        case .keyPathMissing: self = .keyPathMissing
        case .pagingStopped: self = .pagingStopped
        case .status(let code): self = .forFailedStatus(code)
        case .network(.timedOut?): self = .timeout
        case .network(.tooManyRedirects?): self = .tooManyRedirects
        case .network(.cancelled?): self = .interrupted
        // The response's file (`--output`, a download) could not be written, stubbed or live.
        case .network(.fileFailed?): self = .cannotWrite
        case .network: self = .transportFailure
        case .interrupted(let signal): self = Self.signals.first { $0.number == signal }?.status ?? .interrupted
        // The helper exits with these same statuses; one it could not mean (0 among them, as
        // a failure) is a failure of the work.
        case .relayed(let status):
            self = ExitStatus(rawValue: status).flatMap { $0 == .success ? nil : $0 } ?? .transportFailure
        }
    }

    /// The signals that end a command after its cleanup, each with its name and its status,
    /// 128 + its number; SIGINT first.
    public static let signals: [(number: Int32, name: String, status: ExitStatus)] = [
        (SIGINT, "SIGINT", .interrupted), (SIGTERM, "SIGTERM", .terminated), (SIGHUP, "SIGHUP", .hungUp),
    ]

    /// The signal whose arrival this status reports (SIGHUP, SIGINT, SIGTERM), if it is one.
    public var signal: Int32? { Self.signals.first { $0.status == self }?.number }

    /// The status for a response that failed validation with `statusCode`; a status outside
    /// 300–599 can fail only a custom list, and gets a code of its own.
    public static func forFailedStatus(_ statusCode: Int) -> ExitStatus {
        switch statusCode {
        case 300..<400: .redirectStatus
        case 400..<500: .clientErrorStatus
        case 500..<600: .serverErrorStatus
        default: .unexpectedStatus
        }
    }
}

extension FailureKind {
    /// The kind of any error a command ends with: a `Problem`'s own; a cancelled task's is an
    /// interrupt, as Ctrl-C's; anything else is a failure of the work.
    public init(of error: any Error) {
        switch error {
        case let problem as any Problem: self = problem.failureKind
        case is CancellationError: self = .interrupted(signal: SIGINT)
        default: self = .failed
        }
    }
}
