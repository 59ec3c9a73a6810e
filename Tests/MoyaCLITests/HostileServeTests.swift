#if canImport(Glibc)
    import Glibc
    import MoyaCLI
    import XCTest

    /// `serve` against clients that hold connections, send slowly or hang on: its framing on the
    /// wire, its connection cap, its timeouts and its stop, with the real executable.
    final class HostileServeTests: XCTestCase {
        var spec: String { CommandTests.root + "/Tests/Fixtures/serve-hostile/hostile.yaml" }

        /// `moya-cli serve` under `ulimit -n limit` when given, its port and process.
        final class Server: @unchecked Sendable {
            let process = Process()
            let error = Pipe()
            var port = 0
            var log = ""

            init(_ arguments: [String], descriptorLimit: Int? = nil) throws {
                let executable = CommandTests.executable.path
                if let descriptorLimit {
                    process.executableURL = URL(fileURLWithPath: "/bin/sh")
                    process.arguments =
                        [
                            "-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", executable, "serve", "--port",
                            "0",
                        ]
                        + arguments
                } else {
                    process.executableURL = URL(fileURLWithPath: executable)
                    process.arguments = ["serve", "--port", "0"] + arguments
                }
                process.standardError = error
                process.standardOutput = FileHandle.nullDevice
                try process.run()
                while port == 0 {
                    let chunk = error.fileHandleForReading.availableData
                    guard !chunk.isEmpty else { throw ServeTests.Failure(message: "serve ended: \(log)") }
                    log += String(decoding: chunk, as: UTF8.self)
                    if let match = log.firstMatch(of: /on http:\/\/[^\s]+:(\d+)\n/) { port = Int(match.1) ?? 0 }
                }
            }

            /// Stops it: the status, how long it took, and the whole log.
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

        /// A TCP connection to 127.0.0.1:`port`, or nil.
        static func connect(_ port: Int) -> Int32? {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard socket >= 0 else { return nil }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else {
                close(socket)
                return nil
            }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            return socket
        }

        static func send(_ socket: Int32, _ text: String) {
            _ = Array(text.utf8).withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        /// What the server sends until it closes the connection (or 5 s pass).
        static func read(_ socket: Int32) -> String {
            var data = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(socket, &buffer, buffer.count, 0)
                guard count > 0 else { break }
                data += buffer[..<count]
            }
            return String(decoding: data, as: UTF8.self)
        }

        /// Finding 20: one Content-Length, serve's; HEAD says the GET's length and sends no body.
        func testFramingOnTheWire() throws {
            let server = try Server([spec])
            let socket = try XCTUnwrap(Self.connect(server.port))
            defer { close(socket) }
            Self.send(socket, "GET /tokens/abc HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let get = Self.read(socket)
            XCTAssertEqual(
                get,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-T: abc\r\nContent-Length: 11\r\n"
                    + "Access-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n{\"ok\":true}")
            let head = try XCTUnwrap(Self.connect(server.port))
            defer { close(head) }
            Self.send(head, "HEAD /tokens/abc HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            XCTAssertEqual(
                Self.read(head),
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-T: abc\r\nContent-Length: 11\r\n"
                    + "Access-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n")
            _ = server.stop()
        }

        /// Finding 12: past its cap (the descriptor limit less 64), serve closes the connection
        /// idle the longest, so a new client is answered, and it never runs out of descriptors.
        func testIdleConnectionsPastTheCapMakeRoomForANewClient() throws {
            let server = try Server([spec], descriptorLimit: 128)
            var held: [Int32] = []
            defer { held.forEach { close($0) } }
            for _ in 0..<150 {
                guard let socket = Self.connect(server.port) else { break }
                held.append(socket)
            }
            XCTAssertEqual(held.count, 150)
            Thread.sleep(forTimeInterval: 0.3)
            let client = try XCTUnwrap(Self.connect(server.port))
            defer { close(client) }
            Self.send(client, "GET /tokens/abc HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            XCTAssertTrue(Self.read(client).hasPrefix("HTTP/1.1 200 OK\r\n"))
            XCTAssertTrue(server.process.isRunning)
            // The oldest idle connections were closed: reading them ends at once.
            var closed = 0
            for socket in held.prefix(30) where recv(socket, nil, 0, Int32(MSG_DONTWAIT)) == 0 { closed += 1 }
            XCTAssertGreaterThan(closed, 20)
            let (status, _, log) = server.stop()
            XCTAssertEqual(status, 0, log)
        }

        /// Finding 12: a client that sends half a head is cut off after --idle-timeout.
        func testASlowHeadIsCutOff() throws {
            let server = try Server([spec, "--idle-timeout", "0.5"])
            let socket = try XCTUnwrap(Self.connect(server.port))
            defer { close(socket) }
            Self.send(socket, "GET /tokens/abc HTTP/1.1\r\nHost: x\r\n")
            let start = Date()
            XCTAssertEqual(Self.read(socket), "")
            XCTAssertLessThan(Date().timeIntervalSince(start), 4)
            _ = server.stop()
        }

        /// Finding 14: a client waiting on a `timeout` sample keeps serve no longer than its 5 s
        /// grace after SIGTERM.
        func testTheGraceEndsWhatIsLeft() throws {
            let server = try Server([spec])
            let socket = try XCTUnwrap(Self.connect(server.port))
            defer { close(socket) }
            Self.send(socket, "GET /never HTTP/1.1\r\nHost: x\r\n\r\n")
            Thread.sleep(forTimeInterval: 0.3)
            let (status, seconds, log) = server.stop()
            XCTAssertEqual(status, 0)
            XCTAssertLessThan(seconds, 8, log)
            XCTAssertTrue(log.hasSuffix("moya-cli: stopped with requests unanswered after 5 s\n"), log)
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
