import MCP
import MoyaCore
import MoyaJSONPath
import MoyaRuntime
import MoyaSpec

import struct Foundation.Data

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

    public let catalog: ToolCatalog
    private let client: SpecClient
    private let options: Options
    private let audit: AuditLog?
    /// Every secret the specs hold, for what is shown before a call has its own redactor.
    private let redactor: Redactor

    /// The tools of `dynamic` mode.
    enum DynamicTool: String, CaseIterable {
        case search = "search_targets"
        case describe = "describe_target"
        case call = "call_target"
    }

    public init(catalog: ToolCatalog, client: SpecClient, options: Options, audit: AuditLog?) {
        self.catalog = catalog
        self.client = client
        self.options = options
        self.audit = audit
        redactor = Redactor(secretValues: client.services.reduce(into: Set<String>()) { $0.formUnion($1.secretValues) })
    }

    /// Serves `transport` until its input closes or the task is cancelled.
    public func run(on transport: any Transport) async throws {
        let server = Server(
            name: "moya-cli", version: MoyaRuntime.Version.current, title: "moya-cli",
            instructions: options.dynamic
                ? "Search the API's operations with search_targets, read one's arguments with describe_target, "
                    + "and send it with call_target." : nil,
            capabilities: Server.Capabilities(tools: Server.Capabilities.Tools(listChanged: false)))
        await server.withMethodHandler(ListTools.self) { [self] parameters in
            try list(cursor: parameters.cursor)
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

    /// One page of `tools/list`: the cursor is the index of the page's first tool.
    func list(cursor: String?) throws -> ListTools.Result {
        if options.dynamic { return ListTools.Result(tools: DynamicTool.allCases.map(dynamicTool)) }
        let start: Int
        if let cursor {
            guard let index = Int(cursor), index >= 0, index <= catalog.exposed.count else {
                throw MCPError.invalidParams("unknown cursor '\(cursor)'")
            }
            start = index
        } else {
            start = 0
        }
        let end = min(start + options.pageSize, catalog.exposed.count)
        return ListTools.Result(
            tools: catalog.exposed[start..<end].map(tool), nextCursor: end < catalog.exposed.count ? String(end) : nil)
    }

    /// A descriptor as the SDK's tool.
    func tool(_ descriptor: ToolDescriptor) -> Tool {
        Tool(
            name: descriptor.name, title: descriptor.title, description: descriptor.description,
            inputSchema: Self.value(descriptor.inputSchema),
            annotations: Tool.Annotations(
                title: descriptor.title, readOnlyHint: descriptor.isReadOnly,
                destructiveHint: descriptor.isReadOnly ? nil : descriptor.isDestructive,
                idempotentHint: descriptor.isReadOnly ? nil : descriptor.isIdempotent,
                openWorldHint: !options.stubbed),
            outputSchema: descriptor.outputSchema.map(Self.value))
    }

    func dynamicTool(_ kind: DynamicTool) -> Tool {
        let string = JSONValue.object([("type", .string("string"))])
        let schema: JSONValue
        let description: String
        switch kind {
        case .search:
            description =
                "Search the API's \(catalog.exposed.count) operations by words in their names and descriptions; "
                + "answers each match's name and summary, at most 50."
            schema = .object([
                ("type", .string("object")),
                ("properties", .object([("query", string)])), ("required", .array([.string("query")])),
                ("additionalProperties", .bool(false)),
            ])
        case .describe:
            description = "Describe one operation by name: what it does, and the JSON Schema of its arguments."
            schema = .object([
                ("type", .string("object")), ("properties", .object([("name", string)])),
                ("required", .array([.string("name")])), ("additionalProperties", .bool(false)),
            ])
        case .call:
            description =
                "Call one operation by name with its arguments, as describe_target gives them; answers the status, "
                + "the content type and the body."
            schema = .object([
                ("type", .string("object")),
                ("properties", .object([("name", string), ("arguments", .object([("type", .string("object"))]))])),
                ("required", .array([.string("name")])), ("additionalProperties", .bool(false)),
            ])
        }
        return Tool(
            name: kind.rawValue, title: kind.rawValue, description: description, inputSchema: Self.value(schema),
            annotations: Tool.Annotations(
                title: kind.rawValue, readOnlyHint: kind != .call, openWorldHint: kind == .call && !options.stubbed))
    }

    // MARK: - Calling

    /// Calls the tool `name` with `arguments` (a JSON object), and records it in the audit log.
    /// An unknown name throws, as MCP asks; anything else is an outcome.
    public func call(_ name: String, arguments: JSONValue) async throws -> ToolOutcome {
        if options.dynamic {
            guard let kind = DynamicTool(rawValue: name) else { throw unknown(name, arguments: arguments) }
            switch kind {
            case .search: return search(arguments)
            case .describe: return describe(arguments)
            case .call:
                guard case .string(let target) = arguments["name"] ?? .null else {
                    return audited(name, arguments, ToolOutcome.refused(.invalid, ["$.name: expected a string"]))
                }
                let inner = arguments["arguments"] ?? .object([])
                guard catalog.tool(named: target) != nil else {
                    return audited(
                        target, inner, ToolOutcome.refused(.refused, ["moya-cli: no operation '\(target)'"]))
                }
                return try await call(target, arguments: inner, dynamic: false)
            }
        }
        return try await call(name, arguments: arguments, dynamic: false)
    }

    private func call(_ name: String, arguments: JSONValue, dynamic: Bool) async throws -> ToolOutcome {
        guard let tool = catalog.tool(named: name) else { throw unknown(name, arguments: arguments) }
        if let refusal = tool.refusal {
            return audited(tool.name, arguments, ToolOutcome.refused(.refused, ["moya-cli: " + refusal]))
        }
        let violations = ToolInput.violations(of: arguments, schema: tool.inputSchema)
        guard violations.isEmpty else { return audited(tool.name, arguments, .refused(.invalid, violations)) }
        let members: [(key: String, value: JSONValue)]
        if case .object(let given) = arguments { members = given } else { members = [] }
        switch tool.subject {
        case .target(let service, let target):
            let select: JSONPath?
            if case .string(let text) = arguments[ToolCatalog.selectArgument] ?? .null {
                do {
                    select = try JSONPath(parsing: text)
                } catch {
                    return audited(
                        tool.name, arguments,
                        .refused(.invalid, ["$.\(ToolCatalog.selectArgument): \(error.description)"]))
                }
            } else {
                select = nil
            }
            let params: [String: ParamValue]
            do {
                params = try ToolInput.params(from: members, of: target, folder: options.allowsFilesIn)
            } catch {
                return audited(tool.name, arguments, .refused(.invalid, error.violations))
            }
            let exchange = await client.exchange(
                service, target, with: CallOptions(arguments: params, environment: client.environment))
            let outcome = ToolOutcome.of(
                exchange, select: select, limit: options.maxResultBytes, structured: tool.outputSchema != nil)
            return audited(tool.name, ToolOutcome.clean(arguments, exchange.redactor), outcome, masked: true)
        case .flow:
            guard
                let result = await client.run(
                    flow: tool.fullName, variables: members.map { (name: $0.key, value: $0.value) })
            else {
                throw unknown(name, arguments: arguments)
            }
            return audited(tool.name, arguments, ToolOutcome.of(result, limit: options.maxResultBytes))
        }
    }

    /// An unknown tool: recorded, then a JSON-RPC error, as MCP's spec asks.
    private func unknown(_ name: String, arguments: JSONValue) -> MCPError {
        _ = audited(name, arguments, .refused(.refused, ["moya-cli: no tool '\(name)'"]))
        return MCPError.invalidParams("Unknown tool: \(redactor.scrub(name))")
    }

    private func search(_ arguments: JSONValue) -> ToolOutcome {
        guard case .string(let query) = arguments["query"] ?? .null else {
            return .refused(.invalid, ["$.query: expected a string"])
        }
        let found = catalog.search(query, limit: 50)
        let lines = found.map { "\($0.name): \($0.title == $0.fullName ? $0.description : $0.title)" }
        return ToolOutcome(
            kind: .ok, text: lines.isEmpty ? "no operation matches '\(query)'" : lines.joined(separator: "\n"),
            structured: nil, status: nil, bytes: 0, seconds: 0)
    }

    private func describe(_ arguments: JSONValue) -> ToolOutcome {
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
    private func audited(_ tool: String, _ arguments: JSONValue, _ outcome: ToolOutcome, masked: Bool = false)
        -> ToolOutcome
    {
        audit?.record(
            tool: redactor.scrub(tool), arguments: masked ? arguments : ToolOutcome.clean(arguments, redactor),
            outcome: outcome)
        return outcome
    }

    /// An outcome as the SDK's result.
    func result(of outcome: ToolOutcome) -> CallTool.Result {
        CallTool.Result(
            content: [.text(outcome.text)], structuredContent: outcome.structured.map(Self.value),
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
