import MoyaHTTP
import MoyaSpec
import MoyaStreams
import OpenAPIKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes a service as an OpenAPI 3.1 document (docs/openapi.md), the inverse of the import:
/// a spec that `import openapi` wrote comes back the same from its export.
///
/// The document is built as JSON in a fixed order, then decoded by OpenAPIKit and checked with
/// its validation, so that what is written is a document OpenAPI tools accept.
public enum OpenAPIExporter {
    /// The document for `service`, compiled on `Environment.none`, so that no value
    /// from the environment is written: a credential becomes a security scheme, and a
    /// variable in the base URL a server variable with its default.
    ///
    /// The schemas the spec refers to are checked without: they are the documents' own,
    /// written as they are, and OpenAPIKit refuses some that JSON Schema allows (`type: array`
    /// beside `properties`, `nullable` in a 3.1 document).
    public static func export(_ service: ServiceSpec) throws(OpenAPIReadError) -> String {
        // A target whose method OpenAPI 3.1 has no operation for, or that is a WebSocket, is
        // left out (`leftOut`).
        var service = service
        service.targets.removeAll { !operationMethods.contains($0.method.rawValue) || $0.stream?.kind == .websocket }
        let document = Exporter(service: service).document()
        let data = Exporter(service: service, writesSchemas: false).document().data(pretty: true)
        do {
            let decoded = try JSONDecoder().decode(OpenAPI.Document.self, from: data)
            try decoded.validate()
        } catch {
            throw OpenAPIReadError(message: "the document does not pass OpenAPIKit's validation: \(error)")
        }
        return document.serialized(pretty: true, escapeSlashes: false) + "\n"
    }

    /// The methods an OpenAPI 3.1 path item has an operation for.
    static let operationMethods: Set<String> = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"]

    /// The targets `export` leaves out, one line each: a method OpenAPI 3.1 has no operation
    /// for (`QUERY`, `CONNECT`, a registered one such as `COPY`), and a WebSocket.
    public static func leftOut(_ service: ServiceSpec) -> [String] {
        service.targets.compactMap { target in
            if target.stream?.kind == .websocket {
                return "\(target.name): OpenAPI describes no WebSocket; the target is left out"
            }
            guard !operationMethods.contains(target.method.rawValue) else { return nil }
            return "\(target.name): OpenAPI 3.1 has no \(target.method.rawValue) operation; the target is left out"
        }
    }
}

struct Exporter {
    let service: ServiceSpec
    /// Whether the spec's schemas are written; without, what OpenAPIKit checks.
    var writesSchemas = true
    /// The schemas the targets refer to, written under `components.schemas`.
    let bundle = SchemaBundle()

    init(service: ServiceSpec, writesSchemas: Bool = true) {
        self.service = service
        self.writesSchemas = writesSchemas
    }

    /// A variable's name without the service's words, as import names them:
    /// `LAMP_SHOP_REGION` is `region` for `lampShop`.
    func variableName(_ variable: String, dropping suffix: String = "") -> String {
        var words = variable.split(separator: "_").map(String.init)
        let prefix = Names.words(service.name).map { $0.uppercased() }
        if words.starts(with: prefix), words.count > prefix.count { words.removeFirst(prefix.count) }
        if !suffix.isEmpty, words.last == suffix, words.count > 1 { words.removeLast() }
        let camel = Names.lowerCamel(words.joined(separator: " ").lowercased(), fallback: variable)
        // `oauth20` would read back as `OAUTH20`: such a name keeps its underscores.
        guard Names.words(camel).map({ $0.uppercased() }) == words else {
            return words.joined(separator: "_").lowercased()
        }
        return camel
    }

    /// The kind of stream a target's body is, when it declares one OpenAPI can describe.
    static func bodyStream(of target: TargetSpec) -> StreamKind? {
        guard let stream = target.stream else { return nil }
        guard let kind = stream.kind else { return .sse }
        return kind.isBody ? kind : nil
    }

    /// 3.2 for a service with a stream, whose media type and per-event `itemSchema` only 3.2
    /// has; 3.1 otherwise.
    var version: String {
        service.targets.contains { Self.bodyStream(of: $0) != nil } ? "3.2.0" : "3.1.0"
    }

    func document() -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("openapi", .string(version)),
            ("info", .object([("title", .string(service.name)), ("version", .string("1.0.0"))])),
        ]
        members.append(("servers", .array(servers())))
        var paths: [(key: String, operations: [(key: String, value: JSONValue)])] = []
        // Paths that differ only in their params' names are one path item: OpenAPI forbids
        // both. A later target's path params take the first one's names, by position (import
        // names `{list_id}` `list_id2` where a query param is `list_id`).
        var pathIndex: [String: Int] = [:]
        for target in service.targets {
            var names = Self.pathParamNames(target)
            let path = self.path(target.path, names: names)
            var shape = path.replacing(/\{[^}]*\}/, with: "{}")
            var key = path
            // A second target with the same method and path is a variant of the operation: a
            // path key of its own, `path#name`, which import reads back as the same path.
            let method = target.method.rawValue.lowercased()
            if let index = pathIndex[shape], paths[index].operations.contains(where: { $0.key == method }) {
                shape += "#" + target.name
                key += "#" + target.name
            }
            guard let index = pathIndex[shape] else {
                pathIndex[shape] = paths.count
                paths.append((key, [(method, operation(target, pathNames: names))]))
                continue
            }
            let renamed = Dictionary(
                zip(Self.templateNames(path), Self.templateNames(paths[index].key)),
                uniquingKeysWith: { first, _ in first })
            for param in target.path.params { names[param] = renamed[names[param] ?? param] }
            paths[index].operations.append((target.method.rawValue.lowercased(), operation(target, pathNames: names)))
        }
        members.append(("paths", .object(paths.map { (key: $0.key, value: .object($0.operations)) })))
        var schemes: [(key: String, value: JSONValue)] = []
        for auth in [service.auth] + service.targets.map(\.auth) {
            guard let (name, scheme) = securityScheme(auth), !schemes.contains(where: { $0.key == name }) else {
                continue
            }
            schemes.append((name, scheme))
        }
        for target in service.targets {
            for (name, scheme) in apiKeys(target) where !schemes.contains(where: { $0.key == name }) {
                schemes.append((name, scheme))
            }
            for entry in queryEntries(target) {
                guard case .string(let template) = entry.value,
                    let (name, scheme) = apiKey(template, in: "query", key: entry.key),
                    !schemes.contains(where: { $0.key == name })
                else { continue }
                schemes.append((name, scheme))
            }
        }
        var components: [(key: String, value: JSONValue)] = []
        if !bundle.components.isEmpty { components.append(("schemas", .object(bundle.components))) }
        if !schemes.isEmpty { components.append(("securitySchemes", .object(schemes))) }
        if !components.isEmpty { members.append(("components", .object(components))) }
        if let (name, _) = securityScheme(service.auth) {
            members.append(("security", .array([.object([(name, .array([]))])])))
        }
        return .object(members)
    }

    /// The base URL, its variables as server variables, and each environment.
    func servers() -> [JSONValue] {
        [server(service.baseURLSource, written: service.baseURL, description: nil)]
            + service.environments.compactMap { environment in
                environment.baseURL.map {
                    server(
                        environment.baseURLSource ?? Template(literal: $0), written: $0, description: environment.name)
                }
            }
    }

    /// A server: a URL whose `${VAR}` references are server variables with their defaults; a
    /// URL that is one reference is its default.
    func server(_ source: Template, written: String, description: String?) -> JSONValue {
        var url = ""
        var variables: [(key: String, value: JSONValue)] = []
        let segments = source.segments
        if segments.count == 1, let (_, value) = segments[0].variable, !value.isEmpty {
            url = value
        } else {
            for segment in segments {
                switch segment {
                case .literal(let text): url += text
                case .param(let name): url += "{\(name)}"
                case .environment(let name, let value), .environmentDefault(let name, let value):
                    let variable = variableName(name)
                    url += "{\(variable)}"
                    if !variables.contains(where: { $0.key == variable }) {
                        variables.append((variable, .object([("default", .string(value))])))
                    }
                }
            }
        }
        if url.isEmpty { url = written }
        var members: [(key: String, value: JSONValue)] = [("url", .string(url))]
        if let description { members.append(("description", .string(description))) }
        if !variables.isEmpty { members.append(("variables", .object(variables))) }
        return .object(members)
    }

    /// `auth:` as a security scheme, named as import names it.
    func securityScheme(_ auth: AuthSpec?) -> (String, JSONValue)? {
        switch auth {
        case .bearer(let token)?:
            return (
                schemeName(token, suffix: "TOKEN", fallback: "bearerAuth"),
                .object([("type", .string("http")), ("scheme", .string("bearer"))])
            )
        case .basic(let user, _)?:
            return (
                schemeName(user, suffix: "USER", fallback: "basicAuth"),
                .object([("type", .string("http")), ("scheme", .string("basic"))])
            )
        case .custom(let scheme, let token)?:
            return (
                schemeName(token, suffix: "TOKEN", fallback: "\(scheme.lowercased())Auth"),
                .object([("type", .string("http")), ("scheme", .string(scheme))])
            )
        case .login?, .none?, nil:
            return nil
        }
    }

    /// A header or query value read from one environment variable, as an API key scheme.
    func apiKey(_ value: Template, in location: String, key: String) -> (String, JSONValue)? {
        guard value.segments.count == 1, let (variable, _) = value.segments[0].variable else { return nil }
        return (
            variableName(variable),
            .object([("type", .string("apiKey")), ("in", .string(location)), ("name", .string(key))])
        )
    }

    /// The API keys a target sends in its headers, then its cookies: each scheme's name and
    /// definition.
    func apiKeys(_ target: TargetSpec) -> [(String, JSONValue)] {
        [("header", target.headers), ("cookie", target.cookies)].flatMap { place, entries in
            entries.compactMap { apiKey($0.value, in: place, key: $0.name) }
        }
    }

    func schemeName(_ template: Template, suffix: String, fallback: String) -> String {
        guard let (variable, _) = template.segments.first?.variable else {
            return fallback
        }
        return variableName(variable, dropping: suffix)
    }

    // MARK: - Operations

    /// Path params import renamed because a param elsewhere in the request has their name
    /// (`list_id2` beside a query `list_id`), under their name in the document.
    static func pathParamNames(_ target: TargetSpec) -> [String: String] {
        let pathParams = Set(target.path.params)
        var names: [String: String] = [:]
        for name in pathParams {
            let base = String(name.reversed().drop(while: \.isNumber).reversed())
            guard base != name, !pathParams.contains(base), target.param(named: base) != nil else { continue }
            names[name] = base
        }
        return names
    }

    /// The names of a path template's params, in order.
    static func templateNames(_ path: String) -> [String] {
        path.matches(of: /\{([^}]*)\}/).map { String($0.1) }
    }

    /// An operation; `pathNames` renames its path params as its path item names them.
    func operation(_ target: TargetSpec, pathNames: [String: String] = [:]) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("operationId", .string(target.name))]
        if let summary = target.summary { members.append(("summary", .string(summary))) }
        if let description = target.description { members.append(("description", .string(description))) }
        if let baseURL = target.baseURL {
            let source = target.baseURLSource ?? Template(literal: baseURL)
            members.append(("servers", .array([server(source, written: baseURL, description: nil)])))
        }

        // The params in the target's order, each where the request carries it.
        var parameters: [JSONValue] = []
        var security: [JSONValue] = []
        let pathParams = Set(target.path.params)
        let query = queryEntries(target)
        let placed = placements(target, pathNames: pathNames)
        for param in target.params {
            guard let placement = placed[param.name], placement.location != "body" else { continue }
            parameters.append(parameter(param, key: placement.key, in: placement.location, of: target))
        }
        for entry in query {
            guard case .string(let template) = entry.value,
                let (scheme, _) = apiKey(template, in: "query", key: entry.key)
            else { continue }
            security.append(.object([(scheme, .array([]))]))
        }
        for (scheme, _) in apiKeys(target) {
            security.append(.object([(scheme, .array([]))]))
        }
        var declared = pathParams
        for case let (name, value)? in target.path.segments.map(\.variable) {
            let variable = pathNames[variableName(name)] ?? variableName(name)
            guard declared.insert(variable).inserted else { continue }
            var schema: [(key: String, value: JSONValue)] = [("type", .string("string"))]
            if !value.isEmpty { schema.append(("default", .string(value))) }
            parameters.append(
                .object([
                    ("name", .string(variable)), ("in", .string("path")),
                    ("description", .string("The environment variable \(name) in the spec.")),
                    ("required", .bool(true)), ("schema", .object(schema)),
                ]))
        }
        if !parameters.isEmpty { members.append(("parameters", .array(parameters))) }
        if var body = requestBody(target) {
            // Required when `bodyRequired:` says so, else when a param in it is.
            if let required = target.bodyRequired, case .object(var fields) = body {
                fields.removeAll { $0.key == "required" }
                if required { fields.insert(("required", .bool(true)), at: 0) }
                body = .object(fields)
            }
            let schema = writesSchemas ? target.requestSchema : nil
            members.append(("requestBody", schema.map { withSchema(body, bundle.schema($0)) } ?? body))
        }
        members.append(("responses", responses(target)))
        // Every credential the target sends goes with every request: one requirement that
        // names them all (AND), its auth's scheme first.
        let keys = security.compactMap { requirement -> (key: String, value: JSONValue)? in
            if case .object(let members) = requirement { members.first } else { nil }
        }
        if case .none? = target.auth {
            members.append(("security", .array(keys.isEmpty ? [] : [.object(keys)])))
        } else if let (name, _) = securityScheme(target.auth ?? service.auth) {
            if target.auth != nil || !keys.isEmpty {
                members.append(("security", .array([.object([(name, .array([]))] + keys)])))
            }
        } else if !keys.isEmpty {
            members.append(("security", .array([.object(keys)])))
        }
        return .object(members)
    }

    /// Where the request carries each param: `path`, `query`, `header`, `cookie` or `body`,
    /// and under which key; `export arazzo` writes a step's params by the same places.
    func placements(_ target: TargetSpec, pathNames: [String: String] = [:]) -> [String: (
        location: String, key: String
    )] {
        var placed: [String: (location: String, key: String)] = [:]
        let pathParams = Set(target.path.params)
        let query = queryEntries(target)
        for param in target.params {
            if pathParams.contains(param.name) {
                placed[param.name] = ("path", pathNames[param.name] ?? param.name)
            } else if let entry = query.first(where: { Self.param(of: $0.value, in: target)?.name == param.name }) {
                placed[param.name] = ("query", entry.key)
            } else if let header = target.headers.first(where: { $0.value.wholeParam == param.name }) {
                placed[param.name] = ("header", header.name)
            } else if let cookie = target.cookies.first(where: { $0.value.wholeParam == param.name }) {
                placed[param.name] = ("cookie", cookie.name)
            }
        }
        for (key, name) in bodyMembers(target) where placed[name] == nil { placed[name] = ("body", key) }
        return placed
    }

    func parameter(_ param: ParamSpec, key: String, in location: String, of target: TargetSpec) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("name", .string(key)), ("in", .string(location))]
        if let description = param.description { members.append(("description", .string(description))) }
        if location == "path" || param.mustBeSent { members.append(("required", .bool(true))) }
        if location == "query", param.allowsEmptyValue { members.append(("allowEmptyValue", .bool(true))) }
        members.append(("schema", schema(param, of: target)))
        if let style = param.style {
            members.append(("style", .string(style.style.rawValue)))
            members.append(("explode", .bool(style.explode)))
        }
        if param.name != key { members.append((Self.paramExtension, .string(param.name))) }
        return .object(members)
    }

    /// The extension that names a parameter's or body member's param where its name is not
    /// the key the request carries (`firstName` for `first_name`), which import reads back.
    static let paramExtension = "x-moya-param"

    func schema(_ param: ParamSpec, of target: TargetSpec) -> JSONValue {
        var members = Self.typeSchema(param.type)
        if let rules = param.rules { members = rules.adding(to: members) }
        // A secret's default, or one read from the environment, is never written.
        if let value = param.defaultValue, !param.isSecret, param.writtenDefault == nil {
            members.append(("default", value.jsonValue))
        }
        if let example = Self.example(of: param, in: target) { members.append(("examples", .array([example]))) }
        return .object(members)
    }

    /// The value the target's first check that gives `param` gives it, as the schema's
    /// example; never a secret's.
    static func example(of param: ParamSpec, in target: TargetSpec) -> JSONValue? {
        guard !param.isSecret,
            let value = target.checks.lazy.compactMap({ $0.arguments[param.name] }).first,
            !param.holdsSecret(value, given: true)
        else { return nil }
        return value.jsonValue
    }

    static func typeSchema(_ type: ParamType) -> [(key: String, value: JSONValue)] {
        switch type {
        case .string: [("type", .string("string"))]
        case .int: [("type", .string("integer"))]
        case .number: [("type", .string("number"))]
        case .bool: [("type", .string("boolean"))]
        case .file: [("type", .string("string")), ("format", .string("binary"))]
        case .enumeration(let cases): [("type", .string("string")), ("enum", .array(cases.map { .string($0.value) }))]
        case .array(let element): [("type", .string("array")), ("items", .object(typeSchema(element)))]
        case .object: [("type", .string("object"))]
        }
    }

    /// A path template: each param as `{name}`, and each `${VAR}` as a path param of its own
    /// (`pathVariables`), whose default is the variable's.
    func path(_ template: Template, names: [String: String] = [:]) -> String {
        let text = template.segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .param(let name): "{\(names[name] ?? name)}"
            case .environment(let name, _), .environmentDefault(let name, _): "{\(variableName(name))}"
            }
        }.joined()
        return text.hasPrefix("/") ? text : "/" + text
    }

    /// The entries a target sends in the query.
    func queryEntries(_ target: TargetSpec) -> [ValueTemplate.Member] {
        switch target.task {
        case .plain: []
        case .data(_, _, let query), .json(_, let query), .multipart(_, let query), .upload(_, let query):
            query?.entries ?? []
        case .parameters(let block, let encoding, let query):
            (Self.inQuery(encoding, target.method) ? block.entries : []) + (query?.entries ?? [])
        case .download(_, let block, let encoding): Self.inQuery(encoding, target.method) ? block?.entries ?? [] : []
        }
    }

    /// Whether an encoding puts its parameters in the query for `method`.
    static func inQuery(_ encoding: EncodingSpec, _ method: MoyaHTTP.Method) -> Bool {
        switch encoding.kind {
        case .queryString: true
        case .url: URLEncoding.Destination.methodDependent.encodesInURL(for: method)
        case .httpBody, .json, .prettyJSON: false
        }
    }
}
