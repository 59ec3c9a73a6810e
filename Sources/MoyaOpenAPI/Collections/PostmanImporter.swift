import MoyaHTTP
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `moya-cli import postman`: a Postman collection (v2.0 or v2.1) as one spec. Each request is
/// a target, named by its folders and its name (`usersCreateUser`); folders are name prefixes,
/// not services, because a collection is one API whose requests share variables and auth, and
/// a service has one base URL where a collection may use several. The most common scheme and
/// host is the base URL; a request to another gets its own target `baseURL`.
///
/// `{{name}}` becomes `${NAME}` where a spec reads the environment (the base URL, headers,
/// bodies, auth), with the collection's value as the default when it is no credential; in a
/// path or query it becomes a param `{name}`, its default the variable's value. A credential
/// is never written: a secret variable, an auth value that is text, a credential-named header.
/// Scripts are never run. Everything left out is reported with its item path.
public enum PostmanImporter {
    public typealias Result = ImportedCollection

    public typealias Refusal = ImportRefusal

    /// An environment file's variables: name, value, and whether Postman marks it secret.
    struct Variables {
        var name: String?
        var values: [(key: String, value: String, secret: Bool)] = []
        /// The names of values the file turns off, which are left out and reported.
        var disabled: [String] = []

        func value(of key: String) -> (value: String, secret: Bool)? {
            values.first { $0.key == key }.map { ($0.value, $0.secret) }
        }
    }

    public static func importCollection(
        _ data: [UInt8], file: String, environments: [(file: String, data: [UInt8])] = [], service: String?
    ) throws(Refusal) -> Result {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: Data(data))
        } catch {
            throw Refusal(message: "\(file) is not JSON: \(error)")
        }
        guard case .object = document else { throw Refusal(message: "\(file) is not a Postman collection") }
        if document["info"] == nil, document["requests"] != nil || document["order"] != nil {
            throw Refusal(
                message:
                    "\(file) is a Postman collection v1, which moya-cli does not read; export it again from Postman as Collection v2.1"
            )
        }
        guard let info = document["info"], let items = document["item"], case .array = items else {
            throw Refusal(message: "\(file) is not a Postman collection: it has no info and item")
        }
        let schema = info["schema"]?.stringValue ?? ""
        if !schema.isEmpty, !schema.contains("v2.0") && !schema.contains("v2.1") {
            throw Refusal(message: "\(file) is a Postman collection of schema \(schema); moya-cli reads v2.0 and v2.1")
        }
        var parsedEnvironments: [(file: String, variables: Variables)] = []
        for environment in environments {
            guard let value = try? JSONValue(parsing: Data(environment.data)), let values = value["values"]?.arrayValue
            else {
                throw Refusal(message: "\(environment.file) is not a Postman environment: it has no values")
            }
            var variables = Variables(name: value["name"]?.stringValue)
            for entry in values {
                guard let key = entry["key"]?.stringValue else { continue }
                guard entry["enabled"] != .bool(false) else {
                    variables.disabled.append(key)
                    continue
                }
                variables.values.append(
                    (key, entry["value"].map(Self.text) ?? "", entry["type"]?.stringValue == "secret"))
            }
            parsedEnvironments.append((environment.file, variables))
        }
        return importDocument(document, file: file, environments: parsedEnvironments, service: service)
    }

    /// A collection in Postman's v2.1 shape, as read or as another importer made it
    /// (`InsomniaImporter`); `format` names the source in the report and the spec's comment.
    static func importDocument(
        _ document: JSONValue, file: String, environments: [(file: String, variables: Variables)], service: String?,
        format: String = "postman", prunesBodies: Bool = true, expressionsAreText: Bool = false
    ) -> Result {
        var importer = Importer(file: file, environments: environments, format: format)
        importer.prunesBodies = prunesBodies
        importer.expressionsAreText = expressionsAreText
        importer.read(collection: document)
        let title = document["info"]?["name"]?.stringValue
        let name =
            service.map { Names.lowerCamel($0, fallback: format) } ?? title.flatMap(Names.service(title:)) ?? format
        return importer.result(service: name, title: title)
    }

    /// A JSON value as Postman's text: a string as it is, anything else serialized.
    static func text(_ value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        if case .null = value { return "" }
        return value.serialized(escapeSlashes: false)
    }

    // MARK: - Reading

    struct Importer {
        let file: String
        let environments: [(file: String, variables: Variables)]
        var report: ImportReport
        /// The collection's variables.
        var variables: [String: (value: String, secret: Bool)] = [:]
        var targets: [(target: ImportedSpec.Target, base: ImportedSpec.Text)] = []
        var names: Set<String> = []
        var serviceAuth: ImportedSpec.Auth?
        var serviceAuthHeaders: [ImportedSpec.Entry] = []
        var serviceAuthQuery: [ImportedSpec.Entry] = []
        /// Credential variables the spec reads, which the report lists.
        var credentialVariables = OrderedNames()
        /// The collection's variables that became params, and those read from the environment.
        var paramVariables: Set<String> = []
        var environmentVariables: Set<String> = []

        /// Whether a GET's or HEAD's body is left out, as Postman leaves it.
        var prunesBodies = true
        /// Whether a `{{…}}` that is no variable's name (httpyac's `{{json.args.id}}`) is a
        /// script expression, kept as text and reported, rather than a variable.
        var expressionsAreText = false
        /// The params `export postman` declared for the request being read (`x-moya-params`):
        /// a `{{name}}` of one of them in a header is that param, not a variable.
        var declaredParams: [String: JSONValue] = [:]
        /// The declared params a header or body of the request names.
        var referencedParams: Set<String> = []
        let format: String

        init(file: String, environments: [(file: String, variables: Variables)], format: String = "postman") {
            self.file = file
            self.environments = environments
            self.format = format
            report = ImportReport(format: format, source: file)
        }

        /// Where the item being read is, when its source says so (`x-moya-place`: a `.http`
        /// file's `FILE:LINE`) rather than its folders.
        var itemPlace: String?

        func place(_ path: [String]) -> String {
            itemPlace ?? (path.isEmpty ? file : "\(file): \(path.joined(separator: " / "))")
        }

        mutating func leave(_ path: [String], _ what: String, _ reason: String) {
            report.leave(place(path), what, reason)
        }

        mutating func read(collection: JSONValue) {
            for entry in collection["variable"]?.arrayValue ?? [] {
                guard let key = entry["key"]?.stringValue ?? entry["id"]?.stringValue else { continue }
                if entry["disabled"] == .bool(true) {
                    leave(["variables"], key, "a disabled variable is left out")
                    continue
                }
                variables[key] = (
                    entry["value"].map(PostmanImporter.text) ?? "", entry["type"]?.stringValue == "secret"
                )
            }
            if let events = collection["event"]?.arrayValue, Self.hasScript(events) {
                leave([], "scripts", "the collection's scripts are never run")
            }
            var context = Context()
            if let auth = collection["auth"] {
                let made = self.auth(auth, path: ["auth"], inherited: nil)
                context.auth = made
                serviceAuth = made?.auth
                serviceAuthHeaders = made?.headers ?? []
                serviceAuthQuery = made?.query ?? []
            }
            for item in collection["item"]?.arrayValue ?? [] { read(item: item, folders: [], context: context) }
        }

        /// What a folder passes to what it holds: its auth.
        struct Context {
            var auth: MadeAuth?
        }

        /// Auth as a spec carries it: `auth:`, or a header or query key for an API key.
        struct MadeAuth {
            var auth: ImportedSpec.Auth?
            var headers: [ImportedSpec.Entry] = []
            var query: [ImportedSpec.Entry] = []
        }

        static func hasScript(_ events: [JSONValue]) -> Bool {
            events.contains { event in
                let exec = event["script"]?["exec"]
                let lines = exec?.arrayValue?.compactMap(\.stringValue) ?? exec?.stringValue.map { [$0] } ?? []
                return lines.contains { !$0.allSatisfy(\.isWhitespace) }
            }
        }

        mutating func read(item: JSONValue, folders: [String], context: Context) {
            let name = item["name"]?.stringValue ?? "request"
            let path = folders + [name]
            if let children = item["item"]?.arrayValue {
                var inner = context
                if let auth = item["auth"] {
                    inner.auth = self.auth(auth, path: path + ["auth"], inherited: context.auth)
                }
                if let events = item["event"]?.arrayValue, Self.hasScript(events) {
                    leave(path, "scripts", "the folder's scripts are never run")
                }
                for child in children { read(item: child, folders: path, context: inner) }
                return
            }
            report.requests += 1
            itemPlace = item["x-moya-place"]?.stringValue
            defer { itemPlace = nil }
            guard let request = item["request"] else {
                leave(path, "request", "the item has no request")
                return
            }
            if let events = item["event"]?.arrayValue, Self.hasScript(events) {
                leave(path, "scripts", "the request's scripts are never run; what they set or test is not carried")
            }
            readRequest(request, item: item, path: path, context: context)
        }

        // MARK: Variables

        /// `{{name}}` → the environment variable a spec reads for it.
        static func environmentName(_ name: String) -> String {
            let words = Names.words(name).map { $0.uppercased() }
            return words.isEmpty ? "POSTMAN_VARIABLE" : words.joined(separator: "_")
        }

        /// The default a `${NAME:-…}` gets: the collection's value, else the first
        /// environment's; none for a secret or a credential, or a value holding a brace.
        func defaultValue(of variable: String, credential: Bool) -> String? {
            let found = variables[variable] ?? environments.lazy.compactMap { $0.variables.value(of: variable) }.first
            // A variable named like a credential (`apiKey`, `token`) holds one, whatever its type.
            guard let found, !found.secret, !credential, !ImportReport.isCredentialField(variable),
                !found.value.contains("}"), !found.value.contains("{")
            else {
                return nil
            }
            return found.value
        }

        /// Text with `{{name}}` as `${NAME:-default}`; `{{$dynamic}}` kept as text and
        /// reported. With `templates`, the text's braces are doubled (a spec value that reads
        /// `{param}`).
        mutating func text(
            _ source: String, path: [String], templates: Bool = true, credential: Bool = false, isURL: Bool = false,
            params: Bool = false
        )
            -> ImportedSpec.Text
        {
            var pieces: [ImportedSpec.Text.Piece] = []
            for part in Self.split(source) {
                switch part {
                case .text(let text):
                    pieces.append(.data(templates ? YAMLText.template(text) : text))
                case .variable(let name)
                where expressionsAreText
                    && name.contains(where: { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }):
                    leave(path, "{{\(name)}}", "a script expression is not run; it is sent as text")
                    let text = "{{\(name)}}"
                    pieces.append(.data(templates ? YAMLText.template(text) : text))
                case .variable(let name) where name.hasPrefix("$"):
                    leave(path, "{{\(name)}}", "a dynamic variable is not carried; it is sent as text")
                    let text = "{{\(name)}}"
                    pieces.append(.data(templates ? YAMLText.template(text) : text))
                case .variable(let name) where (templates || params) && declaredParams[name] != nil:
                    referencedParams.insert(name)
                    pieces.append(.data("{\(name)}"))
                case .variable(let name):
                    environmentVariables.insert(name)
                    let variable = Self.environmentName(name)
                    let fallback = defaultValue(of: name, credential: credential)
                    if fallback == nil,
                        credential || variables[name]?.secret == true || ImportReport.isCredentialField(name)
                    {
                        credentialVariables.add(variable)
                    }
                    pieces.append(
                        .environment(
                            name: variable,
                            fallback: fallback
                                ?? (!isURL && (credential || ImportReport.isCredentialField(name)) ? "" : nil)))
                }
            }
            return ImportedSpec.Text(pieces)
        }

        /// `source` split into text and `{{name}}` references.
        static func split(_ source: String) -> [ShellWords.Piece] {
            var parts: [ShellWords.Piece] = []
            var rest = Substring(source)
            while let open = rest.range(of: "{{") {
                guard let close = rest[open.upperBound...].range(of: "}}") else { break }
                let name = rest[open.upperBound..<close.lowerBound]
                guard !name.isEmpty, !name.contains("{"), !name.contains("}") else {
                    parts.append(.text(String(rest[..<open.upperBound])))
                    rest = rest[open.upperBound...]
                    continue
                }
                if open.lowerBound > rest.startIndex { parts.append(.text(String(rest[..<open.lowerBound]))) }
                parts.append(.variable(String(name).trimmingBlanks))
                rest = rest[close.upperBound...]
            }
            if !rest.isEmpty { parts.append(.text(String(rest))) }
            // Adjacent text pieces joined.
            var joined: [ShellWords.Piece] = []
            for part in parts {
                if case .text(let text) = part, case .text(let last)? = joined.last {
                    joined[joined.count - 1] = .text(last + text)
                } else {
                    joined.append(part)
                }
            }
            return joined
        }

        // MARK: Auth

        /// A Postman auth object as the spec's: bearer, basic, an API key; `noauth` as `auth:
        /// none`; `inherit` as the folder's. Others are reported.
        mutating func auth(_ auth: JSONValue, path: [String], inherited: MadeAuth?) -> MadeAuth? {
            guard let type = auth["type"]?.stringValue else { return inherited }
            func value(_ key: String) -> String? {
                // v2.1: a list of { key, value }; v2.0: an object.
                if let list = auth[type]?.arrayValue {
                    return list.first { $0["key"]?.stringValue == key }?["value"].map(PostmanImporter.text)
                }
                return auth[type]?[key].map(PostmanImporter.text)
            }
            /// A credential: its variable when it is one, else a variable named for it.
            func credential(_ source: String?, _ name: String) -> ImportedSpec.Text {
                if let source, Self.split(source).contains(where: { if case .variable = $0 { true } else { false } }) {
                    return text(source, path: path, templates: false, credential: true, params: true)
                }
                let variable = Self.environmentName(name)
                credentialVariables.add(variable)
                return .environment(variable, or: "")
            }
            switch type {
            case "noauth":
                return MadeAuth(auth: .disabled)
            case "inherit":
                return inherited
            case "bearer":
                return MadeAuth(auth: .bearer(credential(value("token"), "token")))
            case "basic":
                let user = value("username") ?? ""
                return MadeAuth(
                    auth: .basic(
                        user: text(user, path: path, templates: false, params: true),
                        password: credential(value("password"), "password")))
            case "apikey":
                let key = value("key") ?? "api_key"
                let entry = ImportedSpec.Entry(key: key, value: credential(value("value"), key))
                return value("in") == "query" ? MadeAuth(query: [entry]) : MadeAuth(headers: [entry])
            default:
                leave(
                    path, "auth \(type)",
                    "moya-cli's auth is bearer, basic or an API key; this scheme is not carried, and no other auth is sent in its place"
                )
                return MadeAuth(auth: .disabled)
            }
        }

        // MARK: Requests

        mutating func readRequest(_ request: JSONValue, item: JSONValue, path: [String], context: Context) {
            // v2.0 allows a request that is only its URL.
            let url = request.stringValue.map { JSONValue.string($0) } ?? request["url"] ?? .string("")
            let raw = url.stringValue ?? url["raw"]?.stringValue ?? Self.rawURL(url)
            guard !raw.isEmpty else {
                leave(path, "request", "it has no URL, so there is nothing to send")
                return
            }
            let method = (request["method"]?.stringValue ?? "GET").uppercased()
            guard ImportReport.methods.contains(method) else {
                leave(path, "request", "a spec cannot send the method \(method)")
                return
            }
            guard let parts = URLParts(raw) else {
                leave(
                    path, "request",
                    raw.hasPrefix("/")
                        ? "its URL \(raw) has no host; give it one, as {{host}}\(raw) with a host variable"
                        : "its URL \(raw) is not an http or https one")
                return
            }
            // A base that is neither a URL nor a variable (a script's expression) sends nowhere.
            // A base URL of variables has no empty default: unset, it stops the call, naming them.
            let base = text(parts.base, path: path, templates: false, isURL: true)
            guard
                base.pieces.contains(where: { if case .environment = $0 { true } else { false } })
                    || parts.base.lowercased().hasPrefix("http://") || parts.base.lowercased().hasPrefix("https://")
            else {
                leave(path, "request", "its URL \(raw) names no http or https host")
                return
            }
            var target = ImportedSpec.Target(name: "", method: method, path: "/")
            // A header or body may name a declared param, but never a file.
            let declarations = Self.declarations(of: item)
            declaredParams = Dictionary(
                declarations.filter { $0.value["type"]?.stringValue != "file" }.map { ($0.key, $0.value) },
                uniquingKeysWith: { first, _ in first })
            defer {
                declaredParams = [:]
                referencedParams = []
            }
            target.summary = item["x-moya-summary"]?.stringValue ?? item["name"]?.stringValue ?? path.last
            target.expectations = item["x-moya-expect"]?.objectValue ?? []
            if let description = request["description"].flatMap(Self.description), !description.isEmpty {
                target.description = description
            }
            var params: [ImportedSpec.Param] = []
            var paramNames: Set<String> = []
            let sourceWord = format == "http" ? "file" : "collection"
            var paramsRead: Set<String> = []
            defer { paramVariables.formUnion(paramsRead) }
            func param(_ variable: String, example: String?) -> String {
                paramsRead.insert(variable)
                let name = Names.param(variable)
                if paramNames.insert(name).inserted {
                    var param = ImportedSpec.Param(
                        name: name, type: "string",
                        description: "{{\(variable)}} in the \(sourceWord)",
                        optional: false)
                    if let example, !example.isEmpty {
                        param.defaultValue = .string(example)
                    }
                    params.append(param)
                }
                return "{\(name)}"
            }
            // Path: `{{var}}` and `:name` path variables become params.
            let pathVariables = Dictionary(
                (url["variable"]?.arrayValue ?? []).compactMap { entry -> (String, String)? in
                    guard let key = entry["key"]?.stringValue else { return nil }
                    return (key, entry["value"].map(PostmanImporter.text) ?? "")
                }, uniquingKeysWith: { first, _ in first })
            var template = ""
            for segment in parts.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
                template += "/"
                if segment.hasPrefix(":"), segment.count > 1 {
                    let key = String(segment.dropFirst())
                    template += param(key, example: pathVariables[key])
                    continue
                }
                for piece in Self.split(String(segment)) {
                    switch piece {
                    case .text(let text): template += YAMLText.template(PercentEncoding.decode(text[...]))
                    case .variable(let name):
                        template += param(
                            name, example: pathVariables[name] ?? defaultValue(of: name, credential: false))
                    }
                }
            }
            target.path = template.isEmpty ? "/" : template

            // Query: the URL's enabled pairs, in order.
            var query: [ImportedSpec.Entry] = []
            if let list = url["query"]?.arrayValue {
                for entry in list {
                    guard let key = entry["key"]?.stringValue else { continue }
                    if entry["disabled"] == .bool(true) {
                        leave(path, "query \(key)", "a disabled query param is left out")
                        continue
                    }
                    query.append(
                        ImportedSpec.Entry(
                            key: key,
                            value: queryValue(
                                entry["value"].map(PostmanImporter.text) ?? "", key: key, path: path,
                                param: { param($0, example: pathVariables[$0] ?? $1) })))
                }
            } else if let raw = parts.query {
                for pair in raw.split(separator: "&") where !pair.isEmpty {
                    let key = PercentEncoding.decode(pair.prefix { $0 != "=" }, plusIsSpace: true)
                    let value =
                        pair.contains("=")
                        ? PercentEncoding.decode(pair.drop { $0 != "=" }.dropFirst(), plusIsSpace: true) : ""
                    query.append(
                        ImportedSpec.Entry(
                            key: key,
                            value: queryValue(
                                value, key: key, path: path, param: { param($0, example: pathVariables[$0] ?? $1) })))
                }
            }

            // Headers: enabled ones; a Content-Type goes with the body.
            var headers: [ImportedSpec.Entry] = []
            var contentType: String?
            var authFromHeader: ImportedSpec.Auth?
            for (key, value, disabled) in Self.headers(request["header"]) {
                if disabled {
                    leave(path, "header \(key)", "a disabled header is left out")
                    continue
                }
                let lower = key.lowercased()
                guard !key.contains("{{") else {
                    leave(path, "header \(key)", "a header name made of variables cannot be carried")
                    continue
                }
                if lower == "content-type", !value.contains("{{") {
                    contentType = value
                    continue
                }
                if lower == "authorization", let auth = headerAuth(value, path: path) {
                    authFromHeader = auth
                    continue
                }
                if lower == "authorization", let user = ImportReport.basicUser(ofHeader: value) {
                    // Basic credentials as basic auth: the user as it is, the password unwritten.
                    authFromHeader = .basic(
                        user: text(user, path: path, templates: false), password: urlPassword(nil, path: path))
                    continue
                }
                let credential =
                    ["authorization", "cookie"].contains(lower) || CredentialNames.isCredential(name: lower)
                if credential, !Self.split(value).contains(where: { if case .variable = $0 { true } else { false } }) {
                    let variable = Self.environmentName(key)
                    credentialVariables.add(variable)
                    headers.append(ImportedSpec.Entry(key: key, value: .environment(variable, or: "")))
                } else {
                    headers.append(ImportedSpec.Entry(key: key, value: text(value, path: path, credential: credential)))
                }
            }

            // Auth: the request's, else its folder's; an API key in a header or the query.
            let made: MadeAuth?
            if let auth = request["auth"] {
                made = self.auth(auth, path: path + ["auth"], inherited: context.auth)
            } else {
                made = context.auth
            }
            if let made {
                if made.auth != serviceAuth || made.auth == nil, let auth = made.auth { target.auth = auth }
                if made.auth == nil, serviceAuth != nil, request["auth"] != nil { target.auth = .disabled }
                for header in made.headers where !serviceAuthHeaders.contains(where: { $0.key == header.key }) {
                    headers.append(header)
                }
                for entry in made.query where !serviceAuthQuery.contains(where: { $0.key == entry.key }) {
                    query.append(entry)
                }
            }

            if let authFromHeader { target.auth = authFromHeader }
            if let user = parts.user, target.auth == nil || target.auth == serviceAuth {
                target.auth = .basic(
                    user: text(PercentEncoding.decode(user[...]), path: path, templates: false),
                    password: urlPassword(parts.password, path: path))
            }

            // The body. Postman sends none with a GET or a HEAD unless the request turns its
            // pruning off.
            var bodyValue = request["body"]
            if prunesBodies, ["GET", "HEAD"].contains(method), let mode = bodyValue?["mode"]?.stringValue,
                request["protocolProfileBehavior"]?["disableBodyPruning"] != .bool(true)
            {
                if Self.hasContent(bodyValue, mode: mode) {
                    leave(path, "body", "Postman sends no body with a \(method) (its body pruning); it is left out")
                }
                bodyValue = nil
            }
            target.task = body(bodyValue, contentType: &contentType, query: query, path: path, params: &params)
            if let contentType {
                headers.append(ImportedSpec.Entry(key: "Content-Type", value: text(contentType, path: path)))
            }
            target.headers = Self.merged(headers)
            target.params = Self.declaring(
                params,
                declarations.filter { declared in
                    params.contains { $0.name == declared.key } || referencedParams.contains(declared.key)
                })
            // Assertions go in a check, which needs a value for each required param.
            let missing = target.params.filter { !$0.optional && $0.defaultValue == nil && $0.example == nil }
            if !target.expectations.isEmpty, !missing.isEmpty {
                leave(
                    path, "assertions",
                    "the check they make needs a value for \(missing.map(\.name).joined(separator: ", ")), which the source does not give; write the check with one"
                )
            }

            // Saved examples as named samples.
            var sampleNames: Set<String> = []
            for response in item["response"]?.arrayValue ?? [] {
                guard let sample = sample(response, path: path) else { continue }
                // The spec's default sample, as `export postman` marks it.
                if response["x-moya-default"] == .bool(true), target.sample == nil {
                    target.sample = sample
                    continue
                }
                let name = Names.unique(
                    Names.lowerCamel(response["name"]?.stringValue ?? "example", fallback: "example"), in: &sampleNames)
                target.samples.append((name, sample))
            }
            if let behavior = request["protocolProfileBehavior"]?.objectValue {
                for (key, value) in behavior {
                    if key == "followRedirects", value == .bool(false) {
                        target.followsRedirects = false
                    } else if key != "disableBodyPruning" {
                        leave(path, key, "Postman's request setting is not carried")
                    }
                }
            }
            let folders = path.dropLast().joined(separator: " ")
            let baseName = Names.lowerCamel(
                folders + " " + (item["name"]?.stringValue ?? ""), fallback: method.lowercased())
            target.name = Names.unique(baseName, in: &names)
            targets.append((target, base))
            report.targets += 1
        }

        /// An `Authorization` header of variables as auth: `Bearer {{token}}`, and `Basic
        /// {{user}} {{password}}` or `Basic {{user}}:{{password}}` as the `.http` clients write
        /// it. Nil for anything else, which stays a header.
        mutating func headerAuth(_ value: String, path: [String]) -> ImportedSpec.Auth? {
            let words = value.trimmingBlanks.split(separator: " ", maxSplits: 1)
            guard words.count == 2 else { return nil }
            func variable(_ text: Substring) -> Bool {
                let pieces = Self.split(String(text))
                guard pieces.count == 1, case .variable(let name) = pieces[0] else { return false }
                return !name.hasPrefix("$")
            }
            let rest = words[1].trimmingBlanks[...]
            switch words[0].lowercased() {
            case "bearer" where variable(rest):
                return .bearer(text(String(rest), path: path, templates: false, credential: true, params: true))
            case "basic":
                let parts =
                    rest.contains(" ")
                    ? rest.split(separator: " ", maxSplits: 1) : rest.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, variable(parts[0]), variable(parts[1].trimmingBlanks[...]) else { return nil }
                return .basic(
                    user: text(String(parts[0]), path: path, templates: false, params: true),
                    password: text(
                        parts[1].trimmingBlanks, path: path, templates: false, credential: true, params: true))
            default: return nil
            }
        }

        /// The params as `export postman` declared them (`x-moya-params`, moya-cli's own member,
        /// which Postman ignores): each one's type, enum, default, description and whether it
        /// is optional; one only declared (named in a header) is added. A stranger may write
        /// them, so a declaration is checked, never trusted: an unknown type is ignored, `file`
        /// only for a param the collection makes a file, and a default that does not fit the
        /// type gives way to the collection's (made to fit), else to none.
        static func declaring(_ params: [ImportedSpec.Param], _ declared: [(key: String, value: JSONValue)])
            -> [ImportedSpec.Param]
        {
            var params = params
            for (name, declaration) in declared {
                guard let type = declaration["type"]?.stringValue else { continue }
                let existing = params.first { $0.name == name }
                guard type != "file" || existing?.type == "file" else { continue }
                var param = existing ?? ImportedSpec.Param(name: name, type: type, description: nil, optional: false)
                param.type = type
                let values = declaration["enum"]?.arrayValue?.compactMap(\.stringValue).filter { !$0.isEmpty } ?? []
                param.enumValues = values.isEmpty ? nil : values
                if type == "[enum]", param.enumValues == nil { param.type = "[string]" }
                // No default declared is none; one that does not fit gives way to the collection's.
                param.defaultValue = declaration["default"].flatMap { declared in
                    Self.fitted(declared, to: param) ?? existing?.defaultValue.flatMap { Self.fitted($0, to: param) }
                }
                param.description = declaration["description"]?.stringValue
                param.optional = declaration["optional"] == .bool(true)
                if let index = params.firstIndex(where: { $0.name == name }) {
                    params[index] = param
                } else {
                    params.append(param)
                }
            }
            return params
        }

        /// An item's `x-moya-params` that can be declarations at all: a param's name and a type
        /// a spec knows. The one check of both, before `declaring` and the text's params.
        static func declarations(of item: JSONValue) -> [(key: String, value: JSONValue)] {
            (item["x-moya-params"]?.objectValue ?? []).filter { name, declaration in
                Names.param(name) == name && Self.paramTypes.contains(declaration["type"]?.stringValue ?? "")
            }
        }

        /// `value` as a default of `param`'s type (a number's text as the number), nil when it
        /// cannot be one.
        static func fitted(_ value: JSONValue, to param: ImportedSpec.Param) -> JSONValue? {
            func scalar(_ value: JSONValue, _ type: String) -> JSONValue? {
                switch (type, value) {
                case ("int", .integer): return value
                case ("int", .number(let number)): return Int(exactly: number).map(JSONValue.integer)
                case ("int", .string(let text)): return Int(text).map(JSONValue.integer)
                case ("number", .integer), ("number", .number): return value
                case ("number", .string(let text)):
                    return Double(text).flatMap { $0.isFinite ? JSONValue.number($0) : nil }
                case ("bool", .bool): return value
                case ("bool", .string(let text)): return ["true": JSONValue.bool(true), "false": .bool(false)][text]
                case ("string", .string(let text)), ("enum", .string(let text)):
                    guard let values = param.enumValues else { return type == "string" ? value : nil }
                    return values.contains(text) ? value : nil
                case ("string", .integer), ("string", .number), ("string", .bool):
                    return param.enumValues == nil ? .string(PostmanImporter.text(value)) : nil
                default: return nil
                }
            }
            switch param.type {
            case "file": return nil
            case "object": return value.objectValue != nil ? value : nil
            case let type where type.hasPrefix("["):
                guard let items = value.arrayValue else { return nil }
                let element = String(type.dropFirst().dropLast())
                let fitted = items.compactMap { scalar($0, element) }
                return fitted.count == items.count ? .array(fitted) : nil
            default: return scalar(value, param.type)
            }
        }

        static let paramTypes: Set<String> = [
            "string", "int", "number", "bool", "file", "object", "[string]", "[int]", "[number]", "[bool]", "[enum]",
        ]

        /// The password of a URL's `user:password@`: its variable, or one named for it.
        mutating func urlPassword(_ source: String?, path: [String]) -> ImportedSpec.Text {
            if let source, Self.split(source).contains(where: { if case .variable = $0 { true } else { false } }) {
                return text(source, path: path, templates: false, credential: true)
            }
            credentialVariables.add("PASSWORD")
            return .environment("PASSWORD", or: "")
        }

        /// The names of a JSON body's credential-named members that hold text.
        static func credentialMembers(_ text: String) -> [String] {
            var names: [String] = []
            func walk(_ value: JSONValue, depth: Int) {
                guard depth < 64 else { return }
                switch value {
                case .object(let members):
                    for member in members {
                        if case .string = member.value, ImportReport.isCredentialField(member.key) {
                            names.append(member.key)
                        } else {
                            walk(member.value, depth: depth + 1)
                        }
                    }
                case .array(let items): for item in items { walk(item, depth: depth + 1) }
                default: break
                }
            }
            if let json = try? JSONValue(parsing: text) { walk(json, depth: 0) }
            return names
        }

        /// A JSON value whose strings are spec templates: `{{name}}` a declared param's `{name}`
        /// or a variable's `${NAME}`, literal braces doubled. Nil past 64 levels.
        mutating func jsonTemplate(_ value: JSONValue, path: [String], depth: Int) -> ImportedSpec.JSONText? {
            guard depth < 64 else { return nil }
            switch value {
            case .string(let string): return .text(text(string, path: path))
            case .array(let items):
                var written: [ImportedSpec.JSONText] = []
                for item in items {
                    guard let item = jsonTemplate(item, path: path, depth: depth + 1) else { return nil }
                    written.append(item)
                }
                return .array(written)
            case .object(let members):
                var written: [(key: String, value: ImportedSpec.JSONText)] = []
                for member in members {
                    guard let value = jsonTemplate(member.value, path: path, depth: depth + 1) else { return nil }
                    written.append((member.key, value))
                }
                return .object(written)
            default: return .scalar(value)
            }
        }

        /// Whether a body of `mode` holds anything to send.
        static func hasContent(_ body: JSONValue?, mode: String) -> Bool {
            switch body?[mode] {
            case .string(let text)?: !text.isEmpty
            case .array(let entries)?: entries.contains { $0["disabled"] != .bool(true) }
            case .object(let members)?: !members.isEmpty
            default: false
            }
        }

        /// A form field's value: a credential-named field's from its variable.
        mutating func fieldValue(_ key: String, _ value: String, path: [String]) -> ImportedSpec.Text {
            guard ImportReport.isCredentialField(key),
                !Self.split(value).contains(where: { if case .variable = $0 { true } else { false } })
            else { return text(value, path: path, credential: ImportReport.isCredentialField(key)) }
            let variable = Self.environmentName(key)
            credentialVariables.add(variable)
            return .environment(variable, or: "")
        }

        /// A query value: literal, or a param for `{{var}}`, or a credential's variable.
        mutating func queryValue(
            _ value: String, key: String, path: [String], param: (String, String?) -> String
        ) -> ImportedSpec.Text {
            let pieces = Self.split(value)
            if CredentialNames.isCredential(name: key) {
                if pieces.contains(where: { if case .variable = $0 { true } else { false } }) {
                    return text(value, path: path, credential: true)
                }
                let variable = Self.environmentName(key)
                credentialVariables.add(variable)
                return .environment(variable, or: "")
            }
            var template = ""
            for piece in pieces {
                switch piece {
                case .text(let text): template += YAMLText.template(text)
                case .variable(let name) where name.hasPrefix("$"):
                    leave(path, "{{\(name)}}", "a dynamic variable is not carried; it is sent as text")
                    template += YAMLText.template("{{\(name)}}")
                case .variable(let name): template += param(name, defaultValue(of: name, credential: false))
                }
            }
            return ImportedSpec.Text([.data(template)])
        }

        /// The body as a task: raw text, a form, multipart, a file, or GraphQL as JSON.
        mutating func body(
            _ body: JSONValue?, contentType: inout String?, query: [ImportedSpec.Entry], path: [String],
            params: inout [ImportedSpec.Param]
        ) -> ImportedSpec.Task? {
            var paramNames = Set(params.map(\.name))
            guard let body, let mode = body["mode"]?.stringValue else {
                return query.isEmpty ? nil : .parameters([], encoding: "queryString", query: query)
            }
            if body["disabled"] == .bool(true) {
                leave(path, "body", "a disabled body is left out")
                return query.isEmpty ? nil : .parameters([], encoding: "queryString", query: query)
            }
            switch mode {
            case "raw":
                let raw = body["raw"].map(PostmanImporter.text) ?? ""
                let language = body["options"]?["raw"]?["language"]?.stringValue
                let type =
                    contentType
                    ?? [
                        "json": "application/json", "xml": "application/xml", "html": "text/html",
                        "javascript": "application/javascript",
                    ][language ?? ""] ?? "text/plain"
                contentType = nil
                // A JSON body that names params `export postman` declared is the spec's `json:`
                // again, each `"{{name}}"` its param; a type but JSON's is kept as a header.
                if declaredParams.keys.contains(where: { raw.contains("{{\($0)}}") }), JSONValue.isJSONMediaType(type),
                    let json = try? JSONValue(parsing: raw), let body = jsonTemplate(json, path: path, depth: 0)
                {
                    if type.lowercased() != "application/json" { contentType = type }
                    return .json(body, query: query)
                }
                // A credential-named member of a JSON body is read from a variable.
                if !raw.contains("{{"),
                    let body = ImportReport.withholdingCredentials(
                        inJSON: raw,
                        variable: { name in
                            let variable = Self.environmentName(name)
                            return .environment(variable, or: "")
                        })
                {
                    for name in Self.credentialMembers(raw) { credentialVariables.add(Self.environmentName(name)) }
                    return .text(body, contentType: type, query: query)
                }
                return .text(text(raw, path: path, templates: false), contentType: type, query: query)
            case "urlencoded":
                var entries: [ImportedSpec.Entry] = []
                for entry in body["urlencoded"]?.arrayValue ?? [] {
                    guard let key = entry["key"]?.stringValue else { continue }
                    if entry["disabled"] == .bool(true) {
                        leave(path, "form field \(key)", "a disabled form field is left out")
                        continue
                    }
                    entries.append(
                        ImportedSpec.Entry(
                            key: key, value: fieldValue(key, entry["value"].map(PostmanImporter.text) ?? "", path: path)
                        ))
                }
                if contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true {
                    contentType = nil
                }
                guard !entries.isEmpty else {
                    return query.isEmpty ? nil : .parameters([], encoding: "queryString", query: query)
                }
                return .parameters(entries, encoding: "httpBody", query: query)
            case "formdata":
                var parts: [ImportedSpec.Part] = []
                for entry in body["formdata"]?.arrayValue ?? [] {
                    guard let key = entry["key"]?.stringValue else { continue }
                    if entry["disabled"] == .bool(true) {
                        leave(path, "form field \(key)", "a disabled form field is left out")
                        continue
                    }
                    let type = entry["contentType"]?.stringValue
                    if entry["type"]?.stringValue == "file" {
                        let name = Names.param(key)
                        let source = entry["src"].map(PostmanImporter.text) ?? ""
                        if paramNames.insert(name).inserted {
                            params.append(
                                ImportedSpec.Param(
                                    name: name, type: "file",
                                    description: source.isEmpty ? "a file part" : "Postman sent the file \(source)",
                                    optional: false))
                        }
                        parts.append(ImportedSpec.Part(name: key, template: "{\(name)}", isFile: true, mimeType: type))
                    } else {
                        parts.append(
                            ImportedSpec.Part(
                                name: key,
                                template: fieldValue(key, entry["value"].map(PostmanImporter.text) ?? "", path: path),
                                isFile: false, mimeType: type))
                    }
                }
                if contentType?.lowercased().hasPrefix("multipart/") == true { contentType = nil }
                // A form with no field sends no body, as Postman does.
                guard !parts.isEmpty else {
                    return query.isEmpty ? nil : .parameters([], encoding: "queryString", query: query)
                }
                if contentType != nil {
                    leave(path, "header Content-Type", "a multipart form sends its own Content-Type with its boundary")
                    contentType = nil
                }
                return .multipart(parts, query: query)
            case "file":
                let name = "file"
                if paramNames.insert(name).inserted {
                    let source = body["file"]?["src"].map(PostmanImporter.text) ?? ""
                    params.append(
                        ImportedSpec.Param(
                            name: name, type: "file",
                            description: source.isEmpty ? "the body's file" : "Postman sent the file \(source)",
                            optional: false))
                }
                let type = contentType ?? "application/octet-stream"
                contentType = nil
                return .upload("{\(name)}", contentType: type, query: query)
            case "graphql":
                let graphql = body["graphql"]
                var members: [(key: String, value: JSONValue)] = [
                    ("query", .string(graphql?["query"].map(PostmanImporter.text) ?? ""))
                ]
                if let variables = graphql?["variables"].map(PostmanImporter.text), !variables.isEmpty {
                    members.append(("variables", (try? JSONValue(parsing: variables)) ?? .string(variables)))
                }
                contentType = nil
                return .text(
                    text(JSONValue.object(members).serialized(escapeSlashes: false), path: path, templates: false),
                    contentType: "application/json", query: query)
            default:
                leave(path, "body \(mode)", "the body mode \(mode) is not one Postman documents; it is left out")
                return query.isEmpty ? nil : .parameters([], encoding: "queryString", query: query)
            }
        }

        /// A saved example as a sample: its status, Content-Type and body, JSON when it is.
        mutating func sample(_ response: JSONValue, path: [String]) -> ImportedSpec.Sample? {
            let status = response["code"]?.numberValue.flatMap { Int(exactly: $0) } ?? 200
            guard (100...599).contains(status) else {
                leave(path + [response["name"]?.stringValue ?? "example"], "status \(status)", "not an HTTP status")
                return nil
            }
            var contentType: String?
            for (key, value, _) in Self.headers(response["header"]) where key.lowercased() == "content-type" {
                contentType = value
            }
            let body = response["body"].map(PostmanImporter.text) ?? ""
            var sample = ImportedSpec.Sample(status: status, json: nil, body: nil, contentType: contentType)
            if !body.isEmpty {
                if JSONValue.isJSONMediaType(contentType ?? ""), let json = try? JSONValue(parsing: body) {
                    sample.json = json
                    sample.contentType = nil
                } else {
                    sample.body = body
                }
            }
            return sample
        }

        // MARK: The spec

        func result(service: String, title: String?) -> Result {
            var report = self.report
            // The base URL most requests use.
            var counts: [ImportedSpec.Text: Int] = [:]
            for (_, base) in targets { counts[base, default: 0] += 1 }
            let common = targets.map(\.base).max { counts[$0, default: 0] < counts[$1, default: 0] }
            var spec = ImportedSpec(service: service, baseURL: common ?? "http://localhost")
            spec.comment = ["Imported by moya-cli import \(format)" + (title.map { " from \($0)" } ?? "") + "."]
                .map(SpecWriter.commentText)
            spec.auth = serviceAuth
            for (target, base) in targets {
                var target = target
                if let common, base != common { target.baseURL = base }
                // The collection's API key goes with each target that does not turn auth off.
                if target.auth != .disabled {
                    target.headers = Self.merged(target.headers + serviceAuthHeaders)
                    if !serviceAuthQuery.isEmpty { target.task = Self.adding(serviceAuthQuery, to: target.task) }
                }
                spec.targets.append(target)
            }
            // Environments: each is the base URL its values make, when the base URL reads any.
            for (file, environment) in environments {
                let name = Names.lowerCamel(environment.name ?? Names.stem(of: file), fallback: "environment")
                for key in environment.disabled { report.leave(file, key, "a disabled value is left out") }
                guard let base = common,
                    base.pieces.contains(where: { if case .environment = $0 { true } else { false } })
                else {
                    report.leave(
                        file, "environment \(name)",
                        "the base URL reads no variable, so the environment changes nothing a spec's environment can hold; set its variables before calling"
                    )
                    continue
                }
                var pieces: [ImportedSpec.Text.Piece] = []
                for piece in base.pieces {
                    guard case .environment(let variable, let fallback) = piece else {
                        pieces.append(piece)
                        continue
                    }
                    let found = environment.values.first { Self.environmentName($0.key) == variable }
                    if let found, !found.secret {
                        pieces.append(.data(found.value))
                    } else {
                        pieces.append(.environment(name: variable, fallback: fallback))
                    }
                }
                spec.environments.append((name, ImportedSpec.Text(pieces)))
                for value in environment.values
                where !SpecWriter.text(base).contains("${\(Self.environmentName(value.key))") {
                    let variable = Self.environmentName(value.key)
                    let reason: String
                    if value.secret {
                        reason = "a secret is never written; set \(variable) before calling"
                    } else if paramVariables.contains(value.key) {
                        let shown = CredentialNames.isCredential(name: value.key) ? "" : " " + value.value
                        reason =
                            "it is the param \(Names.param(value.key)); pass --\(Names.param(value.key))\(shown) with --env \(name)"
                    } else if environmentVariables.contains(value.key) {
                        reason =
                            "a spec's environment holds a base URL and headers; set \(variable) before calling with --env \(name)"
                    } else {
                        reason = "no request uses it"
                    }
                    report.leave(file, value.key, reason)
                }
            }
            report.targets = spec.targets.count
            report.services = spec.targets.isEmpty ? 0 : 1
            report.variables = credentialVariables.list
            return Result(spec: SpecWriter.write(spec), service: service, report: report)
        }

        static func adding(_ query: [ImportedSpec.Entry], to task: ImportedSpec.Task?) -> ImportedSpec.Task {
            switch task {
            case .parameters(let entries, let encoding, let extra)?:
                .parameters(entries, encoding: encoding, query: extra + query)
            case .data(let text, let type, let extra)?: .data(text, contentType: type, query: extra + query)
            case .text(let text, let type, let extra)?: .text(text, contentType: type, query: extra + query)
            case .multipart(let parts, let extra)?: .multipart(parts, query: extra + query)
            case .upload(let file, let type, let extra)?: .upload(file, contentType: type, query: extra + query)
            case .json(let body, let extra)?: .json(body, query: extra + query)
            case nil: .parameters([], encoding: "queryString", query: query)
            }
        }

        /// A header given twice is one, its values joined as RFC 9110 joins them.
        static func merged(_ headers: [ImportedSpec.Entry]) -> [ImportedSpec.Entry] {
            var merged: [ImportedSpec.Entry] = []
            var index: [String: Int] = [:]
            for header in headers {
                let key = header.key.lowercased()
                if let at = index[key] {
                    merged[at].value.pieces.append(.data(", "))
                    merged[at].value.pieces += header.value.pieces
                } else {
                    index[key] = merged.count
                    merged.append(header)
                }
            }
            return merged
        }

        /// Headers as v2.1 (a list of { key, value, disabled }) or v2.0 (also a `Key: value`
        /// text, one per line) writes them.
        static func headers(_ value: JSONValue?) -> [(String, String, Bool)] {
            if let text = value?.stringValue {
                return text.split(whereSeparator: \.isNewline).compactMap {
                    (line: Substring) -> (String, String, Bool)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (
                        String(line[..<colon]).trimmingBlanks, String(line[line.index(after: colon)...]).trimmingBlanks,
                        false
                    )
                }
            }
            return (value?.arrayValue ?? []).compactMap { entry in
                guard let key = entry["key"]?.stringValue, !key.isEmpty else { return nil }
                return (key, entry["value"].map(PostmanImporter.text) ?? "", entry["disabled"] == .bool(true))
            }
        }

        /// A description: text, or v2.1's `{ content, type }`.
        static func description(_ value: JSONValue) -> String? {
            value.stringValue ?? value["content"]?.stringValue
        }

        /// A URL object with no `raw`, put together from its parts.
        static func rawURL(_ url: JSONValue) -> String {
            let scheme = url["protocol"]?.stringValue.map { $0 + "://" } ?? ""
            let host =
                url["host"]?.arrayValue?.compactMap(\.stringValue).joined(separator: ".") ?? url["host"]?.stringValue
                ?? ""
            let port = url["port"]?.stringValue.map { ":" + $0 } ?? ""
            let path =
                url["path"]?.arrayValue?.compactMap(\.stringValue).joined(separator: "/") ?? url["path"]?.stringValue
                ?? ""
            let trimmedHost = host.hasSuffix("/") ? String(host.dropLast()) : host
            let trimmedPath = path.hasPrefix("/") ? String(path.dropFirst()) : path
            return scheme + trimmedHost + port + (trimmedPath.isEmpty ? "" : "/" + trimmedPath)
        }
    }

    /// A raw URL split as Postman writes it: the base (scheme, host, port, where `{{…}}` may
    /// stand), the path and the query; the fragment is not sent.
    struct URLParts {
        var base: String
        var path: String
        var query: Substring?
        var user: String?
        var password: String?

        init?(_ raw: String) {
            var rest = Substring(raw.trimmingBlanks)
            if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
            var scheme = "http://"
            if rest.hasPrefix("//") { rest = rest.dropFirst(2) }
            if let range = rest.range(of: "://") {
                let written = rest[..<range.lowerBound].lowercased()
                guard written == "http" || written == "https" || written.hasPrefix("{{") else { return nil }
                scheme = written.hasPrefix("{{") ? String(rest[..<range.upperBound]) : written + "://"
                rest = rest[range.upperBound...]
            } else if rest.hasPrefix("{{") {
                // `{{baseUrl}}/path`: the variable holds the scheme and host.
                scheme = ""
            }
            // The authority ends at the first `/` or `?` outside `{{…}}`.
            var index = rest.startIndex
            var depth = 0
            while index < rest.endIndex {
                if rest[index...].hasPrefix("{{") {
                    depth += 1
                    index = rest.index(index, offsetBy: 2)
                    continue
                }
                if rest[index...].hasPrefix("}}"), depth > 0 {
                    depth -= 1
                    index = rest.index(index, offsetBy: 2)
                    continue
                }
                if depth == 0, rest[index] == "/" || rest[index] == "?" { break }
                index = rest.index(after: index)
            }
            var authority = rest[..<index]
            // `user:password@`: carried as basic auth, never as text.
            if let at = authority.lastIndex(of: "@") {
                let userinfo = authority[..<at]
                user = String(userinfo.prefix { $0 != ":" })
                password = userinfo.contains(":") ? String(userinfo.drop { $0 != ":" }.dropFirst()) : nil
                authority = authority[authority.index(after: at)...]
            }
            guard !authority.isEmpty else { return nil }
            base = scheme + authority
            rest = rest[index...]
            if let mark = rest.firstIndex(of: "?") {
                query = rest[rest.index(after: mark)...]
                rest = rest[..<mark]
            }
            path = rest.isEmpty ? "/" : String(rest)
        }
    }
}

extension StringProtocol {
    /// The text without spaces and tabs at either end.
    var trimmingBlanks: String {
        CurlCommand.trimmed(Substring(self))
    }
}

extension JSONValue {
    /// The elements of an array; nil for anything else.
    var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members of an object, in order; nil for anything else.
    var objectValue: [(key: String, value: JSONValue)]? {
        if case .object(let members) = self { return members }
        return nil
    }
}
