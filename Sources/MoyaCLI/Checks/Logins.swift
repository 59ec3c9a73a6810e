import MoyaCore
import MoyaSpec
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The logins of one process, one `Authenticator` per service and environment, so that every
/// request of a run, parallel checks included, shares one token and one refresh.
final class Logins: Sendable {
    private let authenticators = Mutex<[String: Authenticator]>([:])
    /// Where tokens are cached: `$XDG_CACHE_HOME/moya-cli`, else `~/.cache/moya-cli`; nil when
    /// `--no-token-cache` is given or neither is set.
    let cacheDirectory: String?

    init(environment: Environment, usesCache: Bool) {
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

    /// The authenticator for `login` in `service`, made the first time it is asked for.
    func authenticator(
        for login: LoginSpec, in service: ServiceSpec, environment: String?, runner: CheckRunner
    ) -> Authenticator {
        let key = "\(service.name)/\(environment ?? "")"
        return authenticators.withLock { authenticators in
            if let existing = authenticators[key] { return existing }
            let cacheFile = login.cache ? cacheFile(for: login, in: service, environment: environment) : nil
            let cached = cacheFile.flatMap(Self.readCache)
            let made = Authenticator(cached: cached) {
                let credential = try await Self.logIn(login, in: service, runner: runner)
                if let cacheFile { Self.writeCache(credential, to: cacheFile) }
                return credential
            }
            authenticators[key] = made
            return made
        }
    }

    /// Calls the login target, without any login of its own, and reads the token from it.
    static func logIn(_ login: LoginSpec, in service: ServiceSpec, runner: CheckRunner) async throws
        -> Authenticator.Credential
    {
        let failed = { (message: String) in LoginError("login with \(login.targetReference) failed: \(message)") }
        let loginService = login.service.flatMap { name in runner.services.first { $0.name == name } } ?? service
        guard let target = loginService.target(named: login.target) else {
            throw failed("there is no target \(login.targetReference)")
        }
        var arguments: [String: ParamValue] = [:]
        // A value from the environment stays a secret in the login request's log.
        var secret: Set<String> = []
        for argument in login.arguments {
            guard let param = target.param(named: argument.key) else { throw failed("no param '\(argument.key)'") }
            let rendered = try FlowVariables().render(argument.value)
            arguments[param.name] = try param.value(from: FlowVariables.texts(of: rendered.value))
            if rendered.isSecret { secret.insert(param.name) }
        }
        let exchange = await runner.exchange(
            loginService, target,
            with: CallOptions(arguments: arguments, environment: runner.environment, secretArguments: secret),
            authenticating: false)
        guard let response = exchange.response else { throw failed(exchange.failure ?? "no response") }
        guard (200..<300).contains(response.statusCode) else { throw failed("status \(response.statusCode)") }
        guard let json = try? JSONValue(parsing: response.data) else { throw failed("the response is not JSON") }
        guard case .string(let token)? = (try? login.tokenPath.values(in: json))?.first, !token.isEmpty else {
            throw failed("no token at \(login.tokenPath)")
        }
        var expiry: Date?
        if let path = login.expiresInPath {
            switch (try? path.values(in: json))?.first {
            case .integer(let seconds)?: expiry = Date().addingTimeInterval(Double(seconds))
            case .number(let seconds)?: expiry = Date().addingTimeInterval(seconds)
            default: break
            }
        }
        return Authenticator.Credential(token: token, expiry: expiry)
    }

    // MARK: - Cache

    /// `SERVICE-HASH.json`, the hash over the base URL, the environment and the login's
    /// params, so that other credentials never share a token.
    private func cacheFile(for login: LoginSpec, in service: ServiceSpec, environment: String?) -> String? {
        guard let cacheDirectory else { return nil }
        var material = [service.baseURL, environment ?? "", login.targetReference]
        for argument in login.arguments {
            let value = (try? FlowVariables().render(argument.value).value).map(FlowVariables.text(of:)) ?? ""
            material.append("\(argument.key)=\(value)")
        }
        let digest = SHA256.hash(Array(material.joined(separator: "\n").utf8))
        let hex = digest.prefix(16).map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
        return "\(cacheDirectory)/\(service.name)-\(hex).json"
    }

    private static func readCache(_ path: String) -> Authenticator.Credential? {
        guard let data = FileManager.default.contents(atPath: path), let json = try? JSONValue(parsing: data),
            case .string(let token)? = json["token"]
        else { return nil }
        var expiry: Date?
        if case .number(let seconds)? = json["expiresAt"] { expiry = Date(timeIntervalSince1970: seconds) }
        if case .integer(let seconds)? = json["expiresAt"] { expiry = Date(timeIntervalSince1970: Double(seconds)) }
        let credential = Authenticator.Credential(token: token, expiry: expiry)
        return credential.isExpired() ? nil : credential
    }

    /// Keeps the token for later runs, readable by its owner only; a cache that cannot be
    /// written is no reason to fail the request.
    private static func writeCache(_ credential: Authenticator.Credential, to path: String) {
        guard let slash = path.lastIndex(of: "/") else { return }
        try? FileManager.default.createDirectory(
            atPath: String(path[..<slash]), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        var members: [(key: String, value: JSONValue)] = [("token", .string(credential.token))]
        if let expiry = credential.expiry {
            members.append(("expiresAt", .integer(Int(expiry.timeIntervalSince1970))))
        }
        try? PendingFile.write(Array(JSONValue.object(members).serialized().utf8), to: path, mode: 0o600)
    }
}

/// A login that did not give a token.
struct LoginError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
