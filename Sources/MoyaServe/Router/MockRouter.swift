import MoyaBinding
import MoyaHTTP
import MoyaSchema
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A request as `serve` receives it.
public struct MockRequest: Sendable {
    /// The method as sent.
    public var method: String
    /// The path and query as sent.
    public var uri: String
    /// The headers in order.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: [UInt8]

    /// Creates a request.
    public init(method: String, uri: String, headers: [(name: String, value: String)], body: [UInt8] = []) {
        self.method = method
        self.uri = uri
        self.headers = headers
        self.body = body
    }

    /// The first value of the header `name`, which is lowercase.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// What `serve` does with one request.
public struct MockAnswer: Sendable {
    /// How the request is answered.
    public enum Action: Sendable {
        /// A response.
        case respond(status: Int, headers: [(name: String, value: String)], body: [UInt8])
        /// The connection is closed at once: `networkConnectionLost`, `cannotConnectToHost` and
        /// the other network errors a sample can name.
        case abort
        /// No answer, ever: a `timeout` sample.
        case hang
    }

    /// How the request is answered.
    public var action: Action
    /// Seconds to wait first: the spec's `stub: { delayed: S }`.
    public var delay: Double?
    /// `service.target`, when a target answered.
    public var target: String?
    /// The sample's name, `default` for the target's own.
    public var sample: String?
    /// The path and query for the log: values of secret params masked, and every query value
    /// masked when no target answered.
    public var loggedURI: String
    /// The request's body for `-v`, secrets masked.
    public var loggedRequestBody: String?
    /// The response's body for `-v`, secrets masked.
    public var loggedResponseBody: String?
    /// The values the request gave the target's params, as they were read: what
    /// `serve --coverage` counts as sent.
    public var params: [String: ParamValue] = [:]
    /// How a stream sample's body is sent: each part's length, after its delay in seconds,
    /// flushed as it goes. Nil sends the body at once.
    public var pacing: [(length: Int, delay: Double)]?
    /// Whether the target that answered is a WebSocket's: a request that asks to upgrade opens
    /// one, its sample's events the messages it sends, or an echo without them.
    public var isWebSocket = false

    /// The status, or nil for an abort or a hang.
    public var status: Int? {
        if case .respond(let status, _, _) = action { return status }
        return nil
    }
}

/// A sample's answer, made once because the sample reads no param.
struct FixedAnswer: Sendable {
    let action: MockAnswer.Action
    let pacing: [(length: Int, delay: Double)]?
    /// The body as it is sent, and as `-v` logs it, secrets masked.
    let body: String?
    let loggedBody: String?

    init?(service: ServiceSpec, target: TargetSpec, sample name: String?) {
        guard let sample = try? service.sample(of: target, named: name, values: [:]) else { return nil }
        action = MockRouter.action(for: sample, of: target, named: name)
        pacing = service.samplePacing(of: target, named: name, values: [:])
        let masked = try? service.sample(of: target, named: name, values: [:], masking: true)
        if case .response(_, let raw) = sample, case .response(_, let shown)? = masked {
            body = String(decoding: raw, as: UTF8.self)
            loggedBody = Redactor.showPlaceholders(String(decoding: shown, as: UTF8.self))
        } else {
            body = nil
            loggedBody = nil
        }
    }
}

/// Answers requests with the samples of every target of some services, as `moya-cli serve`
/// does: each service under its base URL's path, or one service at `/`.
public struct MockRouter: Sendable {
    /// The services, in the order their routes are tried.
    public let services: [ServiceSpec]
    /// Whether a request must carry the credentials its target sends (401 without them);
    /// `serve --no-auth` turns it off.
    let asksCredentials: Bool
    let routes: [MockRoute]
    /// Each service and the path it is served under.
    public let mounts: [(service: String, prefix: String)]
    /// Targets no request can reach, because another answers at the same method and path
    /// with the same requirements.
    public let warnings: [String]

    /// The routes' character pairs, for a 404's closest routes.
    let closeness: RouteIndex
    /// Renders the log with the secrets the services bind: their environment values and the
    /// secrets their text writes.
    let logRedactor: Redactor

    /// Routes every target of `services`. With `environment`, each service that has it is
    /// served under that environment's base URL path; with `atRoot`, under `/`.
    public init(services: [ServiceSpec], environment: String? = nil, atRoot: Bool = false, asksCredentials: Bool = true)
    {
        self.services = services
        self.asksCredentials = asksCredentials
        logRedactor = Redactor(secrets: services.boundSecrets)
        var routes: [MockRoute] = []
        var mounts: [(service: String, prefix: String)] = []
        for (index, service) in services.enumerated() {
            let base = environment.flatMap { service.environment(named: $0)?.baseURL } ?? service.baseURL
            let prefix = atRoot ? [] : Self.pathPrefix(of: base)
            mounts.append((service.name, "/" + prefix.map { MockRoute.text(of: $0) }.joined(separator: "/")))
            for target in service.targets {
                // A target with its own base URL is served under that URL's path.
                let own = target.baseURL.map { atRoot ? [] : Self.pathPrefix(of: $0) }
                routes.append(MockRoute(service: index, of: service, target: target, prefix: own ?? prefix))
            }
        }
        var warnings: [String] = []
        for (index, route) in routes.enumerated() {
            if let earlier = routes[..<index].first(where: { Self.shadows($0, route) }) {
                warnings.append(
                    "\(route.qualifiedName) (\(route.pattern)) is never served: \(earlier.qualifiedName) answers the same requests"
                )
            }
        }
        self.routes = routes
        closeness = RouteIndex(routes)
        self.mounts = mounts
        self.warnings = warnings
    }

    /// Whether `earlier` answers every request `later` would: same method and path, and
    /// nothing in the request that tells them apart (a request schema of its own does: a body
    /// that meets only the later's goes to it).
    private static func shadows(_ earlier: MockRoute, _ later: MockRoute) -> Bool {
        earlier.method == later.method && earlier.pattern == later.pattern && earlier.json == later.json
            && earlier.form.map(\.key) == later.form.map(\.key) && earlier.query.map(\.key) == later.query.map(\.key)
            && earlier.literalQueryKeys == later.literalQueryKeys && earlier.multipart == later.multipart
            && earlier.headers.map(\.name) == later.headers.map(\.name)
            && earlier.target.requestSchema?.schema == later.target.requestSchema?.schema
    }

    /// The path of a base URL, one literal pattern per segment.
    static func pathPrefix(of baseURL: String) -> [[Template.Segment]] {
        var rest = Substring(baseURL)
        if let scheme = rest.firstRange(of: "://") {
            rest = rest[scheme.upperBound...]
            rest = rest[(rest.firstIndex(of: "/") ?? rest.endIndex)...]
        }
        if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        return rest.split(separator: "/").map { [.literal(PercentEncoding.decode($0))] }
    }

    /// Every route as `METHOD /path  service.target`, for the start-up listing.
    public var routeList: [String] {
        routes.map { "\($0.pattern)  \($0.qualifiedName)" }
    }

    /// How many targets are served.
    public var targetCount: Int { routes.count }

    // MARK: - Answering

    /// A route that fits a request's path, with what its templates captured.
    typealias Candidate = (route: MockRoute, captures: [(name: String, text: Substring)])
    /// A route the request's method fits, with its params bound from the request.
    typealias Bound = (route: MockRoute, binding: MockBinding)

    /// A request's URI, read once: the path, its segments and the query, without a fragment.
    struct RequestURI {
        let path: Substring
        let segments: [Substring]
        let query: [(key: String, value: String)]

        init(_ uri: String) {
            var uri = Substring(uri)
            if let hash = uri.firstIndex(of: "#") { uri = uri[..<hash] }
            let question = uri.firstIndex(of: "?")
            path = uri[..<(question ?? uri.endIndex)]
            query = MockRoute.pairs(question.map { uri[uri.index(after: $0)...] } ?? "")
            segments = path.split(separator: "/")
        }
    }

    /// Answers `request`: finds the routes its path fits (404 when none), those its method
    /// fits (405, or a preflight's 204, when none), chooses one, and answers from it. With
    /// `verbose`, the answer carries the bodies for the log, secrets masked unless
    /// `showSecrets`.
    public func answer(_ request: MockRequest, verbose: Bool = false, showSecrets: Bool = false) -> MockAnswer {
        var answer = routed(request, verbose: verbose, showSecrets: showSecrets)
        guard !showSecrets else { return answer }
        // What the spec binds as secret (environment values, secret literals) is rendered by the
        // one redactor, wherever a client placed it.
        answer.loggedURI = logRedactor.scrub(answer.loggedURI)
        answer.loggedRequestBody = answer.loggedRequestBody.map(logRedactor.scrub)
        answer.loggedResponseBody = answer.loggedResponseBody.map(logRedactor.scrub)
        return answer
    }

    /// The answer, with the log's values masked by where the route binds them.
    private func routed(_ request: MockRequest, verbose: Bool, showSecrets: Bool) -> MockAnswer {
        let uri = RequestURI(request.uri)
        let candidates = self.candidates(for: uri.segments)
        // Only a request no target answers needs it: every query value masked for the log,
        // and each path segment a matching route fills from a secret param.
        var unmatched: MockAnswer {
            let shown = showSecrets ? String(uri.path) : Self.maskedPath(uri.segments, candidates.map(\.route))
            return MockAnswer(action: .abort, loggedURI: shown + Self.maskedQuery(uri.query, secret: { _ in true }))
        }
        guard !candidates.isEmpty else {
            return Self.problem(
                unmatched, status: 404, title: "Not Found", detail: "no target answers \(request.method) \(uri.path)",
                extra: [("closest", .array(closest(to: String(uri.path), uri.segments).map(JSONValue.string)))])
        }
        let method = request.method == "HEAD" ? ["HEAD", "GET"] : [request.method]
        let allowed = candidates.filter { method.contains($0.route.method.rawValue) }
        guard !allowed.isEmpty else {
            return methodNotAllowed(request, uri, candidates, unmatched, showSecrets: showSecrets)
        }
        let preferred = Self.preferredExample(request)
        var bound = allowed.map { route, captures in
            (route: route, binding: route.bind(captures: captures, query: uri.query, request: request))
        }
        // Operations a document tells apart only by their bodies (`PUT /files/{id}#add_link`
        // and `#remove_link`): the ones whose request schema the body meets, when some do.
        if bound.count > 1, !request.body.isEmpty, bound.contains(where: \.route.contract.checksRequests) {
            let meeting = bound.filter { Self.bodyMeetsSchema(request, $0.route) }
            if !meeting.isEmpty { bound = meeting }
        }
        guard let chosen = Self.choose(bound, preferring: preferred) else { return unmatched }
        return answer(request, uri, from: chosen, preferring: preferred, verbose: verbose, showSecrets: showSecrets)
    }

    /// The routes whose path fits `segments` most specifically, with what their templates
    /// captured: a literal segment over a template, as OpenAPI matches a concrete path before
    /// a templated one. So `/users/me` answers only its own methods, even where
    /// `/users/{id}` would take another.
    private func candidates(for segments: [Substring]) -> [Candidate] {
        let fitting = routes.compactMap { route -> Candidate? in
            guard route.segments.count == segments.count else { return nil }
            var captures: [(name: String, text: Substring)] = []
            for (pattern, segment) in zip(route.segments, segments) {
                if pattern.count == 1, case .literal(let text) = pattern[0] {
                    guard PercentEncoding.decode(segment) == text else { return nil }
                    continue
                }
                guard let found = Template.captures(of: pattern, in: segment) else { return nil }
                captures += found
            }
            return (route, captures)
        }
        guard
            let most = fitting.map(\.route.specificity).max(by: { $0.lexicographicallyPrecedes($1) })
        else { return [] }
        return fitting.filter { $0.route.specificity == most }
    }

    /// A 405 naming the methods the path answers, or a preflight's 204 for `OPTIONS`.
    private func methodNotAllowed(
        _ request: MockRequest, _ uri: RequestURI, _ candidates: [Candidate], _ unmatched: MockAnswer,
        showSecrets: Bool
    ) -> MockAnswer {
        let allow = Set(candidates.map(\.route.method.rawValue)).sorted().joined(separator: ", ")
        if request.method == "OPTIONS" {
            var answer = unmatched
            answer.action = .respond(
                status: 204,
                headers: [
                    ("Allow", allow), ("Access-Control-Allow-Methods", allow),
                    ("Access-Control-Allow-Headers", request.header("access-control-request-headers") ?? "*"),
                    ("Access-Control-Max-Age", "600"),
                ], body: [])
            return answer
        }
        let shownPath = showSecrets ? String(uri.path) : Self.maskedPath(uri.segments, candidates.map(\.route))
        var answer = Self.problem(
            unmatched, status: 405, title: "Method Not Allowed",
            detail: "\(shownPath) answers \(allow), not \(request.method)", extra: [])
        if case .respond(let status, var headers, let body) = answer.action {
            headers.append(("Allow", allow))
            answer.action = .respond(status: status, headers: headers, body: body)
        }
        return answer
    }

    /// The route to answer from, among those at the one most specific path: one with the
    /// sample `Prefer` names first, then the one the request fits best, then the first
    /// declared; one whose binding has no problems before any that has.
    private static func choose(_ bound: [Bound], preferring preferred: String?) -> Bound? {
        func better(_ a: Bound, _ b: Bound) -> Bool {
            if let preferred {
                let (aHas, bHas) = (
                    a.route.target.sample(named: preferred) != nil, b.route.target.sample(named: preferred) != nil
                )
                if aHas != bHas { return aHas }
            }
            if a.binding.fit != b.binding.fit { return a.binding.fit > b.binding.fit }
            return false
        }
        let ranked = bound.enumerated().sorted { lhs, rhs in
            if better(lhs.element, rhs.element) { return true }
            if better(rhs.element, lhs.element) { return false }
            return lhs.offset < rhs.offset
        }.map(\.element)
        return ranked.first(where: { $0.binding.problems.isEmpty }) ?? ranked.first
    }

    /// The answer of the chosen route: a 400 for a request that does not fit it or names a
    /// sample it lacks, else its sample, unless the sample breaks its schema or cannot be sent.
    private func answer(
        _ request: MockRequest, _ uri: RequestURI, from chosen: Bound, preferring preferred: String?, verbose: Bool,
        showSecrets: Bool
    ) -> MockAnswer {
        let route = chosen.route
        var answer = MockAnswer(
            action: .abort, target: route.qualifiedName,
            loggedURI: (showSecrets ? String(uri.path) : Self.maskedPath(uri.segments, [route]))
                + Self.maskedQuery(uri.query) { key in
                    !showSecrets
                        && route.query.contains { MockRoute.key(key, is: $0.key) && holdsSecret($0.value, route) }
                })
        if verbose { answer.loggedRequestBody = loggedBody(request, route, showSecrets: showSecrets) }
        answer.params = chosen.binding.values
        // Who is asking comes before what is asked: a request without the credentials the
        // target sends is a 401, with the challenge of the one it lacks.
        if asksCredentials, let missing = route.credentials.missing(in: request, query: uri.query) {
            return Self.problem(
                answer, of: route, status: 401, title: "Unauthorized",
                detail: "\(route.qualifiedName) needs \(missing.what); serve --no-auth answers without it",
                extra: [("target", .string(route.qualifiedName))], headers: [("WWW-Authenticate", missing.challenge)])
        }
        guard chosen.binding.problems.isEmpty else {
            return Self.badRequest(answer, route, chosen.binding.problems)
        }
        if let preferred, route.target.sample(named: preferred) == nil {
            let names = route.target.samples.map(\.name)
            return Self.problem(
                answer, of: route, status: 400, title: "Bad Request",
                detail:
                    "\(route.qualifiedName) has no sample '\(preferred)' (asked for with Prefer: example=\(preferred))"
                    + (names.isEmpty
                        ? "; it has only its default sample" : "; it has \(names.joined(separator: ", "))"),
                extra: [("target", .string(route.qualifiedName))])
        }
        if let problem = requestProblem(request, route, answer) { return problem }
        answer.sample = preferred ?? "default"
        if case .delayed(let seconds)? = services[route.service].stub { answer.delay = seconds }
        if let problem = fillSample(
            into: &answer, route, chosen.binding, preferring: preferred, verbose: verbose, showSecrets: showSecrets)
        {
            return problem
        }
        return Self.unsendable(answer, route, sample: preferred) ?? answer
    }

    /// A 400 for a request that does not fit the route, one entry for each problem.
    private static func badRequest(_ answer: MockAnswer, _ route: MockRoute, _ problems: [MockProblem])
        -> MockAnswer
    {
        problem(
            answer, of: route, status: 400, title: "Bad Request",
            detail: "the request does not fit \(route.qualifiedName) (\(route.pattern)): "
                + problems.map(\.sentence).joined(separator: "; "),
            extra: [
                ("target", .string(route.qualifiedName)),
                (
                    "errors",
                    .array(
                        problems.map { problem in
                            .object(
                                (problem.param.map { [("param", JSONValue.string($0))] } ?? []) + [
                                    ("in", .string(problem.place)), ("detail", .string(problem.detail)),
                                ])
                        })
                ),
            ])
    }

    /// Puts the route's sample into `answer`, from its fixed answer or made with the
    /// request's values, and its body into the log when `verbose`; a 500 when it cannot be
    /// made.
    private func fillSample(
        into answer: inout MockAnswer, _ route: MockRoute, _ binding: MockBinding, preferring preferred: String?,
        verbose: Bool, showSecrets: Bool
    ) -> MockAnswer? {
        answer.isWebSocket = route.target.stream?.kind == .websocket
        if let fixed = route.fixedAnswers[preferred ?? ""] {
            answer.action = fixed.action
            answer.pacing = fixed.pacing
            if verbose { answer.loggedResponseBody = showSecrets ? fixed.body : fixed.loggedBody }
            return nil
        }
        let service = services[route.service]
        let sample: EndpointSampleResponse
        do {
            sample = try service.sample(of: route.target, named: preferred, values: binding.values)
        } catch {
            return Self.problem(
                answer, status: 500, title: "Internal Server Error",
                detail: "the sample of \(route.qualifiedName) could not be made: \(error.message)", extra: [])
        }
        answer.action = Self.action(for: sample, of: route.target, named: preferred)
        answer.pacing = service.samplePacing(of: route.target, named: preferred, values: binding.values)
        if verbose {
            let shown =
                showSecrets
                ? sample
                : (try? service.sample(of: route.target, named: preferred, values: binding.values, masking: true))
            if case .response(_, let shownBody)? = shown {
                answer.loggedResponseBody = Redactor.showPlaceholders(String(decoding: shownBody, as: UTF8.self))
            }
        }
        return nil
    }

    /// A 500 for an answer that must not be sent: a sample that breaks its schema (the spec's
    /// fault), or a header that a request's value made unsendable (a line break). A HEAD
    /// answer keeps its body, whose length the server sends without sending it.
    private static func unsendable(_ answer: MockAnswer, _ route: MockRoute, sample preferred: String?) -> MockAnswer? {
        guard case .respond(_, let headers, let body) = answer.action else { return nil }
        if route.contract.checksSample(preferred), !body.isEmpty,
            headers.contains(where: { $0.name.lowercased() == "content-type" && JSONValue.isJSONMediaType($0.value) }),
            let json = try? JSONValue(parsing: Data(body))
        {
            let errors = route.contract.sampleErrors(json, sample: preferred)
            if !errors.isEmpty {
                return problem(
                    answer, status: 500, title: "Internal Server Error",
                    detail: "the sample '\(preferred ?? "default")' of \(route.qualifiedName) breaks its schema: "
                        + errors.map(\.description).joined(separator: "; "),
                    extra: [("target", .string(route.qualifiedName))])
            }
        }
        if let bad = headers.first(where: { !HTTPHeaders.isValidName($0.name) || !HTTPHeaders.isValidValue($0.value) })
        {
            return problem(
                answer, status: 500, title: "Internal Server Error",
                detail: "the sample of \(route.qualifiedName) has a header \(bad.name) that cannot be sent: "
                    + "a value filled into it holds a line break or a control character", extra: [])
        }
        return nil
    }

    /// Each way a JSON, form or XML request body breaks the target's `requestSchema:`, or why it
    /// cannot be read; nil when it is not checked: no schema, no body, another content type.
    /// A form or an XML body stands for the same value, as a description that lists both media
    /// types allows.
    private static func bodyErrors(_ request: MockRequest, _ route: MockRoute) -> Result<
        [SchemaError], LooseBody.Unreadable
    >? {
        guard route.contract.checksRequests, !request.body.isEmpty else { return nil }
        let type = request.header("content-type")?.lowercased()
        if type?.hasPrefix("application/x-www-form-urlencoded") == true {
            let pairs = MockRoute.pairs(String(decoding: request.body, as: UTF8.self)[...])
            return .success(route.contract.requestErrors(LooseBody(form: pairs)))
        } else if let type, MockRoute.isXML(type) {
            return Result { () throws(LooseBody.Unreadable) in try LooseBody(xml: request.body) }
                .map(route.contract.requestErrors)
        } else if let type, !JSONValue.isJSONMediaType(type) {
            return nil
        } else if let json = try? JSONValue(parsing: Data(request.body)) {
            return .success(route.contract.requestErrors(json))
        }
        return .failure(LooseBody.Unreadable(message: "the body is not JSON"))
    }

    /// Whether a request's body meets the route's request schema, or is not checked.
    private static func bodyMeetsSchema(_ request: MockRequest, _ route: MockRoute) -> Bool {
        guard let found = bodyErrors(request, route) else { return true }
        return (try? found.get())?.isEmpty == true
    }

    /// A 400 problem for a JSON, form or XML request body that breaks the target's
    /// `requestSchema:`, one entry for each violation with its place in the body; nil for a
    /// body that meets it, an empty one, and one of another content type. For a target with secret params,
    /// each violation names its keyword but not the value, which may be the secret.
    private func requestProblem(_ request: MockRequest, _ route: MockRoute, _ answer: MockAnswer) -> MockAnswer? {
        guard let found = Self.bodyErrors(request, route) else { return nil }
        let withholds = route.target.params.contains { $0.isSecret }
        let errors: [(path: String, detail: String)]
        switch found {
        case .success(let found):
            errors = found.map { error in
                (
                    error.instancePath,
                    withholds ? "breaks its schema's \(error.keyword) (the value is not shown)" : error.message
                )
            }
        case .failure(let unreadable):
            errors = [("$", unreadable.message)]
        }
        guard !errors.isEmpty else { return nil }
        let shown = Self.bounded(errors)
        let more = shown.count < errors.count ? "; and more (\(errors.count - shown.count) left out)" : ""
        return Self.problem(
            answer, of: route, status: 400, title: "Bad Request",
            detail: "the request body does not meet the schema of \(route.qualifiedName): "
                + shown.map { "\($0.path): \($0.detail)" }.joined(separator: "; ") + more,
            extra: [
                ("target", .string(route.qualifiedName)),
                (
                    "errors",
                    .array(
                        shown.map {
                            .object([
                                ("in", .string("body")), ("path", .string($0.path)), ("detail", .string($0.detail)),
                            ])
                        })
                ),
            ])
    }

    /// The most a 400 problem's errors take, twice over (its detail and its list): a body
    /// that breaks its schema in many places, or with a long key, gets a bounded answer.
    static let problemBudget = 32 << 10

    /// The first of `errors` that fit in `problemBudget` bytes, each path and detail cut to
    /// 512 bytes; the validator already stops at `SchemaValidator.errorLimit`.
    static func bounded(_ errors: [(path: String, detail: String)]) -> [(path: String, detail: String)] {
        func cut(_ text: String) -> String {
            guard text.utf8.count > 512 else { return text }
            var result = ""
            var bytes = 0
            for scalar in text.unicodeScalars {
                bytes += UTF8.width(scalar)
                if bytes > 509 { break }
                result.unicodeScalars.append(scalar)
            }
            return result + "…"
        }
        var used = 0
        var shown: [(path: String, detail: String)] = []
        for error in errors {
            let entry = (path: cut(error.path), detail: cut(error.detail))
            used += entry.path.utf8.count + entry.detail.utf8.count + 4
            guard used <= problemBudget else { break }
            shown.append(entry)
        }
        return shown
    }

    /// How a sample answers: a response with its headers, the content type added when the
    /// sample sets none, or the connection closed, or never answered.
    static func action(
        for sample: EndpointSampleResponse, of target: TargetSpec, named name: String?
    ) -> MockAnswer.Action {
        switch sample {
        case .networkError(let error):
            return (error as? NetworkError)?.code == .timedOut ? .hang : .abort
        case .networkResponse(let status, let body):
            return action(for: .response(ResponseHead(statusCode: status), body), of: target, named: name)
        case .response(let head, let body):
            let status = head.statusCode
            // How the body is framed is the server's to say, never a sample's.
            let framing: Set<String> = ["content-length", "transfer-encoding", "connection", "keep-alive"]
            // Sorted by name, as serve has always sent them.
            var headers = head.headers.fields.filter { !framing.contains($0.name.lowercased()) }
                .sorted { $0.name < $1.name }
            if !body.isEmpty, !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                headers.append(("Content-Type", contentType(of: target, sample: name, body: body)))
            }
            if let name { headers.append(("Preference-Applied", "example=\(name)")) }
            return .respond(status: status, headers: headers, body: Array(body))
        }
    }

    /// `NAME` from `Prefer: example=NAME` (RFC 7240; the convention Prism uses), quoted or not,
    /// among any other preferences.
    static func preferredExample(_ request: MockRequest) -> String? {
        for header in request.headers where header.name.lowercased() == "prefer" {
            for preference in header.value.split(separator: ",") {
                let item = String(preference.prefix { $0 != ";" }).trimmingSpaces()
                guard item.lowercased().hasPrefix("example=") else { continue }
                var value = item.dropFirst("example=".count)
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                    value = value.dropFirst().dropLast()
                }
                return String(value)
            }
        }
        return nil
    }

    /// The content type of a sample that does not declare one: a file's by its extension,
    /// else text. (A `json:` sample declares its own.)
    static func contentType(of target: TargetSpec, sample name: String?, body: Data) -> String {
        let spec = name.flatMap { target.sample(named: $0) } ?? target.sample
        if case .response(_, _, .file(let path))? = spec { return SampleFileType.mediaType(ofFile: path) }
        return "text/plain; charset=utf-8"
    }

    /// The answer to a request whose body is over `limit` bytes: a 413 problem.
    public static func contentTooLarge(uri: String, limit: Int) -> MockAnswer {
        let path = uri.prefix { $0 != "?" && $0 != "#" }
        return problem(
            MockAnswer(action: .abort, loggedURI: String(path)), status: 413, title: "Content Too Large",
            detail: "the body is over \(limit) bytes", extra: [])
    }

    /// The answer to bytes that are not an HTTP/1.1 request (a head too long, a bad line): a
    /// 400 problem, as every other 400 is.
    public static func unreadable(_ detail: String) -> MockAnswer {
        problem(
            MockAnswer(action: .abort, loggedURI: "-"), status: 400, title: "Bad Request",
            detail: "the request cannot be read: \(detail)", extra: [])
    }

    /// The error answer of `route` for `status`: in the shape its target declares
    /// (`ErrorShape`), else a problem.
    private static func problem(
        _ answer: MockAnswer, of route: MockRoute, status: Int, title: String, detail: String,
        extra: [(key: String, value: JSONValue)], headers: [(name: String, value: String)] = []
    ) -> MockAnswer {
        guard let shaped = ErrorShape.answer(for: route, status: status, detail: detail, headers: headers) else {
            return problem(
                answer, status: status, title: title, detail: detail, extra: extra, headers: headers,
                mediaType: route.problemMediaType)
        }
        var answer = answer
        answer.action = shaped.action
        answer.loggedResponseBody = shaped.logged
        return answer
    }

    /// A problem response (RFC 9457) on `answer`.
    static func problem(
        _ answer: MockAnswer, status: Int, title: String, detail: String, extra: [(key: String, value: JSONValue)],
        headers: [(name: String, value: String)] = [], mediaType: String = "application/problem+json"
    ) -> MockAnswer {
        var answer = answer
        let document = JSONValue.object(
            [
                ("type", .string("about:blank")), ("title", .string(title)), ("status", .integer(status)),
                ("detail", .string(detail)),
            ] + extra)
        let body = Array(document.serialized(pretty: true, escapeSlashes: false).utf8) + [UInt8(ascii: "\n")]
        answer.action = .respond(
            status: status, headers: [("Content-Type", mediaType)] + headers, body: body)
        answer.loggedResponseBody = String(decoding: body, as: UTF8.self)
        return answer
    }

    /// Up to three routes nearest to `path`: each route's params read as the request's own
    /// segments, then the edit distance. Long paths are cut, so that this stays cheap.
    ///
    /// The distance is worked out only for the routes that share the most character pairs
    /// with the path, found in an index made once; so a 404 on a spec of thousands of targets
    /// costs about what a match does, however unlike any route the path is.
    private func closest(to path: String, _ segments: [Substring]) -> [String] {
        let given = Array(path.unicodeScalars.prefix(256))
        var shared = [Int32](repeating: 0, count: routes.count)
        var seen: Set<UInt64> = []
        for pair in RouteIndex.pairs(given) where seen.insert(pair).inserted {
            for route in closeness.postings[pair] ?? [] { shared[Int(route)] += 1 }
        }
        // The shortlist: most pairs shared, then nearest in length, then first declared.
        func rank(_ index: Int) -> (Int32, Int, Int) {
            (-shared[index], abs(closeness.lengths[index] - given.count), index)
        }
        var candidates: [Int] = []
        for index in routes.indices {
            if candidates.count == RouteIndex.shortlist, let last = candidates.last, rank(index) >= rank(last) {
                continue
            }
            let position = candidates.firstIndex { rank(index) < rank($0) } ?? candidates.count
            candidates.insert(index, at: position)
            if candidates.count > RouteIndex.shortlist { candidates.removeLast() }
        }
        let scored = candidates.map { index in
            let route = routes[index]
            let view = route.segments.enumerated().map { position, pattern in
                pattern.count == 1 && pattern.allSatisfy({ if case .param = $0 { true } else { false } })
                    && position < segments.count
                    ? String(segments[position]) : MockRoute.text(of: pattern)
            }
            let text = Array(("/" + view.joined(separator: "/")).unicodeScalars.prefix(256))
            return (distance: Suggestion.editDistance(given, text), index: index, pattern: route.pattern)
        }
        return scored.sorted { ($0.distance, $0.index) < ($1.distance, $1.index) }.prefix(3).map(\.pattern)
    }

    /// The path for the log: each segment that one of `routes` fills from a secret param is
    /// the mask; a path no route matches is as it was sent.
    static func maskedPath(_ segments: [Substring], _ routes: [MockRoute]) -> String {
        guard !segments.isEmpty else { return "/" }
        let masked = segments.indices.map { index in
            routes.contains { route in
                index < route.segments.count
                    && route.segments[index].contains {
                        if case .param(let name) = $0 { return route.target.param(named: name)?.isSecret == true }
                        return false
                    }
            }
        }
        return segments.indices.map { "/" + (masked[$0] ? Redactor.mask : String(segments[$0])) }.joined()
    }

    /// `?key=value&…` with the values `secret` names masked.
    static func maskedQuery(_ pairs: [(key: String, value: String)], secret: (String) -> Bool) -> String {
        guard !pairs.isEmpty else { return "" }
        return "?"
            + pairs.map { pair in
                let value = secret(pair.key) ? Redactor.mask : pair.value
                return PercentEncoding.encode(pair.key, keeping: PercentEncoding.isUnreserved) + "="
                    + (secret(pair.key) ? value : PercentEncoding.encode(value, keeping: PercentEncoding.isUnreserved))
            }.joined(separator: "&")
    }

    /// Whether an entry's value holds a secret param or an environment value.
    private func holdsSecret(_ value: ValueTemplate, _ route: MockRoute) -> Bool {
        value.templates.contains { Self.holdsSecret($0, route) }
    }

    /// Whether `template` is filled from a secret param or an environment value.
    static func holdsSecret(_ template: Template, _ route: MockRoute) -> Bool {
        template.segments.contains { segment in
            switch segment {
            case .param(let name): route.target.param(named: name)?.isSecret == true
            case .environment(_, let value): !value.isEmpty
            default: false
            }
        }
    }

    /// The request's body for the log: a form's secret fields and a JSON body's secret
    /// members masked, by the target's shape of them; any other body that would carry a secret
    /// is left out.
    private func loggedBody(_ request: MockRequest, _ route: MockRoute, showSecrets: Bool) -> String? {
        guard !request.body.isEmpty else { return nil }
        let text = String(decoding: request.body, as: UTF8.self)
        if showSecrets { return text }
        // For a target with secret params, what its shape does not place (another key, another
        // shape, another kind of body) may be the secret, and is masked or left out too.
        let secrets = route.target.params.contains { $0.isSecret }
        let withheld = "(\(request.body.count) bytes, not shown: the target has secret params)"
        let type = request.header("content-type")?.lowercased() ?? ""
        if !route.form.isEmpty, !secrets || type.hasPrefix("application/x-www-form-urlencoded") {
            return String(
                Self.maskedQuery(MockRoute.pairs(text[...])) { key in
                    guard let entry = route.form.first(where: { MockRoute.key(key, is: $0.key) }) else {
                        return secrets
                    }
                    return holdsSecret(entry.value, route)
                }.dropFirst())
        }
        if let shape = route.json, let value = try? JSONValue(parsing: Data(request.body)) {
            return masked(value, shape, route, secrets: secrets).serialized(escapeSlashes: false)
        }
        return secrets ? withheld : text
    }

    /// `value` with each member the shape fills from a secret param masked; with `secrets`
    /// (the target has some), each part the shape does not place is masked too.
    private func masked(_ value: JSONValue, _ shape: ValueTemplate, _ route: MockRoute, secrets: Bool) -> JSONValue {
        switch (shape, value) {
        case (.string(let template), _) where Self.holdsSecret(template, route):
            return .string(Redactor.mask)
        case (.object(let members), .object(let given)):
            return .object(
                given.map { member in
                    guard let part = members.first(where: { $0.key == member.key }) else {
                        return (member.key, secrets ? .string(Redactor.mask) : member.value)
                    }
                    return (member.key, masked(member.value, part.value, route, secrets: secrets))
                })
        case (.array(let items), .array(let given)):
            return .array(
                given.enumerated().map { index, item in
                    index < items.count
                        ? masked(item, items[index], route, secrets: secrets) : secrets ? .string(Redactor.mask) : item
                })
        case (.object, _), (.array, _):
            return secrets ? .string(Redactor.mask) : value
        default:
            // A scalar the shape places, and not from a secret: shown unless it is a container.
            switch value {
            case .object, .array: return secrets ? .string(Redactor.mask) : value
            default: return value
            }
        }
    }
}
