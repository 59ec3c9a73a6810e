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
        let proxyURL = URL(string: chosen.contains("://") ? chosen : "http://" + chosen)
        guard let proxyHost = proxyURL?.host, !proxyHost.isEmpty else { return nil }
        return .server(host: proxyHost, port: proxyURL?.port ?? 80)
    }
}
