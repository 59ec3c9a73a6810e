import MoyaHTTP
import MoyaTransport
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sends targets: maps each to an endpoint, builds its request, runs the plugins, and answers
/// from the network or from the stub, as Moya's provider does.
public final class MoyaProvider<Target: TargetType>: Sendable {
    /// Maps a target to its endpoint.
    public typealias EndpointClosure = @Sendable (Target) -> Endpoint
    /// Delivers a built request, or why it could not be built.
    public typealias RequestResultClosure = @Sendable (Result<Request, MoyaError>) -> Void
    /// Builds the request for an endpoint and hands it on.
    public typealias RequestClosure = @Sendable (Endpoint, @escaping RequestResultClosure) -> Void
    /// Chooses how a target is stubbed.
    public typealias StubClosure = @Sendable (Target) -> StubBehavior
    /// Receives a request's result.
    public typealias Completion = @Sendable (Result<Response, MoyaError>) -> Void

    /// Maps targets to endpoints.
    public let endpointClosure: EndpointClosure
    /// Builds requests from endpoints.
    public let requestClosure: RequestClosure
    /// Chooses stubbing per target.
    public let stubClosure: StubClosure
    /// The transport.
    public let session: Session
    /// The plugins, in the order they run.
    public let plugins: [any PluginType]
    /// Whether identical requests in flight at the same time share one network request.
    public let trackInflights: Bool

    private let inflight = Mutex<[String: [CheckedContinuation<Result<Response, MoyaError>, Never>]]>([:])

    /// Creates a provider; every parameter has Moya's default.
    public init(
        endpointClosure: @escaping EndpointClosure = MoyaProvider.defaultEndpointMapping,
        requestClosure: @escaping RequestClosure = MoyaProvider.defaultRequestMapping,
        stubClosure: @escaping StubClosure = MoyaProvider.neverStub,
        session: Session = Session(),
        plugins: [any PluginType] = [],
        trackInflights: Bool = false
    ) {
        self.endpointClosure = endpointClosure
        self.requestClosure = requestClosure
        self.stubClosure = stubClosure
        self.session = session
        self.plugins = plugins
        self.trackInflights = trackInflights
    }

    // MARK: - Requesting

    /// Sends `target` and returns its response, or throws a `MoyaError`. Cancelling the calling
    /// task fails the request with `.underlying` of a cancelled error, which plugins see.
    /// It runs on the caller's actor, as `result(for:)` does.
    nonisolated(nonsending) public func request(_ target: Target) async throws(MoyaError) -> Response {
        try await result(for: target).get()
    }

    /// Sends `target` and calls `completion` with the result; the returned value cancels it.
    /// `progress` hears of each chunk of the response body as it arrives; `destination` and
    /// `stream`, as in `result(for:progress:saveTo:streamTo:)`, pass the body on as it comes.
    @discardableResult
    public func request(
        _ target: Target, progress: ProgressHandler? = nil, saveTo destination: DownloadDestination? = nil,
        streamTo stream: (any ResponseStream)? = nil, completion: @escaping Completion
    ) -> any Cancellable {
        let behavior = stubClosure(target)
        if behavior == .immediate {
            // As in Moya, an immediate stub completes before `request` returns, unless the
            // request closure answers later.
            let endpoint = endpointClosure(target)
            requestClosure(endpoint) { built in
                completion(self.immediatelyStubbed(built, endpoint: endpoint, target: target))
            }
            return CompletedRequest()
        }
        return spawn(behavior, completion) {
            await self.result(for: target, progress: progress, saveTo: destination, streamTo: stream)
        }
    }

    /// Runs a request that is not answered at once in a task of its own, which the returned
    /// value cancels. A request that goes out runs where the session's transfers run, from
    /// the start.
    private func spawn(
        _ behavior: StubBehavior, _ completion: @escaping Completion,
        _ work: @escaping @Sendable () async -> Result<Response, MoyaError>
    ) -> any Cancellable {
        let executor = behavior == .never ? session.taskExecutor : nil
        return CancellableTask(_Concurrency.Task(executorPreference: executor) { completion(await work()) })
    }

    /// The result of sending `target`, with every plugin run.
    ///
    /// With a `destination`, the body of a live response is streamed into a file there, as a
    /// download task's is, whatever the target's task; the response then carries no data.
    /// With a `stream` and no destination, a live response's head and body go to the stream
    /// as they arrive, and the response carries no data.
    /// A stubbed response is returned as it is, data included.
    ///
    /// The mapping, the plugins and the stub run on the caller's actor, so an immediate stub
    /// is answered without leaving it. The network transfer runs on the session's
    /// `taskExecutor`, or on the thread pool.
    nonisolated(nonsending) public func result(
        for target: Target, progress: ProgressHandler? = nil, saveTo destination: DownloadDestination? = nil,
        streamTo stream: (any ResponseStream)? = nil
    ) async -> Result<Response, MoyaError> {
        let endpoint = endpointClosure(target)
        let built = await withCheckedContinuation { continuation in
            requestClosure(endpoint) { continuation.resume(returning: $0) }
        }
        return await result(
            for: target, endpoint: endpoint, built: built, progress: progress, saveTo: destination, streamTo: stream)
    }

    /// Sends a request already built from `endpoint`: what `request` does once its request
    /// closure has answered. It lets a layer that maps targets its own way, such as `Moya`,
    /// keep the plugins, the stubbing and the transport here. An immediate stub completes
    /// before this returns.
    @discardableResult
    public func perform(
        _ target: Target, endpoint: Endpoint, built: Result<Request, MoyaError>, progress: ProgressHandler? = nil,
        completion: @escaping Completion
    ) -> any Cancellable {
        let behavior = stubClosure(target)
        if behavior == .immediate {
            completion(immediatelyStubbed(built, endpoint: endpoint, target: target))
            return CompletedRequest()
        }
        return spawn(behavior, completion) {
            await self.result(for: target, endpoint: endpoint, built: built, progress: progress)
        }
    }

    /// What `perform` runs, for a caller that awaits it: the result of a request already
    /// built from `endpoint`, with every plugin run.
    nonisolated(nonsending) public func result(
        for target: Target, endpoint: Endpoint, built: Result<Request, MoyaError>, progress: ProgressHandler? = nil,
        saveTo destination: DownloadDestination? = nil, streamTo stream: (any ResponseStream)? = nil
    ) async -> Result<Response, MoyaError> {
        let behavior = stubClosure(target)
        let request: Request
        switch built {
        case .success(let value): request = value
        case .failure(let error): return process(.failure(error), target: target)
        }
        let prepared = self.prepared(request, target: target)

        var result: Result<Response, MoyaError>
        switch behavior {
        case .never:
            result = await withTaskExecutorPreference(session.taskExecutor) {
                await send(
                    prepared, target: target, endpoint: endpoint, progress: progress, destination: destination,
                    stream: stream)
            }
        case .immediate:
            result = stubbed(endpoint, request: prepared, target: target)
        case .delayed(let seconds):
            do {
                try await _Concurrency.Task.sleep(for: Seconds.duration(seconds))
                result = stubbed(endpoint, request: prepared, target: target)
            } catch {
                result = .failure(.underlying(NetworkError(.cancelled, "the request was cancelled"), nil))
            }
        }
        if _Concurrency.Task.isCancelled, case .success = result {
            result = .failure(.underlying(NetworkError(.cancelled, "the request was cancelled"), nil))
        }
        return finished(result, target: target)
    }

    /// Runs every plugin's `prepare`, in order, then every plugin's `willSend`.
    private func prepared(_ request: Request, target: Target) -> Request {
        let prepared = plugins.reduce(request) { $1.prepare($0, target: target) }
        for plugin in plugins { plugin.willSend(prepared, target: target) }
        return prepared
    }

    /// Shows every plugin the result, then lets each process it.
    private func finished(_ result: Result<Response, MoyaError>, target: Target) -> Result<Response, MoyaError> {
        for plugin in plugins { plugin.didReceive(result, target: target) }
        return process(result, target: target)
    }

    /// The whole of an immediate stub, from the built request to the processed result,
    /// without suspending.
    private func immediatelyStubbed(_ built: Result<Request, MoyaError>, endpoint: Endpoint, target: Target)
        -> Result<Response, MoyaError>
    {
        switch built {
        case .success(let request):
            let prepared = self.prepared(request, target: target)
            return finished(stubbed(endpoint, request: prepared, target: target), target: target)
        case .failure(let error):
            return process(.failure(error), target: target)
        }
    }

    private func process(_ result: Result<Response, MoyaError>, target: Target) -> Result<Response, MoyaError> {
        plugins.reduce(result) { $1.process($0, target: target) }
    }

    private func stubbed(_ endpoint: Endpoint, request: Request, target: Target) -> Result<Response, MoyaError> {
        switch endpoint.sampleResponseClosure() {
        case .networkResponse(let status, let data):
            return validate(Response(statusCode: status, data: data, request: request), target: target)
        case .response(let head, let data):
            // A sample's cookies are kept as a live response's would be.
            request.cookies?.store(head.headers.values(for: "Set-Cookie"), from: request.url)
            return validate(
                Response(statusCode: head.statusCode, data: data, request: request, response: head), target: target)
        case .networkError(let error):
            return .failure(.underlying(error, nil))
        }
    }

    private func validate(_ response: Response, target: Target) -> Result<Response, MoyaError> {
        target.validationType.accepts(response.statusCode) ? .success(response) : .failure(.statusCode(response))
    }

    private func send(
        _ request: Request, target: Target, endpoint: Endpoint, progress: ProgressHandler?,
        destination: DownloadDestination?, stream: (any ResponseStream)?
    ) async -> Result<Response, MoyaError> {
        if let destination {
            return await download(request, target: target, destination: destination, progress: progress)
        }
        switch endpoint.task {
        case .downloadDestination(let destination), .downloadParameters(_, _, let destination):
            return await download(request, target: target, destination: destination, progress: progress)
        default:
            break
        }
        if let stream {
            do {
                return validate(try await session.stream(request, to: stream, progress: progress), target: target)
            } catch {
                return .failure(error)
            }
        }
        guard trackInflights, progress == nil else {
            return await transfer(request, target: target, progress: progress)
        }
        let key = Self.inflightKey(request)
        let isFirst = inflight.withLock { waiting -> Bool in
            guard waiting[key] == nil else { return false }
            waiting[key] = []
            return true
        }
        if isFirst {
            let result = await transfer(request, target: target)
            let followers = inflight.withLock { $0.removeValue(forKey: key) } ?? []
            for follower in followers { follower.resume(returning: result) }
            return result
        }
        return await withCheckedContinuation { continuation in
            let joined = inflight.withLock { waiting -> Bool in
                guard waiting[key] != nil else { return false }
                waiting[key, default: []].append(continuation)
                return true
            }
            if !joined {
                // The shared request finished in between; send this one on its own.
                _Concurrency.Task { continuation.resume(returning: await self.transfer(request, target: target)) }
            }
        }
    }

    private func transfer(_ request: Request, target: Target, progress: ProgressHandler? = nil) async
        -> Result<Response, MoyaError>
    {
        do {
            return validate(try await session.send(request, progress: progress), target: target)
        } catch {
            return .failure(error)
        }
    }

    private func download(
        _ request: Request, target: Target, destination: @escaping DownloadDestination, progress: ProgressHandler?
    ) async -> Result<Response, MoyaError> {
        await session.download(request, destination: destination, progress: progress) {
            validate($0, target: target)
        }
    }

    static func inflightKey(_ request: Request) -> String {
        var key = request.method.rawValue + " " + request.url.absoluteString
        for field in request.headers { key += "\n\(field.name): \(field.value)" }
        switch request.body {
        case .data(let data)?: key += "\n\n" + data.base64EncodedString()
        case .file(let url)?: key += "\n\n@" + url.path
        case nil: break
        }
        return key
    }
}

// MARK: - Defaults

extension MoyaProvider {
    /// The URL from `URL(target:)`, the sample as a 200, and the target's method, task and headers.
    public static func defaultEndpointMapping(for target: Target) -> Endpoint {
        Endpoint(target: target)
    }

    /// Builds the endpoint's request, or reports why it could not.
    public static func defaultRequestMapping(for endpoint: Endpoint, closure: RequestResultClosure) {
        do {
            closure(.success(try endpoint.urlRequest()))
        } catch {
            closure(.failure(error))
        }
    }

    /// Never stubs.
    public static func neverStub(_: Target) -> StubBehavior { .never }
    /// Stubs at once.
    public static func immediatelyStub(_: Target) -> StubBehavior { .immediate }
    /// Stubs after `seconds`.
    public static func delayedStub(_ seconds: Double) -> @Sendable (Target) -> StubBehavior {
        { _ in .delayed(seconds: seconds) }
    }
}
