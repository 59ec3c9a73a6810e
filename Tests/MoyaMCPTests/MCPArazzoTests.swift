import Foundation
import MoyaCore
import MoyaMCP
import MoyaMCPProtocol
import XCTest

/// An Arazzo document given as `--specs` offers its workflows as tools, by the rules flows
/// follow: a workflow that writes is offered only with `--allow-writes`.
final class MCPArazzoTests: XCTestCase {
    let document = MCPSession.root + "/Tests/Fixtures/arazzo/shop.arazzo.yaml"

    func testWorkflowsAreToolsByTheFlowsRules() async throws {
        let reading = try await MCPSession(["--specs", document, "--stub", "immediate"])
        let readOnly = try await reading.allTools().map(\.name)
        XCTAssertEqual(readOnly, ["shop.showItem"])
        await reading.close()

        let writing = try await MCPSession(["--specs", document, "--stub", "immediate", "--allow-writes"])
        let names = try await writing.allTools().map(\.name)
        XCTAssertEqual(names, ["shop.showItem", "shop.placeOrder", "shop.buy", "shop.place"])
        let result = try await writing.call("shop.buy", ["quantity": .integer(2)])
        XCTAssertNil(result.isError, MCPSession.text(result))
        XCTAssertTrue(MCPSession.text(result).contains("order.post"), MCPSession.text(result))
        await writing.close()
    }
}
