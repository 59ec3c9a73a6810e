import MoyaHTTP

/// Who sent a request: nobody in particular on stdio; over HTTP the client's address, and,
/// when bearer tokens are required, the subject and scopes of the token it presented. The
/// audit log names it, and the scopes decide which tools it may call (`ScopePolicy`).
public struct Caller: Sendable, Equatable {
    /// The token's `sub`, when a token was verified.
    public var subject: String?
    /// The client's address, as `host:port`, over HTTP.
    public var address: String?
    /// The token's scopes; nil when no token is required, which grants every scope.
    public var scopes: Set<String>?

    public init(subject: String? = nil, address: String? = nil, scopes: Set<String>? = nil) {
        self.subject = subject
        self.address = address
        self.scopes = scopes
    }

    /// The process at the other end of stdio.
    public static let local = Caller()

    /// Whether the caller holds `scope`: always when no token is required.
    public func holds(_ scope: String) -> Bool {
        scopes.map { $0.contains(scope) } ?? true
    }

    /// The audit log's `caller` member; nil for stdio's caller, whom the log does not name.
    package var audited: JSONValue? {
        var members: [(key: String, value: JSONValue)] = []
        if let subject { members.append(("sub", .string(subject))) }
        if let address { members.append(("address", .string(address))) }
        return members.isEmpty ? nil : .object(members)
    }
}

/// `--write-scope` and `--delete-scope`: the token scopes a caller needs for a tool that
/// writes, or deletes, on top of the flags that offer such tools at all.
public struct ScopePolicy: Sendable, Equatable {
    public var write: String?
    public var delete: String?

    public init(write: String? = nil, delete: String? = nil) {
        self.write = write
        self.delete = delete
    }

    /// The scope `caller` lacks for `tool`, or nil when it may call it. Every method that is
    /// not read-only needs a scope once any is configured: a tool that deletes needs the
    /// delete scope when one is named (and the write scope too when it also writes, as a flow
    /// may), and every other one the write scope, or the delete scope when that is the only
    /// one named. So no configuration leaves a writing method open to a token with neither.
    public func missing(for tool: ToolAccess, caller: Caller) -> String? {
        if tool.isReadOnly { return nil }
        if tool.isDestructive, let delete {
            if !caller.holds(delete) { return delete }
            if tool.mayWriteToo, let write, !caller.holds(write) { return write }
            return nil
        }
        guard let needed = write ?? delete else { return nil }
        return caller.holds(needed) ? nil : needed
    }
}

/// What a tool may do, as the scope check reads it.
public struct ToolAccess: Sendable, Equatable {
    public var name: String
    /// Whether it only reads (GET, HEAD, OPTIONS, or a flow of those).
    public var isReadOnly: Bool
    /// Whether it deletes.
    public var isDestructive: Bool
    /// Whether, deleting, it may write as well: a flow, which can do both.
    public var mayWriteToo: Bool

    public init(name: String, isReadOnly: Bool, isDestructive: Bool, mayWriteToo: Bool) {
        self.name = name
        self.isReadOnly = isReadOnly
        self.isDestructive = isDestructive
        self.mayWriteToo = mayWriteToo
    }
}

/// What answers MCP's messages for a transport: `ToolServer`, in MoyaMCP.
public protocol MCPHandler: Sendable {
    /// The answer to one JSON-RPC message from `caller`.
    func reply(to message: JSONValue, from caller: Caller) -> Reply

    /// What a `tools/call` of `name` with `arguments` would run may do, once the tools are
    /// loaded; nil when it names no tool.
    func access(ofCall name: String, arguments: JSONValue) async -> ToolAccess?
}
