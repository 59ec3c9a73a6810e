import MoyaHTTP
import MoyaSpec

/// `moya-cli import bruno` of Bruno's YAML format, OpenCollection: a folder with
/// `opencollection.yml` (the collection: its request defaults, environments), a `.yml` file per
/// request, `folder.yml` per folder and `environments/*.yml`; or one bundled document
/// (`opencollection: 1.0.0` with its `items`). Items are put in Postman's shape and imported by
/// `PostmanImporter`, as `.bru` files are: folders are name prefixes, `runtime.assertions`
/// become the check's `expect:` by the `.bru` `assert` mapping, and each thing not carried is
/// reported with its file (and its item path in a bundled document). Scripts are never run.
public enum OpenCollectionImporter {
    /// A YAML file of the collection's folder: its path inside the folder, and its bytes.
    public struct File: Sendable {
        public var path: String
        public var bytes: [UInt8]

        public init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }
    }

    /// Whether a parsed document is an OpenCollection one (its `opencollection` version, or
    /// its `items`).
    public static func isOpenCollection(_ document: JSONValue) -> Bool {
        document["opencollection"] != nil
    }

    /// A bundled document: the collection and its items in one file.
    public static func importDocument(_ data: [UInt8], file: String, service: String?) throws(ImportRefusal)
        -> ImportedCollection
    {
        let document: JSONValue
        do {
            document = try OpenAPIReader.parse(data)
        } catch {
            throw ImportRefusal(message: "\(file) is not YAML: \(error.message)")
        }
        guard isOpenCollection(document) else {
            throw ImportRefusal(
                message: "\(file) is no OpenCollection document (it has no opencollection: version); "
                    + "give a Bruno collection's folder or an OpenCollection file")
        }
        var translator = Translator(file: file)
        let items = translator.items(document["items"]?.arrayValue ?? [], place: nil, path: [])
        return translator.finish(document, items: items, environments: [], service: service)
    }

    /// A folder with `opencollection.yml`.
    public static func importFolder(_ files: [File], folder: String, service: String?) -> ImportedCollection {
        var translator = Translator(file: folder)
        var parsed: [String: JSONValue] = [:]
        for file in files {
            do {
                parsed[file.path] = try OpenAPIReader.parse(file.bytes)
            } catch {
                translator.leave("\(file.path):1", "file", "it is not YAML: \(error.message)")
                if !file.path.hasPrefix("environments/"), Names.fileName(of: file.path) != "folder.yml",
                    file.path != "opencollection.yml"
                {
                    translator.unread += 1
                }
            }
        }
        let root = parsed["opencollection.yml"] ?? .object([])
        // Requests, by folder: each file but the collection's, folders' and environments'.
        var tree = Tree()
        for (path, document) in parsed.sorted(by: { $0.key < $1.key })
        where path != "opencollection.yml" && !path.hasPrefix("environments/")
            && Names.fileName(of: path) != "folder.yml"
        {
            // A request file says what it is (`info`, `http`); another YAML file is no item.
            guard document["info"]?.objectValue != nil || document["http"] != nil else {
                translator.leave("\(path):1", "file", "it is no OpenCollection item (it has no info: or http:)")
                continue
            }
            let folders = path.split(separator: "/").dropLast().map(String.init)
            tree.insert(document, file: path, folders: folders[...])
        }
        func items(of node: Tree, path: [String]) -> [JSONValue] {
            var entries: [(seq: Double, name: String, item: JSONValue)] = []
            for (file, document) in node.files {
                let name = document["info"]?["name"]?.stringValue ?? Names.stem(of: file)
                if let item = translator.item(document, place: "\(file):1", path: path + [name]) {
                    entries.append((document["info"]?["seq"]?.numberValue ?? .infinity, name, item))
                }
            }
            for (name, child) in node.children {
                let own = parsed[child.folderPath + "/folder.yml"] ?? .object([])
                let title = own["info"]?["name"]?.stringValue ?? name
                var folder: [(key: String, value: JSONValue)] = [
                    ("name", .string(title)), ("item", .array(items(of: child, path: path + [title]))),
                ]
                folder += translator.defaults(own["request"], place: child.folderPath + "/folder.yml")
                entries.append((own["info"]?["seq"]?.numberValue ?? .infinity, title, .object(folder)))
            }
            return entries.sorted { ($0.seq, $0.name) < ($1.seq, $1.name) }.map(\.item)
        }
        let environments = parsed.filter { $0.key.hasPrefix("environments/") }.sorted { $0.key < $1.key }
            .map { (file: $0.key, environment: $0.value) }
        return translator.finish(
            root, items: items(of: tree, path: []), environments: environments, service: service,
            title: Names.fileName(of: folder))
    }

    /// The folder's requests as a tree of folders.
    struct Tree {
        var folderPath = ""
        var files: [(String, JSONValue)] = []
        var children: [(String, Tree)] = []

        mutating func insert(_ document: JSONValue, file: String, folders: ArraySlice<String>) {
            guard let first = folders.first else {
                files.append((file, document))
                return
            }
            if let index = children.firstIndex(where: { $0.0 == first }) {
                children[index].1.insert(document, file: file, folders: folders.dropFirst())
            } else {
                var child = Tree(folderPath: folderPath.isEmpty ? first : folderPath + "/" + first)
                child.insert(document, file: file, folders: folders.dropFirst())
                children.append((first, child))
            }
        }
    }

    struct Translator {
        let file: String
        var leftOut: [ImportReport.Item] = []
        /// Requests read but not imported (another protocol): counted, and reported.
        var unread = 0

        init(file: String) { self.file = file }

        mutating func leave(_ place: String, _ what: String, _ reason: String) {
            leftOut.append(ImportReport.Item(place: place, what: what, reason: reason))
        }

        /// Where an item is: its file's line, or the bundled document's item path.
        func place(_ place: String?, _ path: [String]) -> String {
            place ?? "\(file): \(path.joined(separator: " / "))"
        }

        /// A bundled document's items: requests and folders, in order, at most 16 folders deep.
        mutating func items(_ items: [JSONValue], place: String?, path: [String]) -> [JSONValue] {
            var made: [JSONValue] = []
            guard path.count < 16 else {
                // Its requests are counted, without recursion, as read and not carried.
                var stack = items
                var requests = 0
                while let item = stack.popLast() {
                    if let inner = item["items"]?.arrayValue { stack += inner } else { requests += 1 }
                }
                unread += requests
                leave(
                    self.place(place, path), "folder",
                    "it is more than 16 folders deep; the requests it holds (\(requests)) are left out")
                return []
            }
            for item in items {
                let name = item["info"]?["name"]?.stringValue ?? item["name"]?.stringValue ?? "request"
                if item["info"]?["type"]?.stringValue == "folder" || item["items"] != nil {
                    var folder: [(key: String, value: JSONValue)] = [
                        ("name", .string(name)),
                        (
                            "item",
                            .array(self.items(item["items"]?.arrayValue ?? [], place: place, path: path + [name]))
                        ),
                    ]
                    folder += defaults(item["request"], place: self.place(place, path + [name]))
                    made.append(.object(folder))
                } else if let request = self.item(item, place: place, path: path + [name]) {
                    made.append(request)
                }
            }
            return made
        }

        /// A folder's or the collection's request defaults: auth, and headers (reported, as a
        /// spec sends a collection's headers per target). Scripts are reported.
        mutating func defaults(_ request: JSONValue?, place: String) -> [(key: String, value: JSONValue)] {
            guard let request else { return [] }
            var members: [(key: String, value: JSONValue)] = []
            if let auth = request["auth"], let made = self.auth(auth) { members.append(("auth", made)) }
            if let scripts = request["scripts"]?.arrayValue, !scripts.isEmpty {
                leave(place, "scripts", "a script is never run")
            }
            if let headers = request["headers"]?.arrayValue, !headers.isEmpty {
                members.append(("x-moya-headers", .array(Self.headers(headers))))
            }
            return members
        }

        static func headers(_ list: [JSONValue]) -> [JSONValue] {
            list.compactMap { header in
                guard let name = header["name"]?.stringValue else { return nil }
                return .object([
                    ("key", .string(name)), ("value", .string(header["value"].map(PostmanImporter.text) ?? "")),
                    ("disabled", .bool(header["disabled"] == .bool(true))),
                ])
            }
        }

        /// An auth object in Postman's shape; `inherit` as nothing.
        mutating func auth(_ auth: JSONValue) -> JSONValue? {
            if auth.stringValue == "inherit" { return nil }
            func list(_ pairs: [(String, String)]) -> JSONValue {
                .array(pairs.map { .object([("key", .string($0.0)), ("value", .string($0.1))]) })
            }
            func value(_ key: String) -> String { auth[key].map(PostmanImporter.text) ?? "" }
            switch auth["type"]?.stringValue ?? auth["mode"]?.stringValue {
            case "bearer"?:
                return .object([("type", .string("bearer")), ("bearer", list([("token", value("token"))]))])
            case "basic"?:
                return .object([
                    ("type", .string("basic")),
                    ("basic", list([("username", value("username")), ("password", value("password"))])),
                ])
            case "apikey"?:
                let placement = auth["placement"]?.stringValue
                return .object([
                    ("type", .string("apikey")),
                    (
                        "apikey",
                        list([
                            ("key", value("key")), ("value", value("value")),
                            ("in", placement == "query" || placement == "queryparams" ? "query" : "header"),
                        ])
                    ),
                ])
            case "none"?: return .object([("type", .string("noauth"))])
            case let type?: return .object([("type", .string(type))])
            case nil: return nil
            }
        }

        /// One request item in Postman's shape; nil, reported, for another protocol's.
        mutating func item(_ item: JSONValue, place givenPlace: String?, path: [String]) -> JSONValue? {
            let place = self.place(givenPlace, path)
            let name = path.last ?? "request"
            let type = item["info"]?["type"]?.stringValue ?? (item["graphql"] != nil ? "graphql" : "http")
            guard type == "http" || type == "graphql", let http = item[type] ?? item["http"] else {
                leave(place, "request", "a \(type) request is not HTTP; it has no place in a spec yet")
                unread += 1
                return nil
            }
            var request: [(key: String, value: JSONValue)] = [
                ("method", .string((http["method"]?.stringValue ?? (type == "graphql" ? "POST" : "GET")).uppercased()))
            ]
            var url: [(key: String, value: JSONValue)] = [
                ("raw", .string((http["url"]?.stringValue ?? "").replacing(/\?.*$/, with: "")))
            ]
            var query: [JSONValue] = []
            var pathVariables: [JSONValue] = []
            for param in http["params"]?.arrayValue ?? [] {
                guard let key = param["name"]?.stringValue else { continue }
                let value = param["value"].map(PostmanImporter.text) ?? ""
                if param["type"]?.stringValue == "path" {
                    pathVariables.append(.object([("key", .string(key)), ("value", .string(value))]))
                } else {
                    query.append(
                        .object([
                            ("key", .string(key)), ("value", .string(value)),
                            ("disabled", .bool(param["disabled"] == .bool(true))),
                        ]))
                }
            }
            if !pathVariables.isEmpty { url.append(("variable", .array(pathVariables))) }
            url.append(("query", .array(query)))
            request.append(("url", .object(url)))
            var headers = Self.headers(http["headers"]?.arrayValue ?? [])
            if let body = self.body(http["body"], type: type, headers: &headers, place: place) {
                request.append(("body", body))
            }
            request.append(("header", .array(headers)))
            if let auth = http["auth"] ?? item["runtime"]?["auth"], let made = self.auth(auth) {
                request.append(("auth", made))
            }
            if let docs = Self.text(item["docs"]), !docs.isEmpty {
                request.append(("description", .string(docs)))
            }
            var members: [(key: String, value: JSONValue)] = [("name", .string(name)), ("request", .object(request))]
            if let givenPlace { members.append(("x-moya-place", .string(givenPlace))) }
            // Assertions as the check's `expect:`, by the `.bru` `assert` mapping.
            var expectations = BrunoImporter.Expectations()
            let runtime = item["runtime"]
            for assertion in runtime?["assertions"]?.arrayValue ?? [] where assertion["disabled"] != .bool(true) {
                let expression = assertion["expression"]?.stringValue ?? ""
                let op = assertion["operator"]?.stringValue ?? "eq"
                let value = assertion["value"].map(PostmanImporter.text)
                let line = value.map { "\(op) \($0)" } ?? op
                if !expectations.add(expression, line) {
                    leave(place, "assertion \(expression): \(line)", "the assertion has no check of the same meaning")
                }
            }
            if let expect = expectations.value { members.append(("x-moya-expect", expect)) }
            if let scripts = runtime?["scripts"]?.arrayValue, !scripts.isEmpty {
                leave(place, "scripts", "a script is never run; what it sets or tests is not carried")
            }
            for variable in runtime?["variables"]?.arrayValue ?? [] {
                leave(place, "variable \(variable["name"]?.stringValue ?? "")", "a request's variables are not carried")
            }
            if let actions = runtime?["actions"]?.arrayValue, !actions.isEmpty {
                leave(place, "actions", "a response's actions (setting variables) are not carried")
            }
            // Settings: following redirects is carried; the others are reported.
            var behavior: [(key: String, value: JSONValue)] = []
            for (key, value) in item["settings"]?.objectValue ?? [] where value.stringValue != "inherit" {
                switch key {
                case "followRedirects" where value == .bool(false): behavior.append(("followRedirects", .bool(false)))
                case "followRedirects" where value == .bool(true), "encodeUrl" where value == .bool(true): break
                default: leave(place, "settings.\(key)", "the request setting is not carried")
                }
            }
            if !behavior.isEmpty, let index = members.firstIndex(where: { $0.key == "request" }),
                case .object(var fields) = members[index].value
            {
                fields.append(("protocolProfileBehavior", .object(behavior)))
                members[index].value = .object(fields)
            }
            // Examples as saved responses.
            var responses: [JSONValue] = []
            for example in item["examples"]?.arrayValue ?? [] {
                guard let response = example["response"] else { continue }
                var headers = Self.headers(response["headers"]?.arrayValue ?? [])
                let bodyType = response["body"]?["type"]?.stringValue
                if !headers.contains(where: { $0["key"]?.stringValue?.lowercased() == "content-type" }),
                    let contentType = ["json": "application/json", "xml": "application/xml", "html": "text/html"][
                        bodyType ?? ""]
                {
                    headers.append(.object([("key", .string("Content-Type")), ("value", .string(contentType))]))
                }
                responses.append(
                    .object([
                        ("name", .string(example["name"]?.stringValue ?? "example")),
                        ("code", response["status"] ?? .integer(200)), ("header", .array(headers)),
                        ("body", .string(response["body"]?["data"].map(PostmanImporter.text) ?? "")),
                    ]))
            }
            if !responses.isEmpty { members.append(("response", .array(responses))) }
            return .object(members)
        }

        /// A description: text, or `{ content, type }`.
        static func text(_ value: JSONValue?) -> String? {
            value?.stringValue ?? value?["content"]?.stringValue
        }

        /// The body in Postman's shape, its Content-Type added for a raw body without one. Of
        /// a list of variants, the selected one (else the first) is sent; the others are
        /// reported.
        mutating func body(_ value: JSONValue?, type: String, headers: inout [JSONValue], place: String) -> JSONValue? {
            guard var body = value else { return nil }
            if let variants = body.arrayValue {
                guard let chosen = variants.first(where: { $0["selected"] == .bool(true) }) ?? variants.first else {
                    return nil
                }
                for variant in variants where variant != chosen {
                    leave(
                        place, "body \(variant["title"]?.stringValue ?? "")", "only the selected body variant is sent")
                }
                body = chosen["body"] ?? .null
            }
            if type == "graphql" {
                return .object([
                    ("mode", .string("graphql")),
                    (
                        "graphql",
                        .object([
                            ("query", .string(body["query"].map(PostmanImporter.text) ?? "")),
                            ("variables", .string(body["variables"].map(PostmanImporter.text) ?? "")),
                        ])
                    ),
                ])
            }
            let data = body["data"]
            switch body["type"]?.stringValue {
            case let raw? where ["json", "text", "xml", "sparql"].contains(raw):
                let contentType = [
                    "json": "application/json", "text": "text/plain", "xml": "application/xml",
                    "sparql": "application/sparql-query",
                ][raw]
                if !headers.contains(where: { $0["key"]?.stringValue?.lowercased() == "content-type" }),
                    let contentType
                {
                    headers.append(.object([("key", .string("Content-Type")), ("value", .string(contentType))]))
                }
                return .object([("mode", .string("raw")), ("raw", .string(data.map(PostmanImporter.text) ?? ""))])
            case "form-urlencoded"?:
                let fields: [JSONValue] = (data?.arrayValue ?? []).compactMap { field in
                    guard let name = field["name"]?.stringValue else { return nil }
                    return .object([
                        ("key", .string(name)), ("value", .string(field["value"].map(PostmanImporter.text) ?? "")),
                        ("disabled", .bool(field["disabled"] == .bool(true))),
                    ])
                }
                return .object([("mode", .string("urlencoded")), ("urlencoded", .array(fields))])
            case "multipart-form"?:
                var fields: [JSONValue] = []
                for part in data?.arrayValue ?? [] {
                    guard let name = part["name"]?.stringValue else { continue }
                    var field: [(key: String, value: JSONValue)] = [("key", .string(name))]
                    if part["type"]?.stringValue == "file" {
                        let paths =
                            part["value"]?.arrayValue?.compactMap(\.stringValue)
                            ?? part["value"]?.stringValue.map { [$0] } ?? []
                        if paths.count > 1 {
                            leave(place, "form field \(name)", "a part of several files sends the first one's place")
                        }
                        field += [("type", .string("file")), ("src", .string(paths.first ?? ""))]
                    } else {
                        field += [
                            ("type", .string("text")),
                            ("value", .string(part["value"].map(PostmanImporter.text) ?? "")),
                        ]
                    }
                    if let contentType = part["contentType"]?.stringValue {
                        field.append(("contentType", .string(contentType)))
                    }
                    field.append(("disabled", .bool(part["disabled"] == .bool(true))))
                    fields.append(.object(field))
                }
                return .object([("mode", .string("formdata")), ("formdata", .array(fields))])
            case "file"?:
                let files = data?.arrayValue ?? []
                guard let chosen = files.first(where: { $0["selected"] == .bool(true) }) ?? files.first else {
                    return nil
                }
                if let contentType = chosen["contentType"]?.stringValue, !contentType.isEmpty,
                    !headers.contains(where: { $0["key"]?.stringValue?.lowercased() == "content-type" })
                {
                    headers.append(.object([("key", .string("Content-Type")), ("value", .string(contentType))]))
                }
                return .object([
                    ("mode", .string("file")),
                    ("file", .object([("src", .string(chosen["filePath"]?.stringValue ?? ""))])),
                ])
            case let other?:
                leave(place, "body \(other)", "the body type is not one OpenCollection documents; it is left out")
                return nil
            case nil:
                return nil
            }
        }

        /// The collection in Postman's shape, imported: its defaults (auth, headers on each
        /// request, variables), its environments (`config.environments` and the folder's
        /// `environments/*.yml`), secret values never read.
        mutating func finish(
            _ root: JSONValue, items: [JSONValue], environments files: [(file: String, environment: JSONValue)],
            service: String?, title fallback: String? = nil
        ) -> ImportedCollection {
            let title = root["info"]?["name"]?.stringValue ?? fallback ?? Names.stem(of: file)
            let rootPlace = root["opencollection"] != nil && fallback != nil ? "opencollection.yml" : file
            var collection: [(key: String, value: JSONValue)] = [("info", .object([("name", .string(title))]))]
            var variables: [JSONValue] = []
            for variable in root["request"]?["variables"]?.arrayValue ?? [] {
                guard let name = variable["name"]?.stringValue else { continue }
                variables.append(
                    .object([
                        ("key", .string(name)), ("value", .string(Self.value(variable["value"]))),
                        ("disabled", .bool(variable["disabled"] == .bool(true))),
                    ]))
            }
            collection.append(("variable", .array(variables)))
            let defaults = self.defaults(root["request"], place: rootPlace)
            // The collection's and folders' headers go on each request below them.
            func withHeaders(_ items: [JSONValue], _ inherited: [JSONValue]) -> [JSONValue] {
                items.map { item in
                    guard case .object(var members) = item else { return item }
                    let own = item["x-moya-headers"]?.arrayValue ?? []
                    members.removeAll { $0.key == "x-moya-headers" }
                    if let children = item["item"]?.arrayValue,
                        let index = members.firstIndex(where: { $0.key == "item" })
                    {
                        members[index].value = .array(withHeaders(children, inherited + own))
                    } else if let index = members.firstIndex(where: { $0.key == "request" }),
                        case .object(var request) = members[index].value,
                        let at = request.firstIndex(where: { $0.key == "header" })
                    {
                        request[at].value = .array(inherited + (request[at].value.arrayValue ?? []))
                        members[index].value = .object(request)
                    }
                    return .object(members)
                }
            }
            collection.append(
                (
                    "item",
                    .array(withHeaders(items, defaults.first { $0.key == "x-moya-headers" }?.value.arrayValue ?? []))
                ))
            if let auth = defaults.first(where: { $0.key == "auth" })?.value { collection.append(("auth", auth)) }
            var environments: [(file: String, variables: PostmanImporter.Variables)] = []
            let listed = (root["config"]?["environments"]?.arrayValue ?? []).map { (file: rootPlace, environment: $0) }
            for (file, environment) in listed + files {
                var made = PostmanImporter.Variables(name: environment["name"]?.stringValue ?? Names.stem(of: file))
                for variable in environment["variables"]?.arrayValue ?? [] {
                    guard let name = variable["name"]?.stringValue else { continue }
                    if variable["disabled"] == .bool(true) {
                        made.disabled.append(name)
                    } else if variable["secret"] == .bool(true) || variable["transient"] == .bool(true) {
                        made.values.append((name, "", true))
                    } else {
                        made.values.append((name, Self.value(variable["value"]), false))
                    }
                }
                if environment["externalSecrets"] != nil {
                    leave(
                        file, "externalSecrets", "an external secret store is not read; set its values before calling")
                }
                environments.append((file, made))
            }
            var result = PostmanImporter.importDocument(
                .object(collection), file: file, environments: environments, service: service, format: "bruno",
                prunesBodies: false)
            result.report.requests += unread
            for item in leftOut { result.report.leave(item.place, item.what, item.reason) }
            return result
        }

        /// A variable's value: text, a typed `{ type, data }`, or the selected of its variants.
        static func value(_ value: JSONValue?) -> String {
            guard let value else { return "" }
            if let variants = value.arrayValue {
                let chosen = variants.first { $0["selected"] == .bool(true) } ?? variants.first
                return Self.value(chosen?["value"])
            }
            if let data = value["data"] { return PostmanImporter.text(data) }
            return PostmanImporter.text(value)
        }
    }
}
