import MoyaHTTP
import MoyaSpec

/// `moya-cli export http`: a service as a `.http` file in the JetBrains HTTP Client's format,
/// which VS Code's REST Client, httpyac and Kulala read (docs/export-collections.md). Each
/// target is a request named by `# @name`, its summary the `###` title; a param is
/// `{{name}}`, its default an `@name = value` line in the request's own region, where
/// `import http` reads it back as that request's; `${VAR}`s with a default are `@VAR = value`
/// lines at the top, or `http-client.env.json` values when the spec has environments; a
/// credential is only ever its `{{VAR}}` placeholder, to set in `http-client.private.env.json`.
public enum HTTPFileExporter {
    /// The `.http` text, `http-client.env.json`'s text when the spec has environments, and what
    /// neither carries.
    public static func export(_ service: ServiceSpec) -> (text: String, environments: String?, notes: [String]) {
        let export = CollectionExport(service, carriesChecks: true)
        var notes = export.notes
        var lines = ["# Exported by moya-cli export http from \(export.file)."]
        let environmentNames = Set(export.environments.flatMap { $0.values.map(\.name) })
        var shared: [(key: String, value: JSONValue)] = []
        var credentials: [String] = []
        for variable in export.variables {
            if variable.isCredential {
                credentials.append(variable.name)
            } else if let value = variable.value {
                if environmentNames.contains(variable.name) {
                    shared.append((variable.name, .string(value)))
                } else {
                    if let line = variableLine(variable.name, value, notes: &notes) { lines.append(line) }
                }
            }
        }
        if !credentials.isEmpty {
            lines.append(
                "# Set \(credentials.joined(separator: ", ")) in http-client.private.env.json; they are never written here."
            )
        }
        for request in export.requests {
            lines.append("")
            lines += self.request(request, auth: request.auth ?? export.auth, notes: &notes)
        }
        var environments: String?
        if !export.environments.isEmpty {
            var members: [(key: String, value: JSONValue)] = []
            if !shared.isEmpty { members.append(("$shared", .object(shared))) }
            for environment in export.environments {
                members.append((environment.name, .object(environment.values.map { ($0.name, .string($0.value)) })))
            }
            environments = JSONValue.object(members).serialized(pretty: true, escapeSlashes: false) + "\n"
        }
        return (lines.joined(separator: "\n") + "\n", environments, notes)
    }

    static func request(
        _ request: CollectionExport.Request, auth: CollectionExport.Auth?,
        notes: inout [String]
    ) -> [String] {
        var lines = ["### " + oneLine(request.summary ?? request.name)]
        lines.append("# @name \(request.name)")
        if let description = request.description {
            lines += description.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map {
                "# " + oneLine(String($0))
            }
        }
        if request.followsRedirects == false { lines.append("# @no-redirect") }
        // Params' defaults in the request's own region, which import http reads as its own.
        for (name, value) in request.urlDefaults + request.otherDefaults {
            if let line = variableLine(name, value, notes: &notes) { lines.append(line) }
        }
        var url =
            CollectionExport.placeholders(request.base) + "/"
            + request.path.map { segment in
                segment.map { piece in
                    switch piece {
                    case .text(let text): PercentEncoding.encode(text, keeping: PostmanExporter.isPathByte)
                    case .variable(let name): "{{\(name)}}"
                    }
                }.joined()
            }.joined(separator: "/")
        if !request.query.isEmpty {
            url +=
                "?"
                + request.query.map {
                    PercentEncoding.encode($0.key, keeping: PostmanExporter.isQueryByte) + "="
                        + PercentEncoding.encode(
                            CollectionExport.placeholders($0.value), keeping: PostmanExporter.isQueryByte)
                }.joined(separator: "&")
        }
        lines.append("\(request.method) \(url)")
        for (key, value) in request.headers { lines.append("\(key): \(CollectionExport.placeholders(value))") }
        switch auth {
        case .bearer(let token)?: lines.append("Authorization: Bearer \(CollectionExport.placeholders(token))")
        case .basic(let user, let password)?:
            lines.append(
                "Authorization: Basic \(CollectionExport.placeholders(user)) \(CollectionExport.placeholders(password))"
            )
        case .none?, nil: break
        }
        // A body line a client reads as a directive (`< file` sends a file, `>> file` writes
        // one, `###` starts a request) would do what the spec never said: such a body is left out.
        let bodyText: [String]
        switch request.body {
        case .raw(let text, _): bodyText = [CollectionExport.placeholders(text)]
        case .multipart(let parts):
            bodyText = parts.filter { !$0.isFile }.map { CollectionExport.placeholders($0.value) }
        case .none, .form, .file: bodyText = []
        }
        if let line = bodyText.lazy.flatMap({ $0.split(whereSeparator: \.isNewline) }).first(where: isDirective) {
            notes.append(
                "\(request.name): body: its line \(String(line.prefix(40)).debugDescription) would read as a .http directive; the body is left out"
            )
            return lines
        }
        switch request.body {
        case .none: break
        case .raw(let text, _):
            let body = CollectionExport.placeholders(text).split(
                omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            // A body that starts like a request line follows the headers without the blank
            // line, which would start another request; httpyac and import http read it so.
            if let first = body.first, HTTPFileImporter.Reader.requestLine(first.trimmingBlanks) != nil {
                notes.append(
                    "\(request.name): body: it starts like a request line, so it follows the headers without a blank line; JetBrains' client may not read it"
                )
            } else {
                lines.append("")
            }
            lines += body.map(String.init)
        case .form(let entries):
            lines.append("Content-Type: application/x-www-form-urlencoded")
            lines.append("")
            lines.append(
                entries.map {
                    PercentEncoding.encode($0.key, keeping: PostmanExporter.isQueryByte) + "="
                        + PercentEncoding.encode(
                            CollectionExport.placeholders($0.value), keeping: PostmanExporter.isQueryByte)
                }.joined(separator: "&"))
        case .multipart(let parts):
            let boundary = "moya-cli-boundary"
            lines.append("Content-Type: multipart/form-data; boundary=\(boundary)")
            lines.append("")
            for part in parts {
                lines.append("--\(boundary)")
                let name = PercentEncoding.encode(part.key) { $0 >= 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "\"") }
                if part.isFile {
                    let file = CollectionExport.placeholders(part.value)
                    let base = file.split(separator: "/").last.map(String.init) ?? file
                    lines.append("Content-Disposition: form-data; name=\"\(name)\"; filename=\"\(base)\"")
                    if let type = part.contentType {
                        lines.append("Content-Type: \(CollectionExport.placeholders(type))")
                    }
                    lines.append("")
                    lines.append("< \(file)")
                } else {
                    lines.append("Content-Disposition: form-data; name=\"\(name)\"")
                    if let type = part.contentType {
                        lines.append("Content-Type: \(CollectionExport.placeholders(type))")
                    }
                    lines.append("")
                    lines += CollectionExport.placeholders(part.value).split(
                        omittingEmptySubsequences: false, whereSeparator: \.isNewline
                    ).map(String.init)
                }
            }
            lines.append("--\(boundary)--")
        case .file(let path):
            lines.append("")
            lines.append("< \(CollectionExport.placeholders(path))")
        }
        if !request.assertions.isEmpty {
            lines.append("")
            lines += request.assertions.map { "?? " + $0 }
        }
        if !request.samples.isEmpty {
            notes.append("\(request.name): samples: a .http file has no saved responses; export postman keeps them")
        }
        return lines
    }

    /// Text for one comment or title line: its line breaks and control characters as spaces.
    static func oneLine(_ text: String) -> String {
        String(
            text.map {
                $0.isNewline || $0.unicodeScalars.contains { $0.properties.generalCategory == .control } ? " " : $0
            })
    }

    /// Whether a body line is one a `.http` client reads as more than text: a file to send
    /// (`< path`, `<@ path`), a handler or a file to write (`> path`, `>> path`), a response
    /// reference (`<> path`), a separator (`###`), an assertion (`??`). XML's `<tag` is text.
    static func isDirective(_ line: Substring) -> Bool {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        return ["< ", "<\t", "<@", "<>", "> ", ">\t", ">>", "###", "??"].contains { trimmed.hasPrefix($0) }
    }

    /// `@name = value`; nil, noted, for a value an `@` line cannot hold (a line break, a
    /// control character, or blanks at its ends, which a client trims).
    static func variableLine(_ name: String, _ value: String, notes: inout [String]) -> String? {
        guard oneLine(value) == value, value.trimmingBlanks == value else {
            notes.append("\(name): its default \(value.debugDescription) cannot be an @ line; set it when calling")
            return nil
        }
        return "@\(name) = \(value)"
    }
}
