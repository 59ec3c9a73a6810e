import MoyaHTTP
import MoyaSpec

/// `moya-cli import insomnia`: an Insomnia export, v2–v4 (`resources`, JSON or YAML) or v5
/// (`type: spec.insomnia.rest/5.0`, YAML), as one spec per workspace. Insomnia's model is
/// Postman's with other names, so each workspace is put in Postman's v2.1 shape and imported
/// by `PostmanImporter`, with Insomnia's rules where they differ: a GET's body is sent, the
/// base environment's values are the defaults, each sub-environment is an environment, and
/// `{{ _.name }}` is a variable. Template tags (`{% response %}`, `{% uuid %}`, …) are kept as
/// text and reported.
public enum InsomniaImporter {
    /// One workspace's spec.
    public typealias Workspace = ImportedCollection

    public static func importExport(_ data: [UInt8], file: String, service: String?) throws(PostmanImporter.Refusal)
        -> [Workspace]
    {
        let document: JSONValue
        do {
            document = try OpenAPIReader.parse(data)
        } catch {
            throw PostmanImporter.Refusal(message: "\(file) is neither JSON nor YAML: \(error.message)")
        }
        var translator = Translator(file: file)
        let workspaces: [(name: String, collection: JSONValue, environments: [PostmanImporter.Variables])]
        if document["type"]?.stringValue?.hasPrefix("spec.insomnia.rest/5") == true
            || document["type"]?.stringValue?.hasPrefix("collection.insomnia.rest/5") == true
        {
            workspaces = [translator.version5(document)]
        } else if let format = document["__export_format"]?.numberValue,
            let resources = document["resources"]?.arrayValue
        {
            guard format >= 2 else {
                throw PostmanImporter.Refusal(
                    message:
                        "\(file) is an Insomnia export of format \(Int(exactly: format).map(String.init) ?? String(format)); moya-cli reads formats 2 to 5"
                )
            }
            workspaces = translator.resources(resources)
        } else if document["__export_format"]?.numberValue == 1 {
            throw PostmanImporter.Refusal(
                message:
                    "\(file) is an Insomnia export of format 1, which moya-cli does not read; export it again from Insomnia"
            )
        } else if let type = document["type"]?.stringValue, type.contains("insomnia") {
            throw PostmanImporter.Refusal(
                message: "\(file) is an Insomnia \(type) file, which holds no collection of requests")
        } else {
            throw PostmanImporter.Refusal(
                message: "\(file) is not an Insomnia export: it has no resources or collection")
        }
        return workspaces.map { workspace in
            // Several workspaces are several services, each named after its workspace.
            let name = workspaces.count > 1 ? service.map { $0 + " " + workspace.name } : service
            var result = PostmanImporter.importDocument(
                workspace.collection, file: file,
                environments: workspace.environments.map { (file: file, variables: $0) },
                service: name, format: "insomnia", prunesBodies: false)
            for left in translator.leftOut[workspace.name] ?? [] {
                result.report.leave(left.place, left.what, left.reason)
            }
            if workspace.name == workspaces.first?.name { result.report.requests += translator.orphans }
            return result
        }
    }

    /// Insomnia's items in Postman's v2.1 shape.
    struct Translator {
        let file: String
        /// What the translation itself leaves out, by workspace.
        var leftOut: [String: [ImportReport.Item]] = [:]
        var workspace = ""
        /// The values folders' environments set, with their folders.
        var folderValues: [(variable: JSONValue, path: [String])] = []
        /// The requests reached from a workspace, and how many were not (their parent is no
        /// group under one): those are reported, with the first workspace's.
        var reached: Set<String> = []
        var orphans = 0

        init(file: String) { self.file = file }

        /// The workspace's variables, and the folders' values where the workspace has none;
        /// a folder's value that differs from one already taken is reported.
        mutating func merging(_ variables: [JSONValue]) -> [JSONValue] {
            var merged = variables
            for (variable, path) in folderValues {
                let key = variable["key"]?.stringValue ?? ""
                if let existing = merged.first(where: { $0["key"]?.stringValue == key }) {
                    if existing["value"] != variable["value"] {
                        leave(
                            path, key,
                            "a folder's own value is not carried; the spec's default is the workspace's or an earlier folder's"
                        )
                    }
                } else {
                    merged.append(variable)
                }
            }
            folderValues = []
            return merged
        }

        mutating func leave(_ path: [String], _ what: String, _ reason: String) {
            let place = path.isEmpty ? file : "\(file): \(path.joined(separator: " / "))"
            leftOut[workspace, default: []].append(ImportReport.Item(place: place, what: what, reason: reason))
        }

        // MARK: v2–v4

        mutating func resources(_ resources: [JSONValue]) -> [(String, JSONValue, [PostmanImporter.Variables])] {
            var children: [String: [JSONValue]] = [:]
            for resource in resources {
                children[resource["parentId"]?.stringValue ?? "", default: []].append(resource)
            }
            var workspaces = resources.filter { $0["_type"]?.stringValue == "workspace" }
            // An export of requests alone hangs them under a workspace that is not in it.
            if workspaces.isEmpty {
                let ids = Set(resources.compactMap { $0["_id"]?.stringValue })
                let roots = Set(resources.compactMap { $0["parentId"]?.stringValue }).subtracting(ids)
                workspaces = roots.sorted().map { .object([("_id", .string($0)), ("name", .string("Insomnia"))]) }
            }
            defer {
                workspace = workspaces.first?["name"]?.stringValue ?? "Insomnia"
                for resource in resources where resource["_type"]?.stringValue == "request" {
                    guard let id = resource["_id"]?.stringValue, !reached.contains(id) else { continue }
                    orphans += 1
                    leave(
                        [resource["name"]?.stringValue ?? id], "request",
                        "its parent is neither a workspace nor a request group in one; it is left out")
                }
            }
            return workspaces.map { workspace in
                let id = workspace["_id"]?.stringValue ?? ""
                let name = workspace["name"]?.stringValue ?? "Insomnia"
                self.workspace = name
                // The base environment's values are the defaults; its children are environments.
                var variables: [JSONValue] = []
                var environments: [PostmanImporter.Variables] = []
                for base in (children[id] ?? []) where base["_type"]?.stringValue == "environment" {
                    variables += Self.variables(base["data"])
                    for sub in children[base["_id"]?.stringValue ?? ""] ?? []
                    where sub["_type"]?.stringValue == "environment" {
                        environments.append(Self.environment(sub))
                    }
                }
                let items = self.items(under: id, children: children, path: [])
                let collection: JSONValue = .object([
                    ("info", .object([("name", .string(name))])), ("variable", .array(merging(variables))),
                    ("item", .array(items)),
                ])
                return (name, collection, environments)
            }
        }

        /// The items under `parent`. An export is a stranger's file: a group is read once, so a
        /// cycle of parents ends, and at most 64 groups deep.
        mutating func items(
            under parent: String, children: [String: [JSONValue]], path: [String], seen: Set<String> = []
        ) -> [JSONValue] {
            var items: [JSONValue] = []
            for resource in children[parent] ?? [] {
                let name = resource["name"]?.stringValue ?? "request"
                switch resource["_type"]?.stringValue {
                case "request_group":
                    let id = resource["_id"]?.stringValue ?? ""
                    guard !seen.contains(id), id != parent, path.count < 64 else {
                        leave(
                            path + [name], "request group",
                            "it is its own ancestor or 64 groups deep; what it holds is left out")
                        continue
                    }
                    let inner = self.items(
                        under: id, children: children, path: path + [name], seen: seen.union([parent, id]))
                    var folder: [(key: String, value: JSONValue)] = [("name", .string(name)), ("item", .array(inner))]
                    if let auth = resource["authentication"].flatMap({ self.auth($0, path: path + [name]) }) {
                        folder.append(("auth", auth))
                    }
                    folderValues += Self.variables(resource["environment"]).map { ($0, path + [name]) }
                    items.append(.object(folder))
                case "request":
                    if let id = resource["_id"]?.stringValue { reached.insert(id) }
                    items.append(request(resource, path: path + [name]))
                case "grpc_request", "websocket_request", "socketio_request", "mcp_request":
                    leave(
                        path + [name], "request", "a \(resource["_type"]?.stringValue ?? "") has no place in a spec yet"
                    )
                    items.append(.object([("name", .string(name))]))
                default:
                    break
                }
            }
            return items
        }

        // MARK: v5

        mutating func version5(_ document: JSONValue) -> (String, JSONValue, [PostmanImporter.Variables]) {
            let name = document["name"]?.stringValue ?? "Insomnia"
            workspace = name
            var variables: [JSONValue] = []
            var environments: [PostmanImporter.Variables] = []
            if let base = document["environments"] {
                variables = Self.variables(base["data"])
                for sub in base["subEnvironments"]?.arrayValue ?? [] { environments.append(Self.environment(sub)) }
            }
            let items = version5Items(document["collection"]?.arrayValue ?? [], path: [])
            let collection: JSONValue = .object([
                ("info", .object([("name", .string(name))])), ("variable", .array(merging(variables))),
                ("item", .array(items)),
            ])
            return (name, collection, environments)
        }

        mutating func version5Items(_ list: [JSONValue], path: [String]) -> [JSONValue] {
            list.map { item in
                let name = item["name"]?.stringValue ?? "request"
                // A folder: its children, or none (an empty folder has no URL and no method).
                let isFolder =
                    item["children"] != nil || item["meta"]?["id"]?.stringValue?.hasPrefix("fld_") == true
                    || (item["url"] == nil && item["method"] == nil)
                if isFolder {
                    let children = item["children"]?.arrayValue ?? []
                    folderValues += Self.variables(item["environment"]).map { ($0, path + [name]) }
                    var folder: [(key: String, value: JSONValue)] = [
                        ("name", .string(name)), ("item", .array(version5Items(children, path: path + [name]))),
                    ]
                    if let auth = item["authentication"].flatMap({ self.auth($0, path: path + [name]) }) {
                        folder.append(("auth", auth))
                    }
                    if let scripts = item["scripts"], Self.hasScript(scripts) {
                        leave(path + [name], "scripts", "the folder's scripts are never run")
                    }
                    return .object(folder)
                }
                return request(item, path: path + [name])
            }
        }

        // MARK: Requests

        /// One request in Postman's shape.
        mutating func request(_ resource: JSONValue, path: [String]) -> JSONValue {
            var request: [(key: String, value: JSONValue)] = [
                ("method", .string(resource["method"]?.stringValue ?? "GET"))
            ]
            let url = text(resource["url"]?.stringValue ?? "", path: path)
            var query: [JSONValue] = []
            for parameter in resource["parameters"]?.arrayValue ?? [] {
                guard let name = parameter["name"]?.stringValue else { continue }
                query.append(
                    .object([
                        ("key", .string(text(name, path: path))),
                        ("value", .string(text(parameter["value"].map(PostmanImporter.text) ?? "", path: path))),
                        ("disabled", .bool(parameter["disabled"] == .bool(true))),
                    ]))
            }
            // Parameters are Insomnia's query; the URL's own query stays in its text.
            let (base, urlQuery) = Self.splitQuery(url)
            var pairs: [JSONValue] = []
            for pair in urlQuery.split(separator: "&") where !pair.isEmpty {
                let key = pair.prefix { $0 != "=" }
                let value = pair.contains("=") ? pair.drop { $0 != "=" }.dropFirst() : ""
                pairs.append(
                    .object([
                        ("key", .string(PercentEncoding.decode(key, plusIsSpace: true))),
                        ("value", .string(PercentEncoding.decode(value, plusIsSpace: true))),
                    ]))
            }
            request.append(("url", .object([("raw", .string(base)), ("query", .array(pairs + query))])))
            var headers: [JSONValue] = []
            for header in resource["headers"]?.arrayValue ?? [] {
                guard let name = header["name"]?.stringValue else { continue }
                headers.append(
                    .object([
                        ("key", .string(name)),
                        ("value", .string(text(header["value"].map(PostmanImporter.text) ?? "", path: path))),
                        ("disabled", .bool(header["disabled"] == .bool(true))),
                    ]))
            }
            if let body = resource["body"], let translated = self.body(body, path: path, headers: &headers) {
                request.append(("body", translated))
            }
            request.append(("header", .array(headers)))
            if let authentication = resource["authentication"], let auth = self.auth(authentication, path: path) {
                request.append(("auth", auth))
            }
            if let description = resource["description"]?.stringValue ?? resource["meta"]?["description"]?.stringValue,
                !description.isEmpty
            {
                request.append(("description", .string(description)))
            }
            let followRedirects =
                resource["settings"]?["followRedirects"]?.stringValue ?? resource["settingFollowRedirects"]?.stringValue
            if followRedirects == "off" {
                request.append(("protocolProfileBehavior", .object([("followRedirects", .bool(false))])))
            }
            if let scripts = resource["scripts"], Self.hasScript(scripts) {
                leave(path, "scripts", "the request's scripts are never run; what they set or test is not carried")
            }
            if let pre = resource["preRequestScript"]?.stringValue, !pre.allSatisfy(\.isWhitespace) {
                leave(path, "scripts", "the request's scripts are never run")
            }
            return .object([("name", .string(path.last ?? "request")), ("request", .object(request))])
        }

        static func hasScript(_ scripts: JSONValue) -> Bool {
            (scripts.objectValue ?? []).contains {
                $0.value.stringValue.map { !$0.allSatisfy(\.isWhitespace) } ?? false
            }
        }

        /// Insomnia's body in Postman's shape; a JSON or text body's `Content-Type` is the
        /// `mimeType` unless a header sets one.
        mutating func body(_ body: JSONValue, path: [String], headers: inout [JSONValue]) -> JSONValue? {
            // v2 writes a body as text.
            if let raw = body.stringValue {
                return raw.isEmpty ? nil : .object([("mode", .string("raw")), ("raw", .string(text(raw, path: path)))])
            }
            let type = body["mimeType"]?.stringValue ?? ""
            func setType(_ value: String) {
                if !headers.contains(where: { $0["key"]?.stringValue?.lowercased() == "content-type" }), !value.isEmpty
                {
                    headers.append(.object([("key", .string("Content-Type")), ("value", .string(value))]))
                }
            }
            if let params = body["params"]?.arrayValue {
                let fields: [JSONValue] = params.map { param in
                    var field: [(key: String, value: JSONValue)] = [
                        ("key", .string(param["name"]?.stringValue ?? "")),
                        ("disabled", .bool(param["disabled"] == .bool(true))),
                    ]
                    if param["type"]?.stringValue == "file" || param["fileName"]?.stringValue != nil {
                        field += [("type", .string("file")), ("src", .string(param["fileName"]?.stringValue ?? ""))]
                    } else {
                        field += [
                            ("type", .string("text")),
                            ("value", .string(text(param["value"].map(PostmanImporter.text) ?? "", path: path))),
                        ]
                    }
                    return .object(field)
                }
                if type.hasPrefix("multipart/") {
                    return .object([("mode", .string("formdata")), ("formdata", .array(fields))])
                }
                return .object([("mode", .string("urlencoded")), ("urlencoded", .array(fields))])
            }
            if let fileName = body["fileName"]?.stringValue {
                setType(type)
                return .object([("mode", .string("file")), ("file", .object([("src", .string(fileName))]))])
            }
            guard let raw = body["text"]?.stringValue else { return nil }
            setType(type == "application/graphql" ? "application/json" : type)
            return .object([("mode", .string("raw")), ("raw", .string(text(raw, path: path)))])
        }

        /// Insomnia's authentication in Postman's shape; nil for none given.
        mutating func auth(_ auth: JSONValue, path: [String]) -> JSONValue? {
            // Formats 2 and 3 write basic credentials with no type.
            let type = auth["type"]?.stringValue ?? (auth["username"] != nil ? "basic" : nil)
            guard let type else { return nil }
            if auth["disabled"] == .bool(true) { return .object([("type", .string("noauth"))]) }
            func entries(_ pairs: [(String, String)]) -> JSONValue {
                .array(pairs.map { .object([("key", .string($0.0)), ("value", .string(text($0.1, path: path)))]) })
            }
            func value(_ key: String) -> String { auth[key].map(PostmanImporter.text) ?? "" }
            switch type {
            case "none": return .object([("type", .string("noauth"))])
            case "basic":
                return .object([
                    ("type", .string("basic")),
                    ("basic", entries([("username", value("username")), ("password", value("password"))])),
                ])
            case "bearer":
                if !value("prefix").isEmpty, value("prefix").lowercased() != "bearer" {
                    leave(path, "auth prefix \(value("prefix"))", "a bearer token is sent after Bearer")
                }
                return .object([("type", .string("bearer")), ("bearer", entries([("token", value("token"))]))])
            case "apikey":
                return .object([
                    ("type", .string("apikey")),
                    (
                        "apikey",
                        entries([
                            ("key", value("key")), ("value", value("value")),
                            ("in", value("addTo") == "queryParams" ? "query" : "header"),
                        ])
                    ),
                ])
            default:
                // Reported by the Postman importer as a scheme moya-cli lacks.
                return .object([("type", .string(type == "iam" ? "awsv4" : type))])
            }
        }

        /// Nunjucks' `{{ _.name }}` and `{{ name }}` as `{{name}}`; a `{% tag %}` kept and reported.
        mutating func text(_ source: String, path: [String]) -> String {
            if source.contains("{%") {
                leave(
                    path, "template tag", "Insomnia's template tags ({% … %}) are not run; the text is sent as written")
            }
            return source.replacing(/\{\{\s*(?:_\.)?([A-Za-z_][A-Za-z0-9_\-]*)\s*\}\}/) { "{{\($0.1)}}" }
        }

        static func splitQuery(_ url: String) -> (String, Substring) {
            guard let mark = url.firstIndex(of: "?") else { return (url, "") }
            let hash = url[mark...].firstIndex(of: "#") ?? url.endIndex
            return (String(url[..<mark]), url[url.index(after: mark)..<hash])
        }

        /// An environment's data as Postman's variables; a nested object is its JSON text.
        static func variables(_ data: JSONValue?) -> [JSONValue] {
            (data?.objectValue ?? []).map { member in
                .object([("key", .string(member.key)), ("value", .string(PostmanImporter.text(member.value)))])
            }
        }

        static func environment(_ environment: JSONValue) -> PostmanImporter.Variables {
            var variables = PostmanImporter.Variables(name: environment["name"]?.stringValue)
            for member in environment["data"]?.objectValue ?? [] {
                variables.values.append((member.key, PostmanImporter.text(member.value), false))
            }
            return variables
        }
    }
}
