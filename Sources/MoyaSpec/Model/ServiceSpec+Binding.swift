#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A value bound after compiling that does not fit where it stands: a base URL it makes
/// invalid, a param default of the wrong type. The message never shows the value.
public struct BindingFailure: Error, Sendable {
    /// The variable whose value does not fit.
    public var variable: String
    /// What is wrong, and where.
    public var message: String
}

extension ServiceSpec {
    /// A sample's body, rendered as `serve` answers it: of `target` in `service`, the sample
    /// named (nil: the default), with the params' `values`; what the compiler's sample checks
    /// are given (`SpecCompiler.sampleBodies`), the binding stage's `sampleBody`.
    public typealias SampleBodies =
        @Sendable (_ service: ServiceSpec, _ target: TargetSpec, _ sample: String?, _ values: [String: ParamValue])
        -> Data?

    /// The service with `values`, variables the environment did not set, bound after
    /// compiling: the one way a value arrives late (a secret store's, `SecretVault`), so that
    /// nothing is compiled twice. Each `${NAME}` of them takes its value wherever the spec
    /// keeps references apart (`UnsetVariable.isBindable`): templates and flow values as they
    /// render (`boundValue(of:compiled:)`), base URLs and scalar param defaults here. Every
    /// value is a secret, and no call needs the variable any more. The compiler refuses a
    /// store's variable anywhere else.
    public func binding(_ values: [String: String]) throws(BindingFailure) -> ServiceSpec {
        guard !values.isEmpty else { return self }
        var bound = self
        bound.boundVariables.merge(values) { $1 }
        bound.environmentSecrets.add(values.values)
        bound.unsetVariables.removeAll { values[$0.name] != nil }
        let variables = bound.boundVariables

        func url(_ source: Template?, _ keyPath: String) throws(BindingFailure) -> String? {
            guard let source, let name = source.environmentNames.first(where: { values[$0] != nil }) else {
                return nil
            }
            let text = source.text(binding: variables)
            if let problem = Self.baseURLProblem(text, shown: "the URL") {
                throw BindingFailure(
                    variable: name,
                    message: "\(keyPath) (\(file):\(source.mark.line):\(source.mark.column)) with the value of "
                        + "${\(name)}: \(problem)")
            }
            return text
        }
        if let text = try url(baseURLSource, "baseURL") { bound.baseURL = text }
        for index in bound.environments.indices {
            let environment = bound.environments[index]
            if let text = try url(environment.baseURLSource, "environments.\(environment.name).baseURL") {
                bound.environments[index].baseURL = text
            }
        }
        for index in bound.targets.indices {
            let target = bound.targets[index]
            if let text = try url(target.baseURLSource, "targets.\(target.name).baseURL") {
                bound.targets[index].baseURL = text
            }
            for (position, param) in target.params.enumerated() {
                guard let source = param.defaultTemplate,
                    let name = source.environmentNames.first(where: { values[$0] != nil })
                else { continue }
                do {
                    bound.targets[index].params[position].defaultValue = try ParamSpec.parse(
                        source.text(binding: variables), as: param.type, param: param.name,
                        shown: "the value of ${\(name)}")
                } catch {
                    throw BindingFailure(
                        variable: name,
                        message: "targets.\(target.name).params.\(param.name).default (\(file):\(source.mark.line):"
                            + "\(source.mark.column)): \(error.message)")
                }
            }
        }
        return bound
    }

    /// What an environment segment `${name}` renders as: the value bound after compiling, or
    /// the one compiled in.
    public func boundValue(of name: String, compiled value: String) -> String {
        boundVariables[name] ?? value
    }

    /// What is wrong with `text` as a base URL, shown as `shown`: nil for an absolute http,
    /// https, ws or wss URL with a host and a port in range.
    package static func baseURLProblem(_ text: String, shown: String) -> String? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            ["http", "https", "ws", "wss"].contains(scheme),
            let host = url.host, !host.isEmpty
        else { return "\(shown) is not an absolute http, https, ws or wss URL, such as https://api.example.com" }
        if let port = url.port, !(1...65_535).contains(port) {
            return "port \(port) is out of range; a port is 1 to 65535"
        }
        return nil
    }
}

extension Template {
    /// The names of the environment variables the template reads, in order.
    public var environmentNames: [String] {
        segments.compactMap { if case .environment(let name, _) = $0 { name } else { nil } }
    }

    /// The template's text with each `${NAME}` the bound value, where `values` has one, else
    /// the compiled one; `{param}`s as written. For a base URL or a param default, whose
    /// references were kept with plain braces.
    package func text(binding values: [String: String]) -> String {
        segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .param(let name): "{\(name)}"
            case .environment(let name, let value): values[name] ?? value
            case .environmentDefault(_, let value): value
            }
        }.joined()
    }
}
