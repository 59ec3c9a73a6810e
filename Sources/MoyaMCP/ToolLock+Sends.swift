import MoyaHTTP
import MoyaMCPProtocol
import MoyaSpec

/// What a call of a tool sends, as the lock holds it: the origin it goes to (in each
/// environment), the method the server acts on (an override header's included), the path,
/// the fixed headers and cookies, the params with their defaults, the body as the task writes
/// it, and where its credentials go. Written from the spec as written: `{param}` and `${VAR}`
/// by name, never an environment value, and a credential's own text as `••••`.
extension ToolLock {
    /// The mask for text that is a credential's.
    static let mask = "••••"

    /// What `tool` sends; for a flow, what each of its steps sends, in order.
    static func sends(_ tool: ToolDescriptor) -> JSONValue {
        switch tool.subject {
        case .target(let service, let target):
            return sends(target, of: service)
        case .flow(let service, let flow):
            return .array(
                (flow.steps + flow.finally).map { step in
                    guard let target = service.target(named: step.target), step.service == nil else {
                        return .string(step.targetReference)
                    }
                    return sends(target, of: service)
                })
        }
    }

    /// What `target` sends; with `followsLogin`, a login's call is written too (once: a login
    /// whose call logs in again is not followed).
    static func sends(_ target: TargetSpec, of service: ServiceSpec, followsLogin: Bool = true) -> JSONValue {
        let secrets = service.environmentSecrets
        var members: [(key: String, value: JSONValue)] = [
            ("origin", .string(origin(of: target.baseURL ?? service.baseURL))),
            ("method", .string(ToolExposure.method(of: target, in: service).rawValue)),
            ("path", .string(target.path.description)),
            ("headers", headers(service.headers(of: target))),
        ]
        if !target.cookies.isEmpty { members.append(("cookies", headers(target.cookies))) }
        if !service.environments.isEmpty {
            members.append(
                (
                    "environments",
                    .array(
                        service.environments.map { environment in
                            .object([
                                ("name", .string(environment.name)),
                                ("origin", environment.baseURL.map { .string(origin(of: $0)) } ?? .null),
                                ("headers", headers(environment.headers)),
                            ])
                        })
                ))
        }
        members.append(
            (
                "params",
                .array(
                    target.params.map { param in
                        let shown: JSONValue
                        if let value = param.defaultValue {
                            shown =
                                param.isSecret || secrets.contains(value: value.description)
                                ? .string(mask) : value.jsonValue
                        } else {
                            shown = .null
                        }
                        return .array([.string(param.name), .string(param.type.description), shown])
                    })
            ))
        members.append(("task", task(target.task)))
        members.append(("auth", auth(target.auth ?? service.auth, of: service, followsLogin: followsLogin)))
        return .object(members)
    }

    /// `scheme://host[:port]` of a URL, without any user or password in it.
    static func origin(of url: String) -> String {
        let origin = BearerTokens.origin(of: url)
        guard let separator = origin.firstRange(of: "://"), let at = origin.lastIndex(of: "@"),
            at > separator.upperBound
        else { return origin }
        return String(origin[..<separator.upperBound]) + String(origin[origin.index(after: at)...])
    }

    /// A template as written; with `secret`, its literal text masked.
    static func text(_ template: Template, secret: Bool = false) -> String {
        guard secret else { return template.description }
        return template.segments.map { segment in
            switch segment {
            case .literal(let text), .environmentDefault(_, let text): text.isEmpty ? "" : mask
            case .param(let name): "{\(name)}"
            case .environment(let name, _): "${\(name)}"
            }
        }.joined()
    }

    static func headers(_ headers: [HeaderSpec]) -> JSONValue {
        .array(
            headers.map { header in
                let secret = header.isSecret || CredentialNames.isCredential(name: header.name)
                return .array([.string(header.name), .string(text(header.value, secret: secret))])
            })
    }

    static func value(_ value: ValueTemplate, secret: Bool = false) -> JSONValue {
        switch value {
        case .null: .null
        case .bool(let bool): .bool(bool)
        case .integer(let integer): secret ? .string(mask) : .integer(integer)
        case .number(let number): secret ? .string(mask) : .number(number)
        case .string(let template): .string(text(template, secret: secret))
        case .array(let items): .array(items.map { self.value($0, secret: secret) })
        case .object(let members):
            .object(
                members.map { member in
                    (
                        member.key,
                        self.value(member.value, secret: secret || CredentialNames.isCredential(name: member.key))
                    )
                })
        }
    }

    static func block(_ block: ParameterBlock?) -> JSONValue {
        guard let block else { return .null }
        return value(.object(block.entries))
    }

    static func task(_ task: TaskSpec) -> JSONValue {
        switch task {
        case .plain:
            return .string("plain")
        case .data(let source, let contentType, let query):
            let body: JSONValue =
                switch source {
                case .text(let template): .string(text(template))
                case .file(let path): .object([("file", .string(path))])
                }
            return .object([
                ("data", body), ("contentType", contentType.map { .string(text($0)) } ?? .null),
                ("query", block(query)),
            ])
        case .json(let json, let query):
            // Without a query, as before JSON bodies could have one: the locks written then hold.
            guard let query else { return .object([("json", value(json))]) }
            return .object([("json", value(json)), ("query", block(query))])
        case .parameters(let parameters, let encoding, let query):
            return .object([
                ("parameters", block(parameters)), ("encoding", .string(encoding.kind.rawValue)),
                ("query", block(query)),
            ])
        case .upload(let file, let query):
            return .object([("upload", .string(text(file))), ("query", block(query))])
        case .multipart(let parts, let query):
            return .object([
                (
                    "multipart",
                    .array(
                        parts.map { part in
                            let content: JSONValue =
                                switch part.content {
                                case .value(let template):
                                    .string(text(template, secret: CredentialNames.isCredential(name: part.name)))
                                case .file(let template): .object([("file", .string(text(template)))])
                                }
                            return .array([.string(part.name), content])
                        })
                ),
                ("query", block(query)),
            ])
        case .download(let destination, let parameters, let encoding):
            return .object([
                ("download", .string(text(destination))), ("parameters", block(parameters)),
                ("encoding", .string(encoding.kind.rawValue)),
            ])
        }
    }

    /// The credentials and where they go: the target's own origin, or a login's call.
    static func auth(_ auth: AuthSpec?, of service: ServiceSpec, followsLogin: Bool) -> JSONValue {
        guard let auth else { return .null }
        var members: [(key: String, value: JSONValue)] = [("kind", .string(auth.kind))]
        switch auth {
        case .bearer(let token): members.append(("token", .string(text(token, secret: true))))
        case .basic(let user, let password):
            members.append(("user", .string(text(user, secret: true))))
            members.append(("password", .string(text(password, secret: true))))
        case .custom(_, let token): members.append(("token", .string(text(token, secret: true))))
        case .login(let login):
            if followsLogin, login.service == nil, let target = service.target(named: login.target) {
                members.append(("login", sends(target, of: service, followsLogin: false)))
            }
        case .none: break
        }
        return .object(members)
    }
}
