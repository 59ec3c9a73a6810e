import MoyaHTTP
import MoyaSpec

/// `moya-cli import bruno`: a Bruno collection folder (`bruno.json`, its `.bru` files, folders
/// with `folder.bru`, `collection.bru`, `environments/*.bru`) as one spec. Each request file is
/// put in Postman's shape and imported by `PostmanImporter`: folders are name prefixes,
/// `{{var}}` maps as Postman's does, and each thing not carried is reported with its file and
/// line. Scripts and tests are never run; `assert` lines are reported.
public enum BrunoImporter {
    /// One file of the collection: its path inside the folder, and its text.
    public struct File: Sendable {
        public var path: String
        public var text: String

        public init(path: String, text: String) {
            self.path = path
            self.text = text
        }
    }

    /// A `.bru` file's blocks: a dictionary block's entries (`~` marks one off), or a text
    /// block's text, with the line each starts on.
    struct Block {
        var name: String
        var line: Int
        var entries: [(key: String, value: String, enabled: Bool, line: Int)] = []
        var text: String = ""
        var items: [String] = []
    }

    /// Blocks whose content is text rather than `key: value` lines.
    static let textBlocks: Set<String> = [
        "body:json", "body:text", "body:xml", "body:graphql", "body:graphql:vars", "body:sparql", "script:pre-request",
        "script:post-response", "tests", "docs",
    ]

    static func blocks(_ text: String) -> [Block] {
        var blocks: [Block] = []
        var current: Block?
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
        }
        var textLines: [String] = []
        for (index, line) in lines.enumerated() {
            let number = index + 1
            if var block = current {
                // A block ends with `}` (or `]` for a list) at the start of a line.
                if line == "}" || line == "]" {
                    if textBlocks.contains(block.name) {
                        block.text = textLines.map { $0.hasPrefix("  ") ? String($0.dropFirst(2)) : $0 }
                            .joined(separator: "\n")
                    }
                    blocks.append(block)
                    current = nil
                    textLines = []
                    continue
                }
                if textBlocks.contains(block.name) {
                    textLines.append(line)
                } else if !line.trimmingBlanks.isEmpty {
                    // `key: value` (`~key` off), or a list's item (`vars:secret [ a, b ]`).
                    let content = line.trimmingBlanks
                    if let colon = content.firstIndex(of: ":") {
                        var key = content[..<colon].trimmingBlanks
                        let enabled = !key.hasPrefix("~")
                        if !enabled { key = String(key.dropFirst()) }
                        block.entries.append(
                            (key, content[content.index(after: colon)...].trimmingBlanks, enabled, number))
                    } else {
                        block.items.append(content.trimmingCharacters(",").trimmingBlanks)
                    }
                    current = block
                }
                continue
            }
            let trimmed = line.trimmingBlanks
            if trimmed.hasSuffix("{") || trimmed.hasSuffix("[") {
                current = Block(name: trimmed.dropLast().trimmingBlanks, line: number)
            }
        }
        return blocks
    }

    /// Imports the collection's files (`.bru` and `bruno.json`), read from `folder`.
    public static func importFolder(_ files: [File], folder: String, service: String?) -> ImportedCollection {
        var leftOut: [ImportReport.Item] = []
        func leave(_ file: String, _ line: Int, _ what: String, _ reason: String) {
            leftOut.append(ImportReport.Item(place: "\(file):\(line)", what: what, reason: reason))
        }
        let byPath = Dictionary(files.map { ($0.path, $0.text) }, uniquingKeysWith: { first, _ in first })
        var title = Names.fileName(of: folder)
        if let json = byPath["bruno.json"].flatMap({ try? JSONValue(parsing: $0) }),
            let name = json["name"]?.stringValue
        {
            title = name
        }
        // The collection's own headers, auth and variables.
        var variables: [JSONValue] = []
        var collectionHeaders: [JSONValue] = []
        var collectionAuth: JSONValue?
        func readShared(_ path: String) -> (headers: [JSONValue], auth: JSONValue?) {
            guard let text = byPath[path] else { return ([], nil) }
            var headers: [JSONValue] = []
            var auth: JSONValue?
            let blocks = Self.blocks(text)
            let mode = blocks.first { $0.name == "auth" }?.entries.first { $0.key == "mode" }?.value
            for block in blocks {
                switch block.name {
                case "headers": headers = Self.pairs(block.entries, key: "key")
                case "vars:pre-request":
                    for entry in block.entries where entry.enabled {
                        variables.append(.object([("key", .string(entry.key)), ("value", .string(entry.value))]))
                    }
                case "meta", "auth", "docs": break
                case let name where name.hasPrefix("auth:"):
                    if let made = Self.auth(block, mode: mode) { auth = made }
                case let name where name.hasPrefix("script:") || name == "tests":
                    if !block.text.allSatisfy(\.isWhitespace) { leave(path, block.line, name, "a script is never run") }
                default: leave(path, block.line, block.name, "the block is not carried")
                }
            }
            if mode == "none" { auth = .object([("type", .string("noauth"))]) }
            return (headers, auth)
        }
        (collectionHeaders, collectionAuth) = readShared("collection.bru")

        // Requests: each `.bru` file but the collection's, folders' and environments'.
        var root = Folder()
        let requests = files.filter {
            $0.path.hasSuffix(".bru") && !$0.path.hasPrefix("environments/") && $0.path != "collection.bru"
                && !$0.path.hasSuffix("/folder.bru") && $0.path != "folder.bru"
        }.sorted { $0.path < $1.path }
        for file in requests {
            let blocks = Self.blocks(file.text)
            let meta = Dictionary(
                (blocks.first { $0.name == "meta" }?.entries ?? []).map { ($0.key, $0.value) },
                uniquingKeysWith: { a, _ in a })
            let name = meta["name"] ?? Names.stem(of: file.path)
            let seq = Int(meta["seq"] ?? "") ?? Int.max
            let methods = ["get", "post", "put", "delete", "patch", "options", "head", "connect", "trace"]
            guard let methodBlock = blocks.first(where: { methods.contains($0.name) }) else {
                leave(
                    file.path, 1, "request",
                    "it has no HTTP method block (\(meta["type"] ?? "no type")); it is left out")
                let folders = file.path.split(separator: "/").dropLast().map(String.init)
                root = Self.inserting(
                    .object([("name", .string(name)), ("x-moya-place", .string("\(file.path):1"))]), seq: seq,
                    name: name,
                    into: root, folders: folders)
                continue
            }
            let fields = Dictionary(methodBlock.entries.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
            var request: [(key: String, value: JSONValue)] = [("method", .string(methodBlock.name.uppercased()))]
            var url: [(key: String, value: JSONValue)] = [
                ("raw", .string((fields["url"] ?? "").replacing(/\?.*$/, with: "")))
            ]
            var query: [JSONValue] = []
            var headers: [JSONValue] = collectionHeaders
            var body: JSONValue?
            var auth: JSONValue?
            var description: String?
            var graphQL: (query: String, variables: String)?
            var expectations = Expectations()
            let authMode = fields["auth"]
            for block in blocks {
                switch block.name {
                case "meta", methodBlock.name: break
                case "params:query":
                    query = block.entries.map { entry in
                        .object([
                            ("key", .string(entry.key)), ("value", .string(entry.value)),
                            ("disabled", .bool(!entry.enabled)),
                        ])
                    }
                case "params:path":
                    url.append(
                        (
                            "variable",
                            .array(
                                block.entries.map { .object([("key", .string($0.key)), ("value", .string($0.value))]) })
                        ))
                case "headers": headers += Self.pairs(block.entries, key: "key")
                case "body:json", "body:text", "body:xml", "body:sparql":
                    let type = [
                        "body:json": "application/json", "body:text": "text/plain", "body:xml": "application/xml",
                        "body:sparql": "application/sparql-query",
                    ][block.name]
                    if fields["body"].map({
                        block.name.hasSuffix(":" + $0) || $0 == "json" && block.name == "body:json"
                    })
                        ?? false
                    {
                        body = .object([("mode", .string("raw")), ("raw", .string(block.text))])
                        if !headers.contains(where: { $0["key"]?.stringValue?.lowercased() == "content-type" }),
                            let type
                        {
                            headers.append(.object([("key", .string("Content-Type")), ("value", .string(type))]))
                        }
                    }
                case "body:form-urlencoded":
                    if fields["body"] == "formUrlEncoded" {
                        body = .object([
                            ("mode", .string("urlencoded")),
                            ("urlencoded", .array(Self.pairs(block.entries, key: "key"))),
                        ])
                    }
                case "body:multipart-form":
                    if fields["body"] == "multipartForm" {
                        let fields: [JSONValue] = block.entries.map { entry in
                            if entry.value.hasPrefix("@file(") {
                                let path = entry.value.dropFirst(6).dropLast()
                                return .object([
                                    ("key", .string(entry.key)), ("type", .string("file")),
                                    ("src", .string(String(path))),
                                    ("disabled", .bool(!entry.enabled)),
                                ])
                            }
                            return .object([
                                ("key", .string(entry.key)), ("type", .string("text")), ("value", .string(entry.value)),
                                ("disabled", .bool(!entry.enabled)),
                            ])
                        }
                        body = .object([("mode", .string("formdata")), ("formdata", .array(fields))])
                    }
                case "body:graphql": graphQL = (block.text, graphQL?.variables ?? "")
                case "body:graphql:vars": graphQL = (graphQL?.query ?? "", block.text)
                case "docs": description = block.text
                case "assert":
                    for entry in block.entries where entry.enabled {
                        if !expectations.add(entry.key, entry.value) {
                            leave(
                                file.path, entry.line, "assert \(entry.key): \(entry.value)",
                                "the assertion has no check of the same meaning")
                        }
                    }
                case let name where name.hasPrefix("auth:"):
                    if authMode.map({ name == "auth:" + $0 }) ?? false { auth = Self.auth(block, mode: authMode) }
                case let name where name.hasPrefix("script:") || name == "tests":
                    if !block.text.allSatisfy(\.isWhitespace) {
                        leave(
                            file.path, block.line, name, "a script is never run; what it sets or tests is not carried")
                    }
                case let name where name.hasPrefix("vars:"):
                    for entry in block.entries where entry.enabled {
                        leave(file.path, entry.line, "\(name) \(entry.key)", "a request's variables are not carried")
                    }
                default:
                    leave(file.path, block.line, block.name, "the block is not carried")
                }
            }
            if fields["body"] == "graphql", let graphQL {
                body = .object([
                    ("mode", .string("graphql")),
                    (
                        "graphql",
                        .object([("query", .string(graphQL.query)), ("variables", .string(graphQL.variables))])
                    ),
                ])
            }
            switch authMode {
            case "none"?: auth = .object([("type", .string("noauth"))])
            case "inherit"?, nil: break
            default: if auth == nil { auth = .object([("type", .string(authMode ?? ""))]) }
            }
            url.append(("query", .array(query)))
            request.append(("url", .object(url)))
            request.append(("header", .array(headers)))
            if let body { request.append(("body", body)) }
            if let auth { request.append(("auth", auth)) }
            if let description, !description.isEmpty { request.append(("description", .string(description))) }
            var members: [(key: String, value: JSONValue)] = [
                ("name", .string(name)), ("request", .object(request)), ("x-moya-place", .string("\(file.path):1")),
            ]
            if let expect = expectations.value { members.append(("x-moya-expect", expect)) }
            let item: JSONValue = .object(members)
            let folders = file.path.split(separator: "/").dropLast().map(String.init)
            root = Self.inserting(item, seq: seq, name: name, into: root, folders: folders)
        }
        // Folders' names and auth, from their `folder.bru`.
        func items(of folder: Folder, path: [String]) -> [JSONValue] {
            let own = folder.items.sorted { ($0.seq, $0.name) < ($1.seq, $1.name) }.map(\.item)
            let inner = folder.children.sorted { $0.key < $1.key }.map { name, child -> JSONValue in
                let folderPath = (path + [name]).joined(separator: "/")
                let shared = readShared(folderPath + "/folder.bru")
                let title = byPath[folderPath + "/folder.bru"].flatMap { text in
                    Self.blocks(text).first { $0.name == "meta" }?.entries.first { $0.key == "name" }?.value
                }
                var members: [(key: String, value: JSONValue)] = [
                    ("name", .string(title ?? name)), ("item", .array(items(of: child, path: path + [name]))),
                ]
                if let auth = shared.auth { members.append(("auth", auth)) }
                if !shared.headers.isEmpty {
                    leave(folderPath + "/folder.bru", 1, "headers", "a folder's headers are not carried")
                }
                return .object(members)
            }
            return own + inner
        }
        var collection: [(key: String, value: JSONValue)] = [
            ("info", .object([("name", .string(title))])), ("variable", .array(variables)),
            ("item", .array(items(of: root, path: []))),
        ]
        if let collectionAuth { collection.append(("auth", collectionAuth)) }
        // Environments: `vars`, and `vars:secret`'s names, whose values are never read.
        var environments: [(file: String, variables: PostmanImporter.Variables)] = []
        for file in files where file.path.hasPrefix("environments/") && file.path.hasSuffix(".bru") {
            var environment = PostmanImporter.Variables(name: Names.stem(of: file.path))
            for block in Self.blocks(file.text) {
                if block.name == "vars" {
                    for entry in block.entries {
                        if entry.enabled {
                            environment.values.append((entry.key, entry.value, false))
                        } else {
                            environment.disabled.append(entry.key)
                        }
                    }
                } else if block.name == "vars:secret" {
                    var secrets = OrderedNames()
                    for item in block.items where !item.isEmpty {
                        secrets.add(item.hasPrefix("~") ? String(item.dropFirst()) : item)
                    }
                    let names = Set(secrets.list)
                    environment.values.removeAll { names.contains($0.key) }
                    environment.values += secrets.list.map { ($0, "", true) }
                }
            }
            environments.append((file.path, environment))
        }
        var result = PostmanImporter.importDocument(
            .object(collection), file: folder, environments: environments, service: service, format: "bruno",
            prunesBodies: false)
        for item in leftOut { result.report.leave(item.place, item.what, item.reason) }
        return result
    }

    /// Bruno's `assert` lines (and OpenCollection's `runtime.assertions`) as a check's
    /// `expect:`: `res.status`, `res.body…` (a JSON path), `res.headers.NAME` and
    /// `res.responseTime`, with the operators that have a predicate of the same meaning
    /// (`startsWith` and `endsWith` as a pattern of the text).
    struct Expectations {
        var status: JSONValue?
        var json: [(key: String, value: JSONValue)] = []
        var headers: [(key: String, value: JSONValue)] = []
        var maxTime: Int?
        /// A predicate of the body's text (httpyac's `?? body includes …`).
        var body: JSONValue?

        var value: JSONValue? {
            var members: [(key: String, value: JSONValue)] = []
            if let status { members.append(("status", status)) }
            if !headers.isEmpty { members.append(("headers", .object(headers))) }
            if !json.isEmpty { members.append(("json", .object(json))) }
            if let body { members.append(("body", body)) }
            if let maxTime { members.append(("maxTime", .string("\(maxTime)ms"))) }
            return members.isEmpty ? nil : .object(members)
        }

        /// Adds `key: operator value`; false when it has no predicate of the same meaning.
        mutating func add(_ key: String, _ assertion: String) -> Bool {
            let words = assertion.split(separator: " ", maxSplits: 1).map(String.init)
            guard let op = words.first else { return false }
            let operand = words.count > 1 ? words[1] : ""
            guard let predicate = Self.predicate(op, operand) else { return false }
            switch key {
            case "res.status":
                guard status == nil else { return false }
                status = predicate
            case "res.responseTime":
                guard op == "lt" || op == "lte", let limit = Int(operand), limit > 0, maxTime == nil else {
                    return false
                }
                maxTime = op == "lt" ? limit - 1 : limit
            case let key where key.hasPrefix("res.headers.") || key.hasPrefix("res.header."):
                let name = String(key.drop { $0 != "." }.dropFirst().drop { $0 != "." }.dropFirst())
                guard !name.isEmpty else { return false }
                headers.append((name, predicate))
            case "res.body":
                json.append(("$", predicate))
            case let key where key.hasPrefix("res.body.") || key.hasPrefix("res.body["):
                json.append(("$" + key.dropFirst("res.body".count), predicate))
            default:
                return false
            }
            return true
        }

        /// A Bruno operator and operand as a check's predicate.
        static func predicate(_ op: String, _ operand: String) -> JSONValue? {
            let value = Self.value(operand)
            func number() -> JSONValue? {
                if case .integer = value { return value }
                if case .number = value { return value }
                return nil
            }
            func text() -> String? {
                if case .string(let text) = value { return text }
                return operand.isEmpty ? nil : operand
            }
            switch op {
            case "eq": return value
            case "neq": return .object([("not", .object([("equals", value)]))])
            case "gt", "gte", "lt", "lte":
                guard let number = number() else { return nil }
                return .object([(["gt": "gt", "gte": "ge", "lt": "lt", "lte": "le"][op] ?? op, number)])
            case "contains": return text().map { .object([("contains", .string($0))]) }
            case "notContains": return text().map { .object([("not", .object([("contains", .string($0))]))]) }
            case "matches": return text().map { .object([("matches", .string($0))]) }
            case "startsWith": return text().map { .object([("matches", .string("^" + Self.escaped($0)))]) }
            case "endsWith": return text().map { .object([("matches", .string(Self.escaped($0) + "$"))]) }
            case "notMatches": return text().map { .object([("not", .object([("matches", .string($0))]))]) }
            case "length": return number().map { .object([("count", $0)]) }
            case "isEmpty": return .object([("count", .integer(0))])
            case "isNull": return .object([("equals", .null)])
            case "isDefined": return .object([("exists", .bool(true))])
            case "isUndefined": return .object([("exists", .bool(false))])
            case "isNumber": return .object([("type", .string("number"))])
            case "isString": return .object([("type", .string("string"))])
            case "isBoolean": return .object([("type", .string("bool"))])
            case "isArray": return .object([("type", .string("array"))])
            case "in":
                let items = operand.split(separator: ",").map { Self.value($0.trimmingBlanks) }
                return items.isEmpty ? nil : .object([("oneOf", .array(items))])
            default: return nil
            }
        }

        /// An httpyac assertion (`?? status == 200`, `?? header content-type includes json`,
        /// `?? duration < 500`, `?? body includes text`, `?? body path exists`,
        /// `?? js response.parsedBody.a.b == v`) by the `assert` mapping; false when it has no
        /// check of the same meaning (an `xpath`, another `js` expression).
        mutating func add(httpyac line: String) -> Bool {
            var words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard let subject = words.first else { return false }
            words.removeFirst()
            let operators = [
                "==": "eq", "!=": "neq", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte", "includes": "contains",
                "contains": "contains", "startsWith": "startsWith", "endsWith": "endsWith", "matches": "matches",
                "exists": "isDefined", "isNumber": "isNumber", "isString": "isString", "isBoolean": "isBoolean",
                "isArray": "isArray",
            ]
            func assertion(_ words: ArraySlice<String>) -> String? {
                guard let first = words.first, let op = operators[first] else { return nil }
                let operand = words.dropFirst().joined(separator: " ")
                return operand.isEmpty ? op : op + " " + operand
            }
            switch subject {
            case "status": return assertion(words[...]).map { add("res.status", $0) } ?? false
            case "duration": return assertion(words[...]).map { add("res.responseTime", $0) } ?? false
            case "header":
                guard let name = words.first, let rest = assertion(words.dropFirst()) else { return false }
                return add("res.headers." + name.lowercased(), rest)
            case "body":
                if let text = assertion(words[...]) {
                    guard body == nil, text.hasPrefix("contains "),
                        case .string(let needle)? =
                            Self.predicate("contains", String(text.dropFirst("contains ".count)))?["contains"]
                    else { return false }
                    body = .object([("contains", .string(needle))])
                    return true
                }
                guard let path = words.first, let rest = assertion(words.dropFirst()) else { return false }
                return add("res.body." + path, rest)
            case "js":
                guard let expression = words.first, expression.hasPrefix("response.parsedBody."),
                    let rest = assertion(words.dropFirst())
                else { return false }
                return add("res.body." + expression.dropFirst("response.parsedBody.".count), rest)
            default: return false
            }
        }

        /// Text as a pattern that matches it literally.
        static func escaped(_ text: String) -> String {
            String(text.flatMap { "\\^$.|?*+()[]{}/".contains($0) ? ["\\", $0] : [$0] })
        }

        /// An operand as Bruno reads it: a number, `true`, `false`, `null`, or text (quotes
        /// taken off).
        static func value(_ operand: String) -> JSONValue {
            let text = operand.trimmingBlanks
            if let integer = Int(text) { return .integer(integer) }
            if let number = Double(text), number.isFinite, text.contains(".") { return .number(number) }
            switch text {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null": return .null
            default: break
            }
            if text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first {
                return .string(String(text.dropFirst().dropLast()))
            }
            return .string(text)
        }
    }

    static func inserting(_ item: JSONValue, seq: Int, name: String, into folder: Folder, folders: [String]) -> Folder {
        var folder = folder
        guard let first = folders.first else {
            folder.items.append((seq, name, item))
            return folder
        }
        folder.children[first] = inserting(
            item, seq: seq, name: name, into: folder.children[first] ?? Folder(), folders: Array(folders.dropFirst()))
        return folder
    }

    /// `key: value` entries as Postman's list, a `~` entry disabled.
    static func pairs(_ entries: [(key: String, value: String, enabled: Bool, line: Int)], key: String) -> [JSONValue] {
        entries.map { entry in
            .object([(key, .string(entry.key)), ("value", .string(entry.value)), ("disabled", .bool(!entry.enabled))])
        }
    }

    /// An `auth:MODE` block in Postman's shape.
    static func auth(_ block: Block, mode: String?) -> JSONValue? {
        let fields = Dictionary(block.entries.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        func list(_ pairs: [(String, String)]) -> JSONValue {
            .array(pairs.map { .object([("key", .string($0.0)), ("value", .string($0.1))]) })
        }
        switch block.name {
        case "auth:bearer":
            return .object([("type", .string("bearer")), ("bearer", list([("token", fields["token"] ?? "")]))])
        case "auth:basic":
            return .object([
                ("type", .string("basic")),
                ("basic", list([("username", fields["username"] ?? ""), ("password", fields["password"] ?? "")])),
            ])
        case "auth:apikey":
            return .object([
                ("type", .string("apikey")),
                (
                    "apikey",
                    list([
                        ("key", fields["key"] ?? ""), ("value", fields["value"] ?? ""),
                        ("in", fields["placement"] == "queryparams" ? "query" : "header"),
                    ])
                ),
            ])
        default:
            return .object([("type", .string(String(block.name.dropFirst(5))))])
        }
    }

    struct Folder {
        var items: [(seq: Int, name: String, item: JSONValue)] = []
        var children: [String: Folder] = [:]
    }
}

extension StringProtocol {
    /// The text without `character`s at either end.
    func trimmingCharacters(_ character: Character) -> String {
        var text = Substring(self)
        while text.first == character { text = text.dropFirst() }
        while text.last == character { text = text.dropLast() }
        return String(text)
    }
}
