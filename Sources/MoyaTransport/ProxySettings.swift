import AsyncHTTPClient
import MoyaHTTP

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

    /// Whether the environment names any proxy.
    var namesAny: Bool { httpProxy != nil || httpsProxy != nil }

    /// The proxy URL for a request to `url`, as the environment gives it, or nil to connect
    /// directly. Decided for each request, since one run may reach several hosts.
    func proxyURL(for url: URL) -> String? {
        guard let host = url.host?.lowercased() else { return nil }
        for pattern in noProxy {
            if pattern == "*" { return nil }
            let suffix = pattern.hasPrefix(".") ? String(pattern.dropFirst()) : pattern
            if host == suffix || host.hasSuffix("." + suffix) { return nil }
        }
        return url.scheme?.lowercased() == "https" ? (httpsProxy ?? httpProxy) : httpProxy
    }

    /// The proxy a URL such as `http://proxy:3128` or `proxy:3128` names. Only HTTP proxies
    /// are supported; credentials in the URL are sent as Basic proxy authorization.
    static func proxy(named text: String) throws(NetworkError) -> HTTPClient.Configuration.Proxy {
        let proxyURL = URL(string: text.contains("://") ? text : "http://" + text)
        let shown = PrintableRequest.maskingPassword(text.contains("://") ? text : "http://" + text)
        guard let proxyURL, let host = proxyURL.host, !host.isEmpty, proxyURL.scheme?.lowercased() == "http" else {
            throw NetworkError(.unknown, "the proxy '\(shown)' is not an http://HOST[:PORT] URL")
        }
        let port = proxyURL.port ?? 80
        guard (1...65_535).contains(port) else {
            throw NetworkError(.unknown, "the proxy '\(shown)' has port \(port); a port is 1 to 65535")
        }
        if let user = proxyURL.user {
            let password = proxyURL.password ?? ""
            return .server(
                host: host, port: port,
                authorization: .basic(credentials: Data("\(user):\(password)".utf8).base64EncodedString()))
        }
        return .server(host: host, port: port)
    }
}
