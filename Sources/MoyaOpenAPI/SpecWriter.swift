import MoyaHTTP
import MoyaSpec

/// Writes an imported spec as YAML in the bundled specs' style: flow mappings where a line
/// holds them, block style where it does not, and scalars plain unless YAML would read them
/// as something else. The same spec always gives the same bytes.
///
/// Every string from the document is data: its `${` is written `$${`, so that the spec never
/// reads the environment where the document says so, and a double-quoted scalar escapes
/// every character YAML could read as a line break or a control.
enum SpecWriter {
    /// Lines longer than this are written in block style.
    static let width = YAMLText.width

    static func write(_ spec: ImportedSpec) -> String {
        var lines = spec.comment.map { "# " + $0 }
        lines.append("service: \(YAMLText.scalar(spec.service))")
        lines.append("baseURL: \(text(spec.baseURL))")
        if !spec.environments.isEmpty {
            lines.append("environments:")
            for environment in spec.environments {
                lines.append("  \(YAMLText.key(environment.name)): { baseURL: \(text(environment.baseURL)) }")
            }
        }
        if let auth = spec.auth { lines.append("auth: \(self.auth(auth))") }
        lines.append("targets:")
        for target in spec.targets { lines += self.target(target) }
        return lines.joined(separator: "\n") + "\n"
    }

    static func auth(_ auth: ImportedSpec.Auth) -> String {
        switch auth {
        case .disabled: "none"
        case .bearer(let token): "{ bearer: \(text(token)) }"
        case .basic(let user, let password): "{ basic: { user: \(text(user)), password: \(text(password)) } }"
        }
    }

    static func target(_ target: ImportedSpec.Target) -> [String] {
        var lines = ["  \(YAMLText.key(target.name)):"]
        if let summary = target.summary, !summary.isEmpty { lines.append("    summary: \(YAMLText.scalar(summary))") }
        if let description = target.description.map(Names.oneLine), !description.isEmpty,
            description != target.summary
        {
            lines += field("description", description, indent: 4)
        }
        if target.method != "GET" { lines.append("    method: \(target.method)") }
        if !target.params.isEmpty {
            lines.append("    params:")
            for param in target.params { lines += self.param(param) }
        }
        if let baseURL = target.baseURL { lines.append("    baseURL: \(text(baseURL))") }
        lines.append("    path: \(YAMLText.scalar(target.path))")
        if !target.headers.isEmpty { lines += entries("headers", target.headers, indent: 4) }
        if !target.cookies.isEmpty { lines += entries("cookies", target.cookies, indent: 4) }
        if let auth = target.auth { lines.append("    auth: \(self.auth(auth))") }
        if let task = target.task { lines += self.task(task) }
        if let schema = target.requestSchema { lines.append("    requestSchema: \(reference(schema))") }
        if let required = target.bodyRequired { lines.append("    bodyRequired: \(required)") }
        if let validation = target.validation { lines.append("    validation: \(validation)") }
        if target.followsRedirects == false { lines.append("    followRedirects: false") }
        if let timeout = target.timeout {
            lines.append("    timeout: \(Int(exactly: timeout).map(String.init) ?? String(timeout))")
        }
        if let retry = target.retry { lines.append("    retry: \(retry)") }
        if let paginate = target.paginate { lines.append("    paginate: \(paginate)") }
        if let stream = target.stream { lines.append("    stream: \(stream)") }
        // 200 with no body is what a target without a sample answers.
        if let sample = target.sample, sample.status != 200 || sample.json != nil || sample.body != nil {
            lines += self.sample("sample", sample, indent: 4)
        }
        if let schema = target.schema { lines.append("    schema: \(reference(schema))") }
        if !target.samples.isEmpty {
            lines.append("    samples:")
            for (name, sample) in target.samples { lines += self.sample(YAMLText.key(name), sample, indent: 6) }
        }
        // A target that needs params gets a check that gives them, so that `check` runs it. A
        // write's check runs on samples only (`live: false`), so that `check specs/` with a
        // real token changes no data until the user says so.
        let required = target.params.filter { !$0.optional && $0.defaultValue == nil }
        let examples = required.compactMap { param in param.example.map { (key: param.name, value: $0) } }
        let writes = !Method(rawValue: target.method.uppercased()).isReadOnly
        let runnable = examples.count == required.count
        if runnable, !required.isEmpty || writes || !target.expectations.isEmpty {
            lines.append("    checks:")
            lines.append("      - name: example")
            if !examples.isEmpty { lines += YAMLText.block("params", .object(examples), indent: 8, templates: false) }
            if writes { lines.append("        live: false") }
            // What the source asserts of the response (Bruno's `assert`), on the same call.
            if !target.expectations.isEmpty {
                lines += YAMLText.block("expect", .object(target.expectations), indent: 8, templates: false)
            }
        }
        return lines
    }

    /// A param in flow style, `name: { type: int, … }`, or in block style when that is
    /// longer than a line, its description folded.
    static func param(_ param: ImportedSpec.Param) -> [String] {
        var fields: [(key: String, value: String)] = []
        if let values = param.enumValues {
            if param.type == "[enum]" { fields.append(("type", YAMLText.quoted(param.type))) }
            fields.append(("enum", "[\(values.map { YAMLText.scalar($0) }.joined(separator: ", "))]"))
        } else {
            fields.append(("type", param.type.hasPrefix("[") ? YAMLText.quoted(param.type) : param.type))
        }
        if let value = param.defaultValue { fields.append(("default", YAMLText.flow(value, templates: false))) }
        if param.optional { fields.append(("optional", "true")) }
        if let style = param.style { fields.append(("style", style)) }
        if let explode = param.explode { fields.append(("explode", explode ? "true" : "false")) }
        fields += param.rules.map { ($0.key, YAMLText.flow($0.value, templates: false)) }
        if param.allowsEmptyValue { fields.append(("allowEmptyValue", "true")) }
        let name = "      \(YAMLText.key(param.name)):"
        let description = param.description.flatMap { $0.isEmpty ? nil : $0 }
        let flowFields = fields + (description.map { [("description", YAMLText.scalar($0))] } ?? [])
        let line = name + " { " + flowFields.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + " }"
        guard line.count > lineWidth, let description else { return [line] }
        return [name] + fields.map { "        \($0.key): \($0.value)" } + field("description", description, indent: 8)
    }

    /// The width long text is folded to.
    static let lineWidth = 100

    /// `key: text` in block style: one line, or folded (`>-`) over lines of `lineWidth`
    /// when it is longer and folding reads back as the same text: printable, with single
    /// spaces between its words and none at its ends.
    static func field(_ key: String, _ text: String, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        let line = pad + key + ": " + YAMLText.scalar(text, inFlow: false)
        let written = YAMLText.literal(text)
        guard line.count > lineWidth, !written.contains("  "), written.first != " ", written.last != " ",
            !written.unicodeScalars.contains(where: { $0 == "\t" || $0 == "\n" || YAMLText.needsEscape($0) })
        else { return [line] }
        var lines = [pad + key + ": >-"]
        var current = ""
        for word in written.split(separator: " ", omittingEmptySubsequences: false) {
            if !current.isEmpty, indent + 2 + current.count + 1 + word.count > lineWidth {
                lines.append(pad + "  " + current)
                current = String(word)
            } else {
                current += current.isEmpty ? String(word) : " " + word
            }
        }
        lines.append(pad + "  " + current)
        return lines
    }

    static func task(_ task: ImportedSpec.Task) -> [String] {
        var lines = ["    task:"]
        let query: [ImportedSpec.Entry]
        switch task {
        case .parameters(let entries, let encoding, let extra):
            // OpenAPI's form style: an array repeats its key (explode), booleans are words.
            if entries.isEmpty {
                guard !extra.isEmpty else { return [] }
                // A list of one-key mappings: the query in its order.
                lines.append("      parameters:")
                lines += extra.map { "        - \(YAMLText.key($0.key)): \(text($0.value))" }
                lines.append("      encoding: queryString")
                lines.append("      arrays: noBrackets")
                lines.append("      bools: literal")
                return lines
            }
            lines += self.entries("parameters", entries, indent: 6)
            lines.append("      encoding: \(encoding)")
            if encoding != "json" {
                lines.append("      arrays: noBrackets")
                lines.append("      bools: literal")
            }
            query = extra
        case .data(let text, let contentType, let extra):
            lines.append("      data: \(YAMLText.quoted(text))")
            lines.append("      contentType: \(YAMLText.scalar(contentType))")
            query = extra
        case .text(let body, let contentType, let extra):
            lines.append("      data: \(text(body))")
            lines.append("      contentType: \(YAMLText.scalar(contentType))")
            query = extra
        case .json(let body, let extra):
            lines.append("      json: " + flow(body))
            query = extra
        case .upload(let template, _, let extra):
            lines.append("      upload: \(text(template))")
            query = extra
        case .multipart(let parts, let extra):
            lines.append("      multipart:")
            for part in parts {
                let type = part.mimeType.map { ", mimeType: \(YAMLText.scalar($0))" } ?? ""
                lines.append(
                    "        - { name: \(YAMLText.scalar(part.name)), \(part.isFile ? "file" : "value"): \(text(part.template))\(type) }"
                )
            }
            query = extra
        }
        // A list of one-key mappings, which repeats an array's key as OpenAPI's form style does.
        if !query.isEmpty {
            lines.append("      query:")
            lines += query.map { "        - \(YAMLText.key($0.key)): \(text($0.value))" }
        }
        return lines
    }

    static func sample(_ name: String, _ sample: ImportedSpec.Sample, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        var fields: [(String, String)] = []
        if sample.status != 200 || (sample.json == nil && sample.body == nil) {
            fields.append(("status", "\(sample.status)"))
        }
        var headers: [String] = []
        if let type = sample.contentType { headers.append("Content-Type: \(YAMLText.scalar(type))") }
        if let location = sample.location {
            headers.append("Location: \(YAMLText.scalar(YAMLText.template(location)))")
        }
        if !headers.isEmpty { fields.append(("headers", "{ " + headers.joined(separator: ", ") + " }")) }
        if let body = sample.body { fields.append(("body", YAMLText.scalar(YAMLText.template(body)))) }
        var lines: [String] = []
        if let json = sample.json {
            let inline = YAMLText.flow(json, templates: true)
            let schema = sample.schema.map { [("schema", reference($0))] } ?? []
            let one =
                "\(pad)\(name): { "
                + (fields + [("json", inline)] + schema).map { "\($0): \($1)" }.joined(separator: ", ") + " }"
            if one.count <= width { return [one] }
            lines.append("\(pad)\(name):")
            for (field, value) in fields { lines.append("\(pad)  \(field): \(value)") }
            lines += YAMLText.block("json", json, indent: indent + 2)
            for (field, value) in schema { lines.append("\(pad)  \(field): \(value)") }
            return lines
        }
        return ["\(pad)\(name): { " + fields.map { "\($0): \($1)" }.joined(separator: ", ") + " }"]
    }

    /// A schema `$ref` into the document: `{ $ref: "api.yaml#/components/schemas/Pet" }`.
    static func reference(_ target: String) -> String { "{ $ref: \(YAMLText.scalar(target)) }" }

    static func entries(_ name: String, _ entries: [ImportedSpec.Entry], indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        let inline =
            "\(pad)\(name): { " + entries.map { "\(YAMLText.key($0.key)): \(text($0.value))" }.joined(separator: ", ")
            + " }"
        if inline.count <= width { return [inline] }
        return ["\(pad)\(name):"] + entries.map { "\(pad)  \(YAMLText.key($0.key)): \(text($0.value))" }
    }

    // MARK: - Scalars

    /// A string import made: document text escaped, its own references as they are.
    /// A JSON body in flow style, its strings as `text` writes them.
    static func flow(_ json: ImportedSpec.JSONText) -> String {
        switch json {
        case .scalar(let value): YAMLText.flow(value, templates: false)
        case .text(let text): self.text(text)
        case .array(let items): items.isEmpty ? "[]" : "[ " + items.map(flow).joined(separator: ", ") + " ]"
        case .object(let members):
            members.isEmpty
                ? "{}"
                : "{ " + members.map { "\(YAMLText.key($0.key)): \(flow($0.value))" }.joined(separator: ", ") + " }"
        }
    }

    static func text(_ text: ImportedSpec.Text) -> String {
        let written = text.pieces.map { piece in
            switch piece {
            case .data(let text): YAMLText.literal(text)
            case .environment(let name, let fallback): fallback.map { "${\(name):-\($0)}" } ?? "${\(name)}"
            }
        }.joined()
        return YAMLText.isPlain(written, inFlow: true) ? written : YAMLText.yamlQuoted(written)
    }

    /// Document text in a comment: as it is when it is printable ASCII, else quoted, so that
    /// nothing ends the comment's line.
    static func commentText(_ text: String) -> String {
        text.utf8.allSatisfy({ (0x20..<0x7F).contains($0) && $0 != UInt8(ascii: "\"") }) ? text : YAMLText.quoted(text)
    }

}
