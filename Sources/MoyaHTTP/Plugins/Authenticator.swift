#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A login shared by every request of a process: it logs in lazily at the first request that
/// needs a credential, and refreshes at most once at a time, while requests that need the
/// credential wait. A request that failed with an older credential than the current one is
/// replayed with the current one without logging in again, as Alamofire's
/// `AuthenticationInterceptor` does. This answers Moya's issues #1177, #1536 and #2178.
///
/// ```swift
/// let authenticator = Authenticator { try await logIn() }
/// let provider = MoyaProvider<API>(plugins: [AuthenticationPlugin()])
/// let result = await provider.result(for: .profile, authenticatedBy: authenticator)
/// ```
public actor Authenticator {
    /// A credential and when it stops being good.
    public struct Credential: Sendable, Equatable {
        /// The token.
        public var token: String
        /// When it expires; nil when the server did not say.
        public var expiry: Date?
        /// Which login made it, counting from 1; a cached credential is 0.
        public internal(set) var generation: Int = 0

        /// Creates a credential.
        public init(token: String, expiry: Date? = nil) {
            self.token = token
            self.expiry = expiry
        }

        /// Whether it has expired at `now`.
        public func isExpired(at now: Date = Date()) -> Bool {
            expiry.map { $0 <= now } ?? false
        }
    }

    private let logIn: @Sendable () async throws -> Credential
    private var current: Credential?
    private var pending: _Concurrency.Task<Credential, any Error>?
    /// How many times it has logged in, the first login included.
    public private(set) var logins = 0

    /// An authenticator that logs in with `logIn`, starting from `cached` when there is one.
    public init(cached: Credential? = nil, logIn: @escaping @Sendable () async throws -> Credential) {
        self.logIn = logIn
        current = cached
    }

    /// The current credential, logging in first when there is none or it has expired; callers
    /// that arrive during a login wait for it.
    public func credential() async throws -> Credential {
        if let current, !current.isExpired() { return current }
        return try await login()
    }

    /// A credential to replay a request with after `failed` was refused: the current one when a
    /// newer one has come since, else a new login shared by everyone asking.
    public func refresh(after failed: Credential) async throws -> Credential {
        if let current, current.generation > failed.generation, !current.isExpired() {
            return current
        }
        return try await login()
    }

    /// One login for everyone who asks while it runs. The task runs on this actor, so it
    /// numbers the credential and makes it current before any waiter sees it.
    private func login() async throws -> Credential {
        if let pending { return try await pending.value }
        let task = _Concurrency.Task { () async throws -> Credential in
            defer { self.pending = nil }
            var credential = try await self.logIn()
            self.logins += 1
            credential.generation = self.logins
            self.current = credential
            return credential
        }
        pending = task
        return try await task.value
    }

    /// Sends with the current credential, and when the response's status is one of
    /// `refreshOn`, refreshes the credential and sends once more.
    public func perform(
        refreshOn statuses: Set<Int>,
        _ send: @Sendable (Credential) async -> Result<Response, MoyaError>
    ) async -> Result<Response, MoyaError> {
        let credential: Credential
        do {
            credential = try await self.credential()
        } catch {
            return .failure(.underlying(error, nil))
        }
        let first = await send(credential)
        guard let status = first.answered?.statusCode, statuses.contains(status) else { return first }
        let renewed: Credential
        do {
            renewed = try await refresh(after: credential)
        } catch {
            return .failure(.underlying(error, nil))
        }
        return await send(renewed)
    }

    /// The credential of the request being prepared, for `AuthenticationPlugin`.
    @TaskLocal public static var credential: Credential?
}

/// Puts `Authenticator.credential` on each request that `result(for:authenticatedBy:)` sends:
/// `Authorization: Bearer <token>` by default, another scheme, or a header of its own.
public struct AuthenticationPlugin: PluginType {
    /// Where the token goes.
    public enum Placement: Sendable, Equatable {
        /// `Authorization: <scheme> <token>`.
        case authorization(scheme: String)
        /// `<name>: <token>`.
        case header(String)
    }

    /// Where the token goes.
    public let placement: Placement
    /// The credential sent; nil sends `Authenticator.credential`, the one of the request
    /// `result(for:authenticatedBy:)` is making.
    public let credential: Authenticator.Credential?

    /// A plugin that sends the token as `placement` says; `Bearer` by default.
    public init(placement: Placement = .authorization(scheme: "Bearer"), credential: Authenticator.Credential? = nil) {
        self.placement = placement
        self.credential = credential
    }

    public func prepare(_ request: Request, target: any TargetType) -> Request {
        guard let credential = credential ?? Authenticator.credential else { return request }
        var request = request
        switch placement {
        case .authorization(let scheme):
            request.headers.update(name: "Authorization", value: "\(scheme) \(credential.token)")
        case .header(let name): request.headers.update(name: name, value: credential.token)
        }
        return request
    }
}
