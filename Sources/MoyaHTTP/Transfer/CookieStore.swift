import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A cookie jar that requests share: the session stores each hop's `Set-Cookie` in it and
/// sends its cookies on every hop, redirects included, as a browser's cookie store does. One
/// store per flow run carries cookies from step to step.
public final class CookieStore: Sendable {
    private let jar = Mutex(CookieJar())

    /// An empty store.
    public init() {}

    /// The cookies as they are now.
    public var snapshot: CookieJar { jar.withLock { $0 } }

    /// Stores the cookies of the `Set-Cookie` header values a response from `url` carried.
    public func store(_ setCookies: [String], from url: URL) {
        guard !setCookies.isEmpty else { return }
        jar.withLock { $0.store(setCookies, from: url) }
    }

    /// The `Cookie` header for a request to `url`, or nil when no cookie applies.
    public func header(for url: URL) -> String? {
        jar.withLock { $0.header(for: url) }
    }
}
