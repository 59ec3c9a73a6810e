import MoyaCompiler
import MoyaCore
import MoyaMCP
import MoyaMCPProtocol
import MoyaRuntime
import MoyaSpec
import XCTest

/// `ToolServer` in-process: the first page listed from a preview of a large spec while the rest
/// compiles is the page the whole spec lists.
final class ToolServerTests: XCTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "moya-cli-tool-server-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// 300 targets, every third a POST (not offered), one name over 64 characters.
    func writeSpec() throws -> String {
        var text = "service: many\nbaseURL: http://127.0.0.1:9\ntargets:\n"
        for index in 0..<300 {
            let name = index == 7 ? "t7WithANameSoLongThatNoMCPClientWouldTakeItAsTheNameOfATool" : "t\(index)"
            text += "  \(name):\n    summary: Target \(index)\n    path: /things/\(index)/{id}\n"
            text += "    params: { id: int }\n"
            if index % 3 == 0 { text += "    method: POST\n" }
        }
        let path = folder + "/many.yaml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func list(_ server: ToolServer, cursor: String?) -> JSONValue? {
        var request: [(key: String, value: JSONValue)] = [
            ("jsonrpc", .string("2.0")), ("id", .integer(1)), ("method", .string("tools/list")),
        ]
        if let cursor { request.append(("params", .object([("cursor", .string(cursor))]))) }
        return server.answer(.object(request))
    }

    func testThePreviewsFirstPageIsTheLoadedSpecsFirstPage() throws {
        let path = try writeSpec()
        let compiler = SpecCompiler(environment: Environment([:]))
        let (previewService, names) = try XCTUnwrap(compiler.preview(file: path, firstTargets: 200))
        XCTAssertEqual(previewService.targets.count, 200)
        XCTAssertEqual(names.count, 300)
        let preview = ToolCatalog(
            services: [previewService], exposure: ToolExposure(), reserving: names.map { "many." + $0 })
        let server = ToolServer(exposure: ToolExposure(), options: ToolServer.Options(), audit: nil, preview: preview)
        let early = try XCTUnwrap(list(server, cursor: nil))

        let whole = try compiler.compile(file: path)
        let loaded = ToolServer(
            client: SpecClient(services: [whole], logins: nil), exposure: ToolExposure(),
            options: ToolServer.Options(), audit: nil)
        let first = try XCTUnwrap(list(loaded, cursor: nil))
        XCTAssertEqual(early.serialized(), first.serialized())
        XCTAssertEqual(
            early["result"]?["tools"].map { tools in
                if case .array(let items) = tools { items.count } else { 0 }
            }, 100)
        XCTAssertEqual(early["result"]?["nextCursor"], .string("100"))

        // Once loaded, the preview's server goes on from the same catalog.
        server.load(SpecClient(services: [whole], logins: nil))
        XCTAssertEqual(list(server, cursor: "100")?.serialized(), list(loaded, cursor: "100")?.serialized())
        XCTAssertEqual(list(server, cursor: nil)?.serialized(), first.serialized())
        XCTAssertEqual(
            list(server, cursor: "x")?.serialized(),
            #"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"unknown cursor 'x'"}}"#)
    }

    /// A stdio transport whose task is cancelled before it starts serving (`mcp` whose specs
    /// fail at once, which cancels the reader) ends at once instead of waiting forever on an
    /// input that stays open: the cancellation came before there was anything to resume.
    func testAStdioTransportCancelledBeforeItStartsEnds() async throws {
        var ends: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&ends), 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        let transport = LineTransport(input: ends[0], output: ends[1])
        let ended = expectation(description: "serve returned")
        let task = _Concurrency.Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await transport.serve { _ in .none }
            ended.fulfill()
        }
        await fulfillment(of: [ended], timeout: 10)
        task.cancel()
    }
}
