import CNIOBoringSSL
import Foundation
import MoyaCompiler
import MoyaCore
import MoyaMCP
import MoyaMCPProtocol
import MoyaRuntime
import MoyaSpec
import TestSupport
import XCTest

/// `mcp --http` in-process: MCP's Streamable HTTP transport on a real port, asked by a real
/// HTTP client (MoyaTransport's `Session`), its tools sending to a live server. Bearer tokens
/// are JWTs signed here with BoringSSL, as an authorization server signs them.
final class MCPHTTPTests: XCTestCase {
    static let issuer = "https://auth.test"
    static let audience = "http://127.0.0.1/mcp"
    static let envelope: JSONValue = .object([
        ("io.modelcontextprotocol/protocolVersion", .string("2026-07-28")),
        ("io.modelcontextprotocol/clientCapabilities", .object([])),
    ])

    var folder = ""
    var api: TestServer?
    var session = Session()
    let rsa = TestKey.rsa()
    let ec = TestKey.p256()

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "moya-cli-mcp-http-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        api = try TestServer()
    }

    override func tearDown() async throws {
        api?.stop()
        await session.shutdown()
        try? FileManager.default.removeItem(atPath: folder)
    }

    // MARK: - Fixtures

    /// A tool server on the echo spec: a read, a write and a delete of the live test server,
    /// whose own credential (`API_TOKEN`) is the spec's.
    func toolServer(audit: AuditLog? = nil) throws -> ToolServer {
        let port = try XCTUnwrap(api?.port)
        let spec = """
            service: echo
            baseURL: http://127.0.0.1:\(port)
            auth: { bearer: "${API_TOKEN}" }
            targets:
              headers:
                path: /echo/headers
              create:
                method: POST
                path: /echo/things
              remove:
                method: DELETE
                path: /echo/things/1

            """
        let compiled = try SpecCompiler(environment: Environment(["API_TOKEN": "api-t0ken-of-the-spec"]))
            .compile(Array(spec.utf8), file: folder + "/echo.yaml")
        let client = SpecClient(services: [compiled], logins: nil)
        return ToolServer(
            client: client, exposure: ToolExposure(allowsWrites: true, allowsDeletes: true),
            options: ToolServer.Options(), audit: audit)
    }

    /// The JWK Set of the test keys: RSA as `rsa-1`, P-256 as `ec-1`.
    func keySet() throws -> SigningKeys {
        let (n, e) = rsa.publicNumbers
        let point = ec.publicPoint
        let jwks: JSONValue = .object([
            (
                "keys",
                .array([
                    .object([
                        ("kty", .string("RSA")), ("kid", .string("rsa-1")), ("use", .string("sig")),
                        ("n", .string(Self.base64URL(n))), ("e", .string(Self.base64URL(e))),
                    ]),
                    .object([
                        ("kty", .string("EC")), ("kid", .string("ec-1")), ("crv", .string("P-256")),
                        ("x", .string(Self.base64URL(point[1...32]))), ("y", .string(Self.base64URL(point[33...64]))),
                    ]),
                    // A key of a kind the reader skips.
                    .object([("kty", .string("oct")), ("k", .string("c2VjcmV0"))]),
                ])
            )
        ])
        return try SigningKeys(jwks: Array(jwks.serialized().utf8))
    }

    static func base64URL(_ bytes: some DataProtocol) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    enum Signer {
        case rsa
        case ec
        case otherRSA
        case unsigned
    }

    /// A JWT with `claims` over the defaults (our issuer and audience, an hour left).
    func token(
        _ claims: [(key: String, value: JSONValue)] = [], signer: Signer = .rsa, kid: String? = "rsa-1"
    ) throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        var members: [(key: String, value: JSONValue)] = [
            ("iss", .string(Self.issuer)), ("aud", .string(Self.audience)), ("sub", .string("agent-7")),
            ("exp", .integer(now + 3600)), ("scope", .string("tools:read")),
        ]
        for claim in claims {
            members.removeAll { $0.key == claim.key }
            if claim.value != .null { members.append(claim) }
        }
        let algorithm =
            switch signer {
            case .rsa, .otherRSA: "RS256"
            case .ec: "ES256"
            case .unsigned: "none"
            }
        var header: [(key: String, value: JSONValue)] = [("alg", .string(algorithm)), ("typ", .string("at+jwt"))]
        if let kid { header.append(("kid", .string(kid))) }
        let input =
            Self.base64URL(Array(JSONValue.object(header).serialized().utf8)) + "."
            + Self.base64URL(Array(JSONValue.object(members).serialized().utf8))
        let signature: [UInt8]
        switch signer {
        case .rsa: signature = rsa.sign(Array(input.utf8))
        case .otherRSA: signature = TestKey.rsa().sign(Array(input.utf8))
        case .ec: signature = ec.sign(Array(input.utf8))
        case .unsigned: signature = []
        }
        return input + "." + Self.base64URL(signature)
    }

    /// A transport on a free port; with `tokens`, bearer tokens are required.
    func transport(
        _ server: ToolServer, tokens: Bool = false, configure: (inout HTTPTransport.Options) -> Void = { _ in }
    )
        async throws -> HTTPTransport
    {
        var options = HTTPTransport.Options()
        if tokens {
            options.tokens = BearerTokens(
                issuer: Self.issuer, audience: Self.audience, keys: try keySet(), scopes: ["tools:write"])
            options.scopes = ScopePolicy(write: "tools:write")
        }
        configure(&options)
        return try await HTTPTransport(server: server, host: "127.0.0.1", port: 0, options: options)
    }

    /// A POST of `message` to `/mcp`, with MCP's headers for 2026-07-28 unless `headers` says
    /// otherwise.
    func post(
        _ message: JSONValue, to port: Int, headers: [(String, String)] = [], stateless: Bool = true,
        scheme: String = "http"
    ) async throws -> Response {
        var fields = HTTPHeaders()
        fields.add(name: "Content-Type", value: "application/json")
        fields.add(name: "Accept", value: "application/json, text/event-stream")
        if stateless, case .string(let method)? = message["method"] {
            fields.add(name: "MCP-Protocol-Version", value: "2026-07-28")
            fields.add(name: "Mcp-Method", value: method)
            if case .string(let name)? = message["params"]?["name"] { fields.add(name: "Mcp-Name", value: name) }
        }
        for (name, value) in headers { fields.update(name: name, value: value) }
        let url = try XCTUnwrap(URL(string: "\(scheme)://127.0.0.1:\(port)/mcp"))
        return try await session.send(
            Request(url: url, method: .post, headers: fields, body: .data(Data(message.serialized().utf8))))
    }

    static func call(_ tool: String, _ arguments: JSONValue = .object([]), id: Int = 1) -> JSONValue {
        .object([
            ("jsonrpc", .string("2.0")), ("id", .integer(id)), ("method", .string("tools/call")),
            ("params", .object([("name", .string(tool)), ("arguments", arguments), ("_meta", envelope)])),
        ])
    }

    static func text(_ response: Response) -> String { String(decoding: response.data, as: UTF8.self) }

    // MARK: - Tokens

    /// A call with a valid token runs, sends the spec's credential and never the token, and
    /// the audit log names the caller: the token's subject and the client's address.
    func testAValidTokenCallsWithTheSpecsCredentialNeverItself() async throws {
        let auditPath = folder + "/audit.jsonl"
        let audit = try AuditLog(path: auditPath, now: { "2026-11-28T00:00:00.000Z" })
        let http = try await transport(try toolServer(audit: audit), tokens: true)
        defer { _Concurrency.Task { await http.stop() } }
        for (signer, kid) in [(Signer.rsa, "rsa-1"), (.ec, "ec-1")] {
            let bearer = try token(signer: signer, kid: kid)
            let response = try await post(
                Self.call("echo.headers"), to: http.port, headers: [("Authorization", "Bearer " + bearer)])
            let text = Self.text(response)
            XCTAssertEqual(response.statusCode, 200, text)
            XCTAssertTrue(text.contains(#""result":{"content""#), text)
            // The spec's token went, masked in what the model sees; the caller's never did.
            XCTAssertTrue(text.contains(#"\"Authorization\",\n      \"••••\""#), text)
            XCTAssertFalse(text.contains("api-t0ken-of-the-spec"), text)
            for form in SecretForms.all(bearer) + [String(bearer.split(separator: ".")[2])] {
                XCTAssertFalse(text.contains(form), "the caller's token reached the API")
            }
        }
        let lines = try String(contentsOfFile: auditPath, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        let first = try JSONValue(parsing: Data(lines[0].utf8))
        XCTAssertEqual(first["caller"]?["sub"], .string("agent-7"))
        guard case .string(let address)? = first["caller"]?["address"] else { return XCTFail("no address") }
        XCTAssertTrue(address.hasPrefix("127.0.0.1:"), address)
        XCTAssertEqual(first["tool"], .string("echo.headers"))
    }

    /// Each way a token can be wrong gets 401 with RFC 6750's challenge, naming the resource
    /// metadata; a bad `Origin` gets 403 whatever the token.
    func testRefusedTokensAndOrigins() async throws {
        let http = try await transport(try toolServer(), tokens: true)
        defer { _Concurrency.Task { await http.stop() } }
        let metadata = "resource_metadata=\"http://127.0.0.1/.well-known/oauth-protected-resource/mcp\""
        let now = Int(Date().timeIntervalSince1970)
        let cases: [(String, String?, String)] = [
            ("no token", nil, "Bearer " + metadata),
            (
                "a wrong audience", try token([("aud", .array([.string("https://other.test/mcp")]))]),
                "the token is not for http://127.0.0.1/mcp (its aud)"
            ),
            ("expired", try token([("exp", .integer(now - 120))]), "the token has expired"),
            ("not yet valid", try token([("nbf", .integer(now + 600))]), "the token is not valid yet (its nbf)"),
            ("no exp", try token([("exp", .null)]), "the token has no exp"),
            (
                "another issuer", try token([("iss", .string("https://evil.test"))]),
                "the token was not issued by https://auth.test"
            ),
            ("badly signed", try token(signer: .otherRSA), "the token's signature does not verify"),
            (
                "unsigned", try token(signer: .unsigned, kid: nil),
                "no key of the issuer's key set signs with none"
            ),
            (
                "an unknown key", try token(kid: "rsa-2"),
                "the token names a key the issuer's key set does not hold"
            ),
            ("not a JWT", "abc.def", "the token is not a signed JWT"),
        ]
        for (label, bearer, expected) in cases {
            let headers = bearer.map { [("Authorization", "Bearer " + $0)] } ?? []
            let response = try await post(Self.call("echo.headers"), to: http.port, headers: headers)
            XCTAssertEqual(response.statusCode, 401, label)
            let challenge = response.headers["WWW-Authenticate"] ?? ""
            if bearer == nil {
                XCTAssertEqual(challenge, expected, label)
            } else {
                XCTAssertEqual(
                    challenge, "Bearer error=\"invalid_token\", error_description=\"\(expected)\", " + metadata, label)
            }
        }
        let valid = try token()
        let origin = try await post(
            Self.call("echo.headers"), to: http.port,
            headers: [("Authorization", "Bearer " + valid), ("Origin", "http://attacker.test")])
        XCTAssertEqual(origin.statusCode, 403)
        XCTAssertEqual(
            Self.text(origin),
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"the Origin http://attacker.test is not allowed; start moya-cli mcp with --allow-origin"}}"#
        )
    }

    /// `--write-scope`: a token without it is refused a write with 403 and the scope named;
    /// with it the write is sent. Reads need no scope; `--allow-origin` lets a page call.
    func testScopesGateWritesAndOriginsCanBeAllowed() async throws {
        let http = try await transport(try toolServer(), tokens: true) { $0.allowedOrigins = ["https://app.test"] }
        defer { _Concurrency.Task { await http.stop() } }
        let reader = try token()
        let refused = try await post(
            Self.call("echo.create"), to: http.port, headers: [("Authorization", "Bearer " + reader)])
        XCTAssertEqual(refused.statusCode, 403)
        XCTAssertEqual(
            refused.headers["WWW-Authenticate"],
            "Bearer error=\"insufficient_scope\", scope=\"tools:write\", "
                + "resource_metadata=\"http://127.0.0.1/.well-known/oauth-protected-resource/mcp\", "
                + "error_description=\"echo.create needs the scope tools:write\"")
        let writer = try token([("scope", .string("tools:read tools:write"))])
        let sent = try await post(
            Self.call("echo.create"), to: http.port,
            headers: [("Authorization", "Bearer " + writer), ("Origin", "https://APP.test/")])
        XCTAssertEqual(sent.statusCode, 200)
        XCTAssertTrue(Self.text(sent).contains(#"\"method\" : \"POST\""#), Self.text(sent))
        // A delete needs the write scope when no delete scope is named: a read-only token
        // never reaches a method that changes anything.
        let refusedDelete = try await post(
            Self.call("echo.remove"), to: http.port, headers: [("Authorization", "Bearer " + reader)])
        XCTAssertEqual(refusedDelete.statusCode, 403)
        XCTAssertEqual(
            Self.text(refusedDelete),
            #"{"error":"insufficient_scope","error_description":"echo.remove needs the scope tools:write"}"#)
        let removed = try await post(
            Self.call("echo.remove"), to: http.port, headers: [("Authorization", "Bearer " + writer)])
        XCTAssertEqual(removed.statusCode, 200)

        // RFC 9728's metadata, served without a token.
        var metadata = try await session.send(
            Request(
                url: try XCTUnwrap(
                    URL(string: "http://127.0.0.1:\(http.port)/.well-known/oauth-protected-resource/mcp"))))
        XCTAssertEqual(metadata.statusCode, 200)
        XCTAssertEqual(
            Self.text(metadata),
            #"{"resource":"http://127.0.0.1/mcp","authorization_servers":["https://auth.test"],"bearer_methods_supported":["header"],"scopes_supported":["tools:write"],"resource_name":"moya-cli mcp"}"#
        )
        metadata = try await session.send(
            Request(url: try XCTUnwrap(URL(string: "http://127.0.0.1:\(http.port)/elsewhere"))))
        XCTAssertEqual(metadata.statusCode, 404)
    }

    // MARK: - The transport

    /// 2025-11-25's sessions: `initialize` names one, later requests must, DELETE ends it.
    /// And what any request gets wrong: the method, the media types, the headers.
    func testSessionsAndRefusedRequests() async throws {
        let http = try await transport(try toolServer())
        defer { _Concurrency.Task { await http.stop() } }
        let initialize: JSONValue = .object([
            ("jsonrpc", .string("2.0")), ("id", .integer(1)), ("method", .string("initialize")),
            (
                "params",
                .object([
                    ("protocolVersion", .string("2025-11-25")), ("capabilities", .object([])),
                    ("clientInfo", .object([("name", .string("t")), ("version", .string("1"))])),
                ])
            ),
        ])
        let opened = try await post(initialize, to: http.port, stateless: false)
        XCTAssertEqual(opened.statusCode, 200)
        let id = try XCTUnwrap(opened.headers["Mcp-Session-Id"])
        XCTAssertEqual(id.count, 32)
        let list: JSONValue = .object([
            ("jsonrpc", .string("2.0")), ("id", .integer(2)), ("method", .string("tools/list")),
        ])
        let withoutSession = try await post(list, to: http.port, stateless: false)
        XCTAssertEqual(withoutSession.statusCode, 400)
        XCTAssertEqual(
            Self.text(withoutSession),
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Bad Request: no Mcp-Session-Id header; initialize first"}}"#
        )
        let listed = try await post(
            list, to: http.port, headers: [("Mcp-Session-Id", id), ("MCP-Protocol-Version", "2025-11-25")],
            stateless: false)
        XCTAssertEqual(listed.statusCode, 200)
        XCTAssertTrue(Self.text(listed).contains(#""name":"echo.headers""#))
        let notification: JSONValue = .object([
            ("jsonrpc", .string("2.0")), ("method", .string("notifications/initialized")),
        ])
        let noted = try await post(notification, to: http.port, headers: [("Mcp-Session-Id", id)], stateless: false)
        XCTAssertEqual(noted.statusCode, 202)
        XCTAssertEqual(noted.data.count, 0)

        let url = try XCTUnwrap(URL(string: "http://127.0.0.1:\(http.port)/mcp"))
        var headers = HTTPHeaders()
        headers.add(name: "Mcp-Session-Id", value: id)
        let deleted = try await session.send(Request(url: url, method: .delete, headers: headers))
        XCTAssertEqual(deleted.statusCode, 204)
        let gone = try await post(list, to: http.port, headers: [("Mcp-Session-Id", id)], stateless: false)
        XCTAssertEqual(gone.statusCode, 404)
        let get = try await session.send(Request(url: url))
        XCTAssertEqual(get.statusCode, 405)
        XCTAssertEqual(get.headers["Allow"], "POST, DELETE")

        // Media types, and headers that disagree with the body at 2026-07-28.
        let call = Self.call("echo.headers")
        let plain = try await post(call, to: http.port, headers: [("Content-Type", "text/plain")])
        XCTAssertEqual(plain.statusCode, 415)
        let xml = try await post(call, to: http.port, headers: [("Accept", "application/xml")])
        XCTAssertEqual(xml.statusCode, 406)
        let mismatch = try await post(call, to: http.port, headers: [("Mcp-Name", "echo.create")])
        XCTAssertEqual(mismatch.statusCode, 400)
        XCTAssertEqual(
            Self.text(mismatch),
            #"{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"the Mcp-Name header does not match the tool's name"}}"#
        )
        let encoded = try await post(call, to: http.port, headers: [("Mcp-Name", "=?base64?ZWNoby5oZWFkZXJz?=")])
        XCTAssertEqual(encoded.statusCode, 200)
        let unknown = try await post(
            .object([
                ("jsonrpc", .string("2.0")), ("id", .integer(3)), ("method", .string("resources/list")),
                ("params", .object([("_meta", Self.envelope)])),
            ]), to: http.port)
        XCTAssertEqual(unknown.statusCode, 404)
        let garbage = try await session.send(
            Request(
                url: url, method: .post, headers: ["Content-Type": "application/json", "Accept": "*/*"],
                body: .data(Data("{".utf8))))
        XCTAssertEqual(garbage.statusCode, 400)
        XCTAssertEqual(
            Self.text(garbage),
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: the body is not JSON"}}"#)

        // A client that takes only events gets the answer as one.
        let ping: JSONValue = .object([
            ("jsonrpc", .string("2.0")), ("id", .integer(4)), ("method", .string("ping")),
            ("params", .object([("_meta", Self.envelope)])),
        ])
        let event = try await post(ping, to: http.port, headers: [("Accept", "text/event-stream")])
        XCTAssertEqual(event.statusCode, 200)
        XCTAssertEqual(event.headers["Content-Type"], "text/event-stream")
        XCTAssertEqual(
            Self.text(event),
            "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"resultType\":\"complete\"}}\n\n")
    }

    /// HTTPS with `--tls-cert` and `--tls-key`.
    func testTLS() async throws {
        let fixtures = Repository.fixtures + "/tls"
        let http = try await transport(try toolServer()) { options in
            try? options.serveTLS(certificateChain: fixtures + "/server.pem", key: fixtures + "/server.key")
        }
        defer { _Concurrency.Task { await http.stop() } }
        var configuration = Session.Configuration()
        configuration.caCertificateFile = fixtures + "/ca.pem"
        await session.shutdown()
        session = Session(configuration: configuration)
        let response = try await post(Self.call("echo.headers"), to: http.port, scheme: "https")
        XCTAssertEqual(response.statusCode, 200, Self.text(response))
        var options = HTTPTransport.Options()
        XCTAssertThrowsError(
            try options.serveTLS(certificateChain: fixtures + "/none.pem", key: fixtures + "/server.key"))
    }
}

/// A key pair made with BoringSSL for the tests, as an authorization server holds one.
final class TestKey: @unchecked Sendable {
    enum Kind {
        case rsa
        case p256
    }

    let kind: Kind
    let pointer: OpaquePointer

    private init(_ kind: Kind, _ pointer: OpaquePointer) {
        self.kind = kind
        self.pointer = pointer
    }

    deinit {
        switch kind {
        case .rsa: RSA_free(pointer)
        case .p256: EC_KEY_free(pointer)
        }
    }

    static func rsa() -> TestKey {
        let key = RSA_new()!
        let exponent = BN_new()!
        defer { BN_free(exponent) }
        BN_set_word(exponent, 65537)
        precondition(RSA_generate_key_ex(key, 2048, exponent, nil) == 1)
        return TestKey(.rsa, key)
    }

    static func p256() -> TestKey {
        let key = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1)!
        precondition(EC_KEY_generate_key(key) == 1)
        return TestKey(.p256, key)
    }

    static func bytes(_ number: UnsafePointer<BIGNUM>?, size: Int? = nil) -> [UInt8] {
        let count = size ?? Int(BN_num_bytes(number))
        var out = [UInt8](repeating: 0, count: count)
        _ = BN_bn2bin_padded(&out, count, number)
        return out
    }

    /// The RSA key's modulus and exponent.
    var publicNumbers: (n: [UInt8], e: [UInt8]) {
        (Self.bytes(RSA_get0_n(pointer)), Self.bytes(RSA_get0_e(pointer)))
    }

    /// The P-256 key's point, uncompressed.
    var publicPoint: [UInt8] {
        var out = [UInt8](repeating: 0, count: 65)
        _ = EC_POINT_point2oct(
            EC_KEY_get0_group(pointer), EC_KEY_get0_public_key(pointer), POINT_CONVERSION_UNCOMPRESSED, &out, 65, nil)
        return out
    }

    /// RS256 or ES256 (`r || s`) of `input`.
    func sign(_ input: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        _ = SHA256(input, input.count, &digest)
        switch kind {
        case .rsa:
            var signature = [UInt8](repeating: 0, count: Int(RSA_size(pointer)))
            var length: UInt32 = 0
            precondition(RSA_sign(NID_sha256, digest, 32, &signature, &length, pointer) == 1)
            return Array(signature.prefix(Int(length)))
        case .p256:
            let pair = ECDSA_do_sign(digest, 32, pointer)!
            defer { ECDSA_SIG_free(pair) }
            var r: UnsafePointer<BIGNUM>?
            var s: UnsafePointer<BIGNUM>?
            ECDSA_SIG_get0(pair, &r, &s)
            return Self.bytes(r, size: 32) + Self.bytes(s, size: 32)
        }
    }
}
