import MoyaHTTP
import MoyaSpec
import MoyaStreams

/// A service as the requests a collection holds, read from the compiled spec: what
/// `export postman` and `export http` write (docs/export-collections.md). Every reference is a
/// `{{name}}` placeholder: a param by its name, a `${VAR}` by the variable's. A variable's
/// default is written only where it is no credential (an auth value, a secret or
/// credential-named header); a credential is always left to the placeholder. What a collection
/// cannot hold is listed in `notes`, which the command prints.
struct CollectionExport {
    /// Text and `{{name}}` placeholders.
    enum Piece: Hashable {
        case text(String)
        case variable(String)
    }

    typealias Text = [Piece]

    /// A collection variable: a `${VAR}` the spec reads, with the default it writes.
    struct Variable {
        var name: String
        /// The default; nil when the spec gives none or it is a credential.
        var value: String?
        var isCredential: Bool
    }

    enum Body {
        case none
        /// Text sent as it is; `language` is Postman's name for its kind (`json`, `xml`, `text`).
        case raw(Text, language: String)
        case form([(key: String, value: Text)])
        case multipart([(key: String, value: Text, isFile: Bool, contentType: Text?)])
        /// A file's bytes, the path as the spec names it.
        case file(Text)
    }

    enum Auth: Equatable {
        case none
        case bearer(Text)
        case basic(user: Text, password: Text)
    }

    struct Sample {
        var name: String
        /// Whether it is the target's default sample (`sample:`).
        var isDefault = false
        var status: Int
        var contentType: String?
        var body: String
    }

    struct Request {
        var name: String
        var summary: String?
        var description: String?
        var method: String
        /// The base URL: `{{VAR}}` when the spec's reads one or has a path, else literal.
        var base: Text
        /// The path's segments after the base, each its pieces.
        var path: [Text]
        var query: [(key: String, value: Text)]
        var headers: [(key: String, value: Text)]
        var body: Body
        /// The request's own auth; nil when it has the service's.
        var auth: Auth?
        /// The target's params' names.
        var params: Set<String>
        /// Each param as the spec declares it, for `x-moya-params`: what a collection has no
        /// words for (its type, enum, whether it is optional, its description).
        var declarations: [(key: String, value: JSONValue)] = []
        /// The params in the URL with their defaults, in order.
        var urlDefaults: [(name: String, value: String)]
        /// Params named in headers and bodies, with their defaults: collection variables.
        var otherDefaults: [(name: String, value: String)]
        var samples: [Sample]
        var followsRedirects: Bool?
        /// The first live check with no params of its own, as httpyac's `??` assertions.
        var assertions: [String] = []
    }

    var service: String
    var file: String
    var requests: [Request] = []
    var auth: Auth?
    var variables: [Variable] = []
    var environments: [(name: String, values: [(name: String, value: String)])] = []
    /// What the collection does not carry, one line each: `target: what: why`.
    var notes: [String] = []

    private var variableIndex: [String: Int] = [:]
    /// The variables the spec reads with no default (`${VAR}`, not `${VAR:-}`).
    private var unset: Set<String> = []

    /// Whether the first check is written as `.http` assertions.
    let carriesChecks: Bool

    init(_ spec: ServiceSpec, carriesChecks: Bool = false) {
        self.carriesChecks = carriesChecks
        service = spec.name
        file = spec.file
        read(spec)
    }

    /// Text placeholder form: each variable as `{{name}}`.
    static func placeholders(_ text: Text) -> String {
        text.map {
            switch $0 {
            case .text(let text): text
            case .variable(let name): "{{\(name)}}"
            }
        }.joined()
    }

    // MARK: Reading the spec

    private mutating func read(_ spec: ServiceSpec) {
        unset = Set(spec.unsetVariables.map(\.name))
        let base = baseText(spec.baseURLSource, written: spec.baseURL, hasEnvironments: !spec.environments.isEmpty)
        if let auth = spec.auth { self.auth = exported(auth, target: "service") }
        for environment in spec.environments {
            var values: [(String, String)] = []
            if let source = environment.baseURLSource ?? environment.baseURL.map({ Template(literal: $0) }),
                let variable = base.singleVariable
            {
                values.append((variable, Exporter.text(of: source)))
            } else if environment.baseURL != nil {
                notes.append("environment \(environment.name): its base URL has no variable to set")
            }
            if !environment.headers.isEmpty {
                notes.append("environment \(environment.name): its headers are not carried")
            }
            environments.append((environment.name, values))
        }
        for target in spec.targets {
            // A Postman collection and an .http file hold HTTP requests alone.
            guard target.stream?.kind != .websocket else {
                notes.append("\(target.name): a WebSocket; the collection holds HTTP requests alone, so it is left out")
                continue
            }
            requests.append(request(target, spec: spec, base: base.text))
        }
    }

    /// The base URL as the requests write it: its variable when it reads one, `{{BASE_URL}}`
    /// when it has a path or the spec has environments, else the literal URL.
    private mutating func baseText(_ source: Template, written: String, hasEnvironments: Bool) -> (
        text: Text, singleVariable: String?
    ) {
        let segments = source.segments.isEmpty ? [Template.Segment.literal(written)] : source.segments
        if segments.count == 1, let (name, value) = segments[0].variable {
            define(name, value: segments[0].isDefault ? value : nil, credential: false)
            return ([.variable(name)], name)
        }
        let literal = segments.allSatisfy { if case .literal = $0 { true } else { false } }
        if literal, !hasEnvironments, !Self.hasPath(written) {
            return ([.text(written.hasSuffix("/") ? String(written.dropLast()) : written)], nil)
        }
        if literal {
            define("BASE_URL", value: written, credential: false)
            return ([.variable("BASE_URL")], "BASE_URL")
        }
        return (text(segments: segments, credential: false), nil)
    }

    static func hasPath(_ url: String) -> Bool {
        guard let scheme = url.range(of: "://") else { return true }
        let rest = url[scheme.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return false }
        return rest[slash...].count > 1
    }

    private mutating func define(_ name: String, value: String?, credential: Bool) {
        let credential = credential || ImportReport.isCredentialField(name)
        if let index = variableIndex[name] {
            if credential { variables[index].isCredential = true; variables[index].value = nil }
            if variables[index].value == nil, !variables[index].isCredential { variables[index].value = value }
            return
        }
        variableIndex[name] = variables.count
        variables.append(Variable(name: name, value: credential ? nil : value, isCredential: credential))
    }

    /// A template as placeholders; the `${VAR}`s it reads become collection variables.
    private mutating func text(_ template: Template, credential: Bool) -> Text {
        text(segments: template.segments, credential: credential)
    }

    private mutating func text(segments: [Template.Segment], credential: Bool) -> Text {
        var pieces: Text = []
        for segment in segments {
            switch segment {
            case .literal(let text):
                if case .text(let last)? = pieces.last {
                    pieces[pieces.count - 1] = .text(last + text)
                } else {
                    pieces.append(.text(text))
                }
            case .param(let name): pieces.append(.variable(name))
            case .environment(let name, _):
                // `${VAR:-}` compiles as `${VAR}` unset does, but with an empty default.
                define(name, value: unset.contains(name) ? nil : "", credential: credential)
                pieces.append(.variable(name))
            case .environmentDefault(let name, let value):
                define(name, value: value, credential: credential)
                pieces.append(.variable(name))
            }
        }
        return pieces
    }

    private func literal(_ text: String) -> Text { text.isEmpty ? [] : [.text(text)] }

    private mutating func exported(_ auth: AuthSpec, target: String) -> Auth? {
        switch auth {
        case .none: return Auth.none
        case .bearer(let token): return .bearer(text(token, credential: true))
        case .basic(let user, let password):
            return .basic(user: text(user, credential: false), password: text(password, credential: true))
        case .custom(let scheme, _):
            notes.append("\(target): auth \(scheme): a collection has no custom scheme; set its Authorization header")
            return nil
        case .login(let login):
            notes.append(
                "\(target): auth login (\(login.targetReference)): a collection cannot call a login target; set its token"
            )
            return nil
        }
    }

    // MARK: One target

    private mutating func request(_ target: TargetSpec, spec: ServiceSpec, base: Text) -> Request {
        let params = Dictionary(target.params.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var request = Request(
            name: target.name, summary: target.summary, description: target.description,
            method: target.method.rawValue, base: base, path: [], query: [], headers: [], body: .none, auth: nil,
            params: Set(target.params.map(\.name)), urlDefaults: [], otherDefaults: [], samples: [],
            followsRedirects: target.followsRedirects)
        if let source = target.baseURLSource ?? target.baseURL.map({ Template(literal: $0) }) {
            let text = self.text(source, credential: false)
            request.base =
                text.last.map { piece in
                    if case .text(let last) = piece, last.hasSuffix("/") {
                        return text.dropLast() + [.text(String(last.dropLast()))]
                    }
                    return text
                } ?? text
        }
        // The path, split at its slashes.
        var segment: Text = []
        var segments: [Text] = []
        for piece in text(target.path, credential: false) {
            guard case .text(let value) = piece else {
                segment.append(piece)
                continue
            }
            var parts = value.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            if let first = parts.first {
                if !first.isEmpty { segment.append(.text(first)) }
                parts.removeFirst()
            }
            for part in parts {
                segments.append(segment)
                segment = part.isEmpty ? [] : [.text(part)]
            }
        }
        segments.append(segment)
        // A path starts with `/`: the first segment is what stands before it.
        if segments.first?.isEmpty == true { segments.removeFirst() }
        request.path = segments

        for header in spec.headers + target.headers {
            let credential =
                header.isSecret || CredentialNames.isCredential(name: header.name.lowercased())
                || ["authorization", "cookie"].contains(header.name.lowercased())
            request.headers.append((header.name, text(header.value, credential: credential)))
        }
        if !target.cookies.isEmpty {
            let cookies = target.cookies.map { cookie in
                [.text(cookie.name + "=")] + text(cookie.value, credential: true)
            }
            request.headers.append(("Cookie", Array(cookies.joined(separator: [.text("; ")]))))
        }
        read(target.task, of: target, into: &request)
        if let auth = target.auth, auth != spec.auth {
            request.auth = exported(auth, target: target.name)
        }

        // Defaults: params in the URL go with the request; the rest are variables.
        var inURL: Set<String> = []
        for piece in request.path.joined() + request.query.flatMap(\.value) {
            if case .variable(let name) = piece, params[name] != nil { inURL.insert(name) }
        }
        for param in target.params {
            guard let value = Self.defaultValue(param) else { continue }
            if inURL.contains(param.name) {
                request.urlDefaults.append((param.name, value))
            } else {
                request.otherDefaults.append((param.name, value))
            }
        }
        request.declarations = target.params.map { ($0.name, Self.declaration($0)) }
        for (name, sample) in [("sample", target.sample)] + target.samples.map({ ($0.name, Optional($0.sample)) }) {
            guard let sample, var exported = self.sample(name, sample, target: target, fileRoot: spec.fileRoot)
            else { continue }
            exported.isDefault = request.samples.isEmpty && target.sample != nil
            request.samples.append(exported)
        }
        if target.timeout != nil { notes.append("\(target.name): timeout: a collection has no timeout per request") }
        if target.retry != nil { notes.append("\(target.name): retry: a collection does not retry") }
        if carriesChecks {
            request.assertions = assertions(target)
        } else if !target.checks.isEmpty {
            notes.append(
                "\(target.name): checks: a Postman collection's tests are scripts, which moya-cli does not write")
        }
        return request
    }

    /// A param's declaration as `import` reads it back: `type` (an enum's as `string` or
    /// `[enum]` with `enum`), and `default`, `optional` and `description` where it has them.
    static func declaration(_ param: ParamSpec) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        func enumeration(_ cases: [ParamType.EnumCase]) -> JSONValue? {
            cases.allSatisfy { $0.key == $0.value && !$0.isFromEnvironment }
                ? .array(cases.map { .string($0.key) }) : nil
        }
        switch param.type {
        case .enumeration(let cases):
            members.append(("type", .string("string")))
            if let values = enumeration(cases) { members.append(("enum", values)) }
        case .array(.enumeration(let cases)):
            if let values = enumeration(cases) {
                members += [("type", .string("[enum]")), ("enum", values)]
            } else {
                members.append(("type", .string("[string]")))
            }
        default: members.append(("type", .string(param.type.description)))
        }
        if !param.isSecret, param.writtenDefault == nil, let value = param.defaultValue {
            members.append(("default", value.jsonValue))
        }
        if param.isOptional { members.append(("optional", .bool(true))) }
        if let description = param.description { members.append(("description", .string(description))) }
        return .object(members)
    }

    /// The first live check that gives no params, as httpyac's `??` lines (`status == 200`,
    /// `header name == value`, `js response.parsedBody.path == value`, `body includes text`,
    /// `duration < ms`), which `import http` reads back; what they cannot say is noted.
    private mutating func assertions(_ target: TargetSpec) -> [String] {
        guard let check = target.checks.first(where: { $0.isLive && $0.arguments.isEmpty && $0.sample == nil }) else {
            if !target.checks.isEmpty { notes.append("\(target.name): checks: none runs without params or samples") }
            return []
        }
        var lines: [String] = []
        func operand(_ value: JSONValue) -> String? {
            switch value {
            case .string(let text): text.contains(where: \.isNewline) || text.isEmpty ? nil : text
            case .integer, .number, .bool, .null: value.serialized(escapeSlashes: false)
            default: nil
            }
        }
        func predicate(_ predicate: MoyaSpec.Predicate, numbersOnly: Bool = false) -> String? {
            switch predicate {
            case .equals(let value): operand(value).map { "== " + $0 }
            case .not(.equals(let value)): operand(value).map { "!= " + $0 }
            case .compare(let comparison, let bound):
                "\(["lt": "<", "le": "<=", "gt": ">", "ge": ">="][comparison.rawValue] ?? "") \(JSONValue.format(bound))"
            case .contains(.string(let text)) where !numbersOnly: operand(.string(text)).map { "includes " + $0 }
            case .exists(true) where !numbersOnly: "exists"
            case .type(let type) where !numbersOnly:
                [.number: "isNumber", .string: "isString", .bool: "isBoolean", .array: "isArray"][type]
            case .matches(let pattern) where !numbersOnly: operand(.string(pattern.source)).map { "matches " + $0 }
            default: nil
            }
        }
        for assertion in check.assertions {
            var line: String?
            switch assertion.subject {
            case .status: line = predicate(assertion.predicate, numbersOnly: true).map { "status " + $0 }
            case .header(let name): line = predicate(assertion.predicate).map { "header \(name.lowercased()) " + $0 }
            case .json(let path):
                let written = path.description
                if written.hasPrefix("$."),
                    written.dropFirst(2).allSatisfy({ $0.isLetter || $0.isNumber || "_.[]".contains($0) })
                {
                    line = predicate(assertion.predicate).map { "js response.parsedBody.\(written.dropFirst(2)) " + $0 }
                }
            case .body:
                if case .contains(.string(let text)) = assertion.predicate {
                    line = operand(.string(text)).map { "body includes " + $0 }
                }
            case .time:
                // The bound in seconds; whole milliseconds are httpyac's.
                if case .compare(.le, let bound) = assertion.predicate,
                    let limit = Int(exactly: (bound * 1000).rounded()),
                    abs(Double(limit) - bound * 1000) < 1e-6
                {
                    line = "duration < \(limit + 1)"
                }
            case .sampleShape, .schema, .events: line = nil
            }
            if let line {
                lines.append(line)
            } else {
                notes.append(
                    "\(target.name): check \(check.name): \(assertion.keyPath): a .http assertion cannot say it")
            }
        }
        if target.checks.count > 1 { notes.append("\(target.name): checks: only the first that runs alone is carried") }
        return lines
    }

    /// The largest sample file written into a saved response.
    static let sampleFileLimit = 64 * 1024

    /// A param's default as text, never a secret's.
    static func defaultValue(_ param: ParamSpec) -> String? {
        guard !param.isSecret, param.writtenDefault == nil, let value = param.defaultValue else { return nil }
        switch value {
        case .object: return value.jsonValue.serialized(escapeSlashes: false)
        default: return value.description
        }
    }

    private mutating func sample(_ name: String, _ sample: SampleSpec, target: TargetSpec, fileRoot: FileRoot)
        -> Sample?
    {
        guard case .response(let status, let headers, let body) = sample else {
            notes.append("\(target.name): sample \(name): a network error is no saved response")
            return nil
        }
        var contentType = headers.first { $0.name.lowercased() == "content-type" }.map { Exporter.text(of: $0.value) }
        let text: String
        switch body {
        case .empty: text = ""
        case .text(let template): text = Exporter.text(of: template)
        case .json(let value):
            text = Exporter.render(value).serialized(pretty: true, escapeSlashes: false)
            contentType = contentType ?? "application/json"
        case .events(let events):
            let kind = target.stream?.kind ?? .sse
            text = Exporter.streamText(events, as: kind)
            contentType = contentType ?? StreamEvent.contentType(of: kind)
        case .file(let path):
            // The spec's own file, read as every sample file is (inside the spec's folder, no
            // link out of it), when it is text of a size a saved response holds.
            guard let bytes = try? fileRoot.read(path, limit: Self.sampleFileLimit),
                let body = String(validating: bytes, as: UTF8.self)
            else {
                notes.append(
                    "\(target.name): sample \(name): its body is the file \(path), which is not text of 64 KiB or less")
                text = ""
                break
            }
            text = body
            if path.lowercased().hasSuffix(".json") { contentType = contentType ?? "application/json" }
        }
        return Sample(name: name, status: status, contentType: contentType, body: text)
    }

    /// The task's query, body and Content-Type.
    private mutating func read(_ task: TaskSpec, of target: TargetSpec, into request: inout Request) {
        func entries(_ block: ParameterBlock?, _ encoding: EncodingSpec) -> [(key: String, value: Text)] {
            var entries: [(key: String, value: Text)] = []
            for member in block?.entries ?? [] {
                entries += self.entries(member.key, member.value, encoding)
            }
            return entries
        }
        let plain = EncodingSpec()
        switch task {
        case .plain: break
        case .data(let source, let contentType, let query):
            request.query = entries(query, plain)
            let type = contentType.map { text($0, credential: false) }
            if let type { request.headers.append(("Content-Type", type)) }
            switch source {
            case .text(let template):
                request.body = .raw(
                    text(template, credential: false), language: Self.language(type.map(Self.placeholders)))
            case .file(let path): request.body = .file(literal(path))
            }
        case .json(let value, let query):
            request.query = entries(query, plain)
            request.headers.append(("Content-Type", [.text("application/json")]))
            request.body = .raw(json(value), language: "json")
        case .parameters(let block, let encoding, let query):
            let sent = entries(block, encoding)
            switch encoding.kind {
            case .json, .prettyJSON:
                request.query = entries(query, plain)
                request.headers.append(("Content-Type", [.text("application/json")]))
                request.body = .raw(json(.object(block.entries)), language: "json")
            case .httpBody:
                request.query = entries(query, plain)
                request.body = .form(sent)
            case .queryString:
                request.query = sent + entries(query, plain)
            case .url:
                if Exporter.inQuery(encoding, target.method) {
                    request.query = sent + entries(query, plain)
                } else {
                    request.query = entries(query, plain)
                    request.body = .form(sent)
                }
            }
        case .upload(let file, let query):
            request.query = entries(query, plain)
            request.body = .file(text(file, credential: false))
        case .multipart(let parts, let query):
            request.query = entries(query, plain)
            request.body = .multipart(
                parts.map { part in
                    switch part.content {
                    case .value(let value):
                        (
                            part.name, text(value, credential: false), false,
                            part.mimeType.map { text($0, credential: false) }
                        )
                    case .file(let file):
                        (
                            part.name, text(file, credential: false), true,
                            part.mimeType.map { text($0, credential: false) }
                        )
                    }
                })
        case .download(let destination, let parameters, let encoding):
            request.query = Exporter.inQuery(encoding, target.method) ? entries(parameters, encoding) : []
            if !Exporter.inQuery(encoding, target.method), parameters != nil {
                request.body = .form(entries(parameters, encoding))
            }
            notes.append(
                "\(target.name): download to \(Exporter.text(of: destination)): a collection shows the response instead"
            )
        }
    }

    /// Postman's raw language for a Content-Type.
    static func language(_ contentType: String?) -> String {
        let type = contentType?.lowercased() ?? ""
        if JSONValue.isJSONMediaType(type) { return "json" }
        if type.contains("xml") { return "xml" }
        if type.contains("html") { return "html" }
        if type.contains("javascript") { return "javascript" }
        return "text"
    }

    /// One query or form member as the entries it sends: an array's items each under the key
    /// its encoding writes.
    private mutating func entries(_ key: String, _ value: ValueTemplate, _ encoding: EncodingSpec) -> [(
        key: String, value: Text
    )] {
        let credential = CredentialNames.isCredential(name: key.lowercased())
        switch value {
        case .null: return [(key, [])]
        case .bool(let bool):
            return [(key, [.text(encoding.bools == .numeric ? (bool ? "1" : "0") : (bool ? "true" : "false"))])]
        case .integer(let int): return [(key, [.text(String(int))])]
        case .number(let number): return [(key, [.text(JSONValue.format(number))])]
        case .string(let template): return [(key, text(template, credential: credential))]
        case .array(let items):
            return items.enumerated().flatMap { index, item in
                let name =
                    switch encoding.arrays {
                    case .brackets: key + "[]"
                    case .noBrackets: key
                    case .indexInBrackets: key + "[\(index)]"
                    }
                return entries(name, item, encoding).map { (name, $0.value) }
            }
        case .object:
            return [(key, json(value))]
        }
    }

    /// A JSON template as JSON text, a string that is one param or variable written as its
    /// placeholder in quotes.
    private mutating func json(_ value: ValueTemplate) -> Text {
        var pieces: Text = []
        func append(_ text: String) {
            if case .text(let last)? = pieces.last {
                pieces[pieces.count - 1] = .text(last + text)
            } else {
                pieces.append(.text(text))
            }
        }
        func write(_ value: ValueTemplate, indent: String, key: String?) {
            switch value {
            case .null, .bool, .integer, .number:
                append(Exporter.render(value).serialized(escapeSlashes: false))
            case .string(let template):
                let credential = key.map { ImportReport.isCredentialField($0) } ?? false
                append("\"")
                for piece in text(template, credential: credential) {
                    switch piece {
                    case .text(let text):
                        let quoted = JSONValue.string(text).serialized(escapeSlashes: false)
                        append(String(quoted.dropFirst().dropLast()))
                    case .variable: pieces.append(piece)
                    }
                }
                append("\"")
            case .array(let items):
                guard !items.isEmpty else { return append("[]") }
                append("[\n")
                for (index, item) in items.enumerated() {
                    append(indent + "  ")
                    write(item, indent: indent + "  ", key: key)
                    append(index < items.count - 1 ? ",\n" : "\n")
                }
                append(indent + "]")
            case .object(let members):
                guard !members.isEmpty else { return append("{}") }
                append("{\n")
                for (index, member) in members.enumerated() {
                    append(indent + "  " + JSONValue.string(member.key).serialized(escapeSlashes: false) + ": ")
                    write(member.value, indent: indent + "  ", key: member.key)
                    append(index < members.count - 1 ? ",\n" : "\n")
                }
                append(indent + "}")
            }
        }
        write(value, indent: "", key: nil)
        return pieces
    }
}

extension Template.Segment {
    /// Whether the segment is `${VAR:-default}`.
    var isDefault: Bool {
        if case .environmentDefault = self { return true }
        return false
    }
}
