import MoyaCLI
import MoyaCore
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `moya-cli serve`, run in-process as the executable runs it (port 0, its log read until the
/// line a test waits for, stopped through the command's context) and called with moya-cli's
/// own client: the `call`, `check` and `run` commands, and MoyaCore's provider for requests no
/// spec declares. What only a process shows, a signal, is tested on the executable.
final class ServeTests: XCTestCase {
    var specs: String { CommandTests.root + "/specs" }
    var fixtures: String { CommandTests.root + "/Tests/Fixtures/serve" }

    /// `moya-cli serve` run in-process, as the executable runs it, on port 0: its log is read
    /// as it comes, and it is stopped as a signal stops it, through the command's context.
    final class Served: @unchecked Sendable {
        private let condition = NSCondition()
        private var text = ""
        private let stops: AsyncStream<Int32>.Continuation
        /// Told of each write to the log, and finished when serve ends.
        private let written: AsyncStream<Void>.Continuation
        private var running: _Concurrency.Task<Int32, Never>?
        private(set) var url = ""

        /// The log so far.
        var log: String {
            condition.lock()
            defer { condition.unlock() }
            return text
        }

        init(_ arguments: [String], environment: [String: String] = [:]) async throws {
            let (signals, stops) = AsyncStream.makeStream(of: Int32.self)
            self.stops = stops
            let (writes, written) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            self.written = written
            let box = Box()
            box.served = self
            var context = CommandContext(
                environment: Environment(environment), writeOut: { _ in },
                writeError: { bytes in box.served?.append(bytes) })
            context.stopSignal = {
                var iterator = signals.makeAsyncIterator()
                return await iterator.next() ?? SIGTERM
            }
            let started = context
            running = _Concurrency.Task {
                let status = await MoyaCLI.run(["serve", "--port", "0"] + arguments, context: started)
                written.finish()
                return status
            }
            // Awaited as the log is written, which holds no thread: a wait on the condition would
            // hold one of the cooperative pool's (two on a two-core machine) while serve needs one
            // to start.
            for await _ in writes where log.firstMatch(of: /on (https?:\/\/127\.0\.0\.1:\d+)\n/) != nil { break }
            guard log.firstMatch(of: /on (https?:\/\/127\.0\.0\.1:\d+)\n/) != nil else {
                throw Failure(message: "serve did not start: \(log)")
            }
            url = log.firstMatch(of: /on (https?:\/\/127\.0\.0\.1:\d+)\n/).map { String($0.output.1) } ?? ""
        }

        /// Where the log goes before `self` is whole.
        private final class Box: @unchecked Sendable { weak var served: Served? }

        private func append(_ bytes: [UInt8]) {
            condition.lock()
            text += String(decoding: bytes, as: UTF8.self)
            condition.broadcast()
            condition.unlock()
            written.yield()
        }

        /// Waits until the log holds `text`, for at most `timeout` seconds: readiness on what
        /// serve says, instead of a sleep. Returns whether it came.
        func waitForLog(_ text: String, timeout: Double = 10) -> Bool {
            waitForLog(timeout: timeout) { $0.contains(text) }
        }

        func waitForLog(_ pattern: Regex<(Substring, Substring)>, timeout: Double = 10) -> Bool {
            waitForLog(timeout: timeout) { $0.firstMatch(of: pattern) != nil }
        }

        private func waitForLog(timeout: Double, until done: (String) -> Bool) -> Bool {
            let deadline = Date(timeIntervalSinceNow: timeout)
            condition.lock()
            defer { condition.unlock() }
            while !done(text) {
                guard condition.wait(until: deadline) else { return false }
            }
            return true
        }

        /// Stops serve as `signal` would, and waits for the command's end: its status and the
        /// whole log.
        func stop(_ signal: Int32 = SIGTERM) async -> (status: Int32, log: String) {
            stops.yield(signal)
            let status = await running?.value ?? 0
            return (status, log)
        }

        deinit {
            stops.yield(SIGKILL)
        }
    }

    /// `moya-cli serve` as the built executable, for what only a process shows: signals.
    final class Launched: @unchecked Sendable {
        let process: Process
        let error: Pipe
        private(set) var log = ""
        let url: String

        init(_ arguments: [String]) throws {
            (process, _, error) = try CommandTests.launch(["serve", "--port", "0"] + arguments, server: "")
            var text = ""
            var found: String?
            while found == nil {
                let chunk = error.fileHandleForReading.availableData
                guard !chunk.isEmpty else { throw Failure(message: "serve ended: \(text)") }
                text += String(decoding: chunk, as: UTF8.self)
                if let range = text.firstRange(of: /on (http:\/\/127\.0\.0\.1:\d+)\n/) {
                    found = String(text[range].dropFirst(3).dropLast())
                }
            }
            log = text
            url = found ?? ""
        }

        /// Sends `signal` and waits for the exit: the status and the whole log.
        func stop(_ signal: Int32 = SIGTERM) -> (status: Int32, log: String) {
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            log += String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return (process.terminationStatus, log)
        }

        deinit {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
    }

    struct Failure: Error { var message: String }

    /// A request no spec declares.
    struct Raw: TargetType {
        var baseURL: URL
        var path: String
        var method: MoyaCore.Method = .get
        var task: MoyaCore.Task = .requestPlain
        var headers: [String: String]? = nil
    }

    static func send(_ raw: Raw, timeout: Double? = nil, caCertificateFile: String? = nil) async -> Result<
        Response, MoyaError
    > {
        var configuration = Session.Configuration()
        if let timeout { configuration.timeout = timeout }
        configuration.caCertificateFile = caCertificateFile
        let session = Session(configuration: configuration)
        let result = await MoyaProvider<Raw>(session: session).result(for: raw)
        await session.shutdown()
        return result
    }

    static func get(_ served: Served, _ path: String, headers: [String: String]? = nil) async throws -> Response {
        try await Self.send(Raw(baseURL: URL(string: served.url)!, path: path, headers: headers)).get()
    }

    static func text(_ response: Response) -> String { String(decoding: response.data, as: UTF8.self) }

    /// A check's output with its timings taken out.
    static func untimed(_ text: String) -> String {
        text.replacing(/\(\d+ ms\)/, with: "(T)").replacing(/in \d+\.\d+ s/, with: "in T s")
    }

    // MARK: - The contract loop

    func testCheckAgainstServeGivesWhatCheckOnTheSamplesGives() async throws {
        let served = try await Served([specs, "--env", "local"])
        // serve asks for the credentials each target sends: any value does.
        let environment = ["MOYA_SERVE_URL": served.url, "GITHUB_TOKEN": "t", "TRANSLATOR_KEY": "k"]
        let (liveStatus, live, liveError) = await CommandTests.run(
            ["check", specs, "--env", "local"], environment: environment)
        let (stubStatus, stubbed, _) = await CommandTests.run(["check", specs, "--stub", "immediate"])
        XCTAssertEqual(liveStatus, 0, liveError)
        XCTAssertEqual(stubStatus, 0)
        XCTAssertEqual(Self.untimed(live), Self.untimed(stubbed))

        let (flowStatus, flow, _) = await CommandTests.run(
            ["run", "myservice.userLifecycle", "--specs", specs, "--env", "local", "--var", "first=Zoe"],
            environment: environment)
        let (stubFlowStatus, stubFlow, _) = await CommandTests.run(
            ["run", "myservice.userLifecycle", "--specs", specs, "--stub", "immediate", "--var", "first=Zoe"])
        XCTAssertEqual(flowStatus, 0)
        XCTAssertEqual(stubFlowStatus, 0)
        XCTAssertEqual(Self.untimed(flow), Self.untimed(stubFlow))

        let (status, log) = await served.stop()
        XCTAssertEqual(status, 0)
        XCTAssertTrue(
            log.contains(
                """
                moya-cli: serving 4 services, 20 targets on \(served.url)
                  github      /github
                  httpbin     /httpbin
                  myservice   /myservice
                  translator  /translator

                """), log)
        // The named sample of the check "unknown user" was asked for, and given.
        XCTAssertTrue(log.contains("GET /myservice/users/999  myservice.showUser  notFound  404  "), log)
        XCTAssertTrue(
            log.contains(
                "POST /myservice/users/100?first_name=Zoe&last_name=Granger  myservice.updateUser  default  200"),
            log)
    }

    func testCallThroughServeFillsTheSampleFromTheRequest() async throws {
        let served = try await Served([specs, "--env", "local"])
        let (status, out, _) = await CommandTests.run(
            ["call", "myservice.createUser", "--specs", specs, "--env", "local", "--firstName", "Ron"],
            environment: ["MOYA_SERVE_URL": served.url])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(out, #"{"id":100,"first_name":"Ron","last_name":"Potter"}"#)

        let (queryStatus, query, _) = await CommandTests.run(
            ["call", "translator.translateQuery", "--specs", specs, "--env", "local", "--to", "de", "--to", "ja"],
            environment: ["MOYA_SERVE_URL": served.url, "TRANSLATOR_KEY": "k"])
        XCTAssertEqual(queryStatus, 0)
        XCTAssertEqual(query, "")
        let stopped = await served.stop()
        XCTAssertTrue(
            stopped.log.contains(
                "POST /translator/translate?api-version=3.0&from=en&to=de&to=ja  translator.translateQuery  default  200"
            ))
    }

    // MARK: - Routing

    // Routing, typed params, samples and problem responses are table-tested on the router
    // in-process (MoyaSpecTests' MockRouterTests); these tests keep what needs the socket.

    func testOneServiceAtTheRoot() async throws {
        let served = try await Served([fixtures, "--service", "shop", "--no-auth"])
        let fetched2 = try await Self.get(served, "/items/7")
        XCTAssertEqual(Self.text(fetched2), #"{"id":7,"name":"Lamp"}"#)
        XCTAssertEqual(fetched2.headers["Content-Type"], "application/json")
        // The server's own headers, which the router does not write.
        XCTAssertEqual(fetched2.headers["Access-Control-Allow-Origin"], "*")
        let fetched3 = try await Self.get(served, "/wait")
        XCTAssertEqual(fetched3.statusCode, 404)
        let stopped = await served.stop()
        XCTAssertTrue(stopped.log.contains("moya-cli: serving 1 service, 8 targets on \(served.url)\n  shop  /\n"))
    }

    // MARK: - Delays, network errors and stopping

    func testDelaysAndNetworkErrorSamples() async throws {
        let served = try await Served([fixtures, "--no-auth"])
        let start = ContinuousClock.now
        let fetched4 = try await Self.get(served, "/wait")
        XCTAssertEqual(Self.text(fetched4), #"{"done":true}"#)
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - start, .milliseconds(600))

        for sample in ["lost", "refused"] {
            let result = await Self.send(
                Raw(baseURL: URL(string: served.url)!, path: "/api/v2/flaky", headers: ["Prefer": "example=\(sample)"]))
            guard case .failure(.underlying(let error as NetworkError, _)) = result else {
                return XCTFail("expected a network error for \(sample), got \(result)")
            }
            XCTAssertEqual(error.code, .networkConnectionLost, "\(sample)")
        }
        let silent = await Self.send(
            Raw(baseURL: URL(string: served.url)!, path: "/api/v2/flaky", headers: ["Prefer": "example=silent"]),
            timeout: 0.5)
        guard case .failure(.underlying(let error as NetworkError, _)) = silent else {
            return XCTFail("expected a timeout, got \(silent)")
        }
        XCTAssertEqual(error.code, .timedOut)
        let fetched5 = try await Self.get(served, "/api/v2/flaky")
        XCTAssertEqual(fetched5.statusCode, 204)
        let log = await served.stop().log
        XCTAssertTrue(log.contains("GET /api/v2/flaky  shop.flaky  lost  closed the connection  "), log)
        XCTAssertTrue(log.contains("GET /api/v2/flaky  shop.flaky  silent  no answer  "), log)
    }

    func testSIGTERMLetsTheRequestInFlightFinish() async throws {
        let served = try Launched([fixtures])
        let url = URL(string: served.url)!
        let socket = try XCTUnwrap(LoopbackSocket(port: url.port ?? 0, timeout: 10))
        // Pipelined behind a quick answer: once that answer is in, serve has read the slow
        // request and is answering it (readiness on the wire, instead of a sleep).
        socket.send(
            "GET /api/v2/items/7 HTTP/1.1\r\nHost: x\r\n\r\nGET /wait HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(socket.readResponse().hasPrefix("HTTP/1.1 401 Unauthorized\r\n"))
        let (status, log) = served.stop(SIGTERM)
        let response = socket.readAll()
        XCTAssertEqual(status, 0)
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 200 OK\r\n"), response)
        XCTAssertTrue(response.hasSuffix("\r\n\r\n" + #"{"done":true}"#), response)
        XCTAssertTrue(log.contains("moya-cli: SIGTERM: stopping; requests in flight have 5 s\n"), log)
        XCTAssertTrue(log.contains("GET /wait  slow.wait  default  200  "), log)
        // Nothing listens any more.
        guard case .failure = await Self.send(Raw(baseURL: url, path: "/wait"), timeout: 2) else {
            return XCTFail("served after stopping")
        }
    }

    // MARK: - Watching, logging and failures

    func testWatchReloadsAndKeepsTheLastSpecThatValidated() async throws {
        let directory = NSTemporaryDirectory() + "serve-watch-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/w.yaml"
        func write(_ sample: String) throws {
            try "service: w\nbaseURL: https://w.test\ntargets:\n  hi: { path: /hi, sample: \(sample) }\n"
                .write(toFile: file, atomically: true, encoding: .utf8)
        }
        try write("one")
        let served = try await Served([directory, "--watch"])
        let fetched6 = try await Self.get(served, "/hi")
        XCTAssertEqual(Self.text(fetched6), "one")

        try write("two")
        XCTAssertTrue(served.waitForLog("moya-cli: reloaded: 1 service, 1 target\n"))
        let fetchedTwo = try await Self.get(served, "/hi")
        XCTAssertEqual(Self.text(fetchedTwo), "two")

        try "service: w\nbaseURL: https://w.test\ntargets:\n  hi: { pth: /hi }\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertTrue(served.waitForLog("unknown key 'pth'"))
        let fetched7 = try await Self.get(served, "/hi")
        XCTAssertEqual(Self.text(fetched7), "two")
        let log = await served.stop().log
        XCTAssertTrue(log.contains("moya-cli: reloaded: 1 service, 1 target\n"), log)
        XCTAssertTrue(
            log.contains("\(file):4:9: error: targets.hi.pth: unknown key 'pth'; did you mean 'path'?\n"), log)
        XCTAssertTrue(
            log.contains(
                "moya-cli: error: invalid spec: 1 problem in 1 file; still serving the last specs that validated\n"),
            log)
    }

    func testTheLogMasksSecretsByWhereTheyStand() async throws {
        let served = try await Served([fixtures, "-v"])
        _ = try await Self.send(
            Raw(
                baseURL: URL(string: served.url)!, path: "/api/v2/login", method: .post,
                task: .requestParameters(
                    parameters: ["user": "ann", "password": "hunter22"], encoding: URLEncoding.httpBody))
        ).get()
        let log = await served.stop().log
        XCTAssertTrue(
            log.contains(
                """
                POST /api/v2/login  shop.login  default  200
                """), log)
        XCTAssertTrue(log.contains("  > password=••••&user=ann\n  < {\"user\":\"ann\",\"token\":\"t-••••\"}\n"), log)
        XCTAssertFalse(log.contains("hunter22"), log)
    }

    func testABusyPortIsOneLineAndExit1() async throws {
        let served = try await Served([fixtures])
        let port = String(served.url.split(separator: ":").last ?? "")
        let (status, out, error) = await CommandTests.run(["serve", fixtures, "--port", port])
        XCTAssertEqual(status, 1)
        XCTAssertEqual(out, "")
        XCTAssertEqual(error, "moya-cli: error: cannot listen on 127.0.0.1:\(port): address already in use\n")
        let (unknown, _, unknownError) = await CommandTests.run(["serve", fixtures, "--service", "shp"])
        XCTAssertEqual(unknown, 64)
        XCTAssertEqual(
            unknownError, "moya-cli: error: no service 'shp'; did you mean 'shop'?\n")
        _ = await served.stop()
    }

    /// `--tls-cert` and `--tls-key`: serve speaks HTTPS, says so, and answers a client that
    /// trusts its CA; a certificate file that cannot be read is a usage error, one read and
    /// refused a listen failure, each one line.
    func testTLS() async throws {
        let tls = CommandTests.root + "/Tests/Fixtures/tls"
        let served = try await Served([
            fixtures, "--service", "shop", "--no-auth", "--tls-cert", tls + "/server.pem", "--tls-key",
            tls + "/server.key",
        ])
        XCTAssertTrue(served.url.hasPrefix("https://127.0.0.1:"), served.url)
        let raw = Raw(baseURL: URL(string: served.url)!, path: "/items/7")
        let fetched = try await Self.send(raw, caCertificateFile: tls + "/ca.pem").get()
        XCTAssertEqual(Self.text(fetched), #"{"id":7,"name":"Lamp"}"#)
        // A client that does not trust the CA is refused by its own TLS.
        guard case .failure = await Self.send(raw) else { return XCTFail("an untrusted certificate was accepted") }
        let stopped = await served.stop()
        XCTAssertEqual(stopped.status, 0)
        XCTAssertTrue(stopped.log.contains("GET /items/7  shop.showItem  default  200  "), stopped.log)

        let (missing, _, missingError) = await CommandTests.run([
            "serve", fixtures, "--tls-cert", tls + "/none.pem", "--tls-key", tls + "/server.key",
        ])
        XCTAssertEqual(missing, 64)
        XCTAssertEqual(
            missingError,
            "moya-cli: error: cannot serve TLS with --tls-cert \(tls)/none.pem and --tls-key \(tls)/server.key: "
                + "--tls-cert: cannot read the file\n")
        let (refused, _, refusedError) = await CommandTests.run([
            "serve", fixtures, "--tls-cert", tls + "/server.key", "--tls-key", tls + "/server.key",
        ])
        XCTAssertEqual(refused, 1)
        XCTAssertTrue(
            refusedError.hasPrefix(
                "moya-cli: error: cannot serve TLS with --tls-cert \(tls)/server.key and --tls-key \(tls)/server.key: "),
            refusedError)
        let (alone, _, aloneError) = await CommandTests.run(["serve", fixtures, "--tls-cert", tls + "/server.pem"])
        XCTAssertEqual(alone, 64)
        XCTAssertTrue(aloneError.contains("--tls-cert and --tls-key go together"), aloneError)
    }
}
