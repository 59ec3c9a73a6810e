extension MoyaProvider {
    /// Sends `target` and returns its response, or throws its `MoyaError`. Cancelling the
    /// calling task cancels the request, which then throws `.underlying` of
    /// `NSURLErrorCancelled`.
    ///
    /// The result-returning form is `request(_:) -> Result<Response, MoyaError>`; name the
    /// type to choose it.
    nonisolated(nonsending) public func request(_ target: Target) async throws(MoyaError) -> Response {
        try await result(target).get()
    }

    /// Sends `target` and returns its result, as Moya's `development` branch does.
    /// Cancelling the calling task cancels the request.
    @_disfavoredOverload
    nonisolated(nonsending) public func request(_ target: Target) async -> Result<Response, MoyaError> {
        await result(target)
    }

    /// Sends `target` and reports its progress, then its response, as it goes; a failure
    /// ends the stream. Ending the stream early cancels the request.
    public func requestWithProgress(_ target: Target) -> AsyncStream<Result<ProgressResponse, MoyaError>> {
        AsyncStream { stream in
            let cancellable = Unchecked(
                self.request(
                    target, callbackQueue: Self.anyQueue, progress: { stream.yield(.success($0)) },
                    completion: { result in
                        if case .failure(let error) = result { stream.yield(.failure(error)) }
                        stream.finish()
                    }))
            stream.onTermination = { _ in cancellable.value.cancel() }
        }
    }

    /// The request awaited in MoyaCore, without a callback or a queue in between; with
    /// `trackInflights`, through `request(_:completion:)`, where requests in flight are kept.
    nonisolated(nonsending) private func result(_ target: Target) async -> Result<Response, MoyaError> {
        guard !trackInflights else { return await sharedResult(target) }
        let endpoint = self.endpoint(target)
        let stubBehavior = stubClosure(target)
        let built = await withCheckedContinuation {
            (continuation: CheckedContinuation<Unchecked<Result<URLRequest, MoyaError>>, Never>) in
            requestClosure(endpoint) { continuation.resume(returning: Unchecked($0)) }
        }.value
        let bridged = Bridged(target, stubBehavior: stubBehavior)
        let exchange = bridged.exchange
        let result = await core.result(
            for: bridged, endpoint: Self.coreEndpoint(endpoint, exchange: exchange),
            built: Self.coreRequest(built, endpoint: endpoint, exchange: exchange))
        return exchange.result(result)
    }

    nonisolated(nonsending) private func sharedResult(_ target: Target) async -> Result<Response, MoyaError> {
        let held = CancellableWrapper()
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Unchecked<Result<Response, MoyaError>>, Never>) in
                let request = request(target, callbackQueue: Self.anyQueue) { result in
                    continuation.resume(returning: Unchecked(result))
                }
                held.hold { request.cancel() }
            }
        } onCancel: {
            held.cancel()
        }
        return outcome.value
    }

    /// Where async results are handed over: any thread will do, as the caller resumes on its own.
    private static var anyQueue: DispatchQueue { asyncResults }
}

/// The queue async results are handed over on.
private let asyncResults = DispatchQueue(label: "moya.async-results")
