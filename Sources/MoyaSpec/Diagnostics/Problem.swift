/// What ended an operation, as a command reports it: one line, the lines before it, and its
/// kind, which the command's exit status is chosen by (`ExitStatus(for:)`, the one table).
///
/// Spec diagnostics (`SpecError`), a call that cannot be made (`ResolveError`), a call that
/// failed (`SendFailure`), a recording that could not be written, and the command line's own
/// problems are each a problem. The CLI presents any of them the same way (`MoyaCLI.run`), and
/// a library user can switch on the concrete type for what it carries (a diagnostic's file
/// and position, a failure's kind and server).
public protocol Problem: Error, Sendable {
    /// What happened, as one sentence.
    var message: String { get }
    /// Lines printed before the message, such as each spec diagnostic.
    var details: [String] { get }
    /// What kind of failure it is.
    var failureKind: FailureKind { get }
}

extension Problem {
    public var details: [String] { [] }
}

extension CustomStringConvertible where Self: Problem {
    /// A problem describes itself by its message.
    public var description: String { message }
}

extension SpecError: Problem {
    /// `invalid spec: 2 problems in 1 file`; or, when a spec of an untrusted folder read a set
    /// variable, why that folder is not trusted and how to trust it: the other problems (a
    /// flow whose service is missing because its file was refused) follow from that one.
    public var message: String {
        if let reason = diagnostics.lazy.compactMap(\.untrustedReason).first { return reason }
        let files = Set(diagnostics.map(\.file)).count
        let problems = diagnostics.count == 1 ? "1 problem" : "\(diagnostics.count) problems"
        return "invalid spec: \(problems) in \(files == 1 ? "1 file" : "\(files) files")"
    }

    /// Each diagnostic, `file:line:col: error: key.path: what is wrong`; when a folder is not
    /// trusted, only each place that read a variable.
    public var details: [String] {
        let untrusted = diagnostics.filter { $0.untrustedReason != nil }
        return (untrusted.isEmpty ? diagnostics : untrusted).map(\.description)
    }

    public var failureKind: FailureKind {
        diagnostics.contains { $0.untrustedReason != nil } ? .untrusted : .invalid
    }
}

extension ResolveError: Problem {
    public var failureKind: FailureKind { isUsageError ? .usage : .invalid }
}

/// A file or folder that could not be read or written: `no folder at specs`, `cannot write the
/// trust list …`. Its kind is `missing` or `unwritable`.
public struct FileFailure: Problem, CustomStringConvertible {
    public var message: String
    /// Whether it was to be written, rather than read.
    public var isWrite: Bool

    /// `path`, or what the command needed, could not be read (`message` says which).
    public static func missing(_ message: String) -> FileFailure { FileFailure(message: message, isWrite: false) }
    /// What the command writes could not be written.
    public static func unwritable(_ message: String) -> FileFailure { FileFailure(message: message, isWrite: true) }

    public var failureKind: FailureKind { isWrite ? .unwritable : .missing }
}

/// The caller's arguments are wrong: an unknown name, a flag that needs another, a value that
/// cannot be read.
public struct UsageError: Problem, CustomStringConvertible {
    public var message: String
    public var details: [String]

    public init(_ message: String, details: [String] = []) {
        self.message = message
        self.details = details
    }

    public var failureKind: FailureKind { .usage }
}
