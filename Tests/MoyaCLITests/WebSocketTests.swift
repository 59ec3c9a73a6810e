import Foundation
import MoyaCLI
import MoyaCompiler
import MoyaCore
import MoyaJSON
import MoyaServe
import Synchronization
import TestSupport
import XCTest

/// WebSocket targets: a script's steps against the `websockets` package's server (PyPI) and
/// against `serve`'s, the handshake's credentials masked, `--interactive`, bounds, checks, and
/// the failures a user meets, each one line.
final class WebSocketTests: XCTestCase {
    static let specs = CommandTests.root + "/Tests/Fixtures/streams/sockets"
    var server: Process?
    var url = ""
    var http: TestServer!

    override func setUpWithError() throws {
        http = try TestServer()
    }

    override func tearDown() {
        // Killed: a process started after a call in this process ignores SIGTERM, as the
        // call's signal handling leaves it.
        if let server {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        http.stop()
    }

    /// Starts the `websockets` server of `Tests/Fixtures/streams/websocket_server.py`.
    func startPythonServer() throws {
        try Repository.requirePrograms(["python3"])
        let check = try Launch.run(
            Launch.onPath("python3").0, ["python3", "-c", "import websockets.asyncio.server"], environment: nil)
        guard check.status == 0 else { throw Repository.unavailable("websockets not installed; .ci/run installs it") }
        let started = try Launch.start(
            Launch.onPath("python3").0, ["python3", Repository.fixtures + "/streams/websocket_server.py"],
            environment: nil)
        server = started.process
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = started.output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line.append(chunk)
        }
        let port = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertNotNil(Int(port), "the server printed no port")
        url = "ws://127.0.0.1:\(port)"
    }

    var environment: [String: String] {
        ["WS_SERVER": url, "CHAT_TOKEN": "s3cret", "HTTP_SERVER": http.baseURL]
    }

    func call(_ arguments: [String]) async -> (status: Int32, out: String, error: String) {
        await CommandTests.run(["call"] + arguments + ["--specs", Self.specs], environment: environment)
    }

    func testScriptAgainstTheWebsocketsServer() async throws {
        try startPythonServer()
        let (status, out, error) = await call(["chat.echo", "--name", "Ann"])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(out, "welcome authorized\nhello Ann\n{\"type\":\"greet\",\"who\":\"Ann\"}\n")
        XCTAssertEqual(error, "")
    }

    func testHandshakeCredentialsAreMaskedAndTheSummarySaysHowItEnded() async throws {
        try startPythonServer()
        let (status, out, error) = await call(["chat.first", "-v", "--events", "json"])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(out, "{\"event\":null,\"id\":null,\"data\":\"welcome authorized\"}\n")
        XCTAssertTrue(error.hasPrefix("Request: GET \(url)/first\n"), error)
        // The token comes from the environment: the log names its variable, never its value.
        XCTAssertTrue(error.contains("  Authorization: Bearer ${CHAT_TOKEN}\n"), error)
        XCTAssertFalse(error.contains("s3cret"), error)
        XCTAssertTrue(error.contains("Response: 101 "), error)
        XCTAssertTrue(
            error.replacing(/in [0-9.]+ s/, with: "in T s").hasSuffix(
                "moya-cli: stream (websocket): 1 event, 18 bytes in T s; ended by maxEvents\n"), error)
    }

    func testAnExpectNotMetFailsNamingItsStep() async throws {
        try startPythonServer()
        let silent = await call(["chat.silent"])
        XCTAssertEqual(silent.status, 1)
        XCTAssertEqual(silent.out, "welcome authorized\n")
        XCTAssertEqual(
            silent.error,
            "moya-cli: error: chat.silent: the WebSocket script failed at script[0]: "
                + "no message met {data} == 'never' within 0.3 s\n")
        let closed = await call(["chat.closed"])
        XCTAssertEqual(closed.status, 1)
        XCTAssertEqual(
            closed.error,
            "moya-cli: error: chat.closed: the WebSocket script failed at script[0]: "
                + "the stream ended before a message met {index} == 0\n")
    }

    func testInteractiveSendsEachLineOfStdin() throws {
        try startPythonServer()
        let (status, out, error) = try Launch.run(
            Launch.product(), ["call", "chat.talk", "--interactive", "--events", "json", "--specs", Self.specs],
            environment: environment, input: Data("one\ntwo\n".utf8))
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(
            out,
            ["welcome authorized", "one", "two"].map { "{\"event\":null,\"id\":null,\"data\":\"\($0)\"}\n" }.joined())
    }

    /// A message past what is held ends the stream at its bound: the default's fails in one
    /// line, a declared `maxBytes` ends it as asked.
    func testAMessageTooLargeEndsTheStreamAtItsBound() async throws {
        try startPythonServer()
        let held = await call(["big.held"])
        XCTAssertEqual(held.status, 1)
        XCTAssertEqual(held.out, "")
        XCTAssertEqual(
            held.error,
            "moya-cli: error: big.held: the stream from \(url.dropFirst(5)) sent an event larger than 16 MiB, "
                + "the most held; give the target stream: { maxBytes: … } to hold more\n")
        let capped = await call(["big.capped", "-v"])
        XCTAssertEqual(capped.status, 0, capped.error)
        XCTAssertTrue(
            capped.error.replacing(/in [0-9.]+ s/, with: "in T s").hasSuffix(
                "moya-cli: stream (websocket): 0 events, 0 bytes in T s; ended by maxBytes\n"), capped.error)
    }

    func testTheFailuresAUserMeets() async throws {
        url = "ws://127.0.0.1:1"
        let plain = await call(["chat.plain"])
        XCTAssertEqual(plain.status, 8)
        XCTAssertTrue(
            plain.error.hasSuffix(
                "chat.plain: the server answered 200 instead of switching to a WebSocket (101)\n"), plain.error)
        let refused = await call(["chat.first"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.error, "moya-cli: error: chat.first: the connection to 127.0.0.1:1 was refused\n")
    }

    func testCheckHoldsTheMessagesLiveAndStubbed() async throws {
        try startPythonServer()
        let spec = Self.specs + "/chat.yaml"
        let (status, out, _) = await CommandTests.run(["check", spec], environment: environment)
        XCTAssertEqual(status, 1)
        XCTAssertEqual(
            out.replacing(/\([0-9]+ ms\)/, with: "(T)").replacing(/skipped in [0-9.]+ s/, with: "skipped in T s"),
            """
            PASS  chat.echo: greets  (T)
            PASS  chat.first  (T)
            PASS  chat.talk  (T)
            FAIL  chat.silent  (T)
                  \(spec):38:3: request: the WebSocket script failed at script[0]: no message met {data} == 'never' within 0.3 s
            FAIL  chat.closed  (T)
                  \(spec):45:3: request: the WebSocket script failed at script[0]: the stream ended before a message met {index} == 0
            FAIL  chat.plain  (T)
                  \(spec):51:3: validation: expected a status that passes 101, got 200

            6 checks: 3 passed, 3 failed, 0 skipped in T s

            """)
        let stubbed = await CommandTests.run(["check", spec, "--stub", "immediate"], environment: environment)
        XCTAssertTrue(stubbed.1.hasPrefix("PASS  chat.echo: greets"), stubbed.1)
    }

    /// `mcp` answers a WebSocket target's tool with its bounded transcript: the script's
    /// messages as text and as `structuredContent`, and how the stream ended.
    func testAToolAnswersWithTheMessages() throws {
        try startPythonServer()
        let messages = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"chat.echo","arguments":{"name":"Bo"}}}"#,
        ]
        let (status, out, error) = try Launch.run(
            Launch.product(), ["mcp", "--specs", Self.specs], environment: environment,
            input: Data(messages.map { $0 + "\n" }.joined().utf8))
        XCTAssertEqual(status, 0, error)
        let answer = try XCTUnwrap(out.split(separator: "\n").first { $0.contains(#""id":2"#) })
        let result = try XCTUnwrap(JSONValue(parsing: String(answer))["result"])
        XCTAssertEqual(
            result["structuredContent"]?.serialized(escapeSlashes: false),
            #"{"result":[{"event":null,"id":null,"data":"welcome authorized"},{"event":null,"id":null,"data":"hello Bo"},"#
                + #"{"event":null,"id":null,"data":{"type":"greet","who":"Bo"}}]}"#)
        guard case .array(let content)? = result["content"], case .string(let text)? = content.first?["text"] else {
            return XCTFail("no text: \(answer)")
        }
        XCTAssertTrue(text.hasPrefix("Status: 101\nStream: 3 events, ended by end\n"), text)
    }

    /// `wss:` is TLS, verified as any connection is: with the test CA trusted the socket opens,
    /// without it the one line a user meets.
    func testSecureSocketsVerifyTheCertificate() async throws {
        let fixtures = CommandTests.root + "/Tests/Fixtures/tls"
        let service = try SpecCompiler(
            environment: Environment(["WS_SERVER": "wss://localhost", "CHAT_TOKEN": "s3cret"])
        )
        .compile(file: Self.specs + "/chat.yaml")
        let served = try await MockHTTPServer(
            router: MockRouter(services: [service]), host: "127.0.0.1", port: 0,
            options: MockHTTPServer.Options(
                log: { _ in }, tls: try TestServer.tlsContext(fixtures: fixtures)))
        url = "wss://localhost:\(served.port)"
        let trusted = await call(["chat.echo", "--cacert", fixtures + "/ca.pem"])
        let untrusted = await call(["chat.first"])
        _ = await served.stop(grace: 5)
        XCTAssertEqual(trusted.status, 0, trusted.error)
        XCTAssertEqual(trusted.out, "welcome authorized\nhello world\n{\"type\":\"greet\",\"who\":\"world\"}\n")
        XCTAssertEqual(untrusted.status, 1)
        XCTAssertEqual(
            untrusted.error,
            "moya-cli: error: chat.first: TLS failed: the certificate for localhost is not trusted "
                + "(localhost:\(served.port))\n")
    }

    /// OpenAPI and the collections hold HTTP requests alone: a WebSocket target is left out,
    /// with a note each; `generate swift` warns that its case is the handshake alone.
    func testExportsLeaveAWebSocketOutAndSaySo() async {
        url = "ws://127.0.0.1:1"
        let names = ["echo", "first", "talk", "silent", "closed", "plain"]
        for (format, line) in [
            ("openapi", "OpenAPI describes no WebSocket; the target is left out"),
            ("postman", "a WebSocket; the collection holds HTTP requests alone, so it is left out"),
            ("http", "a WebSocket; the collection holds HTTP requests alone, so it is left out"),
        ] {
            let (status, out, error) = await CommandTests.run(
                ["export", format, "chat", "--specs", Self.specs], environment: environment)
            XCTAssertEqual(status, 0, "\(format): \(error)")
            XCTAssertEqual(error, names.map { "moya-cli: note: \($0): \(line)\n" }.joined(), format)
            XCTAssertFalse(out.contains("/first"), format)
        }
        let (status, _, error) = await CommandTests.run(
            ["generate", "swift", "chat", "--specs", Self.specs], environment: environment)
        XCTAssertEqual(status, 0, error)
        XCTAssertTrue(
            error.hasPrefix(
                "moya-cli: warning: chat.echo: a WebSocket; Moya sends HTTP requests, so its case is the "
                    + "handshake's GET alone\n"), error)
    }

    /// `serve` opens a WebSocket for a WebSocket target: its sample's events as messages, after
    /// their delays, then a close; without a sample, an echo. Asked without an upgrade, 426.
    func testServeSendsTheSampleAndEchoes() async throws {
        let service = try SpecCompiler(
            environment: Environment(["WS_SERVER": "ws://127.0.0.1", "CHAT_TOKEN": "s3cret"])
        )
        .compile(file: Self.specs + "/chat.yaml")
        let logged = LogLines()
        let served = try await MockHTTPServer(
            router: MockRouter(services: [service]), host: "127.0.0.1", port: 0,
            options: MockHTTPServer.Options(verbose: false, showSecrets: false, log: { logged.append($0) }))
        url = "ws://127.0.0.1:\(served.port)"
        let sampled = await call(["chat.echo"])
        let echoed = try Launch.run(
            Launch.product(), ["call", "chat.talk", "--interactive", "--specs", Self.specs],
            environment: environment, input: Data("ping\npong\nend\n".utf8))
        let plain = try Launch.run(
            Launch.onPath("curl").0,
            [
                "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer s3cret",
                "http://127.0.0.1:\(served.port)/echo",
            ],
            environment: nil)
        _ = await served.stop(grace: 5)
        XCTAssertEqual(sampled.status, 0, sampled.error)
        XCTAssertEqual(sampled.out, "welcome authorized\nhello world\n{\"type\":\"greet\",\"who\":\"world\"}\n")
        XCTAssertEqual(echoed.status, 0, echoed.error)
        XCTAssertEqual(echoed.out, "ping\npong\nend\n")
        XCTAssertEqual(plain.out, "426")
        XCTAssertEqual(
            logged.lines.map { $0.replacing(/[0-9.]+ ms/, with: "T ms") },
            [
                "GET /echo  chat.echo  default  101  T ms", "GET /talk  chat.talk  default  101  T ms",
                "GET /echo  chat.echo  default  426  T ms",
            ])
    }
}

/// Lines a test's server logs, from its threads.
final class LogLines: Sendable {
    private let held = Mutex<[String]>([])
    func append(_ line: String) { held.withLock { $0.append(line) } }
    var lines: [String] { held.withLock { $0 } }
}
