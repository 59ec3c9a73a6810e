import MoyaHTTP

/// The Model Context Protocol's revisions that `moya-cli mcp` speaks, chosen per request:
/// - the `initialize` handshake's revisions, up to 2025-11-25: a request without the envelope
///   below is one of these, whatever came before it;
/// - 2026-07-28, stateless: no handshake; every request carries its revision, and the client's
///   capabilities, in `params._meta`, and `server/discover` says what the server speaks.
public enum ProtocolRevision {
    /// What `initialize` negotiates, oldest first: the client's revision when it is one of
    /// these, else the newest.
    public static let handshake = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
    /// The revisions of the per-request envelope.
    public static let stateless = ["2026-07-28"]

    /// The `_meta` keys of the envelope, and of `server/discover`'s answer.
    package static let versionKey = "io.modelcontextprotocol/protocolVersion"
    package static let capabilitiesKey = "io.modelcontextprotocol/clientCapabilities"
    package static let serverInfoKey = "io.modelcontextprotocol/serverInfo"

    /// The revision `params` asks for: stateless when its `_meta` names a revision, else the
    /// handshake's. A revision the server does not speak, or an envelope without the client's
    /// capabilities, is refused as 2026-07-28 says.
    package static func of(_ params: JSONValue) throws(RPCError) -> String? {
        guard let meta = params["_meta"], let version = meta[versionKey] else { return nil }
        guard case .string(let requested) = version else {
            throw .invalidParams("params._meta[\"\(versionKey)\"] must be a string")
        }
        guard stateless.contains(requested) else { throw .unsupportedVersion(requested) }
        guard case .object? = meta[capabilitiesKey] else {
            throw .invalidParams("params._meta has no \"\(capabilitiesKey)\" object")
        }
        return requested
    }
}

/// A JSON-RPC 2.0 error response's `error`: MCP's codes and the standard ones.
public struct RPCError: Error, Sendable, Equatable {
    public var code: Int
    public var message: String
    public var data: JSONValue?

    package static let parseError = -32700
    package static let invalidRequestCode = -32600

    package static func invalidRequest(_ message: String) -> RPCError {
        RPCError(code: invalidRequestCode, message: message)
    }

    package static func methodNotFound(_ method: String) -> RPCError {
        RPCError(code: -32601, message: "method not found: \(method)")
    }

    package static func invalidParams(_ message: String) -> RPCError {
        RPCError(code: -32602, message: message)
    }

    /// 2026-07-28's -32020: an HTTP header that disagrees with the body.
    package static func headerMismatch(_ message: String) -> RPCError {
        RPCError(code: -32020, message: message)
    }

    package static func internalError(_ message: String) -> RPCError {
        RPCError(code: -32603, message: message)
    }

    /// 2026-07-28's -32022: the revision asked for, and the ones to retry with.
    package static func unsupportedVersion(_ requested: String) -> RPCError {
        RPCError(
            code: -32022, message: "unsupported protocol version \(requested)",
            data: .object([
                ("supported", .array(ProtocolRevision.stateless.map(JSONValue.string))),
                ("requested", .string(requested)),
            ]))
    }

    /// The error as a response to `id`.
    package func response(to id: JSONValue) -> JSONValue {
        var error: [(key: String, value: JSONValue)] = [("code", .integer(code)), ("message", .string(message))]
        if let data { error.append(("data", data)) }
        return .object([("jsonrpc", .string("2.0")), ("id", id), ("error", .object(error))])
    }
}

/// What a message gets back.
public enum Reply: Sendable {
    /// Nothing: a notification, or a response to nothing the server asked.
    case none
    /// A response written at once, from the reader.
    case now(JSONValue)
    /// A request answered when `work` ends, unless the client cancels it first.
    case later(id: JSONValue, work: @Sendable () async -> JSONValue)

    /// `result` as the response to `id`.
    package static func result(_ result: JSONValue, to id: JSONValue) -> JSONValue {
        .object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)])
    }
}
