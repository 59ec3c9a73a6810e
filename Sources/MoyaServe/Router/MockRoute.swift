import MoyaHTTP
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a query or form entry is written: the key an array's items come under (`key`,
/// `key[]` or `key[N]`), and the separator of an array sent as one value.
struct EntryForm: Sendable, Hashable {
    enum Keys: Sendable, Hashable {
        case plain, brackets, indexed
    }

    /// How an object param's members come: under keys of their own (`form` exploded, the
    /// default), as `key[member]` (`deepObject`), or as one value split at `separator`.
    enum Members: Sendable, Hashable {
        case ownKeys, deep
    }

    var keys: Keys = .plain
    var separator: String?
    /// For an object param whose members are not one value: where they come.
    var members: Members?

    /// The form `call` writes `value` in: an array or object param as its `style` and
    /// `explode` say, else as the block's `arrays`; anything else under its key as written.
    init(_ value: ValueTemplate, in target: TargetSpec, arrays: EncodingSpec.Arrays) {
        guard case .string(let template) = value, let name = template.wholeParam,
            let param = target.param(named: name), param.type.isArray || param.type == .object
        else { return }
        let style = param.style ?? ParamStyle.form
        if param.type == .object {
            if style.style == .deepObject {
                members = .deep
            } else if style.explode {
                members = .ownKeys
            } else {
                separator = style.separator
            }
            return
        }
        if let style = param.style {
            separator = style.explode ? nil : style.separator
            return
        }
        keys =
            switch arrays {
            case .brackets: .brackets
            case .noBrackets: .plain
            case .indexInBrackets: .indexed
            }
    }

    init() {}

    /// Whether `given`, a key a request sent, is `key` in this form.
    func matches(_ given: String, _ key: String) -> Bool {
        guard given.hasPrefix(key) else { return false }
        let rest = given.utf8.dropFirst(key.utf8.count)
        switch keys {
        case .plain: return rest.isEmpty
        case .brackets: return rest.elementsEqual("[]".utf8)
        case .indexed:
            guard rest.first == UInt8(ascii: "["), rest.last == UInt8(ascii: "]"), rest.count > 2 else { return false }
            return MockRoute.isDigits(rest.dropFirst().dropLast())
        }
    }
}

/// One target as `serve` answers it: its method and path pattern, and where the request
/// carries each of its params, read from the target's task, headers and `auth:`.
final class MockRoute: Sendable {
    /// The service, by position in the router's list.
    let service: Int
    let serviceName: String
    /// `service.target`.
    let qualifiedName: String
    /// `GET /users/{id}`, as a 404's closest routes and the log list it.
    let pattern: String
    /// The answers of the samples that read no param, made once, by sample name; the default
    /// sample's name is "". A `file:` sample is read each time, so that edits show at once.
    let fixedAnswers: [String: FixedAnswer]
    /// The media type its problems are answered in (`ErrorShape.problemMediaType`).
    let problemMediaType: String
    let target: TargetSpec
    /// The schemas its requests and answers are held to.
    let contract: RouteContract
    let method: Method
    /// One pattern per path segment, the mount's prefix first.
    let segments: [[Template.Segment]]
    /// Query entries whose values hold params.
    let query: [ValueTemplate.Member]
    /// Query keys with literal values, which a request that fits the target sends.
    let literalQueryKeys: [String]
    /// Form-body entries whose values hold params.
    let form: [ValueTemplate.Member]
    /// How each query entry is written, by key: the forms `call` sends, and only those.
    let queryForms: [String: EntryForm]
    /// How each form-body entry is written, by key.
    let formForms: [String: EntryForm]
    /// The JSON body's shape, when the task sends JSON.
    let json: ValueTemplate?
    /// The parts of the multipart form the task sends; nil for another task.
    let parts: [MultipartPartSpec]?
    var multipart: Bool { parts != nil }
    /// Headers whose values hold params, `auth:` as `Authorization` included.
    let headers: [(name: String, value: [Template.Segment])]
    /// Cookies whose values hold params, read from the `Cookie` header.
    let cookies: [(name: String, value: [Template.Segment])]
    /// Where each param the request carries goes, for a missing one's problem.
    let places: [String: String]
    /// The credentials the target sends, which serve asks a request for.
    let credentials: Credentials
    /// Literal segments rank above mixed ones, and those above a lone param.
    let specificity: [Int]

    init(service index: Int, of service: ServiceSpec, target: TargetSpec, prefix: [[Template.Segment]]) {
        self.service = index
        serviceName = service.name
        self.target = target
        contract = RouteContract(target: target)
        qualifiedName = "\(service.name).\(target.name)"
        method = target.method
        segments = prefix + Self.pathSegments(target.path.segments)
        pattern = "\(target.method.rawValue) /" + segments.map { Self.text(of: $0) }.joined(separator: "/")
        var fixed: [String: FixedAnswer] = [:]
        for (name, sample) in [("", target.sample)] + target.samples.map({ ($0.name, Optional($0.sample)) }) {
            guard sample.map(Self.readsNothing) ?? true,
                let answer = FixedAnswer(service: service, target: target, sample: name.isEmpty ? nil : name)
            else { continue }
            fixed[name] = answer
        }
        fixedAnswers = fixed
        problemMediaType = ErrorShape.problemMediaType(for: target)
        specificity = segments.map { pattern in
            if pattern.count == 1, case .literal = pattern[0] { return 2 }
            return pattern.contains { if case .param = $0 { true } else { false } } ? (pattern.count == 1 ? 0 : 1) : 2
        }

        var query: [ValueTemplate.Member] = []
        var form: [ValueTemplate.Member] = []
        var queryForms: [String: EntryForm] = [:]
        var formForms: [String: EntryForm] = [:]
        var json: ValueTemplate?
        var parts: [MultipartPartSpec]?
        // A block's arrays are the task's `arrays`, or brackets for a `query:` block (Moya's
        // `URLEncoding.queryString`); an ordered block repeats its keys.
        func forms(_ block: ParameterBlock, arrays: EncodingSpec.Arrays) -> [String: EntryForm] {
            var forms: [String: EntryForm] = [:]
            for entry in block.entries {
                forms[entry.key] = EntryForm(entry.value, in: target, arrays: block.isOrdered ? .noBrackets : arrays)
            }
            return forms
        }
        func addQuery(_ block: ParameterBlock?) {
            guard let block else { return }
            query += block.entries
            queryForms.merge(forms(block, arrays: .brackets)) { first, _ in first }
        }
        func place(_ block: ParameterBlock, _ encoding: EncodingSpec) {
            switch encoding.kind {
            case .json, .prettyJSON: json = .object(block.entries)
            case .url, .queryString, .httpBody:
                let destination: URLEncoding.Destination =
                    encoding.kind == .queryString
                    ? .queryString : encoding.kind == .httpBody ? .httpBody : .methodDependent
                if destination.encodesInURL(for: target.method) {
                    query += block.entries
                    queryForms.merge(forms(block, arrays: encoding.arrays)) { first, _ in first }
                } else {
                    form += block.entries
                    formForms.merge(forms(block, arrays: encoding.arrays)) { first, _ in first }
                }
            }
        }
        switch target.task {
        case .plain: break
        case .data(_, _, let block), .upload(_, let block): addQuery(block)
        case .json(let value, let block):
            json = value
            addQuery(block)
        case .parameters(let block, let encoding, let extra):
            place(block, encoding)
            addQuery(extra)
        case .multipart(let specs, let block):
            parts = specs
            addQuery(block)
        case .download(_, let block, let encoding):
            if let block { place(block, encoding) }
        }
        self.queryForms = queryForms
        self.formForms = formForms
        literalQueryKeys = query.filter { $0.value.templates.allSatisfy { $0.params.isEmpty } }.map(\.key)
        self.query = query.filter { !$0.value.templates.allSatisfy { $0.params.isEmpty } }
        self.form = form
        self.json = json
        self.parts = parts

        var headers: [(name: String, value: [Template.Segment])] = []
        for header in service.headers + target.headers where !header.value.params.isEmpty {
            headers.removeAll { $0.name.lowercased() == header.name.lowercased() }
            headers.append((header.name, header.value.segments))
        }
        switch target.auth ?? service.auth {
        case .bearer(let token)? where !token.params.isEmpty:
            headers.append(("Authorization", [.literal("Bearer ")] + token.segments))
        case .custom(let scheme, let token)? where !token.params.isEmpty:
            headers.append(("Authorization", [.literal(scheme + " ")] + token.segments))
        default: break
        }
        self.headers = headers
        cookies = target.cookies.filter { !$0.value.params.isEmpty }.map { ($0.name, $0.value.segments) }
        credentials = Credentials(service: service, target: target, query: query)

        var places: [String: String] = [:]
        for pattern in segments {
            for case .param(let name) in pattern { places[name] = places[name] ?? "the path" }
        }
        for member in self.query {
            for name in member.value.templates.flatMap(\.params) {
                places[name] = places[name] ?? "query '\(member.key)'"
            }
        }
        for member in form {
            for name in member.value.templates.flatMap(\.params) {
                places[name] = places[name] ?? "form field '\(member.key)'"
            }
        }
        if let json { Self.jsonPlaces(json, "$", into: &places) }
        for part in parts ?? [] {
            switch part.content {
            case .value(let template), .file(let template):
                for name in template.params { places[name] = places[name] ?? "part '\(part.name)'" }
            }
        }
        for header in headers {
            for case .param(let name) in header.value { places[name] = places[name] ?? "header \(header.name)" }
        }
        for cookie in cookies {
            for case .param(let name) in cookie.value { places[name] = places[name] ?? "cookie \(cookie.name)" }
        }
        self.places = places
    }

    /// Whether a sample is the same whatever the request: no param in it, and no file to read.
    private static func readsNothing(_ sample: SampleSpec) -> Bool {
        guard case .response(_, let headers, let body) = sample else { return true }
        guard headers.allSatisfy({ $0.value.params.isEmpty }) else { return false }
        switch body {
        case .empty: return true
        case .text(let template): return template.params.isEmpty
        case .json(let value): return value.templates.allSatisfy { $0.params.isEmpty }
        case .file: return false
        case .events(let events): return events.allSatisfy { $0.data.templates.allSatisfy { $0.params.isEmpty } }
        }
    }

    /// The JSON paths of the params in a body's shape.
    private static func jsonPlaces(_ value: ValueTemplate, _ path: String, into places: inout [String: String]) {
        switch value {
        case .string(let template):
            for name in template.params { places[name] = places[name] ?? "the JSON body at \(path)" }
        case .array(let items):
            for (index, item) in items.enumerated() { jsonPlaces(item, "\(path)[\(index)]", into: &places) }
        case .object(let members):
            for member in members { jsonPlaces(member.value, "\(path).\(member.key)", into: &places) }
        case .null, .bool, .integer, .number: break
        }
    }

    /// A path template cut at each `/` into one pattern per segment; empty segments are
    /// dropped, as a request's are.
    static func pathSegments(_ template: [Template.Segment]) -> [[Template.Segment]] {
        var patterns: [[Template.Segment]] = [[]]
        func add(literal text: String) {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            for (index, part) in parts.enumerated() {
                if index > 0 { patterns.append([]) }
                if !part.isEmpty { patterns[patterns.count - 1].append(.literal(String(part))) }
            }
        }
        for segment in template {
            switch segment {
            case .literal(let text), .environmentDefault(_, let text): add(literal: text)
            // A path's environment values are where requests go: literal text here.
            case .environment(_, let value): add(literal: value)
            case .param: patterns[patterns.count - 1].append(segment)
            }
        }
        return patterns.filter { !$0.isEmpty }
    }

    /// A pattern as the spec writes it.
    static func text(of pattern: [Template.Segment]) -> String {
        pattern.map { segment in
            switch segment {
            case .literal(let text): text
            case .param(let name): "{\(name)}"
            case .environment(_, let value), .environmentDefault(_, let value): value
            }
        }.joined()
    }
}

extension Template {
    /// The values of `pattern`'s params in `text`, or nil when `text` does not fit it. Each
    /// param takes text up to the first place the literal after it appears; the last one
    /// takes the rest. Environment values match as literal text.
    static func captures(of pattern: [Segment], in text: Substring) -> [(name: String, text: Substring)]? {
        var rest = text
        var captures: [(name: String, text: Substring)] = []
        var open: String?
        for segment in pattern {
            let literal: String
            switch segment {
            case .param(let name):
                if let open { captures.append((open, rest[rest.startIndex..<rest.startIndex])) }
                open = name
                continue
            case .literal(let text), .environmentDefault(_, let text): literal = text
            case .environment(_, let value): literal = value
            }
            if let name = open {
                guard let found = rest.firstRange(of: literal) else { return nil }
                captures.append((name, rest[..<found.lowerBound]))
                rest = rest[found.upperBound...]
                open = nil
            } else {
                guard rest.hasPrefix(literal) else { return nil }
                rest = rest.dropFirst(literal.count)
            }
        }
        if let open {
            captures.append((open, rest))
            return captures
        }
        return rest.isEmpty ? captures : nil
    }
}

/// The credentials a target sends, as its spec declares them: its `auth` (an `Authorization`
/// scheme), and each header, query entry and cookie whose value reads the environment
/// (`${SHOP_KEY}`), which is how a spec, and `import openapi`, writes an API key. A request
/// without one of them is answered 401, as Prism answers a request without the credential
/// its description declares; `serve --no-auth` answers it anyway. When serve's environment
/// sets the variables a credential reads, the request must carry that value: another one is
/// answered 401 as well, as a server answers a wrong token.
struct Credentials: Sendable {
    /// A credential: where it goes, and the value serve's environment gives it, if it does.
    struct Entry: Sendable {
        var name: String
        var expected: String?
    }

    /// `Bearer`, `Basic`, or a custom scheme; nil when the target sends no `Authorization`.
    var scheme: String?
    /// The whole `Authorization` value the environment sets.
    var authorization: String?
    var headers: [Entry] = []
    var query: [Entry] = []
    var cookies: [Entry] = []

    init(service: ServiceSpec, target: TargetSpec, query: [ValueTemplate.Member]) {
        switch target.auth ?? service.auth {
        case .bearer(let token)?:
            scheme = "Bearer"
            authorization = Self.setValue(of: token).map { "Bearer \($0)" }
        case .basic(let user, let password)?:
            scheme = "Basic"
            if let user = Self.text(of: user), let password = Self.text(of: password), user.set || password.set {
                authorization = "Basic " + Data("\(user.text):\(password.text)".utf8).base64EncodedString()
            }
        case .custom(let name, let token)?:
            scheme = name
            authorization = Self.setValue(of: token).map { "\(name) \($0)" }
        // A login's token goes where its spec says; serve does not guess it.
        case .login?, .none?, nil: scheme = nil
        }
        headers = service.headers(of: target).filter { $0.isSecret || $0.value.readsEnvironment }.map {
            Entry(name: $0.name, expected: Self.setValue(of: $0.value))
        }
        self.query = query.compactMap { member in
            guard member.value.templates.contains(where: \.readsEnvironment) else { return nil }
            guard case .string(let template) = member.value else { return Entry(name: member.key) }
            return Entry(name: member.key, expected: Self.setValue(of: template))
        }
        cookies = target.cookies.filter(\.value.readsEnvironment).map {
            Entry(name: $0.name, expected: Self.setValue(of: $0.value))
        }
    }

    /// The text of a template made of literals and environment values only, when serve's
    /// environment sets at least one of them.
    static func setValue(of template: Template) -> String? {
        text(of: template).flatMap { $0.set ? $0.text : nil }
    }

    /// The text of a template made of literals and environment values only, and whether the
    /// environment sets any of them; nil for one that reads a param.
    static func text(of template: Template) -> (text: String, set: Bool)? {
        var text = ""
        var set = false
        for segment in template.segments {
            switch segment {
            case .literal(let literal), .environmentDefault(_, let literal): text += literal
            case .environment(_, let value):
                text += value
                set = set || !value.isEmpty
            case .param: return nil
            }
        }
        return (text, set)
    }

    /// What `request` lacks, as a phrase and the `WWW-Authenticate` challenge; nil when it
    /// carries every credential, each with the value the environment sets, if it sets one.
    func missing(in request: MockRequest, query sent: [(key: String, value: String)]) -> (
        what: String, challenge: String
    )? {
        let realm = "realm=\"moya-cli serve\""
        let invalid = ", error=\"invalid_token\""
        if let scheme {
            let given = request.header("authorization") ?? ""
            guard given.lowercased().hasPrefix(scheme.lowercased() + " ") else {
                return ("an Authorization header (\(scheme))", "\(scheme) \(realm)")
            }
            if let authorization, given != authorization {
                return ("the Authorization (\(scheme)) its environment sets", "\(scheme) \(realm)\(invalid)")
            }
        }
        // An API key: missing, or not the value the environment sets.
        func key(_ entries: [Entry], _ place: String, _ attribute: String, given: (String) -> String?) -> (
            what: String, challenge: String
        )? {
            for entry in entries {
                let challenge = "APIKey \(realm), \(attribute)=\"\(entry.name)\""
                guard let value = given(entry.name), !value.isEmpty else {
                    return ("\(place) \(entry.name)", challenge)
                }
                if let expected = entry.expected, value != expected {
                    return ("\(place) \(entry.name) its environment sets", challenge + invalid)
                }
            }
            return nil
        }
        if let missing = key(headers, "the header", "header", given: { request.header($0) }) { return missing }
        if let missing = key(
            query, "the query key", "query",
            given: { name in
                sent.first { $0.key == name && !$0.value.isEmpty }?.value
            })
        {
            return missing
        }
        guard !cookies.isEmpty else { return nil }
        let jar = CookieJar.pairs(inHeader: request.header("cookie") ?? "")
        return key(cookies, "the cookie", "cookie") { name in
            jar.first { $0.name == name && !$0.value.isEmpty }.map { PercentEncoding.decode($0.value[...]) }
        }
    }
}
