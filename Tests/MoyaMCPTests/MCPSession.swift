import Foundation
import MCP
import MoyaMCP
import XCTest

/// The built `moya-cli mcp`, started as an MCP client starts it, with the Swift SDK's client
/// on its stdin and stdout.
final class MCPSession {
    let process: Process
    let client: Client
    private let input: Pipe
    private let output: Pipe
    private let errors: Pipe
    private let collected = ErrorText()

    /// The built moya-cli, beside the test bundle.
    static var executable: URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("moya-cli")
        return FileManager.default.fileExists(atPath: beside.path)
            ? beside : beside.deletingLastPathComponent().appendingPathComponent("moya-cli")
    }

    static let root: String = {
        var path = #filePath
        for _ in 0..<3 {
            if let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) }
        }
        return path
    }()

    static let fixtures = root + "/Tests/Fixtures/mcp"

    /// Starts `moya-cli mcp ARGUMENTS` with `environment`, and connects a client.
    init(_ arguments: [String], environment: [String: String] = [:], directory: String? = nil) async throws {
        process = Process()
        process.executableURL = Self.executable
        process.arguments = ["mcp"] + arguments
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()].merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        input = Pipe()
        output = Pipe()
        errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let collected = self.collected
        errors.fileHandleForReading.readabilityHandler = { handle in collected.append(handle.availableData) }
        client = Client(name: "moya-cli-tests", version: "1.0.0")
        let transport = LineTransport(
            input: output.fileHandleForReading.fileDescriptor, output: input.fileHandleForWriting.fileDescriptor)
        _ = try await client.connect(transport: transport)
    }

    /// What the server wrote to stderr so far.
    var stderr: String { collected.text }

    /// Every tool, page after page.
    func allTools() async throws -> [Tool] {
        var tools: [Tool] = []
        var cursor: String?
        repeat {
            let page = try await client.listTools(cursor: cursor)
            tools += page.tools
            cursor = page.nextCursor
        } while cursor != nil
        return tools
    }

    /// Calls a tool, answering the whole result.
    func call(_ name: String, _ arguments: [String: Value] = [:]) async throws -> CallTool.Result {
        try await client.send(CallTool.request(.init(name: name, arguments: arguments))).value
    }

    /// A result's text: its one text content.
    static func text(_ result: CallTool.Result) -> String {
        result.content.compactMap { content in
            if case .text(let text, _, _) = content { return text }
            return nil
        }.joined(separator: "\n")
    }

    /// Closes stdin and waits for the server to exit; answers its status.
    @discardableResult
    func close() async -> Int32 {
        await client.disconnect()
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        errors.fileHandleForReading.readabilityHandler = nil
        return process.terminationStatus
    }

    /// Sorted, compact JSON of an SDK value, for comparing whole.
    static func json(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
    }
}

/// stderr, gathered as it arrives.
final class ErrorText: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func append(_ more: Data) { lock.withLock { data.append(more) } }
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
