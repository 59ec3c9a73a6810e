import Foundation
import MoyaCompiler
import MoyaCore
import MoyaMCP
import MoyaMCPProtocol
import MoyaSpec
import TestSupport
import XCTest

/// `mcp --http` against hostile clients: a read-only token, another caller, forged token
/// headers, bodies sent without a token, idle sockets, and keys offered over plain http.
extension MCPHTTPTests {
    /// A JWT with the header and payload given as JSON text, signed with the RSA test key:
    /// what `token` cannot write (a member twice, any header).
    func rawToken(header: String, payload: String) -> String {
        let input = Self.base64URL(Array(header.utf8)) + "." + Self.base64URL(Array(payload.utf8))
        return input + "." + Self.base64URL(rsa.sign(Array(input.utf8)))
    }

    func bearer(_ token: String) -> [(String, String)] { [("Authorization", "Bearer " + token)] }

    static func initialize(id: Int = 1) -> JSONValue {
        .object([
            ("jsonrpc", .string("2.0")), ("id", .integer(id)), ("method", .string("initialize")),
            (
                "params",
                .object([
                    ("protocolVersion", .string("2025-11-25")), ("capabilities", .object([])),
                    ("clientInfo", .object([("name", .string("t")), ("version", .string("1"))])),
                ])
            ),
        ])
    }

    static let list: JSONValue = .object([
        ("jsonrpc", .string("2.0")), ("id", .integer(2)), ("method", .string("tools/list")),
    ])

    // MARK: - Scopes

    /// No scope configuration leaves a method that changes anything open to a token that
    /// holds neither scope: with only `--delete-scope`, a POST needs it too.
    func testEveryWritingMethodNeedsAScope() async throws {
        let http = try await transport(try toolServer(), tokens: true) {
            $0.scopes = ScopePolicy(delete: "tools:delete")
        }
        defer { _Concurrency.Task { await http.stop() } }
        let reader = try token()
        for tool in ["echo.create", "echo.remove"] {
            let refused = try await post(Self.call(tool), to: http.port, headers: bearer(reader))
            XCTAssertEqual(refused.statusCode, 403, tool)
            XCTAssertEqual(
                Self.text(refused),
                #"{"error":"insufficient_scope","error_description":"\#(tool) needs the scope tools:delete"}"#)
        }
        let read = try await post(Self.call("echo.headers"), to: http.port, headers: bearer(reader))
        XCTAssertEqual(read.statusCode, 200)
        let deleter = try token([("scope", .string("tools:delete"))])
        let removed = try await post(Self.call("echo.remove"), to: http.port, headers: bearer(deleter))
        XCTAssertEqual(removed.statusCode, 200)
    }

    /// A GET that asks its server to delete (`X-HTTP-Method-Override: DELETE`) is a delete,
    /// and one whose override a param chooses may be anything, so it is taken as a delete too.
    func testAMethodOverrideIsTheMethodSent() throws {
        let spec = """
            service: sneaky
            baseURL: http://127.0.0.1:9
            targets:
              look:
                path: /things
                headers: { X-HTTP-Method-Override: DELETE }
              choose:
                path: /things
                params: { how: string }
                headers: { X-Method-Override: "{how}" }
              honest:
                path: /things

            """
        let service = try SpecCompiler(environment: Environment([:])).compile(
            Array(spec.utf8), file: folder + "/sneaky.yaml")
        let catalog = ToolCatalog(services: [service], exposure: ToolExposure(allowsWrites: true))
        XCTAssertEqual(
            catalog.all.map { $0.refusal ?? "offered" },
            [
                "sneaky.look sends DELETE; start moya-cli mcp with --allow-deletes to expose it",
                "sneaky.choose sends DELETE; start moya-cli mcp with --allow-deletes to expose it",
                "offered",
            ])
    }

    // MARK: - Sessions

    /// A session belongs to the caller whose token opened it: another caller's token neither
    /// uses nor ends it. And each caller keeps a bounded number, so one caller opening many
    /// pushes out only its own.
    func testASessionBelongsToItsCallerAndOneCallerEvictsOnlyItsOwn() async throws {
        let http = try await transport(try toolServer(), tokens: true) { $0.sessionsPerCaller = 3 }
        defer { _Concurrency.Task { await http.stop() } }
        let owner = try token()
        let other = try token([("sub", .string("agent-8"))])
        func open(_ bearer: String) async throws -> String {
            let opened = try await post(
                Self.initialize(), to: http.port, headers: self.bearer(bearer), stateless: false)
            XCTAssertEqual(opened.statusCode, 200)
            return try XCTUnwrap(opened.headers["Mcp-Session-Id"])
        }
        func list(_ session: String, as bearer: String) async throws -> Int {
            try await post(
                Self.list, to: http.port, headers: self.bearer(bearer) + [("Mcp-Session-Id", session)], stateless: false
            ).statusCode
        }
        let session = try await open(owner)
        let listedByOther = try await list(session, as: other)
        XCTAssertEqual(listedByOther, 404)
        let url = try XCTUnwrap(URL(string: "http://127.0.0.1:\(http.port)/mcp"))
        var headers = HTTPHeaders()
        headers.add(name: "Mcp-Session-Id", value: session)
        headers.add(name: "Authorization", value: "Bearer " + other)
        let deletedByOther = try await self.session.send(Request(url: url, method: .delete, headers: headers))
        XCTAssertEqual(deletedByOther.statusCode, 404)
        let listedByOwner = try await list(session, as: owner)
        XCTAssertEqual(listedByOwner, 200)

        // The other caller opens many; the owner's session stays.
        var others: [String] = []
        for _ in 0..<10 { others.append(try await open(other)) }
        let ownerStill = try await list(session, as: owner)
        XCTAssertEqual(ownerStill, 200)
        var kept: [Int] = []
        for id in others { kept.append(try await list(id, as: other)) }
        XCTAssertEqual(kept, Array(repeating: 404, count: 7) + Array(repeating: 200, count: 3))
    }

    // MARK: - Tokens

    /// RFC 7515's `crit`, a JWT for something other than access (`typ`), and a claim given
    /// twice are refused, however well signed.
    func testCriticalHeadersOtherTypesAndDuplicateClaimsAreRefused() async throws {
        let http = try await transport(try toolServer(), tokens: true)
        defer { _Concurrency.Task { await http.stop() } }
        let now = Int(Date().timeIntervalSince1970)
        let claims =
            #""iss":"https://auth.test","aud":"http://127.0.0.1/mcp","sub":"agent-7","scope":"tools:read""#
        let cases: [(String, String, String, String)] = [
            (
                "crit", #"{"alg":"RS256","kid":"rsa-1","crit":["exp"]}"#, "{\(claims),\"exp\":\(now + 600)}",
                "the token's header names extensions it requires (crit)"
            ),
            (
                "logout", #"{"alg":"RS256","kid":"rsa-1","typ":"logout+jwt"}"#, "{\(claims),\"exp\":\(now + 600)}",
                "the token is not an access token (its typ)"
            ),
            (
                "exp twice", #"{"alg":"RS256","kid":"rsa-1"}"#,
                "{\(claims),\"exp\":\(now + 600),\"exp\":\(now - 600)}",
                "the token's header or claims name a member twice"
            ),
            (
                "alg twice", #"{"alg":"RS256","kid":"rsa-1","alg":"none"}"#, "{\(claims),\"exp\":\(now + 600)}",
                "the token's header or claims name a member twice"
            ),
        ]
        for (label, header, payload, expected) in cases {
            let response = try await post(
                Self.call("echo.headers"), to: http.port, headers: bearer(rawToken(header: header, payload: payload)))
            XCTAssertEqual(response.statusCode, 401, label)
            XCTAssertEqual(
                response.headers["WWW-Authenticate"],
                "Bearer error=\"invalid_token\", error_description=\"\(expected)\", "
                    + "resource_metadata=\"http://127.0.0.1/.well-known/oauth-protected-resource/mcp\"", label)
        }
        // The types an access token has pass.
        for type in ["at+jwt", "application/at+jwt", "JWT"] {
            let bearer = rawToken(
                header: #"{"alg":"RS256","kid":"rsa-1","typ":"\#(type)"}"#, payload: "{\(claims),\"exp\":\(now + 600)}")
            let response = try await post(Self.call("echo.headers"), to: http.port, headers: self.bearer(bearer))
            XCTAssertEqual(response.statusCode, 200, type)
        }
    }

    // MARK: - Bodies and sockets

    /// With tokens required, a request without one is answered 401 from its head and its
    /// connection closed: the 4 MiB it announces is never waited for, nor buffered.
    func testABodyWithoutATokenIsNeverRead() async throws {
        let http = try await transport(try toolServer(), tokens: true) { $0.bufferedBodyLimit = 64 << 10 }
        defer { _Concurrency.Task { await http.stop() } }
        let socket = try XCTUnwrap(LoopbackSocket(port: http.port))
        let start = Date()
        socket.send(
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Accept: application/json\r\nContent-Length: 4194304\r\n\r\n{")
        let answer = socket.readAll()
        XCTAssertLessThan(Date().timeIntervalSince(start), 3, "the server waited for the body")
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 401 Unauthorized\r\n"), answer)
        XCTAssertTrue(answer.lowercased().contains("connection: close\r\n"), answer)

        // A forged token is refused the same way.
        let forged = try XCTUnwrap(LoopbackSocket(port: http.port))
        forged.send(
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(try token(signer: .otherRSA))\r\n"
                + "Content-Type: application/json\r\nContent-Length: 4194304\r\n\r\n{")
        XCTAssertTrue(forged.readAll().hasPrefix("HTTP/1.1 401 Unauthorized\r\n"))

        // A caller with a token whose body would pass what every connection may buffer
        // together is told to come back.
        let large = Self.call("echo.create", .object([("note", .string(String(repeating: "x", count: 100 << 10)))]))
        let refused = try await post(large, to: http.port, headers: bearer(try token()))
        XCTAssertEqual(refused.statusCode, 503)
        XCTAssertEqual(refused.headers["Retry-After"], "1")
        let small = try await post(Self.call("echo.headers"), to: http.port, headers: bearer(try token()))
        XCTAssertEqual(small.statusCode, 200)
    }

    /// A connection that sends no whole request head in time is closed, and one client
    /// address holds at most its share of the connections: past it, that client is refused
    /// while another address is still answered.
    func testIdleSocketsAreClosedAndOneAddressTakesOnlyItsShare() async throws {
        let http = try await transport(try toolServer()) { options in
            options.headTimeout = .milliseconds(400)
            options.connectionLimit = 8
            options.connectionsPerAddress = 4
        }
        defer { _Concurrency.Task { await http.stop() } }
        let idle = try (0..<4).map { _ in try XCTUnwrap(LoopbackSocket(port: http.port)) }
        let message =
            #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#
        let ping =
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json\r\n"
            + "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: ping\r\nConnection: close\r\n"
            + "Content-Length: \(message.utf8.count)\r\n\r\n" + message
        // Past its share, the same address is closed at once.
        let fifth = try XCTUnwrap(LoopbackSocket(port: http.port))
        fifth.send(ping)
        var start = Date()
        XCTAssertEqual(fifth.readAll(), "")
        XCTAssertLessThan(Date().timeIntervalSince(start), 3)
        // Another address is answered.
        let other = try XCTUnwrap(LoopbackSocket(port: http.port, from: "127.0.0.2"))
        other.send(ping)
        XCTAssertTrue(other.readAll().hasPrefix("HTTP/1.1 200 OK\r\n"))
        // The idle ones are closed once the head's time has passed.
        start = Date()
        for socket in idle { XCTAssertEqual(socket.readAll(), "") }
        XCTAssertLessThan(Date().timeIntervalSince(start), 3, "an idle socket was kept open")
        // And the address is served again, once the server has counted the closed ones out: a
        // connection refused before then is closed at once, and the next tries again.
        var answer = ""
        let deadline = Date().addingTimeInterval(3)
        while !answer.hasPrefix("HTTP/1.1 200 OK\r\n"), Date() < deadline {
            let again = try XCTUnwrap(LoopbackSocket(port: http.port))
            again.send(ping)
            answer = again.readAll()
        }
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 200 OK\r\n"), answer)
    }

    /// `--tls-cert` and `--tls-key` are read without waiting: a FIFO is refused at once.
    func testATLSFileThatIsAFIFOIsRefusedAtOnce() throws {
        let fifo = folder + "/cert.pem"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        var options = HTTPTransport.Options()
        XCTAssertThrowsError(
            try options.serveTLS(certificateChain: fifo, key: Repository.fixtures + "/tls/server.key")
        ) { error in
            XCTAssertEqual(
                "\(error)",
                "cannot serve TLS with --tls-cert \(fifo) and --tls-key \(Repository.fixtures)/tls/server.key: "
                    + "--tls-cert: the file is a FIFO, not a regular file")
        }
    }

    // MARK: - Keys

    /// Signing keys come over https only: not from an http URL, not through a redirect from
    /// https to http, not from an http `jwks_uri` that https metadata names.
    func testSigningKeysNeverComeOverPlainHTTP() async throws {
        let fixtures = Repository.fixtures + "/tls"
        let keys = folder + "/files"
        try FileManager.default.createDirectory(atPath: keys + "/.well-known", withIntermediateDirectories: true)
        let plain = try TestServer(files: keys)
        defer { plain.stop() }
        let jwks =
            #"{"keys":[{"kty":"EC","crv":"P-256","x":"\#(Self.base64URL(ec.publicPoint[1...32]))","y":"\#(Self.base64URL(ec.publicPoint[33...64]))"}]}"#
        try jwks.write(toFile: keys + "/jwks.json", atomically: true, encoding: .utf8)
        try #"{"jwks_uri":"\#(plain.baseURL)/files/jwks.json"}"#.write(
            toFile: keys + "/.well-known/openid-configuration", atomically: true, encoding: .utf8)
        let secure = try TestServer(tls: TestServer.tlsConfiguration(fixtures: fixtures), files: keys)
        defer { secure.stop() }
        var configuration = Session.Configuration()
        configuration.caCertificateFile = fixtures + "/ca.pem"
        let https = Session(configuration: configuration)
        defer { _Concurrency.Task { await https.shutdown() } }
        func failure(issuer: String, jwks: String?) async -> String {
            do {
                _ = try await KeySetSource.tokens(
                    issuer: issuer, audience: Self.audience, jwks: jwks, scopes: [], session: https)
                return "accepted"
            } catch {
                return error.description
            }
        }
        let viaHTTP = await failure(issuer: "https://auth.test", jwks: "http://keys.example.test/jwks.json")
        XCTAssertEqual(
            viaHTTP,
            "--jwks http://keys.example.test/jwks.json: signing keys are fetched over https only "
                + "(a loopback address aside)")
        // `/away` redirects to http://localhost, a downgrade even to loopback.
        let redirected = await failure(issuer: "https://auth.test", jwks: secure.baseURL + "/away")
        XCTAssertEqual(
            redirected,
            "\(secure.baseURL)/away redirected to http://localhost:\(secure.port)/echo/away: "
                + "keys come over https only")
        let named = await failure(issuer: secure.baseURL + "/files", jwks: nil)
        XCTAssertEqual(
            named,
            "cannot find the signing keys of \(secure.baseURL)/files (\(secure.baseURL)/files/.well-known/"
                + "openid-configuration names a jwks_uri over http, \(plain.baseURL)/files/jwks.json; keys come "
                + "over https only); give them with --jwks FILE or URL")
        // Over https, and from a loopback http URL the user names, they load.
        let loaded = await failure(issuer: "https://auth.test", jwks: secure.baseURL + "/files/jwks.json")
        XCTAssertEqual(loaded, "accepted")
        let local = await failure(issuer: "https://auth.test", jwks: plain.baseURL + "/files/jwks.json")
        XCTAssertEqual(local, "accepted")
    }
}
