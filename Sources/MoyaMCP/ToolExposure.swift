import MoyaHTTP
import MoyaMCPProtocol
import MoyaSpec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which targets and flows `moya-cli mcp` offers an agent: read-only methods unless the flags
/// say more, only what `--only` names when it names anything, never what the spec keeps out
/// with `mcp: false`. The one place that decides, for listing and for calling alike.
public struct ToolExposure: Sendable {
    /// `--allow-writes`: POST, PUT, PATCH and any other method that is not read-only or DELETE.
    public var allowsWrites: Bool
    /// `--allow-deletes`: DELETE, separately from writes.
    public var allowsDeletes: Bool
    /// `--only`: shell-style patterns (`*`, `?`) over `SERVICE.NAME`; empty allows all.
    public var only: [String]

    /// The policy the flags give.
    public init(allowsWrites: Bool = false, allowsDeletes: Bool = false, only: [String] = []) {
        self.allowsWrites = allowsWrites
        self.allowsDeletes = allowsDeletes
        self.only = only
    }

    /// The methods that read and change nothing (`Method.isReadOnly`).
    public static let readOnlyMethods = Set(Method.allKnown.filter(\.isReadOnly))

    /// Why `target` of `service` is not a tool, naming what would make it one; nil when it is.
    /// A target a login calls (`logins`, as `SERVICE.TARGET`) answers with a credential, and
    /// is never one.
    /// `method` is the one the server acts on (`method(of:in:)`), when the caller has it.
    public func refusal(
        of target: TargetSpec, in service: ServiceSpec, logins: Set<String> = [], method: Method? = nil
    ) -> String? {
        let name = service.name + "." + target.name
        guard target.mcpExposed else { return "\(name) has mcp: false in its spec, which no flag overrides" }
        if logins.contains(name) {
            return "\(name) is a login's call, and answers with a credential; no flag exposes it"
        }
        if let pattern = unmatched(name) { return pattern }
        return refusal(method: method ?? Self.method(of: target, in: service), name: name)
    }

    /// Why `flow` of `service` is not a tool: a flow is one only when every target it calls
    /// would be, since calling the flow sends them all, and its captures and failures would
    /// carry what a login's call answers.
    public func refusal(
        of flow: FlowSpec, in service: ServiceSpec, services: [ServiceSpec], logins: Set<String> = []
    ) -> String? {
        let name = service.name + "." + flow.name
        guard flow.mcpExposed else { return "\(name) has mcp: false in its spec, which no flag overrides" }
        if let pattern = unmatched(name) { return pattern }
        for step in flow.steps + flow.finally {
            let owner = step.service.flatMap { named in services.first { $0.name == named } } ?? service
            guard let target = owner.target(named: step.target) else { continue }
            // A step's target is judged by its method and its own `mcp:`, not by `--only`,
            // which picks the tools, not what a flow may send.
            let stepName = owner.name + "." + target.name
            if !target.mcpExposed {
                return "the flow \(name) calls \(stepName), which has mcp: false in its spec"
            }
            if logins.contains(stepName) {
                return "the flow \(name) calls \(stepName), a login's call, which answers with a credential; "
                    + "no flag exposes it"
            }
            if let reason = refusal(method: Self.method(of: target, in: owner), name: stepName) {
                return "the flow \(name) calls \(stepName): \(reason)"
            }
        }
        return nil
    }

    /// Why a method is not allowed, naming the flag that allows it.
    private func refusal(method: Method, name: String) -> String? {
        if Self.readOnlyMethods.contains(method) { return nil }
        if method == .delete {
            return allowsDeletes
                ? nil : "\(name) sends DELETE; start moya-cli mcp with --allow-deletes to expose it"
        }
        return allowsWrites
            ? nil : "\(name) sends \(method.rawValue), a write; start moya-cli mcp with --allow-writes to expose it"
    }

    /// The headers by which a request asks its server to act as another method would.
    static let methodOverrideHeaders: Set<String> = ["x-http-method-override", "x-http-method", "x-method-override"]

    /// The method `target`'s server acts on: its own, or the one a method-override header it
    /// sends names (`X-HTTP-Method-Override: DELETE` on a GET deletes), whichever does more.
    /// An override whose value is chosen when it is called (a param) or comes from the
    /// environment may name any method, and is taken as DELETE, the most a method does.
    public static func method(of target: TargetSpec, in service: ServiceSpec) -> Method {
        var effective = target.method
        for header in service.headers(of: target) + service.environments.flatMap(\.headers)
        where methodOverrideHeaders.contains(header.name.lowercased()) {
            guard let text = header.value.literalText else { return .delete }
            let named = Method(rawValue: text.trimmingSpaces().uppercased())
            if weight(of: named) > weight(of: effective) { effective = named }
        }
        return effective
    }

    /// How much a method does: it reads, it writes, it deletes.
    private static func weight(of method: Method) -> Int {
        method.isReadOnly ? 0 : method == .delete ? 2 : 1
    }

    /// The targets the services' logins call, as `SERVICE.TARGET`.
    public static func logins(of services: [ServiceSpec]) -> Set<String> {
        var names = Set<String>()
        for service in services {
            for auth in [service.auth] + service.targets.map(\.auth) {
                guard case .login(let login)? = auth else { continue }
                names.insert((login.service ?? service.name) + "." + login.target)
            }
        }
        return names
    }

    /// The refusal of a name no `--only` pattern matches.
    private func unmatched(_ name: String) -> String? {
        guard !only.isEmpty, !only.contains(where: { fnmatch($0, name, 0) == 0 }) else { return nil }
        return "\(name) is not in --only; add --only '\(name)' to expose it"
    }
}
