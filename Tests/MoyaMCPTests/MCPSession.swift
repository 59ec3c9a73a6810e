import Foundation
import MoyaCore
import MoyaMCP
import MoyaMCPProtocol
import TestSupport
import XCTest

/// The built `moya-cli mcp`, started as an MCP client starts it, with a client of our own on
/// its stdin and stdout (the Python SDK's drives it too: see MCPPythonSDKTests).
final class MCPSession {
    let process: Process
    let client: MCPClient
    private let input: Pipe
    private let output: Pipe
    private let errors: Pipe
    private let collected = ErrorText()

    /// The built moya-cli, beside the test bundle.
    static var executable: URL { Launch.product() }

    static let root: String = {
        var path = #filePath
        for _ in 0..<3 {
            if let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) }
        }
        return path
    }()

    static let fixtures = root + "/Tests/Fixtures/mcp"

    /// Whether `command` runs here: a skip when not, or a failure where CI requires
    /// everything (`MOYA_SHARED_REQUIRED`).
    static func require(_ command: [String], _ what: String) throws {
        let (env, _) = Launch.onPath("")
        let status = (try? Launch.run(env, command, environment: nil))?.status ?? 127
        guard status == 0, !Repository.optionalAbsent else {
            if ProcessInfo.processInfo.environment["MOYA_SHARED_REQUIRED"] != nil, !Repository.optionalAbsent {
                throw Missing(description: "\(what) is required here")
            }
            throw XCTSkip("\(what) is not installed; skipped")
        }
    }

    /// A program CI requires and this machine lacks.
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `moya-cli mcp ARGUMENTS` with `environment`, and connects a client.
    init(_ arguments: [String], environment: [String: String] = [:], directory: String? = nil) async throws {
        let started = try Launch.start(
            Self.executable, ["mcp"] + arguments,
            environment: ["HOME": NSTemporaryDirectory()].merging(environment) { $1 }, in: directory)
        (process, input, output, errors) = (started.process, started.input, started.output, started.error)
        let collected = self.collected
        errors.fileHandleForReading.readabilityHandler = { handle in collected.append(handle.availableData) }
        client = MCPClient(
            reading: output.fileHandleForReading.fileDescriptor, writing: input.fileHandleForWriting.fileDescriptor)
        try client.initialize()
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
        let members = arguments.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
        return try CallTool.Result(
            client.request("tools/call", [("name", .string(name)), ("arguments", .object(members))]))
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
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        errors.fileHandleForReading.readabilityHandler = nil
        return process.terminationStatus
    }

    /// Sorted, compact JSON of an SDK value, for comparing whole.
    static func json(_ value: Value) -> String {
        func sorted(_ value: Value) -> Value {
            switch value {
            case .array(let items): .array(items.map(sorted))
            case .object(let members): .object(members.sorted { $0.key < $1.key }.map { ($0.key, sorted($0.value)) })
            default: value
            }
        }
        return sorted(value).serialized(escapeSlashes: false)
    }
}

/// stderr, gathered as it arrives.
final class ErrorText: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func append(_ more: Data) { lock.withLock { data.append(more) } }
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}

/// A JSON-RPC client on two descriptors: one request at a time, its answer read back.
final class MCPClient: @unchecked Sendable {
    private let reading: Int32
    private let writing: Int32
    private var buffered: [UInt8] = []
    private var nextID = 1

    init(reading: Int32, writing: Int32) {
        self.reading = reading
        self.writing = writing
    }

    /// A JSON-RPC error the server answered.
    struct Failure: Error, CustomStringConvertible {
        var code: Int
        var message: String
        var description: String { "\(code): \(message)" }
    }

    /// The handshake, as a client at 2025-11-25 opens it.
    func initialize() throws {
        _ = try request(
            "initialize",
            [
                ("protocolVersion", "2025-11-25"), ("capabilities", .object([])),
                ("clientInfo", .object([("name", "moya-cli-tests"), ("version", "1.0.0")])),
            ])
        try write(.object([("jsonrpc", "2.0"), ("method", "notifications/initialized")]))
    }

    /// One page of tools.
    func listTools(cursor: String? = nil) async throws -> (tools: [Tool], nextCursor: String?) {
        let result = try request("tools/list", cursor.map { [("cursor", .string($0))] } ?? [])
        guard case .array(let items)? = result["tools"] else { throw Failure(code: 0, message: "no tools") }
        let next: String?
        if case .string(let cursor)? = result["nextCursor"] { next = cursor } else { next = nil }
        return (items.map(Tool.init), next)
    }

    /// Sends a request and answers its result, or throws its error.
    func request(_ method: String, _ params: [(key: String, value: Value)]) throws -> Value {
        let id = nextID
        nextID += 1
        try write(
            .object([
                ("jsonrpc", "2.0"), ("id", .integer(id)), ("method", .string(method)), ("params", .object(params)),
            ]))
        while let line = readLine() {
            guard let message = try? JSONValue(parsing: Data(line)), message["id"] == .integer(id) else { continue }
            if let error = message["error"] {
                guard case .integer(let code)? = error["code"], case .string(let text)? = error["message"] else {
                    throw Failure(code: 0, message: error.serialized())
                }
                throw Failure(code: code, message: text)
            }
            return message["result"] ?? .null
        }
        throw Failure(code: 0, message: "the server closed stdout")
    }

    private func write(_ message: Value) throws {
        let bytes = Array((message.serialized(escapeSlashes: false) + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Foundation.write(writing, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Failure(code: 0, message: "cannot write to the server") }
            offset += count
        }
    }

    private func readLine() -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            if let newline = buffered.firstIndex(of: 10) {
                let line = Array(buffered[..<newline])
                buffered.removeSubrange(...newline)
                return line
            }
            let count = chunk.withUnsafeMutableBytes { read(reading, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            buffered += chunk[..<count]
        }
    }
}

/// MoyaJSON's value under the name the tests use, written as literals.
typealias Value = JSONValue

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements.map { ($0.0, $0.1) }) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

    /// A listed tool as the server wrote it.
    init(_ tool: Tool) throws { self = tool.raw }
}

/// A tool as `tools/list` lists it.
struct Tool {
    struct Annotations {
        var title: String?
        var readOnlyHint: Bool?
        var destructiveHint: Bool?
        var idempotentHint: Bool?
        var openWorldHint: Bool?
    }

    let raw: Value
    var name: String { Self.string(raw["name"]) ?? "" }
    var title: String? { Self.string(raw["title"]) }
    var description: String? { Self.string(raw["description"]) }
    var inputSchema: Value { raw["inputSchema"] ?? .null }
    var outputSchema: Value? { raw["outputSchema"] }
    var annotations: Annotations {
        let given = raw["annotations"]
        func flag(_ name: String) -> Bool? {
            if case .bool(let value)? = given?[name] { return value }
            return nil
        }
        return Annotations(
            title: Self.string(given?["title"]), readOnlyHint: flag("readOnlyHint"),
            destructiveHint: flag("destructiveHint"), idempotentHint: flag("idempotentHint"),
            openWorldHint: flag("openWorldHint"))
    }

    init(_ raw: Value) { self.raw = raw }

    static func string(_ value: Value?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }
}

/// `tools/call`'s result.
enum CallTool {
    struct Result {
        enum Content {
            case text(String, annotations: Value?, _meta: Value?)
            case other(Value)
        }

        var content: [Content]
        var structuredContent: Value?
        var isError: Bool?

        init(_ raw: Value) {
            if case .array(let items)? = raw["content"] {
                content = items.map { item in
                    if item["type"] == "text", case .string(let text)? = item["text"] {
                        return .text(text, annotations: item["annotations"], _meta: item["_meta"])
                    }
                    return .other(item)
                }
            } else {
                content = []
            }
            structuredContent = raw["structuredContent"]
            if case .bool(let flag)? = raw["isError"] { isError = flag } else { isError = nil }
        }
    }
}
