import MoyaYAML

/// Where a `${NAME}` comes from when the environment does not set it: a spec's `secrets:`, or
/// the user's own `secrets.yaml` (`UserSecrets`). The value is read only when a call that
/// needs it is sent (`SecretVault` in MoyaRuntime), and is a secret wherever it goes.
public struct SecretSource: Sendable, Hashable, CustomStringConvertible {
    /// The store, and what in it.
    public enum Kind: Sendable, Hashable {
        /// `pass show ENTRY`, its first line.
        case pass(entry: String)
        /// The freedesktop Secret Service, looked up as `secret-tool lookup` looks up: by
        /// attribute pairs, in the order written.
        case keyring(attributes: [Attribute])
        /// The value of `key` in a dotenv file, a path relative to the declaring file.
        case dotenv(file: String, key: String)
        /// What a program prints on stdout, trimmed: its argv, run without a shell.
        case command([String])
    }

    /// One `name: value` pair of a keyring lookup.
    public struct Attribute: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Who declared the source, which decides what it may do (see `SecretVault`).
    public enum Origin: Sendable, Hashable {
        /// A spec's `secrets:`: a spec may be someone else's.
        case spec
        /// The user's own `secrets.yaml`.
        case user
    }

    public var kind: Kind
    /// Seconds the read may take (`timeout:`), 10 unless set.
    public var timeout: Double
    public var origin: Origin
    /// The file that declared it, as named to moya-cli: a dotenv path is relative to it.
    public var file: String
    /// Where it was declared, for messages.
    public var mark: Mark

    /// The time limit of a read unless `timeout:` says.
    public static let defaultTimeout: Double = 10

    public init(kind: Kind, timeout: Double = SecretSource.defaultTimeout, origin: Origin, file: String, mark: Mark) {
        self.kind = kind
        self.timeout = timeout
        self.origin = origin
        self.file = file
        self.mark = mark
    }

    /// The store's word, as `secrets:` spells it.
    public var store: String {
        switch kind {
        case .pass: "pass"
        case .keyring: "keyring"
        case .dotenv: "dotenv"
        case .command: "command"
        }
    }

    /// The source as a person reads it, never a value: `pass github/token`,
    /// `keyring service=moya account=db`, `dotenv .env LOCAL_KEY`, `command op read op://…`;
    /// a control character the spec wrote in it is shown escaped, never sent to a terminal.
    public var description: String {
        TerminalText.escapingControls(written)
    }

    /// The source as written.
    private var written: String {
        switch kind {
        case .pass(let entry): "pass \(entry)"
        case .keyring(let attributes): "keyring " + attributes.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
        case .dotenv(let file, let key): "dotenv \(file) \(key)"
        case .command(let argv): "command " + argv.map(Self.quoted).joined(separator: " ")
        }
    }

    /// A word as a shell would need it: in single quotes when it holds a space or a quote.
    private static func quoted(_ word: String) -> String {
        guard word.isEmpty || word.contains(where: { " \t\n'\"\\$`".contains($0) }) else { return word }
        return "'" + word.replacing("'", with: #"'\''"#) + "'"
    }

    /// Where it was declared, `file:line:col`.
    public var place: String { "\(file):\(mark.line):\(mark.column)" }
}
