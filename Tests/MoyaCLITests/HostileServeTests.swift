#if canImport(Glibc)
    import Glibc
    import MoyaCLI
    import TestSupport
    import XCTest

    /// `serve` against clients that hold connections, send slowly or hang on: its framing on the
    /// wire, its connection cap, its timeouts and its stop, with the real executable.
    final class HostileServeTests: XCTestCase {
        var spec: String { CommandTests.root + "/Tests/Fixtures/serve-hostile/hostile.yaml" }

        /// `moya-cli serve` under `ulimit -n limit` when given, its port and process.
        final class Server: @unchecked Sendable {
            let process: Process
            let error: Pipe
            var port = 0
            var log = ""

            init(_ arguments: [String], descriptorLimit: Int? = nil) throws {
                let executable = CommandTests.executable.path
                let started =
                    if let descriptorLimit {
                        try Launch.start(
                            URL(fileURLWithPath: "/bin/sh"),
                            [
                                "-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", executable, "serve",
                                "--port", "0",
                            ]
                                + arguments, environment: nil)
                    } else {
                        try Launch.start(
                            CommandTests.executable, ["serve", "--port", "0"] + arguments, environment: nil)
                    }
                (process, error) = (started.process, started.error)
                while port == 0 {
                    let chunk = error.fileHandleForReading.availableData
                    guard !chunk.isEmpty else { throw ServeTests.Failure(message: "serve ended: \(log)") }
                    log += String(decoding: chunk, as: UTF8.self)
                    if let match = log.firstMatch(of: /on http:\/\/[^\s]+:(\d+)\n/) { port = Int(match.1) ?? 0 }
                }
            }

            /// Stops it: the status, how long it took, and the whole log.
            /// Reads the log until `text` has come `count` times: readiness on what serve says it
            /// did, instead of a sleep. False when serve ends first.
            func waitForLog(_ text: String, count: Int = 1) -> Bool {
                while log.ranges(of: text).count < count {
                    let chunk = error.fileHandleForReading.availableData
                    guard !chunk.isEmpty else { return false }
                    log += String(decoding: chunk, as: UTF8.self)
                }
                return true
            }

            func stop(_ signal: Int32 = SIGTERM) -> (status: Int32, seconds: Double, log: String) {
                let start = Date()
                kill(process.processIdentifier, signal)
                process.waitUntilExit()
                log += String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                return (process.terminationStatus, Date().timeIntervalSince(start), log)
            }

            deinit {
                if process.isRunning {
                    kill(process.processIdentifier, SIGKILL)
                    process.waitUntilExit()
                }
            }
        }

        /// Finding 20: one Content-Length, serve's; HEAD says the GET's length and sends no body.
        func testFramingOnTheWire() throws {
            let server = try Server([spec])
            let socket = try XCTUnwrap(LoopbackSocket(port: server.port))
            socket.send("GET /tokens/abc HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let get = socket.readAll()
            XCTAssertEqual(
                get,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-T: abc\r\nContent-Length: 11\r\n"
                    + "Access-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n{\"ok\":true}")
            let head = try XCTUnwrap(LoopbackSocket(port: server.port))
            head.send("HEAD /tokens/abc HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            XCTAssertEqual(
                head.readAll(),
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-T: abc\r\nContent-Length: 11\r\n"
                    + "Access-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n")
            _ = server.stop()
        }

        /// A request line past the parser's 80 KiB gets serve's 400 problem, not a bare 400;
        /// after a pipelined request that was answered first.
        func testAnUnreadableRequestGetsAProblem() throws {
            let server = try Server([spec])
            let socket = try XCTUnwrap(LoopbackSocket(port: server.port))
            socket.send(
                "GET /tokens/abc HTTP/1.1\r\nHost: x\r\n\r\nGET /" + String(repeating: "a", count: 90_000)
                    + " HTTP/1.1\r\nHost: x\r\n\r\n")
            let detail = "the request cannot be read: its request line and headers are over the 80 KiB serve reads"
            let problem =
                "{\n  \"type\" : \"about:blank\",\n  \"title\" : \"Bad Request\",\n  \"status\" : 400,\n"
                + "  \"detail\" : \"\(detail)\"\n}\n"
            XCTAssertEqual(
                socket.readAll(),
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-T: abc\r\nContent-Length: 11\r\n"
                    + "Access-Control-Allow-Origin: *\r\n\r\n{\"ok\":true}"
                    + "HTTP/1.1 400 Bad Request\r\nContent-Type: application/problem+json\r\n"
                    + "Content-Length: \(problem.utf8.count)\r\nConnection: close\r\n\r\n\(problem)")
            _ = server.stop()
        }

        /// Finding 12: past its cap (the descriptor limit less 64), serve closes the connection
        /// idle the longest, so a new client is answered, and it never runs out of descriptors.
        func testIdleConnectionsPastTheCapMakeRoomForANewClient() throws {
            let server = try Server([spec], descriptorLimit: 128)
            var closed = 0
            do {
                var held: [LoopbackSocket] = []
                for _ in 0..<150 {
                    guard let socket = LoopbackSocket(port: server.port) else { break }
                    held.append(socket)
                }
                XCTAssertEqual(held.count, 150)
                // serve accepts in order: the new client comes after the 150, past the cap.
                let client = try XCTUnwrap(LoopbackSocket(port: server.port))
                client.send("GET /tokens/abc HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                XCTAssertTrue(client.readAll().hasPrefix("HTTP/1.1 200 OK\r\n"))
                XCTAssertTrue(server.process.isRunning)
                // The oldest idle connections were closed: reading them ends at once.
                for index in 0..<30 where held[index].isClosedByPeer { closed += 1 }
            }
            XCTAssertGreaterThan(closed, 20)
            let (status, _, log) = server.stop()
            XCTAssertEqual(status, 0, log)
        }

        /// Finding 12: a client that sends half a head is cut off after --idle-timeout.
        func testASlowHeadIsCutOff() throws {
            let server = try Server([spec, "--idle-timeout", "0.5"])
            let socket = try XCTUnwrap(LoopbackSocket(port: server.port))
            socket.send("GET /tokens/abc HTTP/1.1\r\nHost: x\r\n")
            let start = Date()
            XCTAssertEqual(socket.readAll(), "")
            XCTAssertLessThan(Date().timeIntervalSince(start), 4)
            _ = server.stop()
        }

        /// Finding 14: a client waiting on a `timeout` sample keeps serve no longer than its 5 s
        /// grace after SIGTERM.
        func testTheGraceEndsWhatIsLeft() throws {
            let server = try Server([spec])
            let socket = try XCTUnwrap(LoopbackSocket(port: server.port))
            socket.send("GET /never HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertTrue(server.waitForLog("  no answer  "), server.log)
            let (status, seconds, log) = server.stop()
            XCTAssertEqual(status, 0)
            XCTAssertLessThan(seconds, 8, log)
            XCTAssertTrue(log.hasSuffix("moya-cli: stopped with requests unanswered after 5 s\n"), log)
        }

        /// Round three, finding 16: a `timeout` sample's connection is closed at the idle
        /// deadline, as an idle one is: any client can ask for one.
        func testATimeoutSampleIsClosedAtTheIdleDeadline() throws {
            let server = try Server([spec, "--idle-timeout", "0.5"])
            let socket = try XCTUnwrap(LoopbackSocket(port: server.port))
            socket.send("GET /never HTTP/1.1\r\nHost: x\r\n\r\n")
            // Reading waits for serve to close it: nothing is answered, and it ends in time.
            let start = Date()
            XCTAssertEqual(socket.readAll(), "")
            XCTAssertLessThan(Date().timeIntervalSince(start), 4)
            _ = server.stop()
        }

        /// Round three, finding 16: connections that wait on a `timeout` sample or send their
        /// body slowly do not fill the cap: they make room for a new client as idle ones do.
        func testWaitingConnectionsPastTheCapMakeRoomForANewClient() throws {
            let server = try Server([spec], descriptorLimit: 128)
            var held: [LoopbackSocket] = []
            for index in 0..<100 {
                guard let socket = LoopbackSocket(port: server.port) else { break }
                socket.send(
                    index.isMultiple(of: 2)
                        ? "GET /never HTTP/1.1\r\nHost: x\r\n\r\n"
                        : "POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"a\"")
                held.append(socket)
            }
            XCTAssertEqual(held.count, 100)
            // Every GET is being waited on, so each connection has been taken in.
            XCTAssertTrue(server.waitForLog("  no answer  ", count: 50), server.log)
            let client = try XCTUnwrap(LoopbackSocket(port: server.port))
            client.send("GET /tokens/abc HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            XCTAssertTrue(client.readAll().hasPrefix("HTTP/1.1 200 OK\r\n"))
            let (status, _, log) = server.stop()
            XCTAssertEqual(status, 0, log)
        }

        /// Round three, finding 14: a body that takes a second to hold to its schema (a recursive
        /// `oneOf`, up to the step budget) is worked on off the event loops: requests on other
        /// connections, whichever loop they are on, are answered meanwhile.
        func testAnExpensiveBodyStallsNoOtherRequest() throws {
            let server = try Server([spec])
            let slow = try XCTUnwrap(LoopbackSocket(port: server.port, timeout: 60))
            let body = String(repeating: #"{"a":"#, count: 40) + "{}" + String(repeating: "}", count: 40)
            slow.send(
                "POST /slow HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n"
                    + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
            Thread.sleep(forTimeInterval: 0.3)
            // One connection per event loop and more: round robin puts one on the slow body's.
            for _ in 0..<4 {
                let client = try XCTUnwrap(LoopbackSocket(port: server.port, timeout: 60))
                client.send("GET /tokens/abc HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                XCTAssertTrue(client.readAll().hasPrefix("HTTP/1.1 200 OK\r\n"))
            }
            // Still at work on the body when the others were answered.
            XCTAssertEqual(slow.read(upTo: 1, waiting: false), [])
            XCTAssertTrue(slow.readAll().hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
            _ = server.stop()
        }

        /// Finding 20: an IPv6 address is announced in brackets.
        func testAnIPv6AddressIsAnnouncedInBrackets() throws {
            let server: Server
            do {
                server = try Server([spec, "--host", "::1"])
            } catch {
                throw XCTSkip("no IPv6 loopback here: \(error)")
            }
            XCTAssertTrue(server.log.contains("on http://[::1]:\(server.port)\n"), server.log)
            _ = server.stop()
        }
    }
#endif
