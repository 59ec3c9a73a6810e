import MoyaCore
import MoyaSpec

/// Sends spec targets and runs flows from Swift code as `moya-cli` does: one session, the
/// policy `CallPolicy.decide` gives, the default headers, logins with one refresh and replay,
/// and a cookie jar per flow run.
///
/// ```swift
/// let compiler = SpecCompiler(environment: .process)
/// let catalog = try SpecLibrary(searchPaths: ["specs"], compiler: compiler).loadAll()
/// let client = SpecClient(services: catalog.services)
/// let user = await client.send("myservice.showUser", ["id": .int(1)])
/// let flow = await client.run(flow: "myservice.userLifecycle")
/// await client.shutdown()
/// ```
public struct SpecClient: Sendable {
    /// The services the client knows, by name.
    public let services: [ServiceSpec]
    /// What sends each request, with the client's settings.
    public let runner: CheckRunner

    /// A client for `services`, in the environment named `environment` (each service's own
    /// base URL when nil), with `overrides` in place of the spec's settings where given, as a
    /// command line's flags are. `processEnvironment` is where the login token cache is
    /// found; tokens are cached only when `cachesTokens` and the login asks for it.
    public init(
        services: [ServiceSpec], environment: String? = nil, overrides: CallPolicy.Overrides = CallPolicy.Overrides(),
        session: Session = Session(), processEnvironment: Environment = .process, cachesTokens: Bool = false
    ) {
        self.services = services
        runner = CheckRunner(
            overrides: overrides, environment: environment, session: session, parallel: 1, bail: false,
            showSecrets: false, services: services,
            logins: Logins(environment: processEnvironment, usesCache: cachesTokens))
    }

    /// Why a name names nothing the client has.
    public struct UnknownName: Error, Sendable, CustomStringConvertible {
        /// The name asked for.
        public var name: String
        public var description: String { "no target or flow '\(name)'" }
    }

    /// The service and target `SERVICE.TARGET` names.
    public func target(_ name: String) throws(UnknownName) -> (ServiceSpec, TargetSpec) {
        guard let (service, member) = split(name), let target = service.target(named: member) else {
            throw UnknownName(name: name)
        }
        return (service, target)
    }

    /// The service `SERVICE.NAME` names, and `NAME`.
    private func split(_ name: String) -> (ServiceSpec, String)? {
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, let service = services.first(where: { $0.name == parts[0] }) else { return nil }
        return (service, parts[1])
    }

    /// `SERVICE.TARGET` with `arguments` prepared as `call --dry-run` prints it.
    public func prepare(
        _ name: String, _ arguments: [String: ParamValue] = [:], headers: HTTPHeaders = [:]
    ) throws -> PreparedCall {
        let (service, target) = try target(name)
        return try PreparedCall.prepare(
            target, of: service, with: CallOptions(arguments: arguments, environment: runner.environment),
            headers: headers, overrides: runner.overrides)
    }

    /// Sends `SERVICE.TARGET` with `arguments` and `headers`, or answers from its sample when
    /// the policy stubs it: the response whatever its status, or why there is none.
    public func send(
        _ name: String, _ arguments: [String: ParamValue] = [:], headers: HTTPHeaders = [:]
    ) async -> Exchange {
        let service: ServiceSpec
        let target: TargetSpec
        do {
            (service, target) = try self.target(name)
        } catch {
            return Exchange(target: nil, redactor: Redactor(), response: nil, seconds: 0, failure: error.description)
        }
        return await runner.exchange(
            service, target, with: CallOptions(arguments: arguments, environment: runner.environment),
            headers: headers)
    }

    /// Runs the flow `SERVICE.FLOW`, with `variables` in place of its `vars`; its steps are the
    /// result's.
    public func run(flow name: String, variables: [(name: String, value: JSONValue)] = []) async -> CheckResult? {
        guard let (service, member) = split(name), let flow = service.flows.first(where: { $0.name == member })
        else { return nil }
        let planned = PlannedCheck(service: service, subject: .flow(flow), skipReason: nil)
        return await FlowRunner(runner: runner, overrides: variables).run(flow, of: planned)
    }

    /// Closes the session's connections; call once, when every request has finished.
    public func shutdown() async {
        await runner.session.shutdown()
    }
}
