import Dispatch
import MoyaBinding
import MoyaHTTP
import MoyaJSONPath
import MoyaMCPProtocol
import MoyaRuntime
import MoyaSchema
import MoyaSpec
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `moya-cli mcp`: the catalog's tools served over a transport. Every call goes through the
/// client as `call` sends it (the policy, logins, retries, timeouts, the environment), and
/// what comes back is shaped by `ToolOutcome`, secrets gone.
public final class ToolServer: MCPHandler {
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
        /// The JSON bytes past which a `tools/list` page ends (after the tool that passed them),
        /// so that a page stays under 500 KB.
        public var pageBytes = 384 * 1024

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
        let loaded = prepare(client)
        serve(loaded)
        return loaded
    }

    /// The catalog of `client`'s specs, not served yet: `--lock` holds it to the lock first.
    public func prepare(_ client: SpecClient) -> Loaded {
        Loaded(
            catalog: ToolCatalog(services: client.services, exposure: exposure, allowsFilesIn: options.allowsFilesIn),
            client: client,
            redactor: Redactor(secrets: client.services.boundSecrets))
    }

    /// Serves `loaded` from now on, and wakes the calls that waited for it.
    public func serve(_ loaded: Loaded) {
        settle(.loaded(loaded))
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

    /// An outcome as `CallTool`'s result: its text, its structured content, whether it failed.
    static func result(of outcome: ToolOutcome) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("content", .array([.object([("type", .string("text")), ("text", .string(outcome.text))])]))
        ]
        if let structured = outcome.structured { members.append(("structuredContent", structured)) }
        if outcome.isError { members.append(("isError", .bool(true))) }
        return .object(members)
    }

    // MARK: - Listing

    /// `--tools dynamic`.
    var dynamicTools: Bool { options.dynamic }

    /// Whether the first page comes from the preview now, without waiting for the specs.
    var listsFromPreview: Bool {
        guard !options.dynamic else { return false }
        return phase.withLock { phase in
            guard case .loading(let preview?, _) = phase else { return false }
            return holdsFirstPage(preview, listing(from: 0, in: preview.exposed))
        }
    }

    /// Whether a preview's tools make the loaded catalog's whole first page (`first`, listed
    /// from them): it ends before the preview's last tool, or it holds a page's count.
    private func holdsFirstPage(_ preview: ToolCatalog, _ first: (tools: [JSONValue], end: Int)) -> Bool {
        first.tools.count >= options.pageSize || first.end < preview.exposed.count
    }

    /// The page that starts at `start`, each tool as MCP's `Tool`, and where it ends: after
    /// `pageSize` tools, or after the tool that takes the page's JSON past `pageBytes`,
    /// whichever comes first (one tool at least). A listing stays small enough for a client to
    /// hand a model, whatever the document.
    func listing(from start: Int, in tools: [ToolDescriptor]) -> (tools: [JSONValue], end: Int) {
        var listed: [JSONValue] = []
        var bytes = 0
        var end = start
        while end < tools.count, listed.count < options.pageSize, listed.isEmpty || bytes < options.pageBytes {
            let made = tool(tools[end])
            bytes += made.serialized(escapeSlashes: false).utf8.count
            listed.append(made)
            end += 1
        }
        return (listed, end)
    }

    /// One page of `tools/list`, as its result's JSON: the cursor is the index of the page's
    /// first tool, as text.
    /// The first page comes from the preview while the specs load, when the preview holds a
    /// whole page: the same tools, in the same order, as the loaded catalog's first page.
    func page(cursor: String?) -> Result<JSONValue, RPCError> {
        let preview: ToolCatalog? = phase.withLock { phase in
            guard case .loading(let preview, _) = phase else { return nil }
            return preview
        }
        if cursor == nil, !options.dynamic, let preview {
            let first = listing(from: 0, in: preview.exposed)
            if holdsFirstPage(preview, first) {
                return .success(.object([("tools", .array(first.tools)), ("nextCursor", .string(String(first.end)))]))
            }
        }
        guard let loaded = loadedWaiting() else {
            return .failure(.internalError("the specs could not be loaded; see the server's stderr"))
        }
        let catalog = loaded.catalog
        if options.dynamic {
            return .success(.object([("tools", .array(DynamicTool.allCases.map { dynamicTool($0, catalog) }))]))
        }
        let start: Int
        if let cursor {
            guard let index = Int(cursor), index >= 0, index <= catalog.exposed.count else {
                return .failure(.invalidParams("unknown cursor '\(loaded.redactor.scrub(cursor))'"))
            }
            start = index
        } else {
            start = 0
        }
        let (tools, end) = listing(from: start, in: catalog.exposed)
        var result: [(key: String, value: JSONValue)] = [("tools", .array(tools))]
        if end < catalog.exposed.count { result.append(("nextCursor", .string(String(end)))) }
        return .success(.object(result))
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
    public func call(_ name: String, arguments: JSONValue, from caller: Caller = .local) async throws(RPCError)
        -> ToolOutcome
    {
        guard let loaded = await loaded() else {
            throw RPCError.internalError("the specs could not be loaded; see the server's stderr")
        }
        return try await call(name, arguments: arguments, in: Context(loaded: loaded, caller: caller))
    }

    /// The tool a `tools/call` of `name` with `arguments` runs: in dynamic mode, the one
    /// `call_target` names. Nil for an unknown tool, and for the tools that only read the
    /// catalog.
    public func tool(called name: String, arguments: JSONValue) async -> ToolDescriptor? {
        guard let loaded = await loaded() else { return nil }
        guard options.dynamic else { return loaded.catalog.tool(named: name) }
        guard name == DynamicTool.call.rawValue, case .string(let target) = arguments["name"] ?? .null else {
            return nil
        }
        return loaded.catalog.tool(named: target)
    }

    public func access(ofCall name: String, arguments: JSONValue) async -> ToolAccess? {
        guard let tool = await tool(called: name, arguments: arguments) else { return nil }
        return ToolAccess(
            name: tool.name, isReadOnly: tool.isReadOnly, isDestructive: tool.isDestructive,
            mayWriteToo: tool.method == nil)
    }

    /// The specs a call is answered from, and who asked.
    private struct Context {
        let loaded: Loaded
        let caller: Caller
    }

    private func call(_ name: String, arguments: JSONValue, in context: Context) async throws(RPCError)
        -> ToolOutcome
    {
        let loaded = context.loaded
        let catalog = loaded.catalog
        guard options.dynamic else { return try await callTool(name, arguments: arguments, in: context) }
        guard let kind = DynamicTool(rawValue: name) else { throw unknown(name, arguments: arguments, context) }
        switch kind {
        case .search: return search(arguments, catalog)
        case .describe: return describe(arguments, catalog)
        case .call:
            guard case .string(let target) = arguments["name"] ?? .null else {
                return audited(name, arguments, .refused(.invalid, ["$.name: expected a string"]), context)
            }
            let inner = arguments["arguments"] ?? .object([])
            guard catalog.tool(named: target) != nil else {
                return audited(target, inner, .refused(.refused, ["moya-cli: no operation '\(target)'"]), context)
            }
            return try await callTool(target, arguments: inner, in: context)
        }
    }

    /// Calls one target or flow by its tool name.
    private func callTool(_ name: String, arguments: JSONValue, in context: Context) async throws(RPCError)
        -> ToolOutcome
    {
        let loaded = context.loaded
        guard let tool = loaded.catalog.tool(named: name) else { throw unknown(name, arguments: arguments, context) }
        if let refusal = tool.refusal {
            return audited(tool.name, arguments, .refused(.refused, ["moya-cli: " + refusal]), context)
        }
        let schema = validator(for: tool)
        if !schema.isValid(arguments) {
            let violations = schema.errors(in: arguments, limit: 20).map(ToolInput.describe)
            return audited(tool.name, arguments, .refused(.invalid, violations), context)
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
                    return audited(tool.name, arguments, .refused(.invalid, [problem]), context)
                }
            } else {
                select = nil
            }
            let params: [String: ParamValue]
            do {
                params = try ToolInput.params(from: members, of: target, in: service, files: files)
            } catch {
                return audited(tool.name, arguments, .refused(.invalid, error.violations), context)
            }
            var callOptions = CallOptions(arguments: params, environment: client.environment)
            if let body = JSONBody(target), let value = arguments[body.argument] {
                callOptions.body = BodyEdit(whole: body.bytes(of: value))
            }
            let exchange = await client.exchange(service, target, with: callOptions)
            let outcome = ToolOutcome.of(
                exchange, select: select, limit: options.maxResultBytes, outputSchema: outputValidator(for: tool),
                wrapsResult: tool.wrapsResult)
            let masked = audit == nil ? arguments : exchange.redactor.scrubbing(arguments)
            return audited(tool.name, masked, outcome, context, masked: true)
        case .flow:
            let variables = members.map { (name: $0.key, value: $0.value) }
            guard let result = await client.run(flow: tool.fullName, variables: variables) else {
                throw unknown(name, arguments: arguments, context)
            }
            let outcome = ToolOutcome.of(result, redactor: loaded.redactor, limit: options.maxResultBytes)
            return audited(tool.name, arguments, outcome, context)
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
    private func unknown(_ name: String, arguments: JSONValue, _ context: Context) -> RPCError {
        _ = audited(name, arguments, .refused(.refused, ["moya-cli: no tool '\(name)'"]), context)
        return RPCError.invalidParams("unknown tool '\(context.loaded.redactor.scrub(name))'")
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
        _ tool: String, _ arguments: JSONValue, _ outcome: ToolOutcome, _ context: Context, masked: Bool = false
    ) -> ToolOutcome {
        guard let audit else { return outcome }
        let redactor = context.loaded.redactor
        audit.record(
            tool: redactor.scrub(tool), arguments: masked ? arguments : redactor.scrubbing(arguments),
            outcome: outcome, caller: context.caller.audited.map(redactor.scrubbing))
        return outcome
    }
}
