import MoyaBinding
import MoyaHTTP
import MoyaSpec
import Synchronization

#if canImport(Glibc)
    import Glibc
    private let systemRead = Glibc.read
#elseif canImport(Musl)
    import Musl
    private let systemRead = Musl.read
#elseif canImport(Darwin)
    import Darwin
    private let systemRead = Darwin.read
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The logins of one process, one `Authenticator` per service and environment, so that every
/// request of a run, parallel checks included, shares one token and one refresh.
public final class Logins: Sendable {
    private let authenticators = Mutex<[String: Authenticator]>([:])
    /// Where tokens are cached: `$XDG_CACHE_HOME/moya-cli`, else `~/.cache/moya-cli`; nil when
    /// `--no-token-cache` is given or neither is set.
    public let cacheDirectory: String?

    public init(environment: Environment, usesCache: Bool) {
        if !usesCache {
            cacheDirectory = nil
        } else if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            cacheDirectory = xdg + "/moya-cli"
        } else if let home = environment["HOME"], !home.isEmpty {
            cacheDirectory = home + "/.cache/moya-cli"
        } else {
            cacheDirectory = nil
        }
    }

    /// Sends a login target, itself without a login: the client's `exchange`.
    public typealias Send = @Sendable (ServiceSpec, TargetSpec, CallOptions) async -> Exchange

    /// The authenticator for `login` in `service`, made the first time it is asked for; its
    /// login call goes through `send`, and `serviceNamed` finds a login target's service.
    public func authenticator(
        for login: LoginSpec, in service: ServiceSpec, environment: String?, send: @escaping Send,
        serviceNamed: @escaping @Sendable (String) -> ServiceSpec?
    ) -> Authenticator {
        let key = "\(service.name)/\(environment ?? "")"
        return authenticators.withLock { authenticators in
            if let existing = authenticators[key] { return existing }
            let cacheFile = login.cache ? cacheFile(for: login, in: service, environment: environment) : nil
            let cached = cacheFile.flatMap(Self.readCache)
            let made = Authenticator(cached: cached) {
                let credential = try await Self.logIn(
                    login, in: service, environment: environment, send: send, serviceNamed: serviceNamed)
                if let cacheFile { Self.writeCache(credential, to: cacheFile) }
                return credential
            }
            authenticators[key] = made
            return made
        }
    }

    /// Calls the login target, without any login of its own, and reads the token from it.
    public static func logIn(
        _ login: LoginSpec, in service: ServiceSpec, environment: String?, send: Send,
        serviceNamed: (String) -> ServiceSpec?
    ) async throws
        -> Authenticator.Credential
    {
        let failed = { (message: String) in LoginError("login with \(login.targetReference) failed: \(message)") }
        let loginService = login.service.flatMap(serviceNamed) ?? service
        guard let target = loginService.target(named: login.target) else {
            throw failed("there is no target \(login.targetReference)")
        }
        var arguments: [String: ParamValue] = [:]
        // A value from the environment stays a secret in the login request's log.
        var secret: Set<String> = []
        for argument in login.arguments {
            guard let param = target.param(named: argument.key) else { throw failed("no param '\(argument.key)'") }
            let rendered = try FlowVariables().render(argument.value)
            arguments[param.name] = try param.value(from: rendered.value)
            if rendered.isSecret { secret.insert(param.name) }
        }
        let exchange = await send(
            loginService, target,
            CallOptions(
                arguments: arguments, environment: environment, secretArguments: secret, argumentsFromSpec: true))
        guard let response = exchange.response else { throw failed(exchange.failure?.reason ?? "no response") }
        guard (200..<300).contains(response.statusCode) else { throw failed("status \(response.statusCode)") }
        guard let json = try? JSONValue(parsing: response.data) else { throw failed("the response is not JSON") }
        guard case .string(let token)? = login.tokenPath.values(in: json).first, !token.isEmpty else {
            throw failed("no token at \(login.tokenPath)")
        }
        var seconds: Double?
        if let path = login.expiresInPath {
            switch path.values(in: json).first {
            case .integer(let value)?: seconds = Double(value)
            case .number(let value)?: seconds = value
            default: break
            }
        }
        return Authenticator.Credential(token: token, expiry: seconds.flatMap(Self.expiry(in:)))
    }

    /// The longest lifetime a token is taken to have: a server's `expires_in` is clamped to it.
    public static let longestLifetime: Double = 366 * 86_400

    /// When a token that lives `seconds` expires, the server's number clamped to a year; a
    /// lifetime that is not a positive finite number says nothing, and the token is used
    /// until the server refuses it.
    public static func expiry(in seconds: Double) -> Date? {
        guard seconds.isFinite, seconds > 0 else { return nil }
        return Date().addingTimeInterval(min(seconds, longestLifetime))
    }

    // MARK: - Cache

    /// `SERVICE-HASH.json`, the hash over the base URL, the environment and the login's
    /// params, so that other credentials never share a token.
    private func cacheFile(for login: LoginSpec, in service: ServiceSpec, environment: String?) -> String? {
        guard let cacheDirectory else { return nil }
        var material = [service.baseURL, environment ?? "", login.targetReference]
        for argument in login.arguments {
            let value = (try? FlowVariables().render(argument.value).value).map(\.text) ?? ""
            material.append("\(argument.key)=\(value)")
        }
        let digest = SHA256.hash(Array(material.joined(separator: "\n").utf8))
        let hex = digest.prefix(16).map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
        return "\(cacheDirectory)/\(service.name)-\(hex).json"
    }

    /// The largest cache file read: a token file is a few hundred bytes.
    public static let largestCacheFile = 64 << 10

    /// The cached token, read without following a link at the path, from a regular file of
    /// at most `largestCacheFile` bytes in a directory that is the user's own.
    public static func readCache(_ path: String) -> Authenticator.Credential? {
        guard let slash = path.lastIndex(of: "/"), isPrivateDirectory(String(path[..<slash])) else { return nil }
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == geteuid(),
            info.st_size <= largestCacheFile
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: largestCacheFile + 1)
        var count = 0
        while count < bytes.count {
            let read = bytes[count...].withUnsafeMutableBytes { buffer in
                systemRead(descriptor, buffer.baseAddress, buffer.count)
            }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { break }
            count += read
        }
        guard count <= largestCacheFile, let json = try? JSONValue(parsing: Data(bytes[..<count])),
            case .string(let token)? = json["token"]
        else { return nil }
        var expiry: Date?
        if case .number(let seconds)? = json["expiresAt"], seconds.isFinite {
            expiry = Date(timeIntervalSince1970: seconds)
        }
        if case .integer(let seconds)? = json["expiresAt"] { expiry = Date(timeIntervalSince1970: Double(seconds)) }
        let credential = Authenticator.Credential(token: token, expiry: expiry)
        return credential.isExpired() ? nil : credential
    }

    /// Whether `path` is a directory, not a link to one, owned by this user and closed to others.
    public static func isPrivateDirectory(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR && info.st_uid == geteuid()
            && (info.st_mode & 0o077) == 0
    }

    /// Keeps the token for later runs, readable by its owner only, in a private directory and
    /// never through a link; a cache that cannot be written is no reason to fail the request.
    public static func writeCache(_ credential: Authenticator.Credential, to path: String) {
        guard let slash = path.lastIndex(of: "/") else { return }
        let directory = String(path[..<slash])
        try? FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var info = stat()
        if lstat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == geteuid() {
            chmod(directory, 0o700)
        }
        guard isPrivateDirectory(directory) else { return }
        var members: [(key: String, value: JSONValue)] = [("token", .string(credential.token))]
        if let expiry = credential.expiry, let seconds = Int(exactly: expiry.timeIntervalSince1970.rounded()) {
            members.append(("expiresAt", .integer(seconds)))
        }
        try? PendingFile.write(
            Array(JSONValue.object(members).serialized().utf8), to: path, mode: 0o600, followsLinks: false)
    }
}
