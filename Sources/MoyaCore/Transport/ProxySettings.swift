import AsyncHTTPClient

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The proxies `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY` name, either case, as curl reads them.
struct ProxySettings {
    var httpProxy: String?
    var httpsProxy: String?
    var noProxy: [String]

    init(environment: Environment) {
        func value(_ name: String) -> String? {
            (environment[name.lowercased()] ?? environment[name]).flatMap { $0.isEmpty ? nil : $0 }
        }
        httpProxy = value("HTTP_PROXY")
        httpsProxy = value("HTTPS_PROXY")
        noProxy = (value("NO_PROXY") ?? "").split(separator: ",").map {
            String($0.filter { !$0.isWhitespace }).lowercased()
        }.filter { !$0.isEmpty }
    }

    /// The proxy for a request to `url`, or nil to connect directly.
    func proxy(for url: URL) -> HTTPClient.Configuration.Proxy? {
        guard let host = url.host?.lowercased() else { return nil }
        for pattern in noProxy {
            if pattern == "*" { return nil }
            let suffix = pattern.hasPrefix(".") ? String(pattern.dropFirst()) : pattern
            if host == suffix || host.hasSuffix("." + suffix) { return nil }
        }
        let chosen = url.scheme?.lowercased() == "https" ? (httpsProxy ?? httpProxy) : httpProxy
        guard let chosen else { return nil }
        return try? Self.proxy(named: chosen)
    }

    /// The proxy a URL such as `http://proxy:3128` or `proxy:3128` names. Only HTTP proxies
    /// are supported; credentials in the URL are sent as Basic proxy authorization.
    static func proxy(named text: String) throws(NetworkError) -> HTTPClient.Configuration.Proxy {
        let proxyURL = URL(string: text.contains("://") ? text : "http://" + text)
        guard let proxyURL, let host = proxyURL.host, !host.isEmpty, proxyURL.scheme?.lowercased() == "http" else {
            throw NetworkError(.unknown, "the proxy '\(text)' is not an http://HOST[:PORT] URL")
        }
        let port = proxyURL.port ?? 80
        if let user = proxyURL.user {
            let password = proxyURL.password ?? ""
            return .server(
                host: host, port: port,
                authorization: .basic(credentials: Data("\(user):\(password)".utf8).base64EncodedString()))
        }
        return .server(host: host, port: port)
    }
}
