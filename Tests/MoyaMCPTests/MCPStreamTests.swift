import MoyaCompiler
import MoyaCore
import MoyaMCP
import MoyaRuntime
import MoyaSpec
import TestSupport
import XCTest

/// A stream target as an MCP tool: its result is the bounded transcript, the events as
/// `check` reads them with how the stream ended, and its output schema holds each event's
/// data to the target's schema.
final class MCPStreamTests: XCTestCase {
    func tools(maximum: Int, server: TestServer) throws -> ToolServer {
        let path = NSTemporaryDirectory() + "moya-cli-mcp-stream-\(UUID().uuidString).yaml"
        try """
        service: streamed
        baseURL: \(server.baseURL)
        targets:
          ticks:
            path: /sse/10/5
            stream: { kind: sse, maxEvents: 3 }
            schema: { type: object, required: [n], properties: { n: { type: integer, maximum: \(maximum) } } }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let service = try SpecCompiler(environment: Environment([:])).compile(file: path)
        return ToolServer(
            client: SpecClient(services: [service], logins: nil), exposure: ToolExposure(),
            options: ToolServer.Options(), audit: nil)
    }

    func testAStreamToolAnswersWithItsEvents() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let tools = try tools(maximum: 9, server: server)
        let outcome = try await tools.call("streamed.ticks", arguments: .object([]))
        let events = (0..<3).map { #"{"event":"tick","id":"\#($0)","data":{"n":\#($0)}}"# }
        XCTAssertEqual(outcome.structured?.serialized(), #"{"result":[\#(events.joined(separator: ","))]}"#)
        XCTAssertTrue(
            outcome.text.hasPrefix(
                "Status: 200\nContent-Type: text/event-stream\nStream: 3 events, ended by maxEvents\n"),
            outcome.text)

        let listed = try XCTUnwrap(
            tools.answer(
                .object([("jsonrpc", .string("2.0")), ("id", .integer(1)), ("method", .string("tools/list"))])))
        guard case .array(let items)? = listed["result"]?["tools"] else { return XCTFail("no tools") }
        let ticks = try XCTUnwrap(items.first { $0["name"] == .string("streamed.ticks") })
        XCTAssertEqual(
            ticks["outputSchema"]?["properties"]?["result"]?["items"]?["properties"]?["data"]?.serialized(),
            #"{"type":"object","required":["n"],"properties":{"n":{"type":"integer","maximum":9}}}"#)
    }

    /// An event that breaks the per-event schema makes the result text only, naming the event.
    func testAnEventBreakingItsSchemaIsNamed() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let outcome = try await tools(maximum: 1, server: server).call("streamed.ticks", arguments: .object([]))
        XCTAssertNil(outcome.structured)
        XCTAssertTrue(
            outcome.text.hasPrefix(
                "moya-cli: the body does not meet the tool's output schema ($.result[2].data.n: expected <= 1, got 2)"),
            outcome.text)
    }
}
