import MoyaHTTP
import MoyaSpec

extension AdHocRequest {
    /// How a credential is written into the target: the header, query item or JSON member
    /// named like one (`CredentialNames`), or a URL's `user:password`.
    public enum Credentials: Sendable {
        /// The value itself, marked secret: the target a call with no spec sends, which is
        /// never written to a file. Basic credentials' password is read from a variable the
        /// call sets (`Written.variables`), as `auth:` reads one.
        case bound
        /// A `${PREFIX_NAME}` reference, so that a saved spec never holds the value.
        case environment(service: String)
    }

    /// A variable a saved target reads a credential from.
    public struct Variable: Sendable, Equatable {
        /// The variable's name, such as `HTTPBIN_TOKEN`.
        public let name: String
        /// The value the command line gave, which the variable must hold to send the same.
        public let value: String
        /// Where the target uses it: `the Authorization header`, `query item api_key`.
        public let place: String
    }

    /// The target as YAML lines, with the variables it reads and the arguments a call of it
    /// takes (the `@FILE` body's path).
    public struct Written: Sendable {
        public var lines: [String]
        public var variables: [Variable] = []
        public var arguments: [String] = []
    }

    /// The param a `@FILE` body is given as.
    static let fileParam = "file"

    /// The method sent: `-X`'s, else POST with a body and GET without, as HTTPie and xh do.
    public var sentMethod: String { method ?? (hasBody ? "POST" : "GET") }

    /// The target `name` that sends this request, as YAML lines at `indent`, for a service
    /// whose base URL is `base`; the path is the rest of the URL after it.
    public func target(named name: String, base: String, indent: Int, credentials: Credentials)
        throws(AdHocError) -> Written
    {
        let full = Self.loopback(origin) + path
        let trimmed = Self.loopback(base.hasSuffix("/") ? String(base.dropLast()) : base)
        guard !trimmed.contains("?"), full.hasPrefix(trimmed) else {
            throw AdHocError("\(full) is not under the service's baseURL, \(base); save it to another service")
        }
        let relative = String(full.dropFirst(trimmed.count))
        guard relative.isEmpty || relative.hasPrefix("/") else {
            throw AdHocError("\(full) is not under the service's baseURL, \(base); save it to another service")
        }
        if bodyFile != nil, !query.isEmpty {
            throw AdHocError(
                "a body from @FILE cannot go with query items (name==value): a spec's upload task has no query")
        }
        var writer = Writer(credentials: credentials, indent: indent + 4)
        writer.names = Set(query.map(\.param) + fields.map(\.param) + files.map(\.param) + [Self.fileParam])
        var lines = [pad(indent) + YAMLText.key(name) + ":"]
        let inner = pad(indent + 2)
        if sentMethod != "GET" { lines.append(inner + "method: " + sentMethod) }
        if !relative.isEmpty { lines.append(inner + "path: " + YAMLText.scalar(YAMLText.template(relative))) }

        var headerLines: [String] = []
        for header in headers {
            headerLines.append(pad(indent + 4) + YAMLText.key(header.name) + ": " + writer.header(header))
        }
        if let bodyFile, !headers.contains(where: { $0.name.lowercased() == "content-type" }),
            let type = Self.contentType(of: bodyFile)
        {
            headerLines.append(pad(indent + 4) + "Content-Type: " + YAMLText.scalar(type))
        }
        if !headerLines.isEmpty { lines += [inner + "headers:"] + headerLines }
        if let basic {
            // The password is read from a variable either way, so that the call and the saved
            // target send the same; a call sets it to the value given (`Written.variables`).
            let service: String
            if case .environment(let name) = credentials { service = name } else { service = "moya-cli" }
            let password = writer.variable(service, "PASSWORD", basic.password, place: "the password of auth: basic")
            lines.append(
                inner + "auth: { basic: { user: " + YAMLText.scalar(YAMLText.template(basic.user)) + ", password: "
                    + YAMLText.yamlQuoted("${\(password)}") + " } }")
        }

        var queryEntries: [String] = []
        for value in query {
            queryEntries.append(
                pad(indent + 6) + "- " + YAMLText.key(value.key) + ": "
                    + (try writer.reference(to: value, as: "query item")))
        }
        var tree = JSONTree.object([])
        var formFields: [String] = []
        var parts: [String] = []
        for value in fields {
            let reference = try writer.reference(to: value, as: isForm ? "form field" : "JSON member")
            if isForm {
                formFields.append(YAMLText.key(value.key) + ": " + reference)
                parts.append(
                    pad(indent + 6) + "- { name: " + YAMLText.scalar(YAMLText.template(value.key)) + ", value: "
                        + reference + " }")
            } else {
                try tree.insert(
                    reference, at: JSONTree.path(of: value.key), repeated: value.values.count > 1, item: value.key)
            }
        }
        for file in files {
            writer.params.append(pad(indent + 4) + file.param + ": file")
            parts.append(
                pad(indent + 6) + "- { name: " + YAMLText.scalar(YAMLText.template(file.key)) + ", file: \"{"
                    + file.param + "}\" }")
        }
        var task: [String] = []
        let body = tree.flow
        if !files.isEmpty || (isMultipart && !fields.isEmpty) {
            task = [pad(indent + 4) + "multipart:"] + parts
            if !query.isEmpty { task += [pad(indent + 4) + "query:"] + queryEntries }
        } else if isForm, !fields.isEmpty {
            task = [pad(indent + 4) + "parameters: { " + formFields.joined(separator: ", ") + " }"]
            task.append(pad(indent + 4) + "encoding: httpBody")
            if !query.isEmpty { task += [pad(indent + 4) + "query:"] + queryEntries }
        } else if let wholeBody {
            switch wholeBody {
            case .json(let value):
                task = [pad(indent + 4) + "json: " + (try writer.literal(value, place: "the body"))]
            case .text(let text):
                task = [pad(indent + 4) + "data: " + YAMLText.scalar(text)]
            }
            if !query.isEmpty { task += [pad(indent + 4) + "query:"] + queryEntries }
        } else if bodyFile != nil {
            writer.params.append(pad(indent + 4) + Self.fileParam + ": file")
            task = [pad(indent + 4) + "upload: \"{\(Self.fileParam)}\""]
        } else if !fields.isEmpty {
            task = [pad(indent + 4) + "json: " + body]
            if !query.isEmpty { task += [pad(indent + 4) + "query:"] + queryEntries }
        } else if !query.isEmpty {
            task = [pad(indent + 4) + "parameters:"] + queryEntries + [pad(indent + 4) + "encoding: queryString"]
        }
        if !writer.params.isEmpty { lines += [inner + "params:"] + writer.params }
        if !task.isEmpty { lines += [inner + "task:"] + task }
        if followsLinks { lines.append(inner + "paginate: { next: link }") }
        return Written(
            lines: lines, variables: writer.variables,
            arguments: (bodyFile.map { ["\(Self.fileParam)=\($0)"] } ?? []) + files.map { "\($0.param)=\($0.path)" })
    }

    /// A URL with `localhost` written `127.0.0.1`: one origin for saving, as `:8080` and
    /// `http://127.0.0.1:8080` are one server to the user who typed them.
    static func loopback(_ url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        guard rest.lowercased().hasPrefix("localhost") else { return url }
        let after = rest.dropFirst("localhost".count)
        guard after.isEmpty || after.first == ":" || after.first == "/" else { return url }
        return url[..<schemeEnd.upperBound] + "127.0.0.1" + after
    }

    /// The `Content-Type` of a `@FILE` body, from its extension, as HTTPie guesses it.
    static func contentType(of path: String) -> String? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        return switch path[path.index(after: dot)...].lowercased() {
        case "json": "application/json"
        case "xml": "application/xml"
        case "txt": "text/plain"
        case "html", "htm": "text/html"
        case "csv": "text/csv"
        case "yaml", "yml": "application/yaml"
        default: nil
        }
    }

    private func pad(_ count: Int) -> String { String(repeating: " ", count: count) }

    /// Writes values as params, and credentials as the mode says, collecting both.
    private struct Writer {
        let credentials: Credentials
        let indent: Int
        var params: [String] = []
        var variables: [Variable] = []
        /// The params' names, so that a secret param made for a member takes a new one.
        var names: Set<String> = []

        /// A header's value: a credential bound or read from a variable, any other as typed.
        mutating func header(_ header: (name: String, value: String)) -> String {
            let text = YAMLText.scalar(YAMLText.template(header.value))
            guard CredentialNames.isCredential(name: header.name), !header.value.isEmpty else { return text }
            guard case .environment(let service) = credentials else { return "{ value: \(text), secret: true }" }
            let lowered = header.name.lowercased()
            // An Authorization keeps its scheme in the spec: only the credentials are secret.
            if lowered == "authorization" || lowered == "proxy-authorization",
                let space = header.value.firstIndex(of: " "),
                header.value[..<space].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" })
            {
                let scheme = String(header.value[..<space])
                let rest = String(header.value[header.value.index(after: space)...])
                let stem = lowered == "authorization" ? "TOKEN" : "PROXY_TOKEN"
                let variable = variable(service, stem, rest, place: "the \(header.name) header")
                return YAMLText.yamlQuoted("\(scheme) ${\(variable)}")
            }
            let variable = variable(service, header.name, header.value, place: "the \(header.name) header")
            return YAMLText.yamlQuoted("${\(variable)}")
        }

        /// Where a query item or JSON member takes its value: a param's `{name}`, a
        /// credential's variable, or JSON written as it is. A credential, whatever its type and
        /// however often it is given, is never written: one string is a variable in its place,
        /// anything else a secret param whose default reads one variable per value. One that is
        /// a JSON object or array cannot be read from a variable, and is refused.
        mutating func reference(to value: Value, as kind: String) throws(AdHocError) -> String {
            if value.isCredential, case .environment(let service) = credentials {
                let place = "\(kind) \(value.key)"
                if value.values.count == 1, case .string(let text) = value.values[0] {
                    return YAMLText.yamlQuoted("${\(variable(service, value.key, text, place: place))}")
                }
                guard let type = AdHocRequest.paramType(of: value.values) else {
                    throw AdHocError(
                        "\(place) is a credential whose value is JSON that a variable cannot hold; "
                            + "--save writes a credential only as variables: give it as text (\(value.key)=…)")
                }
                let items: [JSONValue]
                if value.values.count == 1, case .array(let elements) = value.values[0] {
                    items = elements
                } else {
                    items = value.values
                }
                let references = items.map { item -> String in
                    let text: String
                    if case .string(let string) = item { text = string } else { text = item.serialized() }
                    return YAMLText.yamlQuoted("${\(variable(service, value.key, text, place: place))}")
                }
                let shown = type.hasPrefix("[") ? "[ " + references.joined(separator: ", ") + " ]" : references[0]
                params.append(
                    String(repeating: " ", count: indent) + value.param + ": { type: \(YAMLText.scalar(type)), "
                        + "default: \(shown), secret: true }")
                return "\"{\(value.param)}\""
            }
            // An object, null or mixed array is the body's own JSON, its credential-named
            // members at any depth secret.
            guard let type = AdHocRequest.paramType(of: value.values) else {
                let json = value.values.count == 1 ? value.values[0] : .array(value.values)
                return try literal(json, place: "\(kind) \(value.key)")
            }
            let defaultValue = value.values.count == 1 ? value.values[0] : .array(value.values)
            var entry = "{ type: \(YAMLText.scalar(type)), default: \(YAMLText.flow(defaultValue, templates: false))"
            if value.isCredential { entry += ", secret: true" }
            params.append(String(repeating: " ", count: indent) + value.param + ": " + entry + " }")
            return "\"{\(value.param)}\""
        }

        /// JSON written as it is in flow style, but for a member named as a credential, at any
        /// depth. Saved, a string is a variable in its place, and any other value, which a
        /// variable cannot hold, is refused; bound, a scalar or an array of scalars is a secret
        /// param's value, so that it prints masked. The depth is the value's, which the JSON
        /// parser bounds.
        mutating func literal(_ value: JSONValue, place: String) throws(AdHocError) -> String {
            switch value {
            case .array(let items) where !items.isEmpty:
                var written: [String] = []
                for (index, item) in items.enumerated() {
                    written.append(try literal(item, place: "\(place)[\(index)]"))
                }
                return "[ " + written.joined(separator: ", ") + " ]"
            case .object(let members) where !members.isEmpty:
                var written: [String] = []
                for member in members {
                    let at = "\(place).\(member.key)"
                    let shown: String
                    if CredentialNames.isCredential(name: member.key), member.value != .null {
                        shown = try secret(member.value, named: member.key, at: at)
                    } else {
                        shown = try literal(member.value, place: at)
                    }
                    written.append("\(YAMLText.key(member.key, of: members)): \(shown)")
                }
                return "{ " + written.joined(separator: ", ") + " }"
            default:
                return YAMLText.flow(value, templates: true)
            }
        }

        /// A credential member's value as the mode writes it: a variable, or a secret param.
        mutating func secret(_ value: JSONValue, named key: String, at place: String) throws(AdHocError) -> String {
            guard case .environment(let service) = credentials else {
                guard let type = AdHocRequest.paramType(of: [value]) else { return try literal(value, place: place) }
                let name = names.takeUnique("secret_" + AdHocRequest.variableName(key).lowercased())
                params.append(
                    String(repeating: " ", count: indent) + name + ": { type: \(YAMLText.scalar(type)), default: "
                        + YAMLText.flow(value, templates: false) + ", secret: true }")
                return "\"{\(name)}\""
            }
            guard case .string(let text) = value else {
                throw AdHocError(
                    "\(place) is a credential whose value is JSON that a variable cannot hold; --save "
                        + "writes a credential only as variables: give it as text")
            }
            return YAMLText.yamlQuoted("${\(variable(service, key, text, place: place))}")
        }

        /// A new variable `SERVICE_NAME` for `value`, numbered when the name is taken.
        mutating func variable(_ service: String, _ name: String, _ value: String, place: String) -> String {
            let stem = AdHocRequest.variableName(service) + "_" + AdHocRequest.variableName(name)
            var candidate = stem
            var number = 2
            while variables.contains(where: { $0.name == candidate }) {
                candidate = stem + "_" + String(number)
                number += 1
            }
            variables.append(Variable(name: candidate, value: value, place: place))
            return candidate
        }
    }

    /// `name` as an environment variable's name: upper case, anything but letters and digits
    /// an underscore.
    static func variableName(_ name: String) -> String {
        String(
            name.uppercased().unicodeScalars.map { scalar in
                scalar.isASCII && (("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar))
                    ? Character(scalar) : "_"
            })
    }

    /// The param type that holds `values`: one scalar's type, or an array of one scalar type
    /// for several values or a JSON array; nil for anything else, which is written as JSON.
    static func paramType(of values: [JSONValue]) -> String? {
        var items = values
        var isArray = values.count > 1
        if values.count == 1, case .array(let elements) = values[0] {
            guard !elements.isEmpty else { return nil }
            items = elements
            isArray = true
        }
        let types = Set(items.map(scalarType))
        guard types.count == 1, let type = types.first, let type else { return nil }
        return isArray ? "[\(type)]" : type
    }

    private static func scalarType(_ value: JSONValue) -> String? {
        switch value {
        case .string: "string"
        case .integer: "int"
        case .number: "number"
        case .bool: "bool"
        default: nil
        }
    }
}

/// JSON members as HTTPie nests them: `user[name]=Ann` is `{"user": {"name": "Ann"}}`,
/// `tags[]=a` appends to an array, `a[0]` is an array's first item. Each leaf is a param's
/// reference, and the whole is written as a YAML flow mapping.
indirect enum JSONTree {
    case leaf(String)
    case object([(key: String, value: JSONTree)])
    case array([JSONTree])

    enum Step: Equatable {
        case key(String)
        case append
        case index(Int)
    }

    /// `name[a][]…` as steps; a name that is not of that form is one key, as typed.
    static func path(of name: String) -> [Step] {
        guard let open = name.firstIndex(of: "["), open != name.startIndex, name.hasSuffix("]") else {
            return [.key(name)]
        }
        var steps: [Step] = [.key(String(name[..<open]))]
        var rest = name[open...]
        while !rest.isEmpty {
            guard rest.first == "[", let close = rest.firstIndex(of: "]") else { return [.key(name)] }
            let inside = rest[rest.index(after: rest.startIndex)..<close]
            if inside.isEmpty {
                steps.append(.append)
            } else if inside.allSatisfy(\.isASCII), inside.allSatisfy(\.isNumber), let index = Int(inside),
                index < 1000
            {
                steps.append(.index(index))
            } else {
                steps.append(.key(String(inside)))
            }
            rest = rest[rest.index(after: close)...]
        }
        return steps
    }

    /// Puts `leaf` at `path`. A repeated item's param holds the whole array, so `tags[]=a
    /// tags[]=b` is the array itself.
    mutating func insert(_ leaf: String, at path: [Step], repeated: Bool, item: String) throws(AdHocError) {
        guard let step = path.first else {
            self = .leaf(leaf)
            return
        }
        let rest = Array(path.dropFirst())
        switch (step, self) {
        case (.key(let key), .object(var members)):
            let existing = members.first { $0.key == key }?.value
            // Items of one name were merged before: another at the same place is of another kind.
            if existing != nil, rest.isEmpty { throw Self.clash(item) }
            var child = existing ?? Self.empty(for: rest.first)
            if case .leaf = child, !rest.isEmpty { throw Self.clash(item) }
            try child.insert(leaf, at: rest, repeated: repeated, item: item)
            if let index = members.firstIndex(where: { $0.key == key }) {
                members[index].value = child
            } else {
                members.append((key, child))
            }
            self = .object(members)
        case (.append, .array(var items)):
            if repeated, rest.isEmpty, items.isEmpty {
                self = .leaf(leaf)
                return
            }
            var child = Self.empty(for: rest.first)
            try child.insert(leaf, at: rest, repeated: repeated, item: item)
            items.append(child)
            self = .array(items)
        case (.index(let index), .array(var items)):
            guard index <= items.count else {
                throw AdHocError("'\(item)': index \(index) comes before an item at \(items.count)")
            }
            var child = index < items.count ? items[index] : Self.empty(for: rest.first)
            try child.insert(leaf, at: rest, repeated: repeated, item: item)
            if index < items.count { items[index] = child } else { items.append(child) }
            self = .array(items)
        default:
            throw Self.clash(item)
        }
    }

    static func empty(for step: Step?) -> JSONTree {
        switch step {
        case .key?: .object([])
        case .append?, .index?: .array([])
        case nil: .leaf("")
        }
    }

    static func clash(_ item: String) -> AdHocError {
        AdHocError("'\(item)' puts a member where another item already put a value of another kind")
    }

    /// As a YAML flow value.
    var flow: String {
        switch self {
        case .leaf(let text): text
        case .object(let members):
            "{ " + members.map { YAMLText.key($0.key) + ": " + $0.value.flow }.joined(separator: ", ") + " }"
        case .array(let items): "[ " + items.map(\.flow).joined(separator: ", ") + " ]"
        }
    }
}
