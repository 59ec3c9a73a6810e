import MoyaHTTP
import MoyaSpec

/// `moya-cli import http`: `.http` and `.rest` files (the JetBrains HTTP Client's format, as
/// VS Code's REST Client, httpyac and Kulala write it) as a spec per file. A file is read by
/// its separators (`###`), request lines (`METHOD URL HTTP/1.1`, the URL continued on indented
/// lines), headers, and the body after a blank line; a request line after a blank line starts
/// another request, as httpyac reads one. `@name = value` lines are variables, `# @name` names
/// a target. The requests are put in Postman's shape and imported by `PostmanImporter`, so
/// `{{var}}` maps as Postman's does; each thing not carried is reported with its line.
public enum HTTPFileImporter {
    /// The request methods a request line may start with, HTTP's and the other protocols'
    /// httpyac reads (those are reported).
    static let httpMethods: Set<String> = [
        "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT", "QUERY", "PROPFIND",
        "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "CHECKOUT", "CHECKIN", "REPORT", "MERGE", "MKACTIVITY",
        "MKWORKSPACE", "VERSION-CONTROL", "BASELINE-CONTROL", "SEARCH", "LINK", "UNLINK", "PURGE",
    ]
    static let otherProtocols: Set<String> = [
        "GRPC", "WS", "WSS", "SSE", "MQTT", "MQTTS", "AMQP", "AMQPS", "KAFKA", "GRAPHQL", "EVENTSOURCE", "RABBITMQ",
    ]

    /// One request as read: where it starts, and its parts.
    struct Request {
        var line: Int
        var name: String?
        var title: String?
        var method = "GET"
        var url = ""
        var headers: [(String, String)] = []
        var body: [String] = []
        var noRedirect = false
        /// The `@name = value` lines of its own region, before its request line: the defaults
        /// of its `{{name}}` params.
        var variables: [(String, String)] = []
        /// Its `??` assertions, with their lines.
        var assertions: [(line: Int, text: String)] = []
    }

    /// Imports the `.http` text of `file`; `environments` is `http-client.env.json`'s text, and
    /// `privateNames` the variable names `http-client.private.env.json` sets (its values are
    /// never read into the spec).
    public static func importText(
        _ text: String, file: String, environments: String? = nil, privateNames: [String] = [], service: String?
    ) -> ImportedCollection {
        var reader = Reader(file: file)
        // `{{$env.NAME}}`, `{{$processEnv NAME}}` and `{{$dotenv NAME}}` read the environment, as
        // `{{NAME}}` does once imported.
        reader.read(
            text.replacing(/\{\{\s*\$(?:env\.|processEnv\s+|dotenv\s+)([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/) {
                "{{\($0.1)}}"
            })
        // Variables: the file's `@name = value`, then the environment file's `$shared`.
        var variables: [JSONValue] = reader.variables.map {
            .object([("key", .string($0.0)), ("value", .string($0.1))])
        }
        var parsedEnvironments: [(file: String, variables: PostmanImporter.Variables)] = []
        if let environments, let json = try? JSONValue(parsing: environments), let members = json.objectValue {
            for (name, values) in members {
                if name == "$shared" {
                    var known = Set(reader.variables.map(\.0))
                    for (key, value) in values.objectValue ?? [] where known.insert(key).inserted {
                        variables.append(
                            .object([("key", .string(key)), ("value", .string(PostmanImporter.text(value)))]))
                    }
                    continue
                }
                var environment = PostmanImporter.Variables(name: name)
                for (key, value) in values.objectValue ?? [] {
                    environment.values.append((key, PostmanImporter.text(value), false))
                }
                for key in privateNames where environment.value(of: key) == nil {
                    environment.values.append((key, "", true))
                }
                parsedEnvironments.append(("http-client.env.json", environment))
            }
        }
        let requests = reader.requests
        let items: [JSONValue] = requests.map { request in
            let headers: [JSONValue] = request.headers.map {
                .object([("key", .string($0.0)), ("value", .string($0.1))])
            }
            // A URL from the path alone goes to the `host` variable, as httpyac sends it.
            let raw = request.url.hasPrefix("/") ? "{{host}}" + request.url : request.url
            let url: JSONValue =
                request.variables.isEmpty
                ? .string(raw)
                : .object([
                    ("raw", .string(raw)),
                    (
                        "variable",
                        .array(request.variables.map { .object([("key", .string($0.0)), ("value", .string($0.1))]) })
                    ),
                ])
            var postman: [(key: String, value: JSONValue)] = [("method", .string(request.method)), ("url", url)]
            if !request.body.isEmpty {
                postman.append(
                    (
                        "body",
                        .object([("mode", .string("raw")), ("raw", .string(request.body.joined(separator: "\n")))])
                    ))
            }
            postman.append(("header", .array(headers)))
            if request.noRedirect {
                postman.append(("protocolProfileBehavior", .object([("followRedirects", .bool(false))])))
            }
            let name = request.name ?? request.title ?? "\(request.method) /\(Self.pathWords(request.url))"
            var item: [(key: String, value: JSONValue)] = [
                ("name", .string(name)), ("request", .object(postman)),
                ("x-moya-place", .string("\(file):\(request.line)")),
                ("x-moya-summary", .string(request.title ?? name)),
            ]
            // `??` assertions as the check's `expect:`, by Bruno's `assert` mapping.
            var expectations = BrunoImporter.Expectations()
            for (line, text) in request.assertions where !expectations.add(httpyac: text) {
                reader.leave(line, "?? \(text)", "the assertion has no check of the same meaning")
            }
            if let expect = expectations.value { item.append(("x-moya-expect", expect)) }
            // The region's own variables are the request's params where a header or body
            // names them, as httpyac scopes them to the region.
            let declared = request.variables.filter { Names.param($0.0) == $0.0 }.map {
                (
                    key: $0.0,
                    value: JSONValue.object([
                        ("type", .string("string")), ("default", .string($0.1)),
                        ("description", .string("{{\($0.0)}} in the file")),
                    ])
                )
            }
            if !declared.isEmpty { item.append(("x-moya-params", .object(declared))) }
            return .object(item)
        }
        let stem = Names.stem(of: file)
        let collection: JSONValue = .object([
            ("info", .object([("name", .string(stem))])), ("variable", .array(variables)), ("item", .array(items)),
        ])
        var result = PostmanImporter.importDocument(
            collection, file: file, environments: parsedEnvironments, service: service ?? stem, format: "http",
            prunesBodies: false, expressionsAreText: true)
        result.report.requests += reader.leftRequests
        for item in reader.leftOut { result.report.leave(item.place, item.what, item.reason) }
        result.report.notCarried = result.report.notCarried.enumerated().sorted { a, b in
            (Self.line(of: a.element.place), a.offset) < (Self.line(of: b.element.place), b.offset)
        }.map(\.element)
        return result
    }

    static func line(of place: String) -> Int {
        place.split(separator: ":").last.flatMap { Int($0) } ?? 0
    }

    /// The words of a URL's path, for a target's name: `/users/{{id}}` is `users`.
    static func pathWords(_ url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        if !url.hasPrefix("/") { rest = rest.firstIndex(of: "/").map { rest[$0...] } ?? "" }
        let path = rest.prefix { $0 != "?" && $0 != "#" }
        return path.split(separator: "/").filter { !$0.contains("{{") }.joined(separator: "/")
    }

    struct Reader {
        let file: String
        var requests: [Request] = []
        var variables: [(String, String)] = []
        var leftOut: [ImportReport.Item] = []
        /// Requests read but not imported (another protocol, no URL): counted, and reported.
        var leftRequests = 0

        init(file: String) { self.file = file }

        mutating func leave(_ line: Int, _ what: String, _ reason: String) {
            leftOut.append(ImportReport.Item(place: "\(file):\(line)", what: what, reason: reason))
        }

        /// A request line: `[METHOD ]URL[ HTTP/x]`, with a URL that starts with a scheme, `/`
        /// or `{{`; nil for any other line.
        static func requestLine(_ line: String) -> (method: String, url: String, other: Bool)? {
            let words = Self.words(line)
            guard let first = words.first else { return nil }
            // Another protocol's request line, whatever its address looks like.
            if otherProtocols.contains(String(first)), words.count > 1 {
                return (String(first), String(words[1]), true)
            }
            var method = "GET"
            var rest = words[...]
            let upper = first.uppercased()
            if httpMethods.contains(String(first)) || otherProtocols.contains(upper) && String(first) == upper {
                method = String(first)
                rest = words.dropFirst()
            }
            guard let url = rest.first else { return nil }
            let lower = url.lowercased()
            if lower.hasPrefix("unix:") { return ("UNIX", String(url), true) }
            let scheme = lower.range(of: "://").map { String(lower[..<$0.lowerBound]) }
            let looksLikeURL =
                scheme.map { !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" } } ?? false
                || url.hasPrefix("/") || url.hasPrefix("{{")
                || (method != "GET" || first != url) && !url.contains(":") && url.contains(".")
            guard looksLikeURL else { return nil }
            if rest.count > 2 { return nil }
            if rest.count == 2, !rest[rest.startIndex + 1].uppercased().hasPrefix("HTTP/") { return nil }
            if let scheme, scheme != "http", scheme != "https", !scheme.hasPrefix("{{") {
                return (scheme.uppercased(), String(url), true)
            }
            return (method, String(url), otherProtocols.contains(method.uppercased()))
        }

        /// A line's words, split at spaces outside `{{ … }}` (httpyac's expressions hold spaces).
        static func words(_ line: String) -> [Substring] {
            var words: [Substring] = []
            var start: String.Index?
            var depth = 0
            var index = line.startIndex
            while index < line.endIndex {
                if line[index...].hasPrefix("{{") {
                    depth += 1
                    if start == nil { start = index }
                    index = line.index(index, offsetBy: 2)
                    continue
                }
                if line[index...].hasPrefix("}}"), depth > 0 {
                    depth -= 1
                    index = line.index(index, offsetBy: 2)
                    continue
                }
                if line[index] == " ", depth == 0 {
                    if let begun = start { words.append(line[begun..<index]) }
                    start = nil
                } else if start == nil {
                    start = index
                }
                index = line.index(after: index)
            }
            if let begun = start { words.append(line[begun...]) }
            return words
        }

        mutating func read(_ text: String) {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
            }
            var current: Request?
            var inHeaders = false
            var pendingName: String?
            var pendingTitle: String?
            var pendingNoRedirect = false
            var pendingVariables: [(String, String)] = []
            var inScript = false
            var scriptStart = 0
            var blank = true
            var lastOutside = -1
            // Whether the request's body has a line that is not blank (a flag, not a scan: a
            // stranger's file may hold millions of blank lines).
            var bodyHasText = false
            func finish() {
                guard var request = current else { return }
                while request.body.last?.allSatisfy(\.isWhitespace) == true { request.body.removeLast() }
                if request.body.contains(where: { $0.hasPrefix("< ") || $0.hasPrefix("<@") }) {
                    leave(
                        request.line, "body",
                        "the body includes a file (< path), which an import never reads; it is left out")
                    request.body = []
                }
                requests.append(request)
                current = nil
            }
            for (index, raw) in lines.enumerated() {
                let number = index + 1
                let line = raw
                let trimmed = line.trimmingBlanks
                if inScript {
                    if trimmed.hasSuffix("%}") || trimmed == "}}" { inScript = false }
                    continue
                }
                if trimmed.hasPrefix("###") {
                    finish()
                    inHeaders = false
                    blank = true
                    pendingName = nil
                    // `### Title`: the next request's title.
                    let title = trimmed.drop { $0 == "#" }.trimmingBlanks
                    pendingTitle = title.isEmpty ? nil : title
                    pendingNoRedirect = false
                    pendingVariables = []
                    skipping = false
                    continue
                }
                // Comments and directives (`# @name x`, `// @no-redirect`), outside a body.
                if current == nil || inHeaders, trimmed.hasPrefix("#") || trimmed.hasPrefix("//") {
                    let comment = trimmed.drop { $0 == "#" || $0 == "/" }.trimmingBlanks
                    if comment.hasPrefix("@") {
                        let words = comment.dropFirst().split(separator: " ", maxSplits: 1)
                        let key = words.first.map(String.init) ?? ""
                        let value = words.count > 1 ? String(words[1]).trimmingBlanks : ""
                        switch key {
                        case "name": pendingName = value
                        case "title": pendingTitle = value
                        case "description": pendingTitle = pendingTitle ?? value
                        case "no-redirect": pendingNoRedirect = true
                        default: leave(number, "@\(key)", "the directive is not carried")
                        }
                    }
                    continue
                }
                // Scripts and assertions: never run.
                if trimmed.hasPrefix("> {%") || trimmed.hasPrefix("< {%") || trimmed == "{{"
                    || trimmed.hasPrefix("{{") && current == nil && !trimmed.hasSuffix("}}")
                {
                    leave(number, "script", "a script is never run; what it sets or tests is not carried")
                    inScript = !(trimmed.hasSuffix("%}") && trimmed.count > 4)
                    scriptStart = number
                    continue
                }
                if trimmed.hasPrefix("> ") || trimmed.hasPrefix(">> ") || trimmed.hasPrefix(">>! ")
                    || trimmed.hasPrefix("<> ")
                {
                    leave(
                        number, String(trimmed.prefix { $0 != " " }), "a response handler or reference is not carried")
                    continue
                }
                if trimmed.hasPrefix("??") {
                    let assertion = trimmed.dropFirst(2).trimmingBlanks
                    if current != nil {
                        current?.assertions.append((number, assertion))
                    } else if let last = requests.indices.last, !skipping {
                        requests[last].assertions.append((number, assertion))
                    } else {
                        leave(number, "?? \(assertion)", "an assertion outside any request is not carried")
                    }
                    continue
                }
                // Variables, before a request.
                if current == nil, trimmed.hasPrefix("@"), let equals = trimmed.firstIndex(of: "=") {
                    let name = trimmed[trimmed.index(after: trimmed.startIndex)..<equals].trimmingBlanks
                    var value = trimmed[trimmed.index(after: equals)...].trimmingBlanks
                    if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                        value = String(value.dropFirst().dropLast())
                    }
                    if !name.isEmpty {
                        variables.append((name, value))
                        pendingVariables.append((name, value))
                    }
                    continue
                }
                if trimmed.isEmpty {
                    if current != nil, inHeaders {
                        inHeaders = false
                    } else if current != nil {
                        current?.body.append(line)
                    }
                    blank = true
                    continue
                }
                // A request line: the first of a region, or one after a blank line.
                if current == nil
                    || blank && !inHeaders && !bodyHasText,
                    let parsed = Self.requestLine(trimmed)
                {
                    finish()
                    if parsed.other {
                        leave(
                            number, "request", "a \(parsed.method) request is not HTTP; it has no place in a spec yet")
                        leftRequests += 1
                        // Its lines up to the next request are skipped.
                        current = nil
                        inHeaders = false
                        blank = false
                        skipping = true
                        continue
                    }
                    current = Request(
                        line: number, name: pendingName, title: pendingTitle, method: parsed.method, url: parsed.url)
                    current?.noRedirect = pendingNoRedirect
                    current?.variables = pendingVariables
                    pendingVariables = []
                    bodyHasText = false
                    pendingName = nil
                    pendingTitle = nil
                    pendingNoRedirect = false
                    inHeaders = true
                    blank = false
                    skipping = false
                    continue
                }
                blank = false
                if skipping { continue }
                // A method and something that is no URL: a request this import cannot send.
                if current == nil, let first = Self.words(trimmed).first, httpMethods.contains(String(first)),
                    Self.words(trimmed).count >= 2
                {
                    leave(number, "request", "its address \(Self.words(trimmed)[1]) is no http or https URL or path")
                    leftRequests += 1
                    skipping = true
                    continue
                }
                guard current != nil else {
                    // One line for a run of them.
                    if lastOutside != number - 1 {
                        leave(number, String(trimmed.prefix(40)), "the lines from here are outside any request")
                    }
                    lastOutside = number
                    continue
                }
                if inHeaders {
                    // An indented line continues the URL (`  ?q=1`, `  /get`).
                    if line.first == " " || line.first == "\t",
                        trimmed.hasPrefix("?") || trimmed.hasPrefix("&") || trimmed.hasPrefix("/")
                    {
                        current?.url += trimmed
                        continue
                    }
                    if let colon = trimmed.firstIndex(of: ":"), colon != trimmed.startIndex {
                        let name = trimmed[..<colon].trimmingBlanks
                        let value = trimmed[trimmed.index(after: colon)...].trimmingBlanks
                        if !name.contains(" ") {
                            current?.headers.append((name, value))
                            continue
                        }
                    }
                    // No blank line before the body (`POST url` then `{{json}}`): the body.
                    inHeaders = false
                }
                current?.body.append(line)
                bodyHasText = true
            }
            if inScript { leave(scriptStart, "script", "a script is not closed") }
            finish()
        }

        /// Whether the lines of a request of another protocol are being skipped.
        var skipping = false
    }
}
