import AsyncHTTPClient
import MoyaHTTP
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

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

/// The transport a provider sends requests through, and its configuration: Moya's `Session`,
/// on AsyncHTTPClient. One HTTP client is made the first time a request really goes out, so a
/// stubbed call never pays for it, and is shared by every request after that.
public final class Session: Sendable {
    /// How requests are sent.
    public struct Configuration: Sendable {
        /// Seconds allowed for each attempt at a request, unless the request sets its own.
        public var timeout: Double?
        /// Seconds allowed to connect.
        public var connectTimeout: Double = 10
        /// Whether 3xx responses with a `Location` are followed, unless a request says.
        public var followsRedirects: Bool = true
        /// How many redirects are followed before the request fails.
        public var redirectLimit: Int = 10
        /// Whether gzip and deflate bodies are asked for and decompressed.
        public var decompression: Bool = true
        /// Whether the server's certificate is verified.
        public var verifiesCertificates: Bool = true
        /// A PEM file of certificates to trust instead of the system's.
        public var caCertificateFile: String?
        /// A PEM certificate (chain) file presented to servers that ask for one.
        public var clientCertificateFile: String?
        /// The PEM private key file of `clientCertificateFile`.
        public var clientKeyFile: String?
        /// Base64 SHA-256 digests of the public keys (SubjectPublicKeyInfo) a server may present;
        /// when not empty, a TLS connection to any other key fails. Moya's SSL pinning.
        public var pinnedPublicKeys: [String] = []
        /// A proxy URL for every request, in place of `HTTP_PROXY`/`HTTPS_PROXY`.
        public var proxy: String?
        /// How failed requests are retried; nil sends each request once.
        public var retry: RetryPolicy?
        /// Called before each retry with the attempt number (1 for the first retry), the wait in
        /// seconds and why.
        public var willRetry: (@Sendable (_ attempt: Int, _ delay: Double, _ reason: String) -> Void)?
        /// The environment `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY` are read from.
        public var environment: Environment = [:]
        /// The most bytes of a body `send` holds in memory; a longer body fails the request.
        /// Nil holds any body. `download` and `stream` are not limited: they hold nothing.
        public var maximumBodyBytes: Int?
        /// How many event-loop threads the session's HTTP client runs on. Nil shares the
        /// process-wide group, which has a thread per core and lives as long as the process.
        /// A number gives the session a group of its own, started by the first request that
        /// goes out and stopped by `shutdown()`; the async work of each request then runs on
        /// that group's loop too (see `taskExecutor`). One thread is enough for a few requests,
        /// and starts faster.
        public var eventLoopThreads: Int?

        /// Creates a configuration.
        public init(timeout: Double? = nil, environment: Environment = [:]) {
            self.timeout = timeout
            self.environment = environment
        }
    }

    /// The configuration.
    public let configuration: Configuration
    /// One HTTP client for each proxy in use ("" for direct connections), since a client's
    /// proxy is fixed and each request chooses its own.
    private let clients = Mutex<[String: HTTPClient]>([:])
    private let proxies: ProxySettings
    private let ownLoops = Mutex<OwnLoops?>(nil)
    /// The client `prepare()` is making, which `shutdown()` waits for.
    private let preparing = Mutex<EventLoopFuture<Void>?>(nil)

    /// The session's own event-loop group and the one executor its requests' work runs on,
    /// kept together so that every request prefers the same executor: two executors on one
    /// thread would still be switched between.
    struct OwnLoops {
        let group: MultiThreadedEventLoopGroup
        let executor: EventLoopExecutor
    }

    /// Creates a session; nothing is connected until a request goes out.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        proxies = ProxySettings(environment: configuration.environment)
    }

    /// Shuts the HTTP client down, if one was made, then the session's own event loops, if
    /// any were started. Call once, when every request has finished, and not from a request's
    /// own work: that may run on those loops. It runs on the caller's actor, so a session that
    /// never made a client costs no thread switch.
    /// A session dropped without `shutdown()`, as Moya code drops its providers' sessions,
    /// still closes its connections and its own threads, once nothing is using them.
    deinit {
        let closing = clients.withLock { Array($0.values) }.map { $0.shutdown() }
        guard let group = ownLoops.withLock({ $0?.group }) else { return }
        guard let loop = closing.first?.eventLoop else {
            group.shutdownGracefully { _ in }
            return
        }
        EventLoopFuture.andAllComplete(closing, on: loop).whenComplete { _ in group.shutdownGracefully { _ in } }
    }

    nonisolated(nonsending) public func shutdown() async {
        let prepared = preparing.withLock { future in
            defer { future = nil }
            return future
        }
        try? await prepared?.get()
        let existing = clients.withLock { clients in
            defer { clients = [:] }
            return Array(clients.values)
        }
        for client in existing { try? await client.shutdown() }
        let loops = ownLoops.withLock { loops in
            defer { loops = nil }
            return loops
        }
        try? await loops?.group.shutdownGracefully()
    }

    /// Where a request's async work runs, when the session has event loops of its own: on
    /// one of them, so that the work shares a thread with the request's I/O and no thread of
    /// the shared pool is started or woken for it. Nil, the caller's choice, otherwise.
    /// Asking starts the session's loops; the provider asks only for a request that goes out.
    public var taskExecutor: (any TaskExecutor)? {
        loops()?.executor
    }

    /// The session's own event-loop group and its executor, started on first use, if the
    /// configuration asks for them.
    func loops() -> OwnLoops? {
        guard let threads = configuration.eventLoopThreads else { return nil }
        return ownLoops.withLock { loops in
            if let loops { return loops }
            let group = MultiThreadedEventLoopGroup(numberOfThreads: max(threads, 1))
            let started = OwnLoops(group: group, executor: EventLoopExecutor(loop: group.next()))
            loops = started
            return started
        }
    }

    /// Starts the session's own event loop and makes, on that loop, the HTTP client the first
    /// request is most likely to use, so that both are ready when it goes out: whatever the
    /// caller does meanwhile, such as compiling a spec, runs alongside on another core.
    /// Nothing connects. Does nothing for a session without loops of its own, or when the
    /// environment names proxies, since which client a request needs then depends on its URL.
    public func prepare() {
        guard let loops = loops() else { return }
        let proxyURL = configuration.proxy
        guard proxyURL != nil || !proxies.namesAny else { return }
        let made = loops.group.next().submit {
            _ = try? self.httpClient(proxyURL: proxyURL)
        }
        preparing.withLock { $0 = made }
    }

    func httpClient(for url: URL) throws(NetworkError) -> HTTPClient {
        try httpClient(proxyURL: configuration.proxy ?? proxies.proxyURL(for: url))
    }

    /// The client for connections through `proxyURL`, or direct ones for nil, made on first use.
    private func httpClient(proxyURL: String?) throws(NetworkError) -> HTTPClient {
        try clients.withLock { clients throws(NetworkError) -> HTTPClient in
            if let client = clients[proxyURL ?? ""] { return client }
            let made = HTTPClient(
                eventLoopGroup: loops()?.group ?? HTTPClient.defaultEventLoopGroup,
                configuration: try configuration.clientSettings(proxyURL: proxyURL))
            clients[proxyURL ?? ""] = made
            return made
        }
    }

    // MARK: - Sending

    /// Sends `request` and collects the whole response, reporting each chunk to `progress`.
    public func send(_ request: Request, progress: ProgressHandler? = nil) async throws(MoyaError) -> Response {
        let limit = configuration.maximumBodyBytes ?? Int.max
        let (head, body) = try await perform(request) { head, body in
            var data = Data()
            var meter = ProgressMeter(head: head, handler: progress)
            for try await chunk in body {
                guard chunk.readableBytes <= limit - data.count else {
                    throw NetworkError(
                        .badServerResponse,
                        "the response body is larger than \(ByteCount.format(limit)), the most that is held in memory")
                }
                data.append(contentsOf: chunk.readableBytesView)
                meter.add(chunk.readableBytes)
            }
            meter.finish()
            return data
        }
        return Response(statusCode: head.statusCode, data: body, request: request, response: head)
    }

    /// Sends `request` and hands the final response's head and each chunk of its body to
    /// `stream` as they arrive; the returned response carries no data. A `ws:` or `wss:`
    /// request is a WebSocket conversation with a `MessageStream` (`webSocket(_:to:)`).
    public func stream(_ request: Request, to stream: any ResponseStream, progress: ProgressHandler? = nil)
        async throws(MoyaError) -> Response
    {
        if Self.isWebSocket(request.url) {
            guard let messages = stream as? any MessageStream else {
                throw .underlying(
                    NetworkError(.badServerResponse, "a WebSocket's messages need a reader of messages"), nil)
            }
            return try await webSocket(request, to: messages)
        }
        let tally = BodyTally()
        let (head, count) = try await perform(request, mayRetry: { !tally.delivered.withLock { $0 } }) {
            head, body -> Int in
            try stream.receive(head: head)
            guard stream.deadline() != nil else {
                return try await Self.read(body, to: stream, head: head, progress: progress, tally: tally)
            }
            // The body is read beside a watch on the stream's deadline; the first to finish
            // ends the other, and a passed deadline ends the body as its end would.
            return try await withThrowingTaskGroup(of: Int?.self) { group in
                group.addTask {
                    try await Self.read(body, to: stream, head: head, progress: progress, tally: tally)
                }
                group.addTask {
                    try await Self.expiry(of: stream)
                    return nil
                }
                defer { group.cancelAll() }
                let first = try await group.next()
                return first.flatMap { $0 } ?? tally.count.withLock { $0 }
            }
        }
        return Response(
            statusCode: head.statusCode, data: Data(), request: request, response: head, streamedByteCount: count)
    }

    /// Returns when `stream`'s deadline passes, having told it so; never for a stream whose
    /// deadline never comes. Cancelled, it throws.
    static func expiry(of stream: any ResponseStream) async throws {
        while let deadline = stream.deadline() {
            if deadline <= .now {
                stream.expire()
                return
            }
            try await _Concurrency.Task.sleep(until: deadline, clock: .continuous)
        }
        try await _Concurrency.Task.sleep(for: .seconds(86_400 * 365))
        throw CancellationError()
    }

    /// What a streamed body's reading has come to, shared with its deadline's watch.
    private final class BodyTally: Sendable {
        /// Whether a byte was passed on, after which the request is not retried.
        let delivered = Mutex(false)
        /// The bytes read.
        let count = Mutex(0)
    }

    /// Reads `body` into `stream` to its end, or until the stream ends it; the bytes read.
    private static func read(
        _ body: HTTPClientResponse.Body, to stream: any ResponseStream, head: ResponseHead,
        progress: ProgressHandler?, tally: BodyTally
    ) async throws -> Int {
        var meter = ProgressMeter(head: head, handler: progress)
        var count = 0
        do {
            for try await chunk in body {
                tally.delivered.withLock { $0 = true }
                meter.add(chunk.readableBytes)
                count &+= chunk.readableBytes
                tally.count.withLock { $0 = count }
                try chunk.withUnsafeReadableBytes { try stream.receive($0) }
            }
        } catch is ResponseStreamEnded {
            return count
        }
        meter.finish()
        return count
    }

    /// Sends `request` and streams the body into the file `destination` picks once the
    /// response's head has arrived, as a `PendingFile`: nothing is left behind when the
    /// transfer fails, and the caller commits or discards the file.
    public func download(
        _ request: Request, destination: @escaping DownloadDestination, progress: ProgressHandler? = nil
    ) async throws(MoyaError) -> (response: Response, file: PendingFile) {
        let (head, (file, count)) = try await perform(request) { head, body -> (PendingFile, Int) in
            let planned = URL(fileURLWithPath: PendingFile.temporaryPath(beside: "./download"))
            let file = try PendingFile(path: destination(planned, head).path)
            var meter = ProgressMeter(head: head, handler: progress)
            var count = 0
            do {
                for try await chunk in body {
                    try chunk.withUnsafeReadableBytes { try file.write($0) }
                    meter.add(chunk.readableBytes)
                    count &+= chunk.readableBytes
                }
                meter.finish()
            } catch {
                file.discard()
                throw error
            }
            return (file, count)
        }
        let response = Response(
            statusCode: head.statusCode, data: Data(), request: request, response: head, streamedByteCount: count)
        return (response, file)
    }

    /// `download`, with the file committed only when `judge` passes the response and the
    /// calling task was not cancelled, and discarded otherwise: what a download task and
    /// `saveTo` want, for the provider and the runtime alike.
    public func download(
        _ request: Request, destination: @escaping DownloadDestination, progress: ProgressHandler? = nil,
        judgedBy judge: (Response) -> Result<Response, MoyaError>
    ) async -> Result<Response, MoyaError> {
        let response: Response
        let file: PendingFile
        do {
            (response, file) = try await download(request, destination: destination, progress: progress)
        } catch {
            return .failure(error)
        }
        let result = judge(response)
        guard case .success = result, !_Concurrency.Task.isCancelled else {
            file.discard()
            return result
        }
        do {
            try file.commit()
        } catch {
            return .failure(.underlying(error, response))
        }
        return result
    }

    /// Sends `request`, retrying as `configuration.retry` allows, and hands the final response's
    /// head and body to `handle`.
    ///
    /// `mayRetry` is asked after a failure: a body already passed on cannot be taken back, so
    /// a stream that has delivered bytes is not retried.
    private func perform<Result: Sendable>(
        _ request: Request, mayRetry: @Sendable () -> Bool = { true },
        body handle: @escaping @Sendable (ResponseHead, HTTPClientResponse.Body) async throws -> Result
    ) async throws(MoyaError) -> (ResponseHead, Result) {
        let policy = (request.retry ?? configuration.retry).flatMap { $0.allows(request.method) ? $0 : nil }
        var attempt = 0
        var generator = SystemRandomNumberGenerator()
        while true {
            let canRetry = policy.map { attempt < $0.limit } ?? false
            let outcome: Attempt<Result>
            do {
                outcome = try await Self.within(request.timeout ?? configuration.timeout, url: request.url) {
                    try await self.send(request, canRetry: canRetry, body: handle)
                }
            } catch let error as MoyaError {
                throw error
            } catch {
                var network = NetworkError(
                    classifying: error, url: request.url, connectTimeout: configuration.connectTimeout)
                if NetworkError.failedCertificateVerification(error), let host = request.url.host,
                    let expired = await CertificateDates.expiry(
                        host: host, port: request.url.port ?? 443,
                        group: loops()?.group ?? HTTPClient.defaultEventLoopGroup)
                {
                    network = NetworkError(
                        .secureConnectionFailed, "TLS failed: the certificate for \(host) expired on \(expired)")
                }
                guard canRetry, RetryPolicy.retryableErrors.contains(network.code), !_Concurrency.Task.isCancelled,
                    mayRetry()
                else { throw MoyaError.underlying(network, nil) }
                outcome = .retry(reason: network.message, retryAfter: nil)
            }
            switch outcome {
            case .done(let head, let result):
                return (head, result)
            case .retry(let reason, let retryAfter):
                guard let policy else { continue }
                attempt += 1
                let delay = policy.delay(beforeRetry: attempt, retryAfter: retryAfter, using: &generator)
                configuration.willRetry?(attempt, delay, reason)
                do {
                    try await _Concurrency.Task.sleep(for: Seconds.duration(delay))
                } catch {
                    throw MoyaError.underlying(NetworkError(.cancelled, "the request was cancelled"), nil)
                }
            }
        }
    }

    /// Runs `attempt`, failing it as timed out when `seconds` pass first. The deadline covers
    /// the whole attempt, from connecting to the last byte of the body, so a server that
    /// drip-feeds a body cannot hold a request past it.
    static func within<Value: Sendable>(
        _ seconds: Double?, url: URL, _ attempt: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        guard let seconds else { return try await attempt() }
        return try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask { try await attempt() }
            group.addTask {
                try await _Concurrency.Task.sleep(for: Seconds.duration(seconds))
                return nil
            }
            defer { group.cancelAll() }
            if let first = try await group.next(), let value = first { return value }
            if _Concurrency.Task.isCancelled { throw CancellationError() }
            throw NetworkError(
                .timedOut, "no complete response from \(url.withoutQuery) within \(JSONValue.format(seconds)) s",
                seconds: seconds)
        }
    }

    private enum Attempt<Result: Sendable>: Sendable {
        case done(ResponseHead, Result)
        case retry(reason: String, retryAfter: Double?)
    }

    private func send<Result: Sendable>(
        _ request: Request, canRetry: Bool,
        body handle: @escaping @Sendable (ResponseHead, HTTPClientResponse.Body) async throws -> Result
    ) async throws -> Attempt<Result> {
        var current = request
        var hops: [RedirectHop] = []
        let follows = request.followsRedirects ?? configuration.followsRedirects
        // A cookie one hop sets is sent on the later hops, as browsers, curl's -L -c and
        // Tavern do; a request without a store of its own keeps one for its redirects.
        var cookies = request.cookies
        while true {
            var outgoing = current
            outgoing.headers = Self.wire(current, cookies: cookies, decompression: configuration.decompression)
            let response = try await execute(outgoing)
            let head = ResponseHead(
                statusCode: Int(response.status.code),
                headers: MoyaHTTP.HTTPHeaders(fields: response.headers.map { (name: $0.name, value: $0.value) }),
                version: "HTTP/\(response.version.major).\(response.version.minor)", redirects: hops)
            let setCookies = response.headers["set-cookie"]
            if !setCookies.isEmpty {
                if cookies == nil, follows { cookies = CookieStore() }
                cookies?.store(setCookies, from: current.url)
            }
            if follows, let next = try Redirect.next(after: current, head: head) {
                try await Self.drain(response.body, limit: Redirect.maximumBodyBytes)
                hops.append(
                    RedirectHop(
                        method: current.method, url: current.url, head: head, nextMethod: next.method,
                        nextURL: next.url,
                        nextHeaders: Self.wire(next, cookies: cookies, decompression: configuration.decompression)))
                guard hops.count <= configuration.redirectLimit else {
                    let limit = configuration.redirectLimit
                    throw NetworkError(.tooManyRedirects, "more than \(limit) \(limit == 1 ? "redirect" : "redirects")")
                }
                guard !hops.contains(where: { $0.url == next.url && $0.method == next.method }) else {
                    throw NetworkError(.tooManyRedirects, "the redirects go round in a cycle")
                }
                current = next
                continue
            }
            if canRetry, RetryPolicy.retryableStatusCodes.contains(head.statusCode) {
                try await Self.drain(response.body, limit: Redirect.maximumBodyBytes)
                let now = Double(time(nil))
                let retryAfter = head.headers["Retry-After"].flatMap { RetryPolicy.retryAfterSeconds($0, now: now) }
                return .retry(reason: "status \(head.statusCode)", retryAfter: retryAfter)
            }
            return .done(head, try await handle(head, response.body))
        }
    }

    /// The header fields `request` goes out with, in the order sent: what `-v` shows. See
    /// `wire(_:cookies:decompression:)`.
    public func wireHeaders(for request: Request) -> MoyaHTTP.HTTPHeaders {
        Self.wire(request, cookies: request.cookies, decompression: configuration.decompression)
    }

    /// The one place that decides the header fields a request goes out with, in the order
    /// sent: its own, with the cookies `cookies` holds for its URL added to its `Cookie`; then
    /// `Accept-Encoding` when responses are decompressed and it sets none; then what
    /// AsyncHTTPClient would add, written here so that it is sent as shown: `Host` (with a
    /// port that is not the scheme's), and the framing of the body, `Content-Length`, which a
    /// request with no body leaves out when its method expects none (GET, HEAD, DELETE,
    /// CONNECT, TRACE), as RFC 9110 says.
    static func wire(_ request: Request, cookies: CookieStore?, decompression: Bool) -> MoyaHTTP.HTTPHeaders {
        var headers = request.headers
        if let cookie = cookies?.header(for: request.url) {
            let own = headers["Cookie"]
            headers.update(name: "Cookie", value: own.map { "\($0); \(cookie)" } ?? cookie)
        }
        if decompression, !isWebSocket(request.url), !headers.contains("Accept-Encoding") {
            headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        }
        if !headers.contains("Host"), let host = request.url.host, !host.isEmpty {
            let scheme = request.url.scheme?.lowercased()
            let standard = scheme == "https" || scheme == "wss" ? 443 : 80
            let name = host.contains(":") ? "[\(host)]" : host
            headers.add(name: "Host", value: request.url.port.map { $0 == standard ? name : "\(name):\($0)" } ?? name)
        }
        headers.remove(name: "Content-Length")
        headers.remove(name: "Transfer-Encoding")
        let length: Int64
        switch request.body {
        case .data(let data)?: length = Int64(data.count)
        case .file(let url)?: length = (try? FileChunks(path: url.path))?.size ?? 0
        case nil: length = 0
        }
        if length > 0 || ![.get, .head, .delete, .connect, .trace].contains(request.method) {
            headers.add(name: "Content-Length", value: String(length))
        }
        return headers
    }

    /// Sends one request, with no redirect followed: its headers are already the wire's.
    private func execute(_ request: Request) async throws -> HTTPClientResponse {
        let client = try httpClient(for: request.url)
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headers { outgoing.headers.add(name: field.name, value: field.value) }
        switch request.body {
        case .data(let data)?:
            outgoing.body = .bytes(ByteBuffer(bytes: data))
        case .file(let url)?:
            let reader = try FileChunks(path: url.path)
            outgoing.body = .stream(reader, length: .known(reader.size))
        case nil:
            break
        }
        return try await client.execute(outgoing, deadline: .distantFuture)
    }

    /// Reads a body that is not wanted, such as a redirect's, failing past `limit` bytes so
    /// that a server cannot hold the request with an endless one.
    private static func drain(_ body: HTTPClientResponse.Body, limit: Int) async throws {
        var count = 0
        for try await chunk in body {
            count += chunk.readableBytes
            guard count <= limit else {
                throw NetworkError(
                    .badServerResponse,
                    "the body of a redirect or a response to retry is larger than \(ByteCount.format(limit))")
            }
        }
    }
}

/// How a redirect is followed: which request goes next, as curl's `-L` and browsers do.
enum Redirect {
    /// The most of a redirect's (or retried response's) body that is read and dropped.
    static let maximumBodyBytes = 1 << 20

    /// The request that follows `head`, or nil when `head` is not a redirect to follow: a
    /// 301, 302, 303, 307 or 308 with a `Location`.
    ///
    /// - 303, and 301 or 302 after a POST, turn into a GET without a body, as every browser
    ///   and curl do; 307 and 308 send the same method and body again.
    /// - Credentials (`Authorization`, `Cookie`, `Proxy-Authorization`) are sent on only to the
    ///   same scheme, host and port, so a redirect cannot hand a token to another server.
    static func next(after request: Request, head: ResponseHead) throws(NetworkError) -> Request? {
        guard [301, 302, 303, 307, 308].contains(head.statusCode), let location = head.headers["Location"] else {
            return nil
        }
        guard let url = URL(string: location, relativeTo: request.url)?.absoluteURL,
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
        else {
            throw NetworkError(.badServerResponse, "the server redirected to '\(location)', which is not an HTTP URL")
        }
        var next = request
        next.url = url
        let becomesGet =
            head.statusCode == 303
            ? request.method != .head : [301, 302].contains(head.statusCode) && request.method == .post
        if becomesGet {
            next.method = head.statusCode == 303 && request.method == .head ? .head : .get
            next.body = nil
            for name in ["Content-Type", "Content-Length", "Content-Encoding"] { next.headers.remove(name: name) }
        }
        if NetworkError.address(of: url) != NetworkError.address(of: request.url)
            || url.scheme?.lowercased() != request.url.scheme?.lowercased()
        {
            for name in ["Authorization", "Cookie", "Proxy-Authorization"] { next.headers.remove(name: name) }
        }
        return next
    }
}

extension Session.Configuration {
    /// The settings of an HTTP client that sends this configuration's requests through
    /// `proxyURL`, or directly for nil.
    func clientSettings(proxyURL: String?) throws(NetworkError) -> HTTPClient.Configuration {
        let proxy = try proxyURL.map { text throws(NetworkError) in try ProxySettings.proxy(named: text) }
        var settings = HTTPClient.Configuration(
            tlsConfiguration: try tlsConfiguration(),
            // Redirects are followed by `Session.send`, hop by hop, so that each can be shown.
            redirectConfiguration: .disallow,
            timeout: .init(connect: Seconds.timeAmount(connectTimeout)),
            proxy: proxy,
            decompression: decompression ? .enabled(limit: .ratio(500)) : .disabled)
        // Failed connections fail the request at once; `retry` decides what is tried again.
        settings.connectionPool.retryConnectionEstablishment = false
        if !pinnedPublicKeys.isEmpty {
            let pins = PublicKeyPins(pinnedPublicKeys)
            settings.http1_1ConnectionDebugInitializer = { pins.verify($0) }
            settings.http2ConnectionDebugInitializer = { pins.verify($0) }
        }
        return settings
    }

    func tlsConfiguration() throws(NetworkError) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if !verifiesCertificates { tls.certificateVerification = .none }
        do {
            if let file = caCertificateFile {
                tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(file))
            }
            if let file = clientCertificateFile {
                tls.certificateChain = try NIOSSLCertificate.fromPEMFile(file).map { .certificate($0) }
                tls.privateKey = .privateKey(try NIOSSLPrivateKey(file: clientKeyFile ?? file, format: .pem))
            }
        } catch {
            throw NetworkError(.fileFailed, "cannot load the TLS certificates or key: \(error)")
        }
        return tls
    }
}

extension ResponseHead {
    /// The standard reason phrase for the status code, such as `Not Found`; empty for codes
    /// without one.
    public var reasonPhrase: String {
        let phrase = HTTPResponseStatus(statusCode: statusCode).reasonPhrase
        return phrase.isEmpty || phrase.hasPrefix("<") ? "" : phrase
    }
}

extension URL {
    /// The URL as failure messages name it: scheme, host, port and path, with no user, query
    /// or fragment, where secrets may be.
    var withoutQuery: String {
        let port = port.map { ":\($0)" } ?? ""
        return "\(scheme ?? "http")://\(host ?? "")\(port)\(path(percentEncoded: true))"
    }
}
