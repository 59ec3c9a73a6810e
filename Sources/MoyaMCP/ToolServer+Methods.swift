import MoyaHTTP
import MoyaMCPProtocol
import MoyaRuntime

/// MCP's methods, answered by the server itself at every revision it speaks
/// (`ProtocolRevision`): `initialize`, `server/discover`, `ping`, `tools/list` and
/// `tools/call`. A transport hands each message to `reply(to:)` and writes what comes back.
extension ToolServer {
    /// The answer to one JSON-RPC message. Responses and notifications get none: the server
    /// sends no requests, and the one notification it heeds, `notifications/cancelled`, is the
    /// transport's (it holds the work to cancel).
    @Sendable public func reply(to message: JSONValue) -> Reply {
        reply(to: message, from: .local)
    }

    /// The answer to one JSON-RPC message from `caller`, whom the audit log names.
    public func reply(to message: JSONValue, from caller: Caller) -> Reply {
        guard case .string(let method) = message["method"] ?? .null, let id = message["id"] else { return .none }
        let params = message["params"] ?? .object([])
        guard case .object = params else {
            return .now(RPCError.invalidParams("params must be an object").response(to: id))
        }
        let revision: String?
        do {
            // `initialize` is the handshake's, even with an envelope: 2026-07-28 has none.
            revision = method == "initialize" ? nil : try ProtocolRevision.of(params)
        } catch {
            return .now(error.response(to: id))
        }
        switch method {
        case "initialize":
            return .now(Reply.result(initializeResult(params), to: id))
        case "server/discover":
            // Before 2026-07-28 there is no such method: a client that probes it without the
            // envelope falls back to `initialize`.
            guard revision != nil else { return .now(RPCError.methodNotFound(method).response(to: id)) }
            return .now(Reply.result(discoverResult(), to: id))
        case "ping":
            return .now(Reply.result(Self.stamped(.object([]), revision), to: id))
        case "tools/list":
            let cursor: String?
            do throws(RPCError) {
                cursor = try Self.cursor(in: params)
            } catch {
                return .now(error.response(to: id))
            }
            return .later(id: id) { [self] in
                switch await listing(cursor: cursor) {
                case .success(let page): Reply.result(Self.stamped(page, revision, cached: true), to: id)
                case .failure(let error): error.response(to: id)
                }
            }
        case "tools/call":
            guard case .string(let name) = params["name"] ?? .null else {
                return .now(RPCError.invalidParams("the tool's name must be a string").response(to: id))
            }
            guard case .object(let members) = params["arguments"] ?? .object([]) else {
                return .now(RPCError.invalidParams("the arguments must be an object").response(to: id))
            }
            // By name: schema violations are listed in this order, whatever the client's.
            let arguments = JSONValue.object(members.sorted { $0.key < $1.key })
            return .later(id: id) { [self] in
                do throws(RPCError) {
                    let outcome = try await call(name, arguments: arguments, from: caller)
                    return Reply.result(Self.stamped(Self.result(of: outcome), revision), to: id)
                } catch {
                    return error.response(to: id)
                }
            }
        default:
            return .now(RPCError.methodNotFound(method).response(to: id))
        }
    }

    /// A `tools/list` request answered on the calling thread, waiting for the specs if need
    /// be; nil for any other message.
    @Sendable public func answer(_ message: JSONValue) -> JSONValue? {
        guard message["method"] == .string("tools/list"), let id = message["id"], id != .null else { return nil }
        let cursor: String?
        do throws(RPCError) {
            cursor = try Self.cursor(in: message["params"] ?? .object([]))
        } catch {
            return error.response(to: id)
        }
        switch page(cursor: cursor) {
        case .success(let page): return Reply.result(page, to: id)
        case .failure(let error): return error.response(to: id)
        }
    }

    /// `tools/list`'s cursor: a string, or none for the first page.
    static func cursor(in params: JSONValue) throws(RPCError) -> String? {
        switch params["cursor"] {
        case .string(let text)?: return text
        case nil, .null?: return nil
        default: throw .invalidParams("the cursor must be a string")
        }
    }

    /// A page of tools once the specs are loaded (or from the preview while they load).
    private func listing(cursor: String?) async -> Result<JSONValue, RPCError> {
        if cursor != nil || !listsFromPreview { _ = await loaded() }
        return page(cursor: cursor)
    }

    /// What every revision's server says of itself.
    var serverInfo: JSONValue {
        .object([
            ("name", .string("moya-cli")), ("title", .string("moya-cli")),
            ("version", .string(MoyaRuntime.Version.current)),
        ])
    }

    var capabilities: JSONValue {
        .object([("tools", .object([("listChanged", .bool(false))]))])
    }

    var instructions: String? {
        dynamicTools
            ? "Search the API's operations with search_targets, read one's arguments with describe_target, "
                + "and send it with call_target." : nil
    }

    /// The handshake: the client's revision when the server speaks it, else the newest.
    func initializeResult(_ params: JSONValue) -> JSONValue {
        var version = ProtocolRevision.handshake[ProtocolRevision.handshake.count - 1]
        if case .string(let asked)? = params["protocolVersion"], ProtocolRevision.handshake.contains(asked) {
            version = asked
        }
        var members: [(key: String, value: JSONValue)] = [
            ("protocolVersion", .string(version)), ("capabilities", capabilities), ("serverInfo", serverInfo),
        ]
        if let instructions { members.append(("instructions", .string(instructions))) }
        return .object(members)
    }

    /// 2026-07-28's `server/discover`: the revisions, the capabilities, the server in `_meta`.
    func discoverResult() -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("supportedVersions", .array(ProtocolRevision.stateless.map(JSONValue.string))),
            ("capabilities", capabilities),
        ]
        if let instructions { members.append(("instructions", .string(instructions))) }
        members.append(("_meta", .object([(ProtocolRevision.serverInfoKey, serverInfo)])))
        return Self.stamped(.object(members), "", cached: true)
    }

    /// A result as `revision` has it: from 2026-07-28 every result says it is complete, and
    /// a cacheable one (`server/discover`, `tools/list`) how long it may be kept: not at all
    /// (`ttlMs` 0), since another instance behind the same address may serve other specs; and
    /// by anyone (`public`), since no tool depends on who asks.
    static func stamped(_ result: JSONValue, _ revision: String?, cached: Bool = false) -> JSONValue {
        guard revision != nil, case .object(var members) = result else { return result }
        members.append(("resultType", .string("complete")))
        if cached {
            members.append(("ttlMs", .integer(0)))
            members.append(("cacheScope", .string("public")))
        }
        return .object(members)
    }
}
