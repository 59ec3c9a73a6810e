import Dispatch
import MCP
import MoyaCore
import MoyaJSONPath
import MoyaRuntime
import MoyaSchema
import MoyaSpec
import Synchronization

import struct Foundation.Data
import class Foundation.JSONDecoder

/// `moya-cli mcp`: the catalog's tools served over a transport. Every call goes through the
/// client as `call` sends it (the policy, logins, retries, timeouts, the environment), and
/// what comes back is shaped by `ToolOutcome`, secrets gone.
public final class ToolServer: Sendable {
    /// How tools are offered and results shaped.
    public struct Options: Sendable {
        /// `--tools dynamic`: three tools (search, describe, call) instead of one per target.
        public var dynamic = false
        /// `--max-result-bytes`: the most bytes of text a result holds.
        public var maxResultBytes = 16 << 10
        /// `--allow-files`: the folder `file` params may name paths in.
        public var allowsFilesIn: String?
        /// Whether `--stub` answers every call from samples: tools are then not open-world.
        public var stubbed = false
        /// Tools per `tools/list` page.
        public var pageSize = 100

        public init() {}
    }

    /// What the server serves once the specs are loaded.
    public struct Loaded: Sendable {
        public let catalog: ToolCatalog
        let client: SpecClient
        /// Every secret the specs hold, for what is shown before a call has its own redactor.
        let redactor: Redactor
    }

    /// Where loading is: a preview of the first spec file until every spec is compiled
    /// (`load(_:)`), then the whole; or failed, when the specs are not valid.
    private enum Phase {
        /// `preview` is the first spec file's first targets, which can answer the first page
        /// of `tools/list` before the rest is compiled; dropped once it is.
        case loading(preview: ToolCatalog?, waiters: [CheckedContinuation<Loaded?, Never>])
        case loaded(Loaded)
        case failed
    }

    private let exposure: ToolExposure
    private let options: Options
    /// `--allow-files`, its folder resolved once.
    private let files: ToolInput.Files?
    private let audit: AuditLog?
    private let phase: Mutex<Phase>
    /// Each called tool's input schema, compiled on its first call.
    private let validators = Mutex<[String: CompiledSchema]>([:])

    /// The tools of `dynamic` mode.
    enum DynamicTool: String, CaseIterable {
        case search = "search_targets"
        case describe = "describe_target"
        case call = "call_target"
    }

    /// A server whose specs are still loading; `preview` may list the first page meanwhile.
    public init(exposure: ToolExposure, options: Options, audit: AuditLog?, preview: ToolCatalog? = nil) {
        self.exposure = exposure
        self.options = options
        files = options.allowsFilesIn.map(ToolInput.Files.init)
        self.audit = audit
        phase = Mutex(.loading(preview: preview, waiters: []))
    }

    /// A server of `client`'s specs, loaded.
    public convenience init(client: SpecClient, exposure: ToolExposure, options: Options, audit: AuditLog?) {
        self.init(exposure: exposure, options: options, audit: audit)
        load(client)
    }

    /// Serves every spec of `client` from now on, and wakes the calls that waited for them.
    @discardableResult
    public func load(_ client: SpecClient) -> Loaded {
        let loaded = Loaded(
            catalog: ToolCatalog(services: client.services, exposure: exposure, allowsFilesIn: options.allowsFilesIn),
            client: client,
            redactor: Redactor(
                secretValues: client.services.reduce(into: Set<String>()) { $0.formUnion($1.secretValues) }))
        settle(.loaded(loaded))
        return loaded
    }

    /// The specs could not be loaded: waiting calls give up.
    public func failLoading() {
        settle(.failed)
    }

    private func settle(_ outcome: Phase) {
        let waiters = phase.withLock { phase -> [CheckedContinuation<Loaded?, Never>] in
            guard case .loading(_, let waiters) = phase else { return [] }
            phase = outcome
            return waiters
        }
        let loaded: Loaded?
        if case .loaded(let value) = outcome { loaded = value } else { loaded = nil }
        for waiter in waiters { waiter.resume(returning: loaded) }
    }

    /// The loaded specs, once they are; nil when they could not be.
    public func loaded() async -> Loaded? {
        await withCheckedContinuation { continuation in
            let ready: Loaded?? = phase.withLock { phase in
                switch phase {
                case .loading(let preview, var waiters):
                    waiters.append(continuation)
                    phase = .loading(preview: preview, waiters: waiters)
                    return nil
                case .loaded(let loaded): return .some(loaded)
                case .failed: return .some(nil)
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// The loaded specs now, waiting on this thread (the transport's reader) if need be.
    private func loadedWaiting() -> Loaded? {
        if case .loaded(let loaded) = phase.withLock({ $0 }) { return loaded }
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Loaded?>(nil)
        _Concurrency.Task.detached {
            let loaded = await self.loaded()
            result.withLock { $0 = loaded }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 }
    }

    /// Serves `transport` until its input closes or the task is cancelled.
    public func run(on transport: any Transport) async throws {
        let server = Server(
            name: "moya-cli", version: MoyaRuntime.Version.current, title: "moya-cli",
            instructions: options.dynamic
                ? "Search the API's operations with search_targets, read one's arguments with describe_target, "
                    + "and send it with call_target." : nil,
            capabilities: Server.Capabilities(tools: Server.Capabilities.Tools(listChanged: false)))
        // The transport answers `tools/list` itself (see `answer(_:)`); this is the same
        // page for a transport that does not.
        await server.withMethodHandler(ListTools.self) { [self] parameters in
            switch page(cursor: parameters.cursor) {
            case .success(let page):
                return try JSONDecoder().decode(ListTools.Result.self, from: Data(page.serialized().utf8))
            case .failure(let failure): throw MCPError.invalidParams(failure.message)
            }
        }
        await server.withMethodHandler(CallTool.self) { [self] parameters in
            let arguments = JSONValue.object(
                (parameters.arguments ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, Self.json($0.value)) })
            return try await result(of: call(parameters.name, arguments: arguments))
        }
        try await server.start(transport: transport)
        await withTaskCancellationHandler {
            await server.waitUntilCompleted()
        } onCancel: {
            _Concurrency.Task { await server.stop() }
        }
        await server.stop()
    }

    // MARK: - Listing

    /// A `tools/list` request answered without the SDK: its typed handlers encode a result,
    /// decode it as `Value` and encode it again, and the decoding builds a regular expression
    /// for every string (to spot data URLs): 72 ms of a 100-tool page on the 5,000-target spec
    /// (bench/RESULTS.md). The page is written once, as MoyaJSON. Any other message is the
    /// SDK's: nil.
    @Sendable public func answer(_ message: JSONValue) -> JSONValue? {
        guard message["method"] == .string(ListTools.name), let id = message["id"], id != .null else { return nil }
        let cursor: String?
        switch message["params"]?["cursor"] {
        case .string(let text)?: cursor = text
        case nil, .null?: cursor = nil
        default: return Self.error(id: id, code: -32602, "the cursor must be a string")
        }
        switch page(cursor: cursor) {
        case .success(let page): return .object([("jsonrpc", .string("2.0")), ("id", id), ("result", page)])
        case .failure(let failure): return Self.error(id: id, code: -32602, failure.message)
        }
    }

    /// A `tools/call` request taken from the SDK, whose `Value` reads a string that looks like
    /// a data URL (`data:,hello`) as bytes and writes it back as another string: here the
    /// arguments reach the tool exactly as the client wrote them. Any other message is the
    /// SDK's: nil.
    @Sendable public func handle(_ message: JSONValue) -> (@Sendable () async -> JSONValue)? {
        guard message["method"] == .string(CallTool.name), let id = message["id"], id != .null else { return nil }
        return { [self] in
            guard case .string(let name) = message["params"]?["name"] ?? .null else {
                return Self.error(id: id, code: -32602, "Invalid params: the tool's name must be a string")
            }
            let given = message["params"]?["arguments"] ?? .object([])
            guard case .object(let members) = given else {
                return Self.error(id: id, code: -32602, "Invalid params: the arguments must be an object")
            }
            // By name, as the SDK's dictionary gave them: violations are listed in this order.
            let arguments = JSONValue.object(members.sorted { $0.key < $1.key })
            do {
                let outcome = try await call(name, arguments: arguments)
                return .object([("jsonrpc", .string("2.0")), ("id", id), ("result", Self.result(of: outcome))])
            } catch let error as MCPError {
                return Self.error(id: id, code: error.code, error.errorDescription ?? "\(error)")
            } catch {
                return Self.error(id: id, code: -32603, "Internal error: \(error)")
            }
        }
    }

    /// An outcome as `CallTool`'s result: its text, its structured content, whether it failed.
    static func result(of outcome: ToolOutcome) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("content", .array([.object([("type", .string("text")), ("text", .string(outcome.text))])]))
        ]
        if let structured = outcome.structured { members.append(("structuredContent", structured)) }
        if outcome.isError { members.append(("isError", .bool(true))) }
        return .object(members)
    }

    static func error(id: JSONValue, code: Int, _ message: String) -> JSONValue {
        .object([
            ("jsonrpc", .string("2.0")), ("id", id),
            ("error", .object([("code", .integer(code)), ("message", .string(message))])),
        ])
    }

    /// One page of `tools/list`, as its result's JSON: the cursor is the index of the page's
    /// first tool, as text.
    /// The first page comes from the preview while the specs load, when the preview holds a
    /// whole page: the same tools, in the same order, as the loaded catalog's first page.
    func page(cursor: String?) -> Result<JSONValue, PageFailure> {
        let preview: ToolCatalog? = phase.withLock { phase in
            guard case .loading(let preview, _) = phase else { return nil }
            return preview
        }
        if cursor == nil, !options.dynamic, let preview, preview.exposed.count >= options.pageSize {
            return .success(
                .object([
                    ("tools", .array(preview.exposed.prefix(options.pageSize).map(tool))),
                    ("nextCursor", .string(String(options.pageSize))),
                ]))
        }
        guard let loaded = loadedWaiting() else {
            return .failure(PageFailure(message: "the specs could not be loaded; see the server's stderr"))
        }
        let catalog = loaded.catalog
        if options.dynamic {
            return .success(.object([("tools", .array(DynamicTool.allCases.map { dynamicTool($0, catalog) }))]))
        }
        let start: Int
        if let cursor {
            guard let index = Int(cursor), index >= 0, index <= catalog.exposed.count else {
                return .failure(PageFailure(message: "unknown cursor '\(loaded.redactor.scrub(cursor))'"))
            }
            start = index
        } else {
            start = 0
        }
        let end = min(start + options.pageSize, catalog.exposed.count)
        var result: [(key: String, value: JSONValue)] = [("tools", .array(catalog.exposed[start..<end].map(tool)))]
        if end < catalog.exposed.count { result.append(("nextCursor", .string(String(end)))) }
        return .success(.object(result))
    }

    /// Why a page cannot be listed, as the JSON-RPC error's message.
    struct PageFailure: Error {
        var message: String
    }

    /// A descriptor as MCP's `Tool`.
    func tool(_ descriptor: ToolDescriptor) -> JSONValue {
        var annotations: [(key: String, value: JSONValue)] = [
            ("title", .string(descriptor.title)), ("readOnlyHint", .bool(descriptor.isReadOnly)),
        ]
        if !descriptor.isReadOnly {
            annotations.append(("destructiveHint", .bool(descriptor.isDestructive)))
            annotations.append(("idempotentHint", .bool(descriptor.isIdempotent)))
        }
        annotations.append(("openWorldHint", .bool(!options.stubbed)))
        var members: [(key: String, value: JSONValue)] = [
            ("name", .string(descriptor.name)), ("title", .string(descriptor.title)),
            ("description", .string(descriptor.description)), ("inputSchema", descriptor.inputSchema),
        ]
        if let output = descriptor.outputSchema { members.append(("outputSchema", output)) }
        members.append(("annotations", .object(annotations)))
        return .object(members)
    }

    func dynamicTool(_ kind: DynamicTool, _ catalog: ToolCatalog) -> JSONValue {
        let string = JSONValue.object([("type", .string("string"))])
        let schema: JSONValue
        let description: String
        switch kind {
        case .search:
            description =
                "Search the API's \(catalog.exposed.count) operations by words in their names and descriptions; "
                + "answers each match's name and summary, at most 50."
            schema = ToolInput.object([("query", string)], required: [.string("query")])
        case .describe:
            description = "Describe one operation by name: what it does, and the JSON Schema of its arguments."
            schema = ToolInput.object([("name", string)], required: [.string("name")])
        case .call:
            description =
                "Call one operation by name with its arguments, as describe_target gives them; answers the status, "
                + "the content type and the body."
            schema = ToolInput.object(
                [("name", string), ("arguments", .object([("type", .string("object"))]))], required: [.string("name")])
        }
        return .object([
            ("name", .string(kind.rawValue)), ("title", .string(kind.rawValue)), ("description", .string(description)),
            ("inputSchema", schema),
            (
                "annotations",
                .object([
                    ("title", .string(kind.rawValue)), ("readOnlyHint", .bool(kind != .call)),
                    ("openWorldHint", .bool(kind == .call && !options.stubbed)),
                ])
            ),
        ])
    }

    // MARK: - Calling

    /// Calls the tool `name` with `arguments` (a JSON object), and records it in the audit log.
    /// An unknown name throws, as MCP asks; anything else is an outcome.
    public func call(_ name: String, arguments: JSONValue) async throws -> ToolOutcome {
        guard let loaded = await loaded() else {
            throw MCPError.internalError("the specs could not be loaded; see the server's stderr")
        }
        return try await call(name, arguments: arguments, in: loaded)
    }

    private func call(_ name: String, arguments: JSONValue, in loaded: Loaded) async throws -> ToolOutcome {
        let catalog = loaded.catalog
        guard options.dynamic else { return try await callTool(name, arguments: arguments, in: loaded) }
        guard let kind = DynamicTool(rawValue: name) else { throw unknown(name, arguments: arguments, loaded) }
        switch kind {
        case .search: return search(arguments, catalog)
        case .describe: return describe(arguments, catalog)
        case .call:
            guard case .string(let target) = arguments["name"] ?? .null else {
                return audited(name, arguments, .refused(.invalid, ["$.name: expected a string"]), loaded)
            }
            let inner = arguments["arguments"] ?? .object([])
            guard catalog.tool(named: target) != nil else {
                return audited(target, inner, .refused(.refused, ["moya-cli: no operation '\(target)'"]), loaded)
            }
            return try await callTool(target, arguments: inner, in: loaded)
        }
    }

    /// Calls one target or flow by its tool name.
    private func callTool(_ name: String, arguments: JSONValue, in loaded: Loaded) async throws -> ToolOutcome {
        guard let tool = loaded.catalog.tool(named: name) else { throw unknown(name, arguments: arguments, loaded) }
        if let refusal = tool.refusal {
            return audited(tool.name, arguments, .refused(.refused, ["moya-cli: " + refusal]), loaded)
        }
        let schema = validator(for: tool)
        if !schema.isValid(arguments) {
            let violations = schema.errors(in: arguments, limit: 20).map(ToolInput.describe)
            return audited(tool.name, arguments, .refused(.invalid, violations), loaded)
        }
        let members: [(key: String, value: JSONValue)]
        if case .object(let given) = arguments { members = given } else { members = [] }
        let client = loaded.client
        switch tool.subject {
        case .target(let service, let target):
            let select: JSONPath?
            if case .string(let text) = arguments[ToolCatalog.selectArgument] ?? .null {
                do {
                    select = try JSONPath(parsing: text)
                } catch {
                    let problem = "$.\(ToolCatalog.selectArgument): \(error.description)"
                    return audited(tool.name, arguments, .refused(.invalid, [problem]), loaded)
                }
            } else {
                select = nil
            }
            let params: [String: ParamValue]
            do {
                params = try ToolInput.params(from: members, of: target, in: service, files: files)
            } catch {
                return audited(tool.name, arguments, .refused(.invalid, error.violations), loaded)
            }
            let exchange = await client.exchange(
                service, target, with: CallOptions(arguments: params, environment: client.environment))
            let outcome = ToolOutcome.of(
                exchange, select: select, limit: options.maxResultBytes, outputSchema: outputValidator(for: tool))
            let masked = audit == nil ? arguments : exchange.redactor.scrubbing(arguments)
            return audited(tool.name, masked, outcome, loaded, masked: true)
        case .flow:
            let variables = members.map { (name: $0.key, value: $0.value) }
            guard let result = await client.run(flow: tool.fullName, variables: variables) else {
                throw unknown(name, arguments: arguments, loaded)
            }
            let outcome = ToolOutcome.of(result, redactor: loaded.redactor, limit: options.maxResultBytes)
            return audited(tool.name, arguments, outcome, loaded)
        }
    }

    /// The tool's compiled input schema, made on its first call and kept.
    private func validator(for tool: ToolDescriptor) -> CompiledSchema {
        if let known = validators.withLock({ $0[tool.name] }) { return known }
        let compiled = CompiledSchema(schema: tool.inputSchema)
        validators.withLock { $0[tool.name] = compiled }
        return compiled
    }

    /// The tool's compiled output schema, when it has one, made on its first call and kept.
    private func outputValidator(for tool: ToolDescriptor) -> CompiledSchema? {
        guard let schema = tool.outputSchema else { return nil }
        let key = "\u{0}output " + tool.name
        if let known = validators.withLock({ $0[key] }) { return known }
        let compiled = CompiledSchema(schema: schema)
        validators.withLock { $0[key] = compiled }
        return compiled
    }

    /// An unknown tool: recorded, then a JSON-RPC error, as MCP's spec asks.
    private func unknown(_ name: String, arguments: JSONValue, _ loaded: Loaded) -> MCPError {
        _ = audited(name, arguments, .refused(.refused, ["moya-cli: no tool '\(name)'"]), loaded)
        return MCPError.invalidParams("Unknown tool: \(loaded.redactor.scrub(name))")
    }

    private func search(_ arguments: JSONValue, _ catalog: ToolCatalog) -> ToolOutcome {
        guard case .string(let query) = arguments["query"] ?? .null else {
            return .refused(.invalid, ["$.query: expected a string"])
        }
        let found = catalog.search(query, limit: 50)
        let lines = found.map { "\($0.name): \($0.title == $0.fullName ? $0.description : $0.title)" }
        return ToolOutcome(
            kind: .ok, text: lines.isEmpty ? "no operation matches '\(query)'" : lines.joined(separator: "\n"),
            structured: nil, status: nil, bytes: 0, seconds: 0)
    }

    private func describe(_ arguments: JSONValue, _ catalog: ToolCatalog) -> ToolOutcome {
        guard case .string(let name) = arguments["name"] ?? .null else {
            return .refused(.invalid, ["$.name: expected a string"])
        }
        guard let tool = catalog.tool(named: name) else {
            return .refused(.refused, ["moya-cli: no operation '\(name)'; search with search_targets"])
        }
        if let refusal = tool.refusal { return .refused(.refused, ["moya-cli: " + refusal]) }
        var members: [(key: String, value: JSONValue)] = [
            ("name", .string(tool.name)), ("title", .string(tool.title)), ("description", .string(tool.description)),
            ("readOnly", .bool(tool.isReadOnly)), ("inputSchema", tool.inputSchema),
        ]
        if let output = tool.outputSchema { members.append(("outputSchema", output)) }
        return ToolOutcome(
            kind: .ok, text: JSONValue.object(members).serialized(pretty: true, escapeSlashes: false),
            structured: nil, status: nil, bytes: 0, seconds: 0)
    }

    /// Records the call in the audit log, its arguments masked unless they are already.
    private func audited(
        _ tool: String, _ arguments: JSONValue, _ outcome: ToolOutcome, _ loaded: Loaded, masked: Bool = false
    ) -> ToolOutcome {
        guard let audit else { return outcome }
        let redactor = loaded.redactor
        audit.record(
            tool: redactor.scrub(tool), arguments: masked ? arguments : redactor.scrubbing(arguments),
            outcome: outcome)
        return outcome
    }

    /// An outcome as the SDK's result.
    func result(of outcome: ToolOutcome) -> CallTool.Result {
        CallTool.Result(
            content: [.text(text: outcome.text, annotations: nil, _meta: nil)],
            structuredContent: outcome.structured.map(Self.value),
            isError: outcome.isError ? true : nil)
    }

    // MARK: - Values

    /// MoyaJSON's value as the SDK's.
    static func value(_ json: JSONValue) -> Value {
        switch json {
        case .null: .null
        case .bool(let bool): .bool(bool)
        case .integer(let int): .int(int)
        case .number(let double): .double(double)
        case .string(let text): .string(text)
        case .array(let items): .array(items.map(value))
        case .object(let members):
            .object(Dictionary(members.map { ($0.key, value($0.value)) }, uniquingKeysWith: { _, last in last }))
        }
    }

    /// The SDK's value as MoyaJSON's; a string the SDK read as a data URL is given back as the
    /// string it was.
    static func json(_ value: Value) -> JSONValue {
        switch value {
        case .null: .null
        case .bool(let bool): .bool(bool)
        case .int(let int): .integer(int)
        case .double(let double): .number(double)
        case .string(let text): .string(text)
        case .data(let mimeType, let data): .string(data.dataURLEncoded(mimeType: mimeType))
        case .array(let items): .array(items.map(json))
        case .object(let members): .object(members.sorted { $0.key < $1.key }.map { ($0.key, json($0.value)) })
        }
    }
}
