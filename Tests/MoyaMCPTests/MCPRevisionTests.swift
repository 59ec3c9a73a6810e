import Foundation
import MoyaCore
import MoyaRuntime
import TestSupport
import XCTest

/// Both revisions of the protocol on one stdio server, chosen per request: the handshake's up
/// to 2025-11-25, and 2026-07-28's stateless envelope; through raw lines and through the
/// official Python SDK's client.
final class MCPRevisionTests: XCTestCase {
    static let envelope =
        #""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#
    static let version = MoyaRuntime.Version.current
    static let specs = MCPSession.root + "/specs/myservice.yaml"

    /// Runs `moya-cli mcp` on the bundled myservice spec, stubbed, with `lines` on stdin; answers
    /// each response line by its id, and stdout's other lines under "".
    func answers(_ lines: [String], flags: [String] = ["--only", "myservice.zen"]) throws -> [String: String] {
        let (status, output, _) = try Launch.run(
            MCPSession.executable, ["mcp", "--specs", Self.specs, "--stub", "immediate"] + flags,
            input: Data((lines.joined(separator: "\n") + "\n").utf8))
        XCTAssertEqual(status, 0)
        var byID: [String: String] = [:]
        for line in output.split(separator: "\n").map(String.init) {
            let id = (try? JSONValue(parsing: Data(line.utf8)))?["id"]?.serialized() ?? ""
            byID[id, default: ""] += line
        }
        return byID
    }

    func testEachRequestIsAnsweredAtTheRevisionItCarries() throws {
        let envelope = Self.envelope
        let answers = try answers([
            #"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{\#(envelope)}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":7}}}"#,
            #"{"jsonrpc":"2.0","id":5,"method":"ping","params":{\#(envelope)}}"#,
            #"{"jsonrpc":"2.0","id":6,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"1999-01-01","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
            #"[{"jsonrpc":"2.0","id":8,"method":"ping"}]"#,
            #"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"myservice.zen","arguments":{},\#(envelope)}}"#,
            #"{"jsonrpc":"2.0","id":10,"method":"resources/list"}"#,
            #"{"jsonrpc":"2.0","id":11,"method":"server/discover","params":{\#(envelope)}}"#,
            #"{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"myservice.zen"}}"#,
            #"{"jsonrpc":"2.0","id":13,"method":"ping","params":[1]}"#,
        ])
        let server = #"{"name":"moya-cli","title":"moya-cli","version":"\#(Self.version)"}"#
        let capabilities = #"{"tools":{"listChanged":false}}"#
        let zen =
            #"{"name":"myservice.zen","title":"A random zen quote","description":"A random zen quote\n\nGET /zen on the myservice service. Answers 200.","#
            + #""inputSchema":{"type":"object","properties":{"moya.select":{"type":"string","description":"An RFC 9535 JSONPath, such as $.items[*].name: only the values it selects of a JSON body come back, as a JSON array. Use it to keep results small."}},"additionalProperties":false},"#
            + #""annotations":{"title":"A random zen quote","readOnlyHint":true,"openWorldHint":false}}"#
        let quote = #"[{"type":"text","text":"Status: 200\n\nHalf measures are as bad as nothing at all."}]"#
        XCTAssertEqual(
            answers,
            [
                "1":
                    #"{"jsonrpc":"2.0","id":1,"result":{"tools":[\#(zen)],"resultType":"complete","ttlMs":0,"cacheScope":"public"}}"#,
                "2":
                    #"{"jsonrpc":"2.0","id":2,"error":{"code":-32022,"message":"unsupported protocol version 2025-11-25","data":{"supported":["2026-07-28"],"requested":"2025-11-25"}}}"#,
                "3":
                    #"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"params._meta has no \"io.modelcontextprotocol/clientCapabilities\" object"}}"#,
                "4":
                    #"{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"params._meta[\"io.modelcontextprotocol/protocolVersion\"] must be a string"}}"#,
                "5": #"{"jsonrpc":"2.0","id":5,"result":{"resultType":"complete"}}"#,
                "6":
                    #"{"jsonrpc":"2.0","id":6,"result":{"protocolVersion":"2024-11-05","capabilities":\#(capabilities),"serverInfo":\#(server)}}"#,
                "7":
                    #"{"jsonrpc":"2.0","id":7,"result":{"protocolVersion":"2025-11-25","capabilities":\#(capabilities),"serverInfo":\#(server)}}"#,
                "null":
                    #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: a batch; MCP takes one message per line"}}"#,
                "9": #"{"jsonrpc":"2.0","id":9,"result":{"content":\#(quote),"resultType":"complete"}}"#,
                "10":
                    #"{"jsonrpc":"2.0","id":10,"error":{"code":-32601,"message":"method not found: resources/list"}}"#,
                "11":
                    #"{"jsonrpc":"2.0","id":11,"result":{"supportedVersions":["2026-07-28"],"capabilities":\#(capabilities),"_meta":{"io.modelcontextprotocol/serverInfo":\#(server)},"resultType":"complete","ttlMs":0,"cacheScope":"public"}}"#,
                "12": #"{"jsonrpc":"2.0","id":12,"result":{"content":\#(quote)}}"#,
                "13": #"{"jsonrpc":"2.0","id":13,"error":{"code":-32602,"message":"params must be an object"}}"#,
            ])
    }

    /// `notifications/cancelled` cancels the call's work: no answer comes for it, and closing
    /// stdin does not wait for it. An id already in flight is refused.
    func testACancelledCallIsNotAnsweredNorWaitedFor() throws {
        let started = Date()
        let answers = try answers(
            [
                #"{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"myservice.zen"}}"#,
                #"{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"myservice.zen"}}"#,
                #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow"}}"#,
                #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#,
            ], flags: ["--only", "myservice.zen", "--stub", "delayed=30"])
        XCTAssertLessThan(Date().timeIntervalSince(started), 20, "the server waited for the cancelled call")
        XCTAssertEqual(
            answers,
            [
                #""slow""#:
                    #"{"jsonrpc":"2.0","id":"slow","error":{"code":-32600,"message":"invalid request: id \"slow\" is already in use"}}"#,
                "2": #"{"jsonrpc":"2.0","id":2,"result":{}}"#,
            ])
    }

    /// The official Python SDK's client (PyPI `mcp`, 2.3.0 or later) at both revisions:
    /// `initialize()` then `discover()`, each listing, calling and refused.
    func testBothRevisionsThroughThePythonSDK() throws {
        // Out of the assertion: a skip thrown inside its autoclosure counts as a failure.
        let answers = try pythonSDK(over: "stdio")
        XCTAssertEqual(answers, Self.pythonSDKAnswers)
    }

    /// The same over Streamable HTTP (`mcp --http`): the same answers, word for word, with a
    /// session at 2025-11-25 and none at 2026-07-28.
    func testBothRevisionsThroughThePythonSDKOverHTTP() throws {
        let answers = try pythonSDK(over: "http")
        XCTAssertEqual(answers, Self.pythonSDKAnswers)
    }

    /// What Tests/Fixtures/mcp/python-sdk-client.py prints, over `transport`.
    func pythonSDK(over transport: String) throws -> String {
        try MCPSession.require(
            ["python3", "-c", "from mcp import ClientSession; ClientSession.discover"],
            "the Python MCP SDK (pip install 'mcp>=2.3.0')")
        let (env, python) = Launch.onPath("python3")
        let ran = try Launch.run(
            env,
            python + [
                MCPSession.root + "/Tests/Fixtures/mcp/python-sdk-client.py", MCPSession.executable.path, Self.specs,
                transport,
            ], environment: nil)
        XCTAssertEqual(ran.status, 0, ran.error)
        return ran.out
    }

    static let pythonSDKAnswers: String = {
        let server = #"{"name": "moya-cli", "title": "moya-cli", "version": "\#(version)"}"#
        let tools = #"["myservice.zen", "myservice.showUser", "myservice.showAccounts"]"#
        let harry =
            #"{"isError": false, "text": "Status: 200\nContent-Type: application/json\n\n{\n  \"id\" : 1,\n  \"first_name\" : \"Harry\",\n  \"last_name\" : \"Potter\"\n}"}"#
        let refused = #"{"isError": true, "text": "$.id: expected integer, got string"}"#
        return """
            initialize: {"capabilities": {"tools": {"listChanged": false}}, "protocolVersion": "2025-11-25", "serverInfo": \(server)}
            initialize tools: \(tools)
            initialize call: \(harry)
            initialize refused: \(refused)
            discover: {"_meta": {"io.modelcontextprotocol/serverInfo": \(server)}, "cacheScope": "public", "capabilities": {"tools": {"listChanged": false}}, "resultType": "complete", "supportedVersions": ["2026-07-28"], "ttlMs": 0}
            discover tools: \(tools)
            discover call: \(harry)
            discover refused: \(refused)
            unsupported: {"code": -32022, "data": {"requested": "2099-01-01", "supported": ["2026-07-28"]}}

            """
    }()
}
