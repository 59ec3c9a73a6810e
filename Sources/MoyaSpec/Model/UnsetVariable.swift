/// A `${VAR}` the environment does not set and that gives no default. The spec still
/// compiles, so `list`, `describe`, `validate` and completion work; a call of a target that
/// needs the variable stops before sending, naming it (`ServiceSpec.unsetVariable(for:environment:)`).
public struct UnsetVariable: Sendable, Hashable {
    /// The variable's name.
    public var name: String
    /// Where the reference is, its key path included.
    public var place: Diagnostic
    /// Whether a value bound after compiling reaches the reference (`ServiceSpec.binding(_:)`):
    /// it stands in a template, a base URL or a scalar param default, not in text whose value
    /// was written in as the spec compiled.
    public var isBindable: Bool

    public init(name: String, place: Diagnostic, isBindable: Bool = true) {
        self.name = name
        self.place = place
        self.isBindable = isBindable
    }

    /// What needs the variable, read from where the reference is.
    public enum Owner: Sendable, Hashable {
        /// The service: its base URL, headers or auth, which every target sends.
        case service
        case target(String)
        case environment(String)
        case flow(String)
    }

    public var owner: Owner {
        let keys = place.keyPath.split(separator: ".", maxSplits: 2).map(String.init)
        guard keys.count >= 2 else { return .service }
        switch keys[0] {
        case "targets": return .target(keys[1])
        case "environments": return .environment(keys[1])
        case "flows": return .flow(keys[1])
        default: return .service
        }
    }

    /// The one line a call that needs the variable stops with.
    public func message(for needer: String) -> String {
        "\(needer) needs the environment variable \(name), which is not set "
            + "(\(place.file):\(place.mark.line):\(place.mark.column)); set it, or write ${\(name):-default}"
    }
}

extension ServiceSpec {
    /// The first unset variable a call of `target` in `environment` needs: the service's, the
    /// target's own, and the chosen environment's.
    public func unsetVariable(for target: TargetSpec, environment: String?) -> UnsetVariable? {
        unsetVariables(for: target, environment: environment).first
    }

    /// Every unset variable a call of `target` in `environment` needs, in the spec's order.
    public func unsetVariables(for target: TargetSpec, environment: String?) -> [UnsetVariable] {
        unsetVariables.filter { variable in
            switch variable.owner {
            case .service: true
            case .target(let name): name == target.name
            case .environment(let name): name == environment
            case .flow: false
            }
        }
    }

    /// The first unset variable a run of the flow `name` needs itself (its steps' targets
    /// are held to theirs as each is called).
    public func unsetVariable(forFlow name: String) -> UnsetVariable? {
        unsetVariables.first { $0.owner == .flow(name) }
    }

    /// One warning per unset variable no secret source gives (`secretSources`), at its first
    /// reference, naming what needs it.
    public var unsetVariableWarnings: [Diagnostic] {
        var order: [String] = []
        var byName: [String: [UnsetVariable]] = [:]
        for variable in unsetVariables where secretSources[variable.name] == nil {
            if byName[variable.name] == nil { order.append(variable.name) }
            byName[variable.name, default: []].append(variable)
        }
        return order.compactMap { name in
            guard let uses = byName[name], let first = uses.first else { return nil }
            var needers: [String] = []
            for use in uses {
                let needer: String =
                    switch use.owner {
                    case .service: "every target"
                    case .target(let target): "target \(target)"
                    case .environment(let environment): "environment \(environment)"
                    case .flow(let flow): "flow \(flow)"
                    }
                if !needers.contains(needer) { needers.append(needer) }
            }
            var warning = first.place
            warning.severity = .warning
            warning.message =
                "environment variable \(name) is not set and has no default; \(needers.joined(separator: ", ")) "
                + "\(needers.count == 1 && needers[0] != "every target" ? "needs" : "need") it, and a call stops "
                + "until it is set"
            return warning
        }
    }
}
