import ArgumentParser
import MoyaCommandSupport
import MoyaHTTP
import MoyaMCP
import MoyaMCPProtocol
import MoyaSpec
import MoyaTransport

/// `moya-cli mcp --http`'s options: where to listen, whose pages may call, which bearer tokens
/// are accepted, and TLS.
struct MCPHTTPOptions: ParsableArguments {
    @Option(
        name: .customLong("http"),
        help: ArgumentHelp(
            "Serve MCP's Streamable HTTP transport on /mcp at [HOST:]PORT (host 127.0.0.1 by default) "
                + "instead of stdio.", valueName: "[host:]port"))
    var http: String?

    @Option(
        name: .customLong("allow-origin"),
        help: ArgumentHelp(
            "Let web pages of this origin (scheme://host[:port]) call; repeatable. None by default.",
            valueName: "origin"))
    var allowOrigins: [String] = []

    @Flag(
        name: .customLong("no-auth"),
        help: "Serve beyond loopback without bearer tokens: anyone who reaches the port may call.")
    var noAuth = false

    @Option(
        name: .customLong("auth-issuer"),
        help: ArgumentHelp(
            "Require OAuth bearer tokens (JWTs) signed by this authorization server.", valueName: "url"))
    var authIssuer: String?

    @Option(
        help: ArgumentHelp(
            "This server's resource URI, which a token's aud must name (RFC 8707).", valueName: "uri"))
    var audience: String?

    @Option(
        help: ArgumentHelp(
            "The issuer's JWK Set, a file or a URL; found from the issuer's metadata by default.",
            valueName: "file|url"))
    var jwks: String?

    @Option(
        name: .customLong("write-scope"),
        help: ArgumentHelp("The token scope a call of a tool that writes needs.", valueName: "scope"))
    var writeScope: String?

    @Option(
        name: .customLong("delete-scope"),
        help: ArgumentHelp("The token scope a call of a tool that deletes needs.", valueName: "scope"))
    var deleteScope: String?

    @OptionGroup var tls: TLSOptions

    /// Where `--http` listens.
    struct Address: Equatable {
        var host: String
        var port: Int

        /// Whether only this machine can reach it.
        var isLoopback: Bool {
            host == "localhost" || host == "::1" || host.hasPrefix("127.")
        }

        /// `host:port`, an IPv6 address in brackets.
        var authority: String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }
    }

    /// `PORT`, `:PORT`, `HOST:PORT` or `[IPV6]:PORT`.
    static func address(_ text: String) -> Address? {
        var host = "127.0.0.1"
        var port = Substring(text)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[close...].hasPrefix("]:") else { return nil }
            host = String(text[text.index(after: text.startIndex)..<close])
            port = text[text.index(close, offsetBy: 2)...]
        } else if let colon = text.lastIndex(of: ":") {
            if colon != text.startIndex { host = String(text[..<colon]) }
            port = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, !port.isEmpty, port.allSatisfy(\.isASCII), let number = Int(port),
            (0...65_535).contains(number)
        else { return nil }
        return Address(host: host, port: number)
    }

    func validate() throws {
        let httpOnly: [(String, Bool)] =
            [
                ("--allow-origin", !allowOrigins.isEmpty), ("--no-auth", noAuth), ("--auth-issuer", authIssuer != nil),
                ("--audience", audience != nil), ("--jwks", jwks != nil), ("--write-scope", writeScope != nil),
                ("--delete-scope", deleteScope != nil),
            ] + tls.given
        guard let http else {
            if let (flag, _) = httpOnly.first(where: \.1) { throw ValidationError("\(flag) needs --http") }
            return
        }
        guard let address = Self.address(http) else {
            throw ValidationError("--http takes [HOST:]PORT, a port from 0 to 65535, not '\(http)'")
        }
        if (authIssuer == nil) != (audience == nil) {
            throw ValidationError("--auth-issuer and --audience go together: a token is checked for both")
        }
        if noAuth, authIssuer != nil { throw ValidationError("--no-auth and --auth-issuer contradict each other") }
        for (flag, given) in [("--jwks", jwks != nil), ("--write-scope", writeScope != nil)]
            + [("--delete-scope", deleteScope != nil)] where given && authIssuer == nil
        {
            throw ValidationError("\(flag) needs --auth-issuer")
        }
        if !address.isLoopback, authIssuer == nil, !noAuth {
            throw ValidationError(
                "--http \(http) listens beyond this machine: require tokens with --auth-issuer and --audience, "
                    + "or say --no-auth")
        }
        for origin in allowOrigins where !(origin.hasPrefix("http://") || origin.hasPrefix("https://")) {
            throw ValidationError("--allow-origin takes scheme://host[:port], not '\(origin)'")
        }
        for (flag, value) in [("--auth-issuer", authIssuer), ("--audience", audience)] {
            if let value, !(value.hasPrefix("https://") || value.hasPrefix("http://")) {
                throw ValidationError("\(flag) takes an http or https URL, not '\(value)'")
            }
        }
    }

    /// The transport's options: the key set fetched or read, the certificate loaded.
    func transportOptions(session: Session) async throws -> HTTPTransport.Options {
        var options = HTTPTransport.Options()
        options.allowedOrigins = allowOrigins
        options.scopes = ScopePolicy(write: writeScope, delete: deleteScope)
        if let authIssuer, let audience {
            do {
                options.tokens = try await KeySetSource.tokens(
                    issuer: authIssuer, audience: audience, jwks: jwks,
                    scopes: [writeScope, deleteScope].compactMap { $0 }, session: session)
            } catch {
                throw ListenFailure(error.description)
            }
        }
        options.tls = try tls.context()
        return options
    }
}
