import MoyaHTTP
import MoyaSpec
import Synchronization

/// Reads the secrets a spec's `secrets:` and the user's `secrets.yaml` name (`SecretSource`)
/// when a call that needs one is sent, and gives the service back with them bound
/// (`ServiceSpec.binding(_:)`, nothing compiled again): each value is then a secret
/// everywhere an environment value is (masked in every output, never recorded, never shown to
/// a model). This is the one place a store is read and the one place its rules are kept:
/// - a value is read only for a target or flow that is sent (never for `list`, `validate`,
///   completion or a stub), at most once per command, within its source's time limit;
/// - a spec found in the working directory (`./specs`) reads no store until its folder is
///   trusted, the user's sources included;
/// - a spec's own `pass`, `keyring` and `command` sources are read only from a trusted folder
///   or the user's own spec folder, however the spec was named (`--specs` included), and a
///   trusted folder's programs only as they were when it was trusted; the user's
///   `secrets.yaml` may name any;
/// - a `dotenv` file lies inside the declaring file's root.
///
/// A read blocks its thread for as long as the program takes: reads are serialised, so that
/// two calls needing one secret read it once.
public final class SecretVault: Sendable {
    /// Why a source may not be read for a spec file, or nil when it may.
    let refuses: @Sendable (_ source: SecretSource, _ specFile: String) -> String?
    /// The environment programs run in, and where the stores and the user's folders are.
    let environment: Environment
    private let state = Mutex<State>(State())

    private struct State {
        /// Each source's value or failure, by `key(_:_:)`.
        var values: [String: Result<String, SecretFailure>] = [:]
    }

    /// A vault running programs in `environment`, reading a source only where `refuses`
    /// finds nothing against it: the trust rules, which a command hands in
    /// (`SecretStoreTrust.refusal(of:specFile:)`).
    public init(
        environment: Environment, refuses: @escaping @Sendable (_ source: SecretSource, _ specFile: String) -> String?
    ) {
        self.refuses = refuses
        self.environment = environment
    }

    // MARK: - Services with their secrets

    /// `service` and `target` as a call sends them under `overrides`: with the secrets they
    /// need read and bound; as they are when the policy stubs the target, which sends
    /// nothing (`CallPolicy.decide`).
    public func bind(
        _ service: ServiceSpec, _ target: TargetSpec, overrides: CallPolicy.Overrides, environment: String?
    ) throws(SecretFailure) -> (ServiceSpec, TargetSpec) {
        guard CallPolicy.decide(overrides, target: target, service: service).stub == .never else {
            return (service, target)
        }
        let bound = try self.service(service, sending: target, environment: environment)
        return (bound, bound.target(named: target.name) ?? target)
    }

    /// `service` as a call of `target` in `environment` sends it: with every secret it needs
    /// read and bound, or itself when it needs none.
    public func service(_ service: ServiceSpec, sending target: TargetSpec, environment: String?)
        throws(SecretFailure) -> ServiceSpec
    {
        var needed = service.unsetVariables(for: target, environment: environment)
        // A login of the service's own is sent before the target, with its own variables.
        if case .login(let login)? = target.auth ?? service.auth, login.service == nil {
            needed += service.unsetVariables.filter { $0.owner == .target(login.target) }
        }
        return try bound(service, needing: needed, for: "\(service.name).\(target.name)")
    }

    /// `service` as a run of its flow `flow` needs it: with the secrets the flow's own text
    /// needs read and bound; each step's target is held to its own as it is sent.
    public func service(_ service: ServiceSpec, running flow: FlowSpec) throws(SecretFailure) -> ServiceSpec {
        let needed = service.unsetVariables.filter { $0.owner == .flow(flow.name) }
        return try bound(service, needing: needed, for: "flow \(service.name).\(flow.name)")
    }

    private func bound(
        _ service: ServiceSpec, needing variables: [UnsetVariable], for needer: String
    ) throws(SecretFailure) -> ServiceSpec {
        var values: [String: String] = [:]
        for variable in variables where values[variable.name] == nil {
            guard let source = service.secretSources[variable.name] else { continue }
            values[variable.name] = try read(variable.name, from: source, for: service, needer: needer)
        }
        do throws(BindingFailure) {
            return try service.binding(values)
        } catch {
            throw SecretFailure(
                name: error.variable, source: service.secretSources[error.variable], needer: needer, kind: .invalid,
                reason: error.message)
        }
    }

    // MARK: - Reading

    /// The value of `name` from `source`, declared for `service`'s spec: read once, within the
    /// source's time limit, if the trust rules allow.
    public func read(_ name: String, from source: SecretSource, for service: ServiceSpec, needer: String?)
        throws(SecretFailure) -> String
    {
        if let refusal = refusal(of: source, for: service) {
            throw SecretFailure(name: name, source: source, needer: needer, kind: .untrusted, reason: refusal)
        }
        let key = name + "\u{0}" + String(reflecting: source.kind) + "\u{0}" + source.file
        // One read at a time, so that two calls needing one value read it once.
        let result = state.withLock { state -> Result<String, SecretFailure> in
            if let known = state.values[key] { return known }
            let reading = SecretReading(
                source: source, name: name, environment: environment, fileRoot: fileRoot(of: source, for: service))
            let result = Result<String, SecretFailure> { () throws(SecretFailure) -> String in try reading.value() }
            state.values[key] = result
            return result
        }
        switch result {
        case .success(let value): return value
        case .failure(var failure):
            failure.needer = needer
            throw failure
        }
    }

    /// The folder a source's dotenv file must be in: its spec's file root, or the user's
    /// config folder for the user's file.
    private func fileRoot(of source: SecretSource, for service: ServiceSpec) -> FileRoot {
        source.origin == .spec ? service.fileRoot : FileRoot(spec: source.file)
    }

    /// Why `source` may not be read for `service`, or nil when it may: what the trust rules
    /// the vault was made with say (`SecretStoreTrust`, in MoyaCompiler).
    public func refusal(of source: SecretSource, for service: ServiceSpec) -> String? {
        refuses(source, service.file)
    }
}

/// Why a secret could not be read: which, from where, and what happened, never a value. Its
/// kind is `missing` when the source has nothing (exit 66), `unavailable` when it failed (69),
/// `untrusted` when the trust rules keep it unread (77).
public struct SecretFailure: Problem, CustomStringConvertible {
    /// The variable.
    public var name: String
    /// Where it comes from; nil when the failure is not the source's.
    public var source: SecretSource?
    /// What needed it: `service.target`, or `flow service.name`; nil when nothing did
    /// (`secrets check`).
    public var needer: String?
    /// `missing`, `unavailable` or `untrusted`.
    public var failureKind: FailureKind
    /// What happened, without the name and source.
    public var reason: String

    public init(name: String, source: SecretSource?, needer: String?, kind: FailureKind, reason: String) {
        self.name = name
        self.source = source
        self.needer = needer
        self.failureKind = kind
        self.reason = reason
    }

    /// `gh.user needs GITHUB_TOKEN from pass github/token (specs/gh.yaml:6:19): pass show
    /// exited with status 2`.
    public var message: String {
        let from = source.map { " from \($0) (\($0.place))" } ?? ""
        return (needer.map { "\($0) needs " } ?? "") + name + from + ": " + reason
    }

}
