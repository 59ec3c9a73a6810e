import MoyaHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One HTTP request as the endpoint reads it: whole, its body at most `frameLimit` bytes.
struct HTTPExchange: Sendable {
    var method: String
    /// The path, without the query.
    var path: String
    var headers: [(name: String, value: String)]
    var body: [UInt8]
    /// The client's address, `host:port`.
    var client: String?

    /// The first value of header `name`, any case.
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name }?.value
    }

    /// How many times header `name` is given.
    func count(of name: String) -> Int {
        headers.reduce(0) { $0 + ($1.name.lowercased() == name ? 1 : 0) }
    }

    /// Whether the media types `Accept` lists include `type` (or a wildcard over it).
    func accepts(_ type: String) -> Bool {
        guard let accept = header("accept") else { return false }
        let major = type.split(separator: "/").first.map { String($0) + "/*" } ?? type
        return accept.split(separator: ",").contains { (item: Substring) -> Bool in
            let range = String(item.split(separator: ";").first ?? "").trimmingSpaces().lowercased()
            return range == type || range == major || range == "*/*"
        }
    }
}

/// What the endpoint answers.
struct HTTPAnswer: Sendable {
    var status: Int
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []

    /// A JSON-RPC message as `application/json`.
    static func json(_ message: JSONValue, status: Int = 200, headers: [(name: String, value: String)] = []) -> Self {
        HTTPAnswer(
            status: status, headers: [("Content-Type", "application/json")] + headers,
            body: Array(message.serialized(escapeSlashes: false).utf8))
    }

    /// A JSON-RPC error that names no request.
    static func refusal(_ status: Int, _ error: RPCError, headers: [(name: String, value: String)] = []) -> Self {
        json(error.response(to: .null), status: status, headers: headers)
    }

    /// A status alone.
    static func empty(_ status: Int, headers: [(name: String, value: String)] = []) -> Self {
        HTTPAnswer(status: status, headers: headers)
    }
}

/// MCP's Streamable HTTP transport, one endpoint (`/mcp`), as a function from a request to its
/// answer; `HTTPTransport` is the server around it. Each POST carries one JSON-RPC message:
/// - a request whose `MCP-Protocol-Version` header names 2026-07-28 is stateless: its revision
///   and the client's capabilities are in its `_meta`, which the headers must agree with, and
///   any instance answers it;
/// - otherwise it is of the handshake's revisions: `initialize` opens a session
///   (`Mcp-Session-Id`), which every later request names;
/// - notifications and responses get 202 and no body.
/// The answer is JSON, or one server-sent event when the client accepts only
/// `text/event-stream`. The server sends no requests of its own, so GET, which would open a
/// stream for them, gets 405, as the transport allows. Before any of it, a request from a
/// web page whose `Origin` is not allowed is refused (against DNS rebinding), and, when
/// tokens are required, one without a valid token.
final class StreamableEndpoint: Sendable {
    let server: any MCPHandler
    let options: HTTPTransport.Options
    let sessions: SessionTable

    /// The path MCP is served on.
    static let path = "/mcp"
    static let sessionHeader = "Mcp-Session-Id"
    static let versionHeader = "MCP-Protocol-Version"

    init(server: any MCPHandler, options: HTTPTransport.Options) {
        self.server = server
        self.options = options
        sessions = SessionTable(limit: options.sessionLimit, perOwnerLimit: options.sessionsPerCaller)
    }

    /// What the headers alone decide of a request, before its body is read: a stranger's
    /// body is never buffered.
    enum Admission: Sendable {
        /// Answered without its body: the metadata, a wrong path or `Origin`, a refused token.
        case answered(HTTPAnswer)
        /// To be answered by `answer(_:as:)` once its body is in.
        case admitted(Caller)
    }

    /// Admits a request by its head (its body is not read yet): the path, the `Origin`, and,
    /// when tokens are required, the token.
    func admit(_ request: HTTPExchange) async -> Admission {
        if let decided = screen(request) { return decided }
        guard let tokens = options.tokens else { return .admitted(Caller(address: request.client)) }
        switch await authenticate(request, tokens) {
        case .holder(let holder):
            return .admitted(Caller(subject: holder.subject, address: request.client, scopes: holder.scopes))
        case .refused(let refusal): return .answered(refusal)
        }
    }

    /// What the head decides without checking a token: nil when a token is left to check.
    func screen(_ request: HTTPExchange) -> Admission? {
        if let tokens = options.tokens,
            request.path == tokens.metadataPath
                || request.path == "/.well-known/oauth-protected-resource"
        {
            guard request.method == "GET" || request.method == "HEAD" else {
                return .answered(.empty(405, headers: [("Allow", "GET")]))
            }
            return .answered(.json(tokens.metadata, headers: [("Cache-Control", "max-age=3600")]))
        }
        guard request.path == Self.path else {
            return .answered(
                HTTPAnswer(
                    status: 404, headers: [("Content-Type", "text/plain; charset=utf-8")],
                    body: Array("moya-cli mcp: not found; MCP is served on \(Self.path)\n".utf8)))
        }
        if let origin = request.header("origin"), !options.allows(origin: origin) {
            return .answered(
                .refusal(
                    403,
                    .invalidRequest(
                        "the Origin \(VisibleText(origin).text) is not allowed; start moya-cli mcp with --allow-origin")
                )
            )
        }
        return options.tokens == nil ? .admitted(Caller(address: request.client)) : nil
    }

    /// Answers an admitted request, its body read.
    func answer(_ request: HTTPExchange, as caller: Caller) async -> HTTPAnswer {
        let version = request.header("mcp-protocol-version")
        let stateless = version.map(ProtocolRevision.stateless.contains) ?? false
        switch request.method {
        case "POST": break
        case "DELETE" where !stateless:
            guard let id = request.header("mcp-session-id") else {
                return .refusal(400, .invalidRequest("Bad Request: no \(Self.sessionHeader) header"))
            }
            return sessions.close(id, owner: owner(of: caller))
                ? .empty(204) : .refusal(404, .invalidRequest("Session not found"))
        default:
            return .empty(405, headers: [("Allow", stateless ? "POST" : "POST, DELETE")])
        }
        guard let type = request.header("content-type"),
            String(type.split(separator: ";").first ?? "").trimmingSpaces().lowercased() == "application/json"
        else {
            return .refusal(415, .invalidRequest("Unsupported Media Type: a message is application/json"))
        }
        let asJSON = request.accepts("application/json")
        guard asJSON || request.accepts("text/event-stream") else {
            return .refusal(
                406, .invalidRequest("Not Acceptable: the client must accept application/json or text/event-stream"))
        }
        guard let message = try? JSONValue(parsing: Data(request.body)) else {
            return .refusal(400, RPCError(code: RPCError.parseError, message: "parse error: the body is not JSON"))
        }
        if let refusal = LineTransport.refusal(of: message) { return .refusal(400, .invalidRequest(refusal)) }
        // A revision this server does not speak, in the header and the envelope alike, is
        // told so as 2026-07-28 tells it (-32022, naming the revisions it does speak).
        let enveloped = message["params"]?["_meta"]?[ProtocolRevision.versionKey] != nil
        let answer =
            stateless || (enveloped && !ProtocolRevision.handshake.contains(version ?? ""))
            ? await statelessAnswer(message, request: request, version: version ?? "", caller: caller)
            : await sessionAnswer(message, request: request, caller: caller)
        return asJSON ? answer : Self.asEvent(answer)
    }

    // MARK: - 2026-07-28

    private func statelessAnswer(_ message: JSONValue, request: HTTPExchange, version: String, caller: Caller) async
        -> HTTPAnswer
    {
        guard case .string(let method)? = message["method"] else {
            return .refusal(400, .invalidRequest("invalid request: a response; the server sent no request"))
        }
        guard let id = message["id"] else { return .empty(202) }
        let params = message["params"] ?? .object([])
        do throws(RPCError) {
            guard let revision = try ProtocolRevision.of(params) else {
                return Self.answer(
                    RPCError.invalidParams(
                        "params._meta must carry \"\(ProtocolRevision.versionKey)\" and "
                            + "\"\(ProtocolRevision.capabilitiesKey)\" at 2026-07-28"
                    ).response(to: id))
            }
            if revision != version {
                throw RPCError.headerMismatch("\(Self.versionHeader) header does not match params._meta's revision")
            }
        } catch {
            return Self.answer(error.response(to: id))
        }
        if let mismatch = Self.routingMismatch(message, method: method, request: request) {
            return Self.answer(mismatch.response(to: id))
        }
        return await dispatch(message, id: id, caller: caller)
    }

    // MARK: - The handshake's revisions

    private func sessionAnswer(_ message: JSONValue, request: HTTPExchange, caller: Caller) async -> HTTPAnswer {
        if let version = request.header("mcp-protocol-version"), !ProtocolRevision.handshake.contains(version) {
            return .refusal(400, .invalidRequest("Bad Request: unsupported MCP-Protocol-Version \(version)"))
        }
        let method: String?
        if case .string(let name)? = message["method"] { method = name } else { method = nil }
        if method == "initialize", let id = message["id"] {
            guard case .now(let answer) = server.reply(to: message, from: caller) else {
                return .refusal(500, .internalError("initialize was not answered"))
            }
            guard case .string(let revision)? = answer["result"]?["protocolVersion"], id != .null else {
                return Self.answer(answer)
            }
            guard let session = sessions.open(revision: revision, owner: owner(of: caller)) else {
                return .refusal(
                    429,
                    .invalidRequest(
                        "Too Many Requests: no room for another session without ending one that is running "
                            + "a request; end one with DELETE first"))
            }
            return Self.answer(answer, headers: [(Self.sessionHeader, session)])
        }
        guard let session = request.header("mcp-session-id") else {
            return .refusal(400, .invalidRequest("Bad Request: no \(Self.sessionHeader) header; initialize first"))
        }
        guard sessions.touch(session, owner: owner(of: caller)) != nil else {
            return .refusal(404, .invalidRequest("Session not found; initialize again"))
        }
        guard method != nil, let id = message["id"] else {
            if method == "notifications/cancelled", let requestID = message["params"]?["requestId"] {
                sessions.cancel(requestID.serialized(), in: session)
            }
            return .empty(202)
        }
        switch server.reply(to: message, from: caller) {
        case .none: return .empty(202)
        case .now(let answer): return Self.answer(answer)
        case .later(_, let work):
            if let refusal = await scopeRefusal(message, caller: caller) { return refusal }
            let cancelled = RPCError(code: -32800, message: "request cancelled").response(to: id)
            return Self.answer(await sessions.run(id.serialized(), in: session, cancelled: cancelled, work))
        }
    }

    /// Whose sessions a caller reaches: with tokens, those its issuer and subject opened;
    /// without, every one.
    private func owner(of caller: Caller) -> String? {
        options.tokens.map { $0.issuer + " " + (caller.subject ?? "") }
    }

    /// Runs a stateless request.
    private func dispatch(_ message: JSONValue, id: JSONValue, caller: Caller) async -> HTTPAnswer {
        switch server.reply(to: message, from: caller) {
        case .none: return .empty(202)
        case .now(let answer): return Self.answer(answer)
        case .later(_, let work):
            if let refusal = await scopeRefusal(message, caller: caller) { return refusal }
            return Self.answer(await work())
        }
    }

    // MARK: - Shared

    /// The headers a proxy may route by (2026-07-28) must say what the body says: each at most
    /// once, `Mcp-Method` the method, and `Mcp-Name` the tool a `tools/call` names.
    static func routingMismatch(_ message: JSONValue, method: String, request: HTTPExchange) -> RPCError? {
        for name in ["mcp-protocol-version", "mcp-method", "mcp-name"] where request.count(of: name) > 1 {
            return .headerMismatch("the \(name) header is given more than once")
        }
        guard request.header("mcp-method") == method else {
            return .headerMismatch("the Mcp-Method header does not match the request's method")
        }
        if method == "tools/call", case .string(let name)? = message["params"]?["name"],
            decodedHeader(request.header("mcp-name")) != name
        {
            return .headerMismatch("the Mcp-Name header does not match the tool's name")
        }
        return nil
    }

    /// A header value as MCP writes one that would not survive as it is: `=?base64?…?=`.
    static func decodedHeader(_ value: String?) -> String? {
        guard let value, value.hasPrefix("=?base64?"), value.hasSuffix("?="), value.count >= 11 else { return value }
        let payload = value.dropFirst(9).dropLast(2)
        guard let bytes = Data(base64Encoded: String(payload)) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The token check: 401 with RFC 6750's challenge, naming the resource metadata (RFC 9728).
    private enum Authentication {
        case holder(BearerTokens.Holder)
        case refused(HTTPAnswer)
    }

    private func authenticate(_ request: HTTPExchange, _ tokens: BearerTokens) async -> Authentication {
        let metadata = "resource_metadata=\"\(tokens.metadataURL)\""
        guard let authorization = request.header("authorization"), authorization.count > 7,
            authorization.prefix(7).lowercased() == "bearer "
        else {
            let body = JSONValue.object([
                ("error", .string("unauthorized")), ("error_description", .string("a bearer token is required")),
            ])
            return .refused(.json(body, status: 401, headers: [("WWW-Authenticate", "Bearer " + metadata)]))
        }
        let token = String(authorization.dropFirst(7)).trimmingSpaces()
        switch await tokens.verify(token) {
        case .success(let holder): return .holder(holder)
        case .failure(let refusal):
            let challenge =
                "Bearer error=\"invalid_token\", error_description=\"\(Self.quotable(refusal.description))\", "
                + metadata
            let body = JSONValue.object([
                ("error", .string("invalid_token")), ("error_description", .string(refusal.description)),
            ])
            return .refused(.json(body, status: 401, headers: [("WWW-Authenticate", challenge)]))
        }
    }

    /// 403 for a `tools/call` of a tool that writes or deletes when the caller's token lacks
    /// the scope `--write-scope` or `--delete-scope` asks for it.
    private func scopeRefusal(_ message: JSONValue, caller: Caller) async -> HTTPAnswer? {
        guard caller.scopes != nil, message["method"] == .string("tools/call"),
            case .string(let name)? = message["params"]?["name"],
            let tool = await server.access(ofCall: name, arguments: message["params"]?["arguments"] ?? .object([])),
            let scope = options.scopes.missing(for: tool, caller: caller), let tokens = options.tokens
        else { return nil }
        let description = "\(tool.name) needs the scope \(scope)"
        return .json(
            .object([("error", .string("insufficient_scope")), ("error_description", .string(description))]),
            status: 403,
            headers: [
                (
                    "WWW-Authenticate",
                    "Bearer error=\"insufficient_scope\", scope=\"\(scope)\", "
                        + "resource_metadata=\"\(tokens.metadataURL)\", error_description=\"\(description)\""
                )
            ])
    }

    /// A JSON-RPC response with the HTTP status its error maps to: 400 for a request that is
    /// malformed, 404 for an unknown method, 200 for anything else, errors of a tool's own
    /// included (as MCP's reference server maps them).
    static func answer(_ response: JSONValue, headers: [(name: String, value: String)] = []) -> HTTPAnswer {
        var status = 200
        if case .integer(let code)? = response["error"]?["code"] {
            switch code {
            case RPCError.parseError, RPCError.invalidRequestCode, -32602, -32020, -32021, -32022: status = 400
            case -32601: status = 404
            default: status = 200
            }
        }
        return .json(response, status: status, headers: headers)
    }

    /// Text safe inside a quoted header parameter: printable ASCII without `"` or `\`.
    static func quotable(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "\\" }))
    }

    /// A JSON answer as one server-sent event, for a client that accepts only those.
    static func asEvent(_ answer: HTTPAnswer) -> HTTPAnswer {
        guard answer.status == 200, answer.headers.first?.value == "application/json" else { return answer }
        var event = Array("event: message\ndata: ".utf8)
        event += answer.body
        event += Array("\n\n".utf8)
        return HTTPAnswer(
            status: 200,
            headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")]
                + answer.headers.dropFirst(),
            body: event)
    }
}
