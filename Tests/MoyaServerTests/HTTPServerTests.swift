import MoyaServer
import TestSupport
import XCTest

/// The server core on its own, with a responder that echoes: what `serve` and `mcp --http`
/// both stand on, byte for byte on a raw socket.
final class HTTPServerTests: XCTestCase {
    /// Echoes the method and path; `/slow` answers off the event loop, in a task; a path under
    /// `/refused` is answered from its head with 403.
    struct Echo: HTTPResponder {
        typealias Ticket = String

        func admit(_ request: ServerRequest) -> ServerAdmission<String> {
            if request.path.hasPrefix("/refused") { return .answer(.send(403, body: Array("no\n".utf8))) }
            return .proceed(request.client ?? "")
        }

        func respond(to request: ServerRequest, ticket: String) -> ServerReply {
            let text = "\(request.method) \(request.path) \(request.body.count)\n"
            guard request.path == "/slow" else { return .now(.send(200, body: Array(text.utf8))) }
            return .later {
                await Task.yield()
                return .send(200, body: Array(text.utf8))
            }
        }

        func refusal(_ refusal: ServerRefusal, to request: ServerRequest?) -> ServerResponse {
            switch refusal {
            case .tooLarge(let limit): .send(413, body: Array("over \(limit)\n".utf8))
            case .busy: .send(503)
            case .unreadable: .send(400)
            }
        }
    }

    func server(cap: Int = 64) async throws -> HTTPServer {
        try await HTTPServer(
            responder: Echo(),
            configuration: ServerConfiguration(
                host: "127.0.0.1", port: 0, maximumBodyBytes: 8, connectionCap: cap,
                timeouts: .init(firstHead: .seconds(5), nextHead: .seconds(5), body: .seconds(5))))
    }

    static func answer(_ status: String, _ body: String, closing: Bool = false) -> String {
        "HTTP/1.1 \(status)\r\nContent-Length: \(body.utf8.count)\r\n" + (closing ? "Connection: close\r\n" : "")
            + "\r\n" + body
    }

    /// Pipelined requests are answered in order, the first's answer worked out off the event
    /// loop and the second's on it.
    func testPipelinedRequestsAreAnsweredInOrder() async throws {
        let server = try await server()
        let socket = try XCTUnwrap(LoopbackSocket(port: server.port))
        socket.send(
            "GET /slow HTTP/1.1\r\nHost: x\r\n\r\nPOST /fast HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
                + "GET /last HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(
            socket.readAll(),
            Self.answer("200 OK", "GET /slow 0\n") + Self.answer("200 OK", "POST /fast 3\n")
                + Self.answer("200 OK", "GET /last 0\n", closing: true))
        _ = await server.stop(grace: 1)
    }

    /// A body over the limit is read to its end, dropped, refused, and the connection closed;
    /// one answered from its head is never read.
    func testBodiesOverTheLimitAndBodiesNotRead() async throws {
        let server = try await server()
        let large = try XCTUnwrap(LoopbackSocket(port: server.port))
        large.send("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 9\r\n\r\n123456789")
        XCTAssertEqual(large.readAll(), Self.answer("413 Payload Too Large", "over 8\n", closing: true))
        let refused = try XCTUnwrap(LoopbackSocket(port: server.port))
        let start = ContinuousClock.now
        refused.send("POST /refused HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n{")
        XCTAssertEqual(refused.readAll(), Self.answer("403 Forbidden", "no\n", closing: true))
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(3), "the server waited for the body")
        _ = await server.stop(grace: 1)
    }

    /// Over the cap, the connection idle the longest is closed to make room.
    func testOverTheCapTheConnectionIdleTheLongestMakesRoom() async throws {
        let server = try await server(cap: 2)
        // Each is answered once, in turn: which was idle the longest does not hang on the order
        // in which the server saw them connect.
        let oldest = try XCTUnwrap(LoopbackSocket(port: server.port))
        oldest.send("GET /first HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(
            String(decoding: oldest.read(upTo: 4096), as: UTF8.self), Self.answer("200 OK", "GET /first 0\n"))
        let other = try XCTUnwrap(LoopbackSocket(port: server.port))
        other.send("GET /kept HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(String(decoding: other.read(upTo: 4096), as: UTF8.self), Self.answer("200 OK", "GET /kept 0\n"))
        let newest = try XCTUnwrap(LoopbackSocket(port: server.port))
        newest.send("GET /new HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(newest.readAll(), Self.answer("200 OK", "GET /new 0\n", closing: true))
        XCTAssertEqual(oldest.readAll(), "")
        other.send("GET /still HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(other.readAll(), Self.answer("200 OK", "GET /still 0\n", closing: true))
        _ = await server.stop(grace: 1)
    }

    /// A certificate file that cannot be read, or is read and refused, is said so on one line
    /// naming both files; one over 1 MiB is not read whole.
    func testTLSFilesThatCannotServe() throws {
        let folder = NSTemporaryDirectory() + "moya-server-tls-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let key = Repository.fixtures + "/tls/server.key"
        let large = folder + "/large.pem"
        try Data(repeating: 0x41, count: (1 << 20) + 1).write(to: URL(fileURLWithPath: large))
        let garbage = folder + "/garbage.pem"
        try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: garbage))
        for (chain, reason, unreadable) in [
            (large, "--tls-cert: the file is larger than 1 MiB", true),
            (folder, "--tls-cert: the file is a folder, not a regular file", true),
        ] {
            XCTAssertThrowsError(try ServerTLS.context(certificateChain: chain, key: key)) { error in
                let failure = error as? ServerTLS.Failure
                XCTAssertEqual(
                    failure?.description, "cannot serve TLS with --tls-cert \(chain) and --tls-key \(key): \(reason)")
                XCTAssertEqual(failure?.isUnreadable, unreadable)
            }
        }
        XCTAssertThrowsError(try ServerTLS.context(certificateChain: garbage, key: key)) { error in
            let failure = error as? ServerTLS.Failure
            XCTAssertEqual(failure?.isUnreadable, false)
            XCTAssertTrue(
                failure?.description.hasPrefix("cannot serve TLS with --tls-cert \(garbage) and --tls-key \(key): ")
                    ?? false, "\(error)")
        }
        XCTAssertNoThrow(try ServerTLS.context(certificateChain: Repository.fixtures + "/tls/server.pem", key: key))
    }
}
