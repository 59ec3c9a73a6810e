import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOSSL
import Synchronization

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
        /// Seconds allowed for a whole request, unless the request sets its own.
        public var timeout: Double?
        /// Seconds allowed to connect.
        public var connectTimeout: Double = 10
        /// How many redirects are followed before the request fails.
        public var redirectLimit: Int = 10
        /// Whether gzip and deflate bodies are asked for and decompressed.
        public var decompression: Bool = true
        /// Whether the server's certificate is verified.
        public var verifiesCertificates: Bool = true
        /// The environment `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY` are read from.
        public var environment: Environment = [:]

        /// Creates a configuration.
        public init(timeout: Double? = nil, environment: Environment = [:]) {
            self.timeout = timeout
            self.environment = environment
        }
    }

    /// The configuration.
    public let configuration: Configuration
    private let client = Mutex<HTTPClient?>(nil)

    /// Creates a session; nothing is connected until a request goes out.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Shuts the HTTP client down, if one was made. Call once when done.
    public func shutdown() async {
        let existing = client.withLock { client -> HTTPClient? in
            defer { client = nil }
            return client
        }
        try? await existing?.shutdown()
    }

    func httpClient(for url: URL) -> HTTPClient {
        client.withLock { client in
            if let client { return client }
            var settings = HTTPClient.Configuration(
                redirectConfiguration: .follow(max: configuration.redirectLimit, allowCycles: false),
                timeout: .init(connect: .milliseconds(Int64(configuration.connectTimeout * 1000))),
                proxy: ProxySettings(environment: configuration.environment).proxy(for: url),
                decompression: configuration.decompression ? .enabled(limit: .ratio(500)) : .disabled)
            var tls = TLSConfiguration.makeClientConfiguration()
            if !configuration.verifiesCertificates { tls.certificateVerification = .none }
            settings.tlsConfiguration = tls
            let made = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: settings)
            client = made
            return made
        }
    }

    // MARK: - Sending

    /// Sends `request` and collects the whole response.
    public func send(_ request: Request) async throws(MoyaError) -> Response {
        let (head, body) = try await perform(request) { head, body in
            var data = Data()
            for try await chunk in body { data.append(contentsOf: chunk.readableBytesView) }
            return data
        }
        return Response(statusCode: head.statusCode, data: body, request: request, response: head)
    }

    /// Sends `request` and streams the body into a temporary file beside the destination,
    /// which `destination` picks once the response's head has arrived. Nothing is left behind
    /// when the transfer fails; the caller moves or removes the temporary file.
    public func download(_ request: Request, destination: @escaping DownloadDestination) async throws(MoyaError)
        -> (response: Response, temporary: URL, destination: URL)
    {
        let (head, files) = try await perform(request) { head, body -> (URL, URL) in
            let planned = URL(fileURLWithPath: Self.temporaryPath(beside: "./download"))
            let target = destination(planned, head)
            let temporary = URL(fileURLWithPath: Self.temporaryPath(beside: target.path))
            let file = try FileWriter(path: temporary.path)
            do {
                for try await chunk in body {
                    try chunk.withUnsafeReadableBytes { try file.write($0) }
                }
                try file.close()
            } catch {
                file.discard()
                throw error
            }
            return (temporary, target)
        }
        return (Response(statusCode: head.statusCode, data: Data(), request: request, response: head), files.0, files.1)
    }

    private func perform<Result: Sendable>(
        _ request: Request, body handle: (ResponseHead, HTTPClientResponse.Body) async throws -> Result
    ) async throws(MoyaError) -> (ResponseHead, Result) {
        do {
            let client = httpClient(for: request.url)
            var outgoing = HTTPClientRequest(url: request.url.absoluteString)
            outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
            for field in request.headers { outgoing.headers.add(name: field.name, value: field.value) }
            if configuration.decompression, !request.headers.contains("Accept-Encoding") {
                outgoing.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
            }
            switch request.body {
            case .data(let data)?:
                outgoing.body = .bytes(ByteBuffer(bytes: data))
            case .file(let url)?:
                let reader = try FileChunks(path: url.path)
                outgoing.body = .stream(reader, length: .known(reader.size))
            case nil:
                break
            }
            let seconds = request.timeout ?? configuration.timeout
            let deadline = seconds.map { NIODeadline.now() + .milliseconds(Int64($0 * 1000)) } ?? .distantFuture
            let response = try await client.execute(outgoing, deadline: deadline)
            let head = ResponseHead(
                statusCode: Int(response.status.code),
                headers: HTTPHeaders(fields: response.headers.map { (name: $0.name, value: $0.value) }))
            let result = try await handle(head, response.body)
            return (head, result)
        } catch let error as MoyaError {
            throw error
        } catch {
            throw MoyaError.underlying(NetworkError(classifying: error), nil)
        }
    }

    static func temporaryPath(beside path: String) -> String {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        var generator = SystemRandomNumberGenerator()
        let suffix = String(generator.next() as UInt32, radix: 16)
        return (directory.isEmpty ? "" : directory + "/") + ".\(name).moya-\(suffix).part"
    }
}
