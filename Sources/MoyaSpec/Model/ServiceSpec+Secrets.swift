import MoyaHTTP

extension ServiceSpec {
    /// Every secret value the service binds, service-wide: the environment's (`environmentSecrets`)
    /// and what its own text writes (`writtenSecrets`). The one set that serve's log, mcp's
    /// answers before a call and a recording's diff mask; a call's own redactor adds the
    /// values bound for it (`SpecTarget.secrets`, logins' tokens).
    public var boundSecrets: SecretSet { environmentSecrets.adding(writtenSecrets) }

    /// The secret values the spec's own text binds: what a header marked `secret` says
    /// literally, and what a secret param takes as its default, in a check's `params` or in a
    /// flow step's literal `params`. Shown spec text (a recording's diff) is rendered with
    /// them masked; environment values are in `environmentSecrets`.
    public var writtenSecrets: SecretSet {
        var secrets = SecretSet.none
        for header in headers + targets.flatMap(\.headers) where header.isSecret {
            for case .literal(let text) in header.value.segments { secrets.add([text]) }
        }
        for target in targets {
            let secretParams = Set(target.params.filter(\.isSecret).map(\.name))
            guard !secretParams.isEmpty else { continue }
            for param in target.params where param.isSecret {
                if let value = param.defaultValue { Self.collect(value, into: &secrets) }
            }
            for check in target.checks {
                for (name, value) in check.arguments where secretParams.contains(name) {
                    Self.collect(value, into: &secrets)
                }
            }
            for step in flows.flatMap(\.steps) where step.target == target.name {
                for argument in step.arguments where secretParams.contains(argument.name) {
                    if case .value(let json) = argument.value { secrets.add([json.text]) }
                }
            }
        }
        return secrets
    }

    private static func collect(_ value: ParamValue, into secrets: inout SecretSet) {
        if case .array(let items) = value {
            for item in items { collect(item, into: &secrets) }
        } else {
            secrets.add([value.description])
        }
    }
}

extension ServiceSpec {
    /// The params of `target` whose values are credentials though they are not declared
    /// secret: those its `auth:` (else the service's) is built from, and those a header marked
    /// `secret`, or named as a credential is (`Authorization`, `X-Api-Key`; `CredentialNames`).
    /// The resolver binds their values as secrets, and an MCP tool never offers them.
    public func credentialParams(of target: TargetSpec) -> Set<String> {
        var names = Set((target.auth ?? auth)?.templates.flatMap(\.params) ?? [])
        for header in headers + target.headers where header.isSecret || CredentialNames.isCredential(name: header.name)
        {
            names.formUnion(header.value.params)
        }
        return names
    }
}

extension Sequence where Element == ServiceSpec {
    /// Every secret value these services bind (`ServiceSpec.boundSecrets`).
    public var boundSecrets: SecretSet { map(\.boundSecrets).joined() }
}
