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
    /// `invalid spec: 2 problems in 1 file`.
    public var message: String {
        let files = Set(diagnostics.map(\.file)).count
        let problems = diagnostics.count == 1 ? "1 problem" : "\(diagnostics.count) problems"
        return "invalid spec: \(problems) in \(files == 1 ? "1 file" : "\(files) files")"
    }

    /// Each diagnostic, `file:line:col: error: key.path: what is wrong`.
    public var details: [String] { diagnostics.map(\.description) }

    public var exitStatus: ExitStatus { .invalidSpec }
}

extension ResolveError: Problem {
    public var exitStatus: ExitStatus { isUsageError ? .usage : .invalidSpec }
}
