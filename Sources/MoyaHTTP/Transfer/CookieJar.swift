#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Cookies kept between requests, stored and sent by RFC 6265's rules: host-only and domain
/// cookies, path matching, `Secure`, and expiry by `Max-Age` or `Expires`.
public struct CookieJar: Sendable {
    /// One stored cookie.
    public struct Cookie: Sendable, Hashable {
        /// The name.
        public var name: String
        /// The value.
        public var value: String
        /// The host, or with `hostOnly` false, the domain and its subdomains.
        public var domain: String
        /// Whether only `domain` itself receives it.
        public var hostOnly: Bool
        /// The path it is sent under.
        public var path: String
        /// Whether it is sent over HTTPS only.
        public var secure: Bool
        /// When it expires; nil for a session cookie.
        public var expiry: Date?
        /// Its place in the order cookies were first stored.
        var creation: Int
    }

    /// The cookies, oldest first.
    public private(set) var cookies: [Cookie] = []
    private var created = 0

    /// An empty jar.
    public init() {}

    /// Stores the cookies of the `Set-Cookie` header values a response from `url` carried.
    public mutating func store(_ setCookies: [String], from url: URL, now: Date = Date()) {
        guard let host = url.host?.lowercased() else { return }
        for header in setCookies {
            guard var cookie = Self.parse(header, requestPath: url.path, now: now) else { continue }
            if cookie.domain.isEmpty {
                cookie.domain = host
                cookie.hostOnly = true
            } else if !Self.domainMatches(host, cookie.domain) {
                continue
            } else if PublicSuffixList.isPublicSuffix(cookie.domain) {
                // RFC 6265 5.3 step 5: a public suffix (`com`, `co.uk`, `github.io`) is no
                // cookie's domain. Set by that very host, the cookie is the host's alone;
                // otherwise it is ignored, or `a.evil.com` could set one for `b.victim.com`.
                guard cookie.domain == host else { continue }
                cookie.hostOnly = true
            }
            let existing = cookies.firstIndex {
                $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path
            }
            if let expiry = cookie.expiry, expiry <= now {
                if let existing { cookies.remove(at: existing) }
                continue
            }
            if let existing {
                cookie.creation = cookies[existing].creation
                cookies[existing] = cookie
            } else {
                cookie.creation = created
                created += 1
                cookies.append(cookie)
            }
        }
    }

    /// The `Cookie` header for a request to `url`, or nil when no cookie applies: longer paths
    /// first, then older cookies.
    public func header(for url: URL, now: Date = Date()) -> String? {
        let matching = self.matching(url, now: now)
        guard !matching.isEmpty else { return nil }
        return Self.header(matching.map { ($0.name, $0.value) })
    }

    // MARK: - The Cookie header (RFC 6265 4.2.1)

    /// A `Cookie` header's value: each pair as `name=value`, in order, joined by `; `.
    public static func header(_ pairs: [(name: String, value: String)]) -> String {
        pairs.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// The pairs a `Cookie` header's value holds, in order, each name and value trimmed; a
    /// pair without `=` is left out.
    public static func pairs(inHeader header: String) -> [(name: String, value: String)] {
        header.split(separator: ";").compactMap { pair in
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            return (trimmed(pair[..<equals]), trimmed(pair[pair.index(after: equals)...]))
        }
    }

    /// The cookies a request to `url` sends, in the order it sends them.
    public func matching(_ url: URL, now: Date = Date()) -> [Cookie] {
        guard let host = url.host?.lowercased() else { return [] }
        let path = url.path.isEmpty ? "/" : url.path
        let secure = url.scheme?.lowercased() == "https"
        return cookies.filter { cookie in
            (cookie.hostOnly ? host == cookie.domain : Self.domainMatches(host, cookie.domain))
                && Self.pathMatches(path, cookie.path) && (secure || !cookie.secure)
                && (cookie.expiry.map { $0 > now } ?? true)
        }.sorted { ($0.path.utf8.count, -$0.creation) > ($1.path.utf8.count, -$1.creation) }
    }

    // MARK: - Parsing (RFC 6265 5.2)

    /// The name and value a `Set-Cookie` value sets, or nil when it sets none.
    public static func nameAndValue(_ header: String) -> (name: String, value: String)? {
        parse(header, requestPath: "/", now: Date()).map { ($0.name, $0.value) }
    }

    static func parse(_ header: String, requestPath: String, now: Date) -> Cookie? {
        let parts = header.split(separator: ";", omittingEmptySubsequences: false)
        guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { return nil }
        let name = trimmed(pair[..<equals])
        guard !name.isEmpty else { return nil }
        var cookie = Cookie(
            name: name, value: trimmed(pair[pair.index(after: equals)...]), domain: "", hostOnly: false,
            path: defaultPath(requestPath), secure: false, expiry: nil, creation: 0)
        var maxAge: Date?
        var expires: Date?
        for attribute in parts.dropFirst() {
            let key: String
            var value = ""
            if let equals = attribute.firstIndex(of: "=") {
                key = trimmed(attribute[..<equals]).lowercased()
                value = trimmed(attribute[attribute.index(after: equals)...])
            } else {
                key = trimmed(attribute).lowercased()
            }
            switch key {
            case "expires":
                if let date = CookieDate.parse(value) { expires = date }
            case "max-age":
                let digits = value.hasPrefix("-") ? value.dropFirst() : Substring(value)
                guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { continue }
                let seconds = Int(value) ?? (value.hasPrefix("-") ? Int.min : Int.max)
                maxAge = seconds <= 0 ? Date.distantPast : now.addingTimeInterval(Double(min(seconds, 1 << 40)))
            case "domain":
                var domain = value.lowercased()
                if domain.hasPrefix(".") { domain.removeFirst() }
                if !domain.isEmpty { cookie.domain = domain }
            case "path":
                cookie.path = value.hasPrefix("/") ? value : defaultPath(requestPath)
            case "secure":
                cookie.secure = true
            default:
                continue
            }
        }
        cookie.expiry = maxAge ?? expires
        return cookie
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    /// RFC 6265 5.1.4: the request path up to its last `/`, or `/`.
    static func defaultPath(_ path: String) -> String {
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// RFC 6265 5.1.3: the host is the domain, or a name under it (never an IP address).
    static func domainMatches(_ host: String, _ domain: String) -> Bool {
        if host == domain { return true }
        let isAddress = host.contains(":") || host.split(separator: ".").allSatisfy { $0.allSatisfy(\.isASCIIDigit) }
        return !isAddress && host.hasSuffix("." + domain)
    }

    /// RFC 6265 5.1.4: the cookie's path is the request's, or a prefix of it ending at a `/`.
    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        guard requestPath.hasPrefix(cookiePath) else { return false }
        if requestPath.utf8.count == cookiePath.utf8.count || cookiePath.hasSuffix("/") { return true }
        return requestPath.utf8.dropFirst(cookiePath.utf8.count).first == UInt8(ascii: "/")
    }
}

/// RFC 6265 5.1.1's lenient date reading for `Expires`.
enum CookieDate {
    static let months = HTTPDate.months.map { $0.lowercased() }

    static func parse(_ text: String) -> Date? {
        let tokens = text.split { character in
            guard let ascii = character.asciiValue else { return false }
            return ascii == 0x09 || (0x20...0x2F).contains(ascii) || (0x3B...0x40).contains(ascii)
                || (0x5B...0x60).contains(ascii) || (0x7B...0x7E).contains(ascii)
        }
        var time: (Int, Int, Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in tokens {
            if time == nil, let parsed = self.time(token) {
                time = parsed
            } else if day == nil, let value = leadingNumber(token, digits: 1...2) {
                day = value
            } else if month == nil, let index = months.firstIndex(of: token.prefix(3).lowercased()) {
                month = index + 1
            } else if year == nil, let value = leadingNumber(token, digits: 2...4) {
                year = value
            }
        }
        guard let (hour, minute, second) = time, let day, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard (1...31).contains(day), year >= 1601, hour <= 23, minute <= 59, second <= 59 else { return nil }
        let days = HTTPDate.daysSinceEpoch(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    private static func leadingNumber(_ token: Substring, digits: ClosedRange<Int>) -> Int? {
        let leading = token.prefix(while: \.isASCIIDigit)
        return digits.contains(leading.count) ? Int(leading) : nil
    }

    private static func time(_ token: Substring) -> (Int, Int, Int)? {
        let parts = token.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var values: [Int] = []
        for (index, part) in parts.enumerated() {
            let digits = index == 2 ? part.prefix(while: \.isASCIIDigit) : part
            guard (1...2).contains(digits.count), digits.allSatisfy(\.isASCIIDigit), let value = Int(digits) else {
                return nil
            }
            values.append(value)
        }
        return (values[0], values[1], values[2])
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

/// The Public Suffix List, through libpsl (curl's choice), loaded with `dlopen` the first
/// time a cookie names a `Domain`: most runs store no such cookie, and linking libpsl (with
/// libidn2 and libunistring) made every start 2.6 ms slower (bench/RESULTS.md). libpsl's own
/// list is used, or the system's newer copy when it has one.
enum PublicSuffixList {
    private typealias Latest = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    private typealias Builtin = @convention(c) () -> OpaquePointer?
    private typealias IsPublicSuffix = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32

    /// libpsl's context and its lookup, when libpsl is there; its functions only read them.
    private nonisolated(unsafe) static let library: (context: OpaquePointer, lookup: IsPublicSuffix)? = {
        guard
            let handle = dlopen("libpsl.so.5", RTLD_NOW | RTLD_LOCAL) ?? dlopen("libpsl.dylib", RTLD_NOW | RTLD_LOCAL),
            let lookup = dlsym(handle, "psl_is_public_suffix2")
        else { return nil }
        var context: OpaquePointer?
        if let latest = dlsym(handle, "psl_latest") {
            context = unsafeBitCast(latest, to: Latest.self)(nil)
        }
        if context == nil, let builtin = dlsym(handle, "psl_builtin") {
            context = unsafeBitCast(builtin, to: Builtin.self)()
        }
        guard let context else { return nil }
        return (context, unsafeBitCast(lookup, to: IsPublicSuffix.self))
    }()

    /// `PSL_TYPE_ICANN | PSL_TYPE_PRIVATE`: a suffix ICANN's part lists, or a private one
    /// (`github.io`), whose sites are other people's too.
    private static let anyType: Int32 = 1 << 0 | 1 << 1

    /// Whether libpsl could be loaded.
    static var isAvailable: Bool { library != nil }

    /// Whether `domain` (lowercase, no leading dot) is a public suffix. Without libpsl, a
    /// domain of one label (`com`) is taken as one.
    static func isPublicSuffix(_ domain: String) -> Bool {
        guard let library else { return !domain.contains(".") }
        return library.lookup(library.context, domain, anyType) != 0
    }
}
