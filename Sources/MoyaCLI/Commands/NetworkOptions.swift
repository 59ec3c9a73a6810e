import ArgumentParser
import MoyaHTTP
import MoyaRuntime
import MoyaTransport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Timeouts, retries, TLS and proxies: the options `call` and `check` share.
struct NetworkOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Seconds each attempt may take, from connecting to the last byte of the body.", valueName: "seconds"))
    var timeout: Double?

    @Option(
        name: .customLong("connect-timeout"),
        help: ArgumentHelp("Seconds to wait for a connection, 10 by default.", valueName: "seconds"))
    var connectTimeout: Double?

    @Option(
        help: ArgumentHelp(
            "Retry up to N times after a connection failure, a timeout, a 429 or a 503, with backoff.",
            valueName: "n"))
    var retry: Int?

    @Flag(name: .customLong("retry-all"), help: "With --retry, retry methods that are not idempotent too.")
    var retryAll = false

    @Flag(
        name: .customLong("no-follow"),
        help: "Do not follow redirects: a 3xx response is the answer, as the spec's followRedirects: false.")
    var noFollow = false

    @Option(
        name: .customLong("max-redirects"),
        help: ArgumentHelp("Follow at most N redirects, 10 by default; more exits 6.", valueName: "n"))
    var maxRedirects: Int?

    @Flag(help: "Do not verify the server's TLS certificate. Dangerous; says so on stderr.")
    var insecure = false

    @Option(
        help: ArgumentHelp("Trust the CA certificates in this PEM file instead of the system's.", valueName: "file"))
    var cacert: String?

    @Option(help: ArgumentHelp("Present this PEM client certificate (mutual TLS).", valueName: "file"))
    var cert: String?

    @Option(help: ArgumentHelp("The PEM private key of --cert.", valueName: "file"))
    var key: String?

    @Option(
        help: ArgumentHelp(
            "Accept only a server public key with this SHA-256 pin, as sha256//BASE64; repeatable.",
            valueName: "pin"))
    var pin: [String] = []

    @Option(help: ArgumentHelp("Send requests through this HTTP proxy, http://HOST:PORT.", valueName: "url"))
    var proxy: String?

    @Flag(
        name: .customLong("no-token-cache"),
        help: "Log in afresh: neither read nor write tokens an auth login caches.")
    var noTokenCache = false

    func validate() throws {
        for (flag, value) in [("--timeout", timeout), ("--connect-timeout", connectTimeout)] {
            if let value, !Seconds.isValidTimeout(value) {
                throw ValidationError(
                    "\(flag) takes a number of seconds above 0 and at most \(Int(Seconds.maximum)) (a week)")
            }
        }
        if let retry, retry < 0 || retry > 100 { throw ValidationError("--retry takes a count from 0 to 100") }
        if let maxRedirects, maxRedirects < 0 || maxRedirects > 100 {
            throw ValidationError("--max-redirects takes a count from 0 to 100")
        }
        if noFollow, maxRedirects != nil { throw ValidationError("--no-follow and --max-redirects cannot go together") }
        if key != nil && cert == nil { throw ValidationError("--key goes with --cert") }
        for file in [cacert, cert, key].compactMap({ $0 }) where access(file, R_OK) != 0 {
            throw ValidationError("cannot read '\(file)'")
        }
        for pin in pin where Self.pinDigest(pin) == nil {
            throw ValidationError("--pin takes sha256// and a base64 SHA-256 digest, not '\(pin)'")
        }
    }

    /// The base64 digest of a `sha256//…` pin, when it is one.
    static func pinDigest(_ pin: String) -> String? {
        guard pin.hasPrefix("sha256//") else { return nil }
        let digest = String(pin.dropFirst("sha256//".count))
        // A SHA-256 digest is 32 bytes: 43 base64 characters and one '='.
        guard digest.utf8.count == 44, digest.hasSuffix("="),
            digest.dropLast().allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "/") })
        else { return nil }
        return digest
    }

    /// What these options override of a spec's policy (see `CallPolicy.decide`), with `stub`,
    /// the command's `--stub` (or `call --sample`'s immediate stub).
    func overrides(stub: StubBehavior?) -> CallPolicy.Overrides {
        CallPolicy.Overrides(
            timeout: timeout, connectTimeout: connectTimeout, retry: retry, retriesAllMethods: retryAll,
            followsRedirects: noFollow ? false : nil, redirectLimit: maxRedirects, stub: stub)
    }

    /// The session configuration these options describe: TLS and proxies, and the policy's
    /// settings for requests that bring none of their own (every spec target brings its own).
    func configuration(
        environment: Environment, willRetry: (@Sendable (Int, Double, String) -> Void)? = nil
    ) -> Session.Configuration {
        var configuration = Session.Configuration(environment: environment)
        CallPolicy.decide(overrides(stub: nil), target: nil, service: nil).apply(to: &configuration)
        configuration.verifiesCertificates = !insecure
        configuration.caCertificateFile = cacert
        configuration.clientCertificateFile = cert
        configuration.clientKeyFile = key
        configuration.pinnedPublicKeys = pin.compactMap(Self.pinDigest)
        configuration.proxy = proxy
        // Also for a retry policy that a request brings, such as a spec's.
        configuration.willRetry = willRetry
        return configuration
    }
}
