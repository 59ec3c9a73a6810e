import MoyaHTTP
import MoyaSpec

/// `moya-cli import curl`: curl command lines as a spec, one target per command, sending what
/// curl sends: the method, the path and query, the headers (with curl's own `Accept: */*` and
/// the content type its data options imply), the body, and basic or bearer credentials.
///
/// A credential is never written: `-u`'s password, a bearer token, a `Cookie` and any header
/// whose name says it holds a key, token, secret or session are read from an environment
/// variable (`${SERVICE_PASSWORD:-}`), which the report names. A `$NAME` the shell would
/// expand becomes `${NAME:-}` where a spec reads the environment (headers, body, credentials,
/// the base URL), and a param where it cannot (the path and query).
public enum CurlImporter {
    public typealias Result = ImportedCollection

    /// Imports the commands of shell `text` read from `file`.
    public static func importText(_ text: String, file: String, service: String?) -> Result {
        let (commands, problems) = ShellWords.commands(text)
        var report = ImportReport(format: "curl", source: file)
        for problem in problems { report.leave("\(file):\(problem.line)", "shell text", problem.message) }
        var curls: [CurlCommand] = []
        for command in commands {
            guard let first = command.words.first else { continue }
            let program = first.text.split(separator: "/").last.map(String.init) ?? first.text
            guard program == "curl" else {
                report.leave("\(file):\(command.line)", first.text, "not a curl command; only curl lines are imported")
                continue
            }
            curls.append(CurlCommand(command.words, line: command.line))
        }
        return make(curls, place: { "\(file):\($0)" }, service: service, report: report)
    }

    /// Imports one command given as its arguments (after `curl`), as a shell has split them.
    public static func importArguments(_ arguments: [String], service: String?) -> Result {
        let words = (["curl"] + arguments).map { ShellWords.Word(pieces: [.text($0)], line: 1) }
        let report = ImportReport(format: "curl", source: "the command line")
        return make([CurlCommand(words, line: 1)], place: { _ in "the command line" }, service: service, report: report)
    }

    // MARK: - Making the spec

    static func make(_ commands: [CurlCommand], place: (Int) -> String, service: String?, report: ImportReport)
        -> Result
    {
        var report = report
        report.requests = commands.count
        var requests: [(command: CurlCommand, url: URLParts)] = []
        for command in commands {
            for left in command.leftOut { report.leave(place(left.line), left.option, left.reason) }
            guard let word = command.url else {
                report.leave(
                    place(command.line), "request", "the curl command names no URL, so there is nothing to send")
                continue
            }
            if let method = command.method, !ImportReport.methods.contains(method) {
                report.leave(place(command.line), "request", "a spec cannot send the method \(method)")
                continue
            }
            guard let url = URLParts(word) else {
                report.leave(place(command.line), "request", "its URL \(word.text) is not an http or https one")
                continue
            }
            requests.append((command, url))
        }
        let name =
            service.map { Names.lowerCamel($0, fallback: "curl") }
            ?? requests.first.flatMap { Names.service(host: $0.url.host) } ?? "curl"
        var spec = ImportedSpec(service: name, baseURL: requests.first?.url.base ?? "http://localhost")
        spec.comment = ["Imported by moya-cli import curl."]
        var names: Set<String> = []
        var variables = OrderedNames()
        func variable(_ key: String) -> ImportedSpec.Text {
            let variable = Names.environment(name, key)
            variables.add(variable)
            return .environment(variable)
        }
        for (command, url) in requests {
            var target = Target(command: command, url: url, variable: variable)
            target.target.name = Names.unique(target.name, in: &names)
            if url.base != spec.baseURL { target.target.baseURL = url.base }
            for (what, reason) in target.leftOut { report.leave(place(command.line), what, reason) }
            spec.targets.append(target.target)
        }
        // In the source's order: the lines that are no curl command among the others.
        func line(_ item: ImportReport.Item) -> Int {
            item.place.split(separator: ":").last.flatMap { Int($0) } ?? 0
        }
        report.notCarried = report.notCarried.enumerated()
            .sorted { (line($0.element), $0.offset) < (line($1.element), $1.offset) }.map(\.element)
        report.targets = spec.targets.count
        report.services = spec.targets.isEmpty ? 0 : 1
        report.variables = variables.list
        return Result(spec: SpecWriter.write(spec), service: name, report: report)
    }

    /// A URL as curl reads it: a scheme (`http://` when none is written), the host and port,
    /// the path and the query; the fragment is never sent.
    struct URLParts {
        var base: ImportedSpec.Text
        var host: String
        /// The path's pieces: text, and the variables in it.
        var path: [ShellWords.Piece]
        var query: [ShellWords.Piece]?
        /// The user of a `user:password@` in the URL.
        var user: String?

        init?(_ word: ShellWords.Word) {
            var pieces = word.pieces
            // The scheme and the authority end at the first `/`, `?` or `#` of text after them.
            var base: [ImportedSpec.Text.Piece] = []
            var seenScheme = false
            var host = ""
            var rest: [ShellWords.Piece] = []
            var index = 0
            scan: while index < pieces.count {
                switch pieces[index] {
                case .variable(let name):
                    base.append(.environment(name: name, fallback: ""))
                    index += 1
                case .text(var text):
                    if !seenScheme {
                        if let range = text.range(of: "://") {
                            let scheme = text[..<range.lowerBound].lowercased()
                            guard scheme == "http" || scheme == "https", base.isEmpty else { return nil }
                            base.append(.data(scheme + "://"))
                            text = String(text[range.upperBound...])
                        } else if base.isEmpty {
                            base.append(.data("http://"))
                        }
                        seenScheme = true
                    }
                    let end = text.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? text.endIndex
                    var authority = String(text[..<end])
                    // `user:password@`: the user is carried as basic auth, the password never.
                    if let at = authority.lastIndex(of: "@") {
                        let userinfo = authority[..<at]
                        user = String(userinfo.prefix { $0 != ":" })
                        authority = String(authority[authority.index(after: at)...])
                    }
                    host += authority
                    base.append(.data(authority))
                    if end < text.endIndex {
                        rest = [.text(String(text[end...]))] + pieces[(index + 1)...]
                        break scan
                    }
                    index += 1
                }
            }
            pieces = rest
            guard
                base.count > 1 || host.isEmpty == false
                    || base.contains(where: { if case .environment = $0 { true } else { false } })
            else { return nil }
            self.base = ImportedSpec.Text(base.filter { $0 != .data("") })
            self.host = String(host.prefix { $0 != ":" })
            // Split what follows into the path and the query; drop the fragment.
            var path: [ShellWords.Piece] = []
            var query: [ShellWords.Piece]?
            var inFragment = false
            for piece in pieces where !inFragment {
                guard case .text(let text) = piece else {
                    if query != nil { query?.append(piece) } else { path.append(piece) }
                    continue
                }
                var remaining = Substring(text)
                if let hash = remaining.firstIndex(of: "#") {
                    remaining = remaining[..<hash]
                    inFragment = true
                }
                if query == nil, let mark = remaining.firstIndex(of: "?") {
                    path.append(.text(String(remaining[..<mark])))
                    query = [.text(String(remaining[remaining.index(after: mark)...]))]
                } else if query != nil {
                    query?.append(.text(String(remaining)))
                } else {
                    path.append(.text(String(remaining)))
                }
            }
            self.path = path
            self.query = query
        }
    }

    /// One command as a target.
    struct Target {
        var target: ImportedSpec.Target
        var leftOut: [(String, String)] = []
        var name: String { target.name }

        init(command: CurlCommand, url: URLParts, variable: (String) -> ImportedSpec.Text) {
            var leftOut: [(String, String)] = []
            var params: [ImportedSpec.Param] = []
            /// A `$NAME` where the spec cannot read the environment: a required string param.
            func param(_ name: String) -> String {
                let param = Names.param(name)
                if !params.contains(where: { $0.name == param }) {
                    params.append(
                        ImportedSpec.Param(
                            name: param, type: "string", description: "$\(name) in the curl command", optional: false))
                }
                return "{\(param)}"
            }
            /// A word where the spec reads the environment: text, and `${NAME:-}` for a `$NAME`;
            /// with `templates`, braces doubled, for a value the spec reads `{param}` in.
            func text(_ pieces: [ShellWords.Piece], templates: Bool = true) -> ImportedSpec.Text {
                ImportedSpec.Text(
                    pieces.map { piece in
                        switch piece {
                        case .text(let text): .data(templates ? YAMLText.template(text) : text)
                        case .variable(let name): .environment(name: name, fallback: "")
                        }
                    })
            }
            /// A query or path text, its variables as params.
            func template(_ pieces: [ShellWords.Piece], decode: Bool) -> String {
                pieces.map { piece in
                    switch piece {
                    case .text(let text):
                        YAMLText.template(decode ? PercentEncoding.decode(text[...], plusIsSpace: true) : text)
                    case .variable(let name): param(name)
                    }
                }.joined()
            }

            // The path, as curl sends it: `/` when the URL has none.
            var path = template(url.path, decode: false)
            if path.isEmpty { path = "/" }

            // The query: the URL's, then `-G`'s data, each pair decoded and sent again encoded.
            var query: [ImportedSpec.Entry] = []
            func addQuery(_ pieces: [ShellWords.Piece]) {
                for pair in Self.split(pieces, at: "&") where !pair.isEmpty {
                    let (key, value) = Self.splitFirst(pair, at: "=")
                    let name = template(key, decode: true)
                    guard !name.isEmpty else { continue }
                    var entryValue = ImportedSpec.Text([.data(template(value, decode: true))])
                    if CredentialNames.isCredential(name: name) {
                        entryValue = variable(name)
                    }
                    query.append(ImportedSpec.Entry(key: name, value: entryValue))
                }
            }
            if let pieces = url.query { addQuery(pieces) }

            var method = command.head ? "HEAD" : "GET"
            var headers: [ImportedSpec.Entry] = []
            var auth: ImportedSpec.Auth?
            var contentType: String?
            var hasAccept = false
            var userAgent: ImportedSpec.Entry?
            var cookies: [ShellWords.Word] = []
            for header in command.headers {
                let lower = header.name.lowercased()
                let value = header.value
                switch lower {
                case "content-type" where value.isLiteral:
                    contentType = value.text
                    continue
                case "accept":
                    hasAccept = true
                case "accept-encoding":
                    // An answer in an encoding moya-cli cannot decode (br, zstd) would print as bytes.
                    leftOut.append(
                        ("Accept-Encoding", "moya-cli asks for gzip and deflate itself and decodes the answer"))
                    continue
                case "user-agent":
                    userAgent = ImportedSpec.Entry(key: header.name, value: text(value.pieces))
                    continue
                case "authorization" where value.isLiteral && ImportReport.basicUser(ofHeader: value.text) != nil:
                    // Basic credentials as basic auth: the user as it is, the password unwritten.
                    auth = .basic(
                        user: text([.text(ImportReport.basicUser(ofHeader: value.text) ?? "")]),
                        password: variable("password"))
                    continue
                case "authorization":
                    if value.text.lowercased().hasPrefix("bearer ") {
                        auth = .bearer(value.isLiteral ? variable("token") : text(value.dropping(7).pieces))
                    } else {
                        headers.append(
                            ImportedSpec.Entry(
                                key: header.name,
                                value: value.isLiteral ? variable("authorization") : text(value.pieces)))
                    }
                    continue
                case "cookie":
                    cookies.append(value)
                    continue
                default:
                    break
                }
                if CredentialNames.isCredential(name: lower), value.isLiteral, !value.pieces.isEmpty {
                    headers.append(ImportedSpec.Entry(key: header.name, value: variable(header.name)))
                } else {
                    headers.append(ImportedSpec.Entry(key: header.name, value: text(value.pieces)))
                }
            }
            // `-H Cookie:` and `-b name=value` make one `Cookie` header, as curl sends them.
            cookies += command.cookies
            if !cookies.isEmpty {
                if cookies.allSatisfy(\.isLiteral) {
                    headers.append(ImportedSpec.Entry(key: "Cookie", value: variable("cookie")))
                } else {
                    var pieces: [ShellWords.Piece] = []
                    for (index, cookie) in cookies.enumerated() {
                        if index > 0 { pieces.append(.text("; ")) }
                        pieces += cookie.pieces
                    }
                    headers.append(ImportedSpec.Entry(key: "Cookie", value: text(pieces)))
                }
            }
            if let user = command.user {
                let (name, password) = Self.splitFirst(user.pieces, at: ":")
                auth = .basic(
                    user: text(name),
                    password: password.isEmpty || password.allSatisfy({ if case .text = $0 { true } else { false } })
                        ? variable("password") : text(password))
            }
            if auth == nil, let user = url.user {
                auth = .basic(user: text([.text(PercentEncoding.decode(user[...]))]), password: variable("password"))
            }
            if let bearer = command.bearer {
                auth = .bearer(bearer.isLiteral ? variable("token") : text(bearer.pieces))
            }

            // The body, and the method and headers it brings.
            var task: ImportedSpec.Task?
            var parts: [ImportedSpec.Part] = []
            switch command.body {
            case .data(let words)?:
                var pieces: [ShellWords.Piece] = []
                for (index, word) in words.enumerated() {
                    if index > 0, !command.isJSON { pieces.append(.text("&")) }
                    pieces += word.pieces
                }
                if command.dataInQuery {
                    addQuery(pieces)
                } else {
                    method = "POST"
                    let type =
                        contentType
                        ?? (command.isJSON ? "application/json" : "application/x-www-form-urlencoded")
                    // A credential-named member of a JSON body is read from a variable.
                    let literal = pieces.map { piece -> String in
                        if case .text(let text) = piece { return text }
                        return ""
                    }.joined()
                    let withheld =
                        pieces.allSatisfy({ if case .text = $0 { true } else { false } })
                        ? ImportReport.withholdingCredentials(inJSON: literal, variable: variable) : nil
                    task = .text(withheld ?? text(pieces, templates: false), contentType: type, query: query)
                    contentType = nil
                    if command.isJSON, !hasAccept {
                        headers.insert(ImportedSpec.Entry(key: "Accept", value: "application/json"), at: 0)
                        hasAccept = true
                    }
                }
            case .form(let formParts)?:
                method = "POST"
                for part in formParts {
                    let name = Names.param(part.name)
                    if part.isFile {
                        let file = name == part.name ? name : "\(name)"
                        if !params.contains(where: { $0.name == file }) {
                            params.append(
                                ImportedSpec.Param(
                                    name: file, type: "file", description: "curl sent the file \(part.value.text)",
                                    optional: false))
                        }
                        parts.append(
                            ImportedSpec.Part(
                                name: part.name, template: "{\(file)}", isFile: true,
                                mimeType: part.mimeType ?? Self.mimeType(of: part.value.text)))
                    } else {
                        parts.append(
                            ImportedSpec.Part(
                                name: part.name, template: text(part.value.pieces), isFile: false,
                                mimeType: part.mimeType))
                    }
                }
                task = .multipart(parts, query: query)
                if contentType != nil {
                    leftOut.append(("Content-Type", "a multipart form sends its own Content-Type with its boundary"))
                    contentType = nil
                }
            case nil:
                break
            }
            if task == nil, !query.isEmpty { task = .parameters([], encoding: "queryString", query: query) }
            if let contentType {
                // A Content-Type with no body is still sent, as curl sends it.
                headers.append(ImportedSpec.Entry(key: "Content-Type", value: text([.text(contentType)])))
            }
            let finalMethod = command.method ?? method
            // curl's own headers, which a call sends only when the spec says so.
            if !hasAccept { headers.insert(ImportedSpec.Entry(key: "Accept", value: "*/*"), at: 0) }
            if let userAgent { headers.append(userAgent) }
            // A header given twice is sent once, its values joined; a spec's headers are a mapping.
            headers = PostmanImporter.Importer.merged(headers)
            var target = ImportedSpec.Target(
                name: Self.name(method: finalMethod, path: url.path), method: finalMethod, path: path)
            target.summary = "curl \(finalMethod) \(path)"
            target.params = params
            target.headers = headers
            target.auth = auth
            target.task = task
            target.timeout = command.timeout
            target.retry = command.retry
            self.target = target
            self.leftOut = leftOut
        }

        /// `getUsers`, `postApiV1Send`, `get` for `/`.
        static func name(method: String, path: [ShellWords.Piece]) -> String {
            let words = path.compactMap { piece -> String? in
                if case .text(let text) = piece { return text }
                return nil
            }.joined(separator: " ")
            return Names.lowerCamel(method.lowercased() + " " + words, fallback: "request")
        }

        /// The type curl gives a file part by its name's extension.
        static func mimeType(of path: String) -> String {
            let types: [String: String] = [
                "gif": "image/gif", "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png",
                "svg": "image/svg+xml",
                "txt": "text/plain", "htm": "text/html", "html": "text/html", "pdf": "application/pdf",
                "xml": "application/xml", "json": "application/json",
            ]
            let name = path.split(separator: "/").last.map(String.init) ?? path
            guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
            return types[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
        }

        /// `pieces` split at each `separator` in their text.
        static func split(_ pieces: [ShellWords.Piece], at separator: Character) -> [[ShellWords.Piece]] {
            var result: [[ShellWords.Piece]] = [[]]
            for piece in pieces {
                guard case .text(let text) = piece else {
                    result[result.count - 1].append(piece)
                    continue
                }
                let parts = text.split(separator: separator, omittingEmptySubsequences: false)
                for (index, part) in parts.enumerated() {
                    if index > 0 { result.append([]) }
                    if !part.isEmpty { result[result.count - 1].append(.text(String(part))) }
                }
            }
            return result
        }

        /// `pieces` before and after the first `separator` in their text.
        static func splitFirst(_ pieces: [ShellWords.Piece], at separator: Character)
            -> ([ShellWords.Piece], [ShellWords.Piece])
        {
            var before: [ShellWords.Piece] = []
            for (index, piece) in pieces.enumerated() {
                if case .text(let text) = piece, let found = text.firstIndex(of: separator) {
                    let head = String(text[..<found])
                    let tail = String(text[text.index(after: found)...])
                    if !head.isEmpty { before.append(.text(head)) }
                    return (before, (tail.isEmpty ? [] : [.text(tail)]) + pieces[(index + 1)...])
                }
                before.append(piece)
            }
            return (before, [])
        }
    }
}
