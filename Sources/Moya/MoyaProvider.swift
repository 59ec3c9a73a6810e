import MoyaCore

/// Receives a request's result.
public typealias Completion = (_ result: Result<Moya.Response, MoyaError>) -> Void

/// Hears how far a request has got.
public typealias ProgressBlock = (_ progress: ProgressResponse) -> Void

/// How far a request has got, and its response once it has one.
public struct ProgressResponse {
    /// The response, once the request is complete.
    public let response: Response?
    /// The transfer's progress.
    public let progressObject: Progress?

    /// Creates a progress report.
    public init(progress: Progress? = nil, response: Response? = nil) {
        self.progressObject = progress
        self.response = response
    }

    /// From 0 to 1; 0 until complete when the length is unknown.
    public var progress: Double {
        if completed { return 1 }
        if let progressObject, progressObject.totalUnitCount > 0 { return progressObject.fractionCompleted }
        return 0
    }

    /// Whether the response has arrived.
    public var completed: Bool { response != nil }
}

/// A type that sends targets.
public protocol MoyaProviderType: AnyObject {
    /// The targets it sends.
    associatedtype Target: TargetType

    /// Sends `target` and calls `completion` with the result.
    func request(
        _ target: Target, callbackQueue: DispatchQueue?, progress: Moya.ProgressBlock?,
        completion: @escaping Moya.Completion
    ) -> Cancellable
}

/// Sends targets: maps each to an endpoint, builds its request, runs the plugins, and
/// answers from the network or from the sample. MoyaCore does the work.
open class MoyaProvider<Target: TargetType>: MoyaProviderType {
    /// Maps a target to its endpoint.
    public typealias EndpointClosure = (Target) -> Endpoint
    /// Delivers a built request, or why it could not be built.
    public typealias RequestResultClosure = (Result<URLRequest, MoyaError>) -> Void
    /// Builds the request for an endpoint and hands it on.
    public typealias RequestClosure = (Endpoint, @escaping RequestResultClosure) -> Void
    /// Chooses how a target is stubbed.
    public typealias StubClosure = (Target) -> Moya.StubBehavior

    /// Maps targets to endpoints.
    public let endpointClosure: EndpointClosure
    /// Builds requests from endpoints.
    public let requestClosure: RequestClosure
    /// Chooses stubbing per target.
    public let stubClosure: StubClosure
    /// The transport.
    public let session: Session
    /// The plugins, in the order they run.
    public let plugins: [PluginType]
    /// Whether a request for an endpoint already in flight waits for that one's result.
    public let trackInflights: Bool

    /// The completions waiting on each endpoint in flight, when tracking them.
    open var inflightRequests: [Endpoint: [Moya.Completion]] { lock.withLock { inflight } }

    let callbackQueue: DispatchQueue?
    private let lock = NSRecursiveLock()
    private var inflight: [Endpoint: [Moya.Completion]] = [:]
    let core: MoyaCore.MoyaProvider<Bridged>

    /// Creates a provider; every parameter has Moya's default.
    public init(
        endpointClosure: @escaping EndpointClosure = MoyaProvider.defaultEndpointMapping,
        requestClosure: @escaping RequestClosure = MoyaProvider.defaultRequestMapping,
        stubClosure: @escaping StubClosure = MoyaProvider.neverStub,
        callbackQueue: DispatchQueue? = nil,
        session: Session = MoyaProvider<Target>.defaultAlamofireSession(),
        plugins: [PluginType] = [],
        trackInflights: Bool = false
    ) {
        self.endpointClosure = endpointClosure
        self.requestClosure = requestClosure
        self.stubClosure = stubClosure
        self.session = session
        self.plugins = plugins
        self.trackInflights = trackInflights
        self.callbackQueue = callbackQueue
        core = MoyaCore.MoyaProvider(
            stubClosure: { $0.stubBehavior }, session: session, plugins: [PluginBridge(plugins: plugins)])
    }

    /// The endpoint for a target.
    open func endpoint(_ token: Target) -> Endpoint {
        endpointClosure(token)
    }

    /// Sends `target` and calls `completion` with the result, on `callbackQueue`, else the
    /// provider's, else the main queue. An immediate stub with no queue completes before
    /// this returns.
    @discardableResult
    open func request(
        _ target: Target, callbackQueue: DispatchQueue? = .none, progress: ProgressBlock? = .none,
        completion: @escaping Completion
    ) -> Cancellable {
        let queue = callbackQueue ?? self.callbackQueue
        let endpoint = self.endpoint(target)
        let stubBehavior = stubClosure(target)
        let token = CancellableWrapper()
        let processed: Completion = { [plugins] result in
            completion(plugins.reduce(result) { $1.process($0, target: target) })
        }
        let deliver: Completion
        if trackInflights {
            let isFirst: Bool = lock.withLock {
                // Each waiter gets the result the plugins processed for the first.
                if inflight[endpoint] != nil {
                    inflight[endpoint]?.append(completion)
                    return false
                }
                inflight[endpoint] = [completion]
                return true
            }
            guard isFirst else { return token }
            deliver = { [weak self] result in
                let waiting = self?.lock.withLock { self?.inflight.removeValue(forKey: endpoint) } ?? nil
                for completion in waiting ?? [] { completion(result) }
            }
        } else {
            deliver = completion
        }
        requestClosure(endpoint) { [self] built in
            if token.isCancelled {
                let error = MoyaError.underlying(NSError(domain: NSURLErrorDomain, code: NSURLErrorCancelled), nil)
                for plugin in plugins { plugin.didReceive(.failure(error), target: target) }
                return processed(.failure(error))
            }
            let bridged = Bridged(target, stubBehavior: stubBehavior)
            let exchange = bridged.exchange
            let send = Self.deliver(on: queue, immediately: stubBehavior == .immediate) { result in
                deliver(result)
            }
            let progressHandler = progress.map { Self.progressHandler($0, queue: queue) }
            let cancellable = core.perform(
                bridged, endpoint: Self.coreEndpoint(endpoint, exchange: exchange),
                built: Self.coreRequest(built, endpoint: endpoint, exchange: exchange),
                progress: progressHandler?.handler
            ) { coreResult in
                // Plugins have processed the result in MoyaCore, unless it is shared in flight.
                let result = exchange.result(coreResult)
                progressHandler?.finish(result)
                send(result)
            }
            token.hold { cancellable.cancel() }
        }
        return token
    }

    /// Calls `completion` on `queue`, or on the main queue, or at once for an immediate stub
    /// with no queue, as Moya does.
    private static func deliver(on queue: DispatchQueue?, immediately: Bool, _ completion: @escaping Completion)
        -> (Result<Response, MoyaError>) -> Void
    {
        if immediately, queue == nil { return completion }
        let target = queue ?? .main
        let box = Unchecked(completion)
        return { result in
            let boxed = Unchecked(result)
            target.async { box.value(boxed.value) }
        }
    }

    private static func progressHandler(_ block: @escaping ProgressBlock, queue: DispatchQueue?) -> ProgressBridge {
        ProgressBridge(block: block, queue: queue)
    }

    /// The endpoint MoyaCore sends: the sample as it answers stubs, and for a download, where
    /// the file goes.
    static func coreEndpoint(_ endpoint: Endpoint, exchange: Exchange) -> MoyaCore.Endpoint {
        let sample = Unchecked(endpoint.sampleResponseClosure)
        let task: MoyaCore.Task
        switch endpoint.task {
        case .downloadDestination(let destination), .downloadParameters(_, _, let destination):
            task = .downloadDestination(Self.coreDestination(destination))
        default:
            task = .requestPlain
        }
        return MoyaCore.Endpoint(
            url: endpoint.url,
            sampleResponseClosure: {
                switch sample.value() {
                case .networkResponse(let status, let data): return .networkResponse(status, data)
                case .response(let response, let data):
                    exchange.sampleResponse = response
                    return .response(Bridge.head(response), data)
                case .networkError(let error): return .networkError(error)
                }
            }, method: endpoint.method, task: task, httpHeaderFields: endpoint.httpHeaderFields)
    }

    private static func coreDestination(_ destination: @escaping DownloadDestination) -> MoyaCore.DownloadDestination {
        let box = Unchecked(destination)
        return { temporary, head in
            guard let response = Bridge.httpResponse(head, url: temporary) else { return temporary }
            let (url, options) = box.value(temporary, response)
            if options.contains(.createIntermediateDirectories) {
                try? FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            }
            if options.contains(.removePreviousFile) { try? FileManager.default.removeItem(at: url) }
            return url
        }
    }

    /// The request MoyaCore sends: the built one, with a file or multipart body attached.
    static func coreRequest(_ built: Result<URLRequest, MoyaError>, endpoint: Endpoint, exchange: Exchange)
        -> Result<MoyaCore.Request, MoyaCore.MoyaError>
    {
        do {
            var request = try MoyaCore.Request(try built.get())
            if case .uploadFile(let file) = endpoint.task { request.body = .file(file) }
            if let form = endpoint.multipartFormData {
                guard !form.parts.isEmpty, endpoint.method.supportsMultipart else {
                    throw MoyaError.parameterEncoding(
                        ParameterEncodingError("\(endpoint.method) \(endpoint.url) is not a multipart upload target"))
                }
                let core = try form.core()
                request.httpBody = try core.encode()
                request.headers.update(name: "Content-Type", value: core.contentType)
            }
            return .success(request)
        } catch let error as MoyaError {
            return .failure(Bridge.error(error, exchange))
        } catch {
            return .failure(.underlying(error, nil))
        }
    }
}

// MARK: - Defaults

extension MoyaProvider {
    /// The URL from `URL(target:)`, the sample as a 200, and the target's method, task and
    /// headers.
    public final class func defaultEndpointMapping(for target: Target) -> Endpoint {
        Endpoint(
            url: URL(target: target).absoluteString,
            sampleResponseClosure: { .networkResponse(200, target.sampleData) },
            method: target.method, task: target.task, httpHeaderFields: target.headers)
    }

    /// Builds the endpoint's request, or reports why it could not.
    public final class func defaultRequestMapping(for endpoint: Endpoint, closure: RequestResultClosure) {
        do {
            closure(.success(try endpoint.urlRequest()))
        } catch let error as MoyaError {
            closure(.failure(error))
        } catch {
            closure(.failure(.underlying(error, nil)))
        }
    }

    /// A new transport, in place of Moya's Alamofire session.
    public final class func defaultAlamofireSession() -> Session {
        Session()
    }

    /// Never stubs.
    public final class func neverStub(_: Target) -> Moya.StubBehavior { .never }
    /// Stubs at once.
    public final class func immediatelyStub(_: Target) -> Moya.StubBehavior { .immediate }
    /// Stubs after `seconds`.
    public final class func delayedStub(_ seconds: TimeInterval) -> (Target) -> Moya.StubBehavior {
        { _ in .delayed(seconds: seconds) }
    }
}

/// Moya's progress block fed from MoyaCore's progress, on the callback queue.
private struct ProgressBridge {
    let block: ProgressBlock
    let queue: DispatchQueue?
    private let progress = Unchecked(Progress(totalUnitCount: -1))

    init(block: @escaping ProgressBlock, queue: DispatchQueue?) {
        self.block = block
        self.queue = queue
    }

    var handler: ProgressHandler {
        let box = Unchecked(block)
        let progress = self.progress
        let queue = self.queue
        return { (transfer: TransferProgress) in
            progress.value.totalUnitCount = transfer.totalBytes ?? -1
            progress.value.completedUnitCount = transfer.completedBytes
            if let queue {
                queue.async { box.value(ProgressResponse(progress: progress.value)) }
            } else {
                box.value(ProgressResponse(progress: progress.value))
            }
        }
    }

    func finish(_ result: Result<Response, MoyaError>) {
        let response = try? result.get()
        if let response {
            progress.value.totalUnitCount = max(progress.value.totalUnitCount, Int64(response.data.count))
            progress.value.completedUnitCount = progress.value.totalUnitCount
        }
        let block = self.block
        let progress = self.progress
        let report = Unchecked<() -> Void> { block(ProgressResponse(progress: progress.value, response: response)) }
        if let queue { queue.async { report.value() } } else { report.value() }
    }
}

/// A value handed between threads where Moya's API, written before `Sendable`, hands it.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// A result from what URLSession hands back: a response without an error succeeds; an error
/// fails, carrying the response when there is one.
public func convertResponseToResult(
    _ response: HTTPURLResponse?, request: URLRequest?, data: Data?, error: Swift.Error?
) -> Result<Moya.Response, MoyaError> {
    switch (response, data, error) {
    case (let response?, let data, nil):
        return .success(
            Response(statusCode: response.statusCode, data: data ?? Data(), request: request, response: response))
    case (let response?, let data, let error?):
        let converted = Response(
            statusCode: response.statusCode, data: data ?? Data(), request: request, response: response)
        return .failure(.underlying(error, converted))
    case (nil, _, let error?):
        return .failure(.underlying(error, nil))
    case (nil, _, nil):
        return .failure(.underlying(NSError(domain: NSURLErrorDomain, code: NSURLErrorUnknown), nil))
    }
}

extension Session {
    /// Always false: as with Moya's Alamofire session, a request starts only once the
    /// provider has run its plugins, never when the session is handed it.
    public var startRequestsImmediately: Bool { false }
}
