/// What ended an operation, as a command reports it: one line, the lines before it, and the
/// exit status, from the one table `ExitStatus` lists.
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
    /// The status a command exits with for it.
    var exitStatus: ExitStatus { get }
}

extension Problem {
    public var details: [String] { [] }
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

    public var exitStatus: ExitStatus {
        diagnostics.contains { $0.untrustedReason != nil } ? .untrusted : .invalidSpec
    }
}

extension ResolveError: Problem {
    public var exitStatus: ExitStatus { isUsageError ? .usage : .invalidSpec }
}
