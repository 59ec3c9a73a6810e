import MoyaHTTP

/// What kind of failure a `Problem` is: the one thing a command's exit status is chosen by
/// (`ExitStatus(for:)` in MoyaCommandSupport, the one table). A library's errors carry a kind,
/// never a status. An open set, as `NetworkError.Code` is: a kind added later does not break a
/// user's code that compares kinds.
public struct FailureKind: Sendable, Hashable, CustomStringConvertible {
    /// The kinds, for the table that maps them; outside the package they are compared whole.
    package enum Base: Sendable, Hashable {
        case usage, missing, unwritable, invalid, untrusted, unavailable, failed, keyPathMissing, pagingStopped
        case network(NetworkError.Code?)
        case status(Int)
        case interrupted(signal: Int32)
        case relayed(Int32)
    }

    package let base: Base

    package init(_ base: Base) { self.base = base }

    /// The caller's arguments are wrong: an unknown name, a flag that needs another, a value
    /// that cannot be read, a param missing or breaking its rule.
    public static let usage = FailureKind(.usage)
    /// What is to be read is not there or has nothing: a spec file, folder or service, a
    /// secret's source with no value.
    public static let missing = FailureKind(.missing)
    /// What is to be written cannot be: a response's file, a recorded spec, a report, a list.
    public static let unwritable = FailureKind(.unwritable)
    /// A spec or document is not valid, or a call cannot be made as its spec says.
    public static let invalid = FailureKind(.invalid)
    /// A spec's folder is not trusted to read what it asked for.
    public static let untrusted = FailureKind(.untrusted)
    /// A program the work needs failed or is not installed: a secret's source, the helper.
    public static let unavailable = FailureKind(.unavailable)
    /// The work itself failed: a check, a flow, a login, a port that cannot be listened on, a
    /// coverage gate.
    public static let failed = FailureKind(.failed)
    /// A key path names nothing in the response.
    public static let keyPathMissing = FailureKind(.keyPathMissing)
    /// Following pages stopped before the last.
    public static let pagingStopped = FailureKind(.pagingStopped)

    /// The request was not answered; the network error's code when there is one.
    public static func network(_ code: NetworkError.Code?) -> FailureKind { FailureKind(.network(code)) }
    /// The response's status did not pass validation.
    public static func status(_ code: Int) -> FailureKind { FailureKind(.status(code)) }
    /// A signal (SIGINT, SIGTERM, SIGHUP) ended the work.
    public static func interrupted(signal: Int32) -> FailureKind { FailureKind(.interrupted(signal: signal)) }
    /// A program run for the command (the helper) ended with `status`, one of the command's own.
    public static func relayed(_ status: Int32) -> FailureKind { FailureKind(.relayed(status)) }

    public var description: String {
        switch base {
        case .usage: "usage"
        case .missing: "missing"
        case .unwritable: "unwritable"
        case .invalid: "invalid"
        case .untrusted: "untrusted"
        case .unavailable: "unavailable"
        case .failed: "failed"
        case .keyPathMissing: "keyPathMissing"
        case .pagingStopped: "pagingStopped"
        case .network(let code): "network(\(code.map(\.description) ?? "nil"))"
        case .status(let code): "status(\(code))"
        case .interrupted(let signal): "interrupted(signal: \(signal))"
        case .relayed(let status): "relayed(\(status))"
        }
    }
}
