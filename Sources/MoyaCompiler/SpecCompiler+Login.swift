import MoyaHTTP
import MoyaJSONPath
import MoyaSpec
import MoyaYAML

extension CompileContext {
    static let loginAuthKeys = ["login", "scheme", "custom", "header", "refreshOn", "cache"]
    static let loginKeys = ["call", "params", "token", "expiresIn"]
    /// The keys of a login's `custom:` scheme.
    static let loginCustomKeys = ["scheme"]

    /// `auth: { login: { call, params, token, expiresIn }, scheme | custom | header, refreshOn, cache }`.
    mutating func login(_ node: YAMLNode, _ path: String) -> AuthSpec? {
        guard let fields = reader.fields(node, path, known: Self.loginAuthKeys, nearby: Self.loginKeys),
            let loginNode = fields["login"],
            let login = reader.fields(loginNode, path + ".login", known: Self.loginKeys)
        else { return nil }
        let loginPath = path + ".login"
        guard let callNode = login["call"], let reference = reader.string(callNode, loginPath + ".call") else {
            if login["call"] == nil {
                reader.error(login.mark, loginPath + ".call", "required key is missing; name the target that logs in")
            }
            return nil
        }
        var service: String?
        var target = reference
        if let dot = reference.firstIndex(of: ".") {
            service = String(reference[..<dot])
            target = String(reference[reference.index(after: dot)...])
        }
        var arguments: [FlowValue.Member] = []
        if let node = login["params"], let entries = reader.fields(node, loginPath + ".params", known: nil) {
            for entry in entries {
                let paramPath = loginPath + ".params." + entry.key
                guard let value = flowValue(entry.value, paramPath) else { continue }
                if let reference = value.references.first {
                    reader.error(
                        entry.value.mark, paramPath,
                        "{\(reference)}: login params take literal values and ${VAR}, not flow variables")
                    continue
                }
                arguments.append(FlowValue.Member(key: entry.key, value: value))
            }
        }
        func jsonPath(_ key: String, required: Bool) -> JSONPath? {
            guard let node = login[key] else {
                if required {
                    reader.error(
                        login.mark, loginPath + "." + key,
                        "required key is missing; give the JSON path of the token, such as $.access_token")
                }
                return nil
            }
            guard let text = reader.string(node, loginPath + "." + key) else { return nil }
            do {
                return try JSONPath(parsing: text)
            } catch {
                reader.error(node.mark, loginPath + "." + key, "bad JSON path '\(text)': \(error)")
                return nil
            }
        }
        let tokenPath = jsonPath("token", required: true)
        let expiresInPath = jsonPath("expiresIn", required: false)

        var scheme = LoginSpec.Scheme.bearer
        let schemeKeys = ["scheme", "custom", "header"].filter { fields[$0] != nil }
        if schemeKeys.count > 1 {
            reader.error(
                fields.mark, path, "give one of scheme, custom and header, not \(schemeKeys.joined(separator: " and "))"
            )
        } else if let node = fields["scheme"] {
            _ = reader.choice(node, path + ".scheme", ["bearer"], what: "scheme")
        } else if let node = fields["custom"],
            let custom = reader.fields(node, path + ".custom", known: Self.loginCustomKeys)
        {
            if let schemeNode = custom["scheme"], let text = reader.string(schemeNode, path + ".custom.scheme") {
                scheme = .custom(text)
            } else if custom["scheme"] == nil {
                reader.error(custom.mark, path + ".custom.scheme", "required key is missing; such as scheme: Token")
            }
        } else if let node = fields["header"], let name = reader.string(node, path + ".header") {
            if HTTPHeaders.isValidName(name) {
                scheme = .header(name)
            } else {
                reader.error(node.mark, path + ".header", "\"\(name)\" is not a valid header name")
            }
        }
        var refreshOn: Set<Int> = [401]
        if let node = fields["refreshOn"] {
            let items: [YAMLNode]
            if case .sequence(let sequence) = node.content { items = sequence } else { items = [node] }
            refreshOn = []
            for item in items {
                guard let code = reader.integer(item, path + ".refreshOn") else { continue }
                if (100...599).contains(code) {
                    refreshOn.insert(code)
                } else {
                    reader.error(item.mark, path + ".refreshOn", "\(code) is not an HTTP status")
                }
            }
        }
        let cache = fields["cache"].flatMap { reader.bool($0, path + ".cache") } ?? false
        guard let tokenPath else { return nil }
        return .login(
            LoginSpec(
                service: service, target: target, arguments: arguments, tokenPath: tokenPath,
                expiresInPath: expiresInPath, scheme: scheme, refreshOn: refreshOn, cache: cache, mark: callNode.mark))
    }
}
