import Foundation
import MoyaCompiler
import MoyaCore
import MoyaMCP
import MoyaMCPProtocol
import MoyaRuntime
import MoyaSpec
import TestSupport
import XCTest

/// An `object` param as an MCP tool takes it: an object of strings, numbers and booleans in
/// the input schema, written by the param's style when the tool is called.
final class MCPObjectParamTests: XCTestCase {
    func testAnObjectParamIsAnObjectArgumentSentInItsStyle() async throws {
        let server = try TestServer()
        let spec = Repository.fixtures + "/openapi/kennel-3.0.spec.yaml"
        let service = try SpecCompiler(environment: Environment(["KENNEL_URL": server.baseURL])).compile(file: spec)
        let exposure = ToolExposure()
        let catalog = ToolCatalog(services: [service], exposure: exposure)
        let tool = try XCTUnwrap(catalog.exposed.first { $0.fullName == "kennel.labelObjects" })
        let scalar = JSONValue.array([.string("string"), .string("number"), .string("boolean")])
        XCTAssertEqual(
            tool.inputSchema["properties"]?["exploded"],
            .object([("type", .string("object")), ("additionalProperties", .object([("type", scalar)]))]))

        let tools = ToolServer(
            client: SpecClient(services: [service], overrides: CallPolicy.Overrides(), logins: nil),
            exposure: exposure, options: ToolServer.Options(), audit: nil)
        let color = JSONValue.object([("R", .integer(100)), ("G", .string("a b"))])
        let outcome = try await tools.call(
            tool.name,
            arguments: .object([
                ("plain", color), ("exploded", color), ("array", .array([.string("a1"), .string("b2")])),
            ]))
        XCTAssertFalse(outcome.isError, outcome.text)
        // The echo server's answer names the path it was sent.
        XCTAssertTrue(outcome.text.contains(#""uri" : "/label/.R,100,G,a%20b/.R=100.G=a%20b/.a1.b2""#), outcome.text)

        // A member that is not a scalar breaks the input schema: nothing is sent.
        let refused = try await tools.call(
            tool.name,
            arguments: .object([
                ("plain", .object([("R", .array([]))])), ("exploded", color), ("array", .array([.string("a")])),
            ]))
        XCTAssertTrue(refused.isError)
        XCTAssertTrue(refused.text.contains("plain"), refused.text)
    }
}
