import MoyaBinding
import MoyaCompiler
import MoyaCore
import MoyaHTTP
import MoyaRuntime
import MoyaSpec
import TestSupport
import XCTest

/// A request bound once is sent many times, side by side, without binding again: what a load
/// mode does with one `PreparedCall`.
final class BoundRequestTests: XCTestCase {
    func testABoundRequestIsSentManyTimesSideBySide() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let spec = """
            service: load
            baseURL: \(server.baseURL)
            targets:
              send:
                method: POST
                path: /flaky/{key}/0/503
                params: { key: string, n: int }
                headers: { X-Token: "${TOKEN}" }
                task: { parameters: { n: "{n}" }, encoding: json }
            """
        let service = try SpecCompiler(environment: ["TOKEN": "t-123"]).compile(Array(spec.utf8), file: "load.yaml")
        let target = try XCTUnwrap(service.target(named: "send"))
        let prepared = try PreparedCall.prepare(
            target, of: service, with: CallOptions(arguments: ["key": .string("bound"), "n": .int(7)]))
        let client = SpecClient(services: [service], logins: nil)
        let bodies = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    guard case .success(let response) = await client.deliver(prepared, of: service).result else {
                        return nil
                    }
                    return String(decoding: response.data, as: UTF8.self)
                }
            }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        await client.shutdown()
        XCTAssertEqual(server.requests(for: "bound"), 8)
        // Every one the same request: the bound value, the environment's token, the body.
        XCTAssertEqual(bodies.compactMap { $0 }.count, 8)
        XCTAssertEqual(Set(bodies.compactMap { $0 }).count, 1, "\(bodies)")
        let echoed: String = try XCTUnwrap(bodies.compactMap { $0 }.first)
        XCTAssertTrue(echoed.contains(#""method":"POST""#), echoed)
        XCTAssertTrue(echoed.contains("t-123"), echoed)
        XCTAssertTrue(echoed.contains(#"{\"n\":7}"#), echoed)
        // The secret the binding marked is still known to the printable form.
        XCTAssertTrue(prepared.secrets.contains(value: "t-123"))
    }
}
