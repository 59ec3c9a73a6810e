import MoyaHTTP
import MoyaSpec
import MoyaYAML

/// The user's own `secrets.yaml`, `$XDG_CONFIG_HOME/moya-cli/secrets.yaml` (an absolute
/// `XDG_CONFIG_HOME`), else `~/.config/moya-cli/secrets.yaml`: a `secrets:` mapping as a spec
/// writes one, for every service. A spec's own `secrets:` entry of the same name wins. Its
/// sources are the user's (`SecretSource.Origin.user`), so its `command`s may run; which is
/// why it must be the user's file, which no one else may write.
public struct UserSecrets: Sendable {
    /// The file, as found.
    public var file: String
    /// Each variable's source.
    public var sources: [String: SecretSource]
    /// What is wrong with the file; each compiled spec reports it.
    public var diagnostics: [Diagnostic]

    /// Where the file is, whether or not it exists; nil when neither `XDG_CONFIG_HOME` nor
    /// `HOME` says.
    public static func path(environment: Environment) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config + "/moya-cli/secrets.yaml"
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.config/moya-cli/secrets.yaml"
    }

    /// The user's file, read and checked; nil when there is none.
    public static func load(environment: Environment) -> UserSecrets? {
        guard let file = path(environment: environment), FileSystem.entry(file).kind != .missing else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.contents(file)
        } catch {
            return UserSecrets(file: file, problem: error.message)
        }
        if let problem = SpecTrust.ownership(of: file) {
            return UserSecrets(
                file: file, problem: "this file names the programs moya-cli runs for secrets, and it \(problem)")
        }
        return UserSecrets(bytes, file: file)
    }

    /// The file `file` holding `bytes`, parsed.
    public init(_ bytes: [UInt8], file: String) {
        self.file = file
        sources = [:]
        diagnostics = []
        let root: YAMLNode?
        do {
            root = try YAMLLoader.load(bytes)
        } catch {
            diagnostics = [Diagnostic(file: file, mark: error.mark, keyPath: "yaml", message: error.message)]
            return
        }
        guard let root, !root.isNull else { return }
        var context = CompileContext(
            reader: SpecReader(file: file, environment: Environment([:])), file: file,
            fileRoot: FileRoot(spec: file))
        if let fields = context.reader.fields(root, "", known: ["secrets"]), let node = fields["secrets"] {
            sources = context.secretSources(node, "secrets", origin: .user)
        }
        diagnostics = context.reader.diagnostics
    }

    private init(file: String, problem: String) {
        self.file = file
        sources = [:]
        diagnostics = [Diagnostic(file: file, mark: Mark(line: 1, column: 1), keyPath: "secrets", message: problem)]
    }
}
