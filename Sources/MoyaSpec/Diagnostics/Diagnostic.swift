import MoyaYAML

/// One problem found in a spec file, at a place, under a key path.
public struct Diagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// Whether the problem stops the spec from compiling.
    public enum Severity: String, Sendable, Hashable {
        /// The spec is invalid.
        case error
        /// The spec compiles, but something in it is likely a mistake.
        case warning
    }

    /// The spec file, as it was named to moya-cli.
    public var file: String
    /// Where in the file.
    public var mark: Mark
    /// The dotted key path of the offending value, such as `targets.showUser.path`.
    public var keyPath: String
    /// What is wrong and, where it can say, what would be right.
    public var message: String
    /// An error or a warning.
    public var severity: Severity
    /// Why a spec of a folder the user has not trusted may not read a set variable, when that
    /// is the problem (see `EnvironmentRefusal`): not a mistake in the spec, and reported as
    /// such (`SpecError`).
    public var untrustedReason: String? = nil

    /// Creates a diagnostic.
    public init(file: String, mark: Mark, keyPath: String, message: String, severity: Severity = .error) {
        self.file = file
        self.mark = mark
        self.keyPath = keyPath
        self.message = message
        self.severity = severity
    }

    /// `file:line:col: error: key.path: message`, or `warning:` for a warning.
    public var description: String {
        "\(file):\(mark.line):\(mark.column): \(severity.rawValue): \(keyPath): \(message)"
    }
}

/// Every problem found in one or more spec files.
public struct SpecError: Error, Sendable, CustomStringConvertible {
    /// The problems in file order, then by position.
    public var diagnostics: [Diagnostic]

    /// Creates an error from its problems.
    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    /// One problem per line.
    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
