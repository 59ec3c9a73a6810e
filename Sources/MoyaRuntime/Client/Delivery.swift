import MoyaHTTP
import MoyaSpec
import MoyaTransport
import Synchronization

/// How a prepared call is carried, beyond the call itself: the cookies it sends and keeps,
/// what of its response is secret before it arrives, and, for a command that presents the
/// body as it arrives, progress, a destination, a sink and a way to wait that can cancel.
public struct Delivery: Sendable {
    /// Runs `send`, a live or delayed attempt, in a task it may cancel, and waits for its
    /// result and the signal that cancelled it, if one did. Cancelling the task cancels the
    /// transfer.
    public typealias Waiting =
        @Sendable (
            _ send: @escaping @Sendable () async -> Result<Response, MoyaError>
        ) async -> (result: Result<Response, MoyaError>, signal: Int32?)

    /// The cookies sent and kept, as a flow run's; nil keeps a redirect's only.
    public var cookies: CookieStore?
    /// The parts of the response that are secret before it arrives; the log masks them.
    public var responseSecrets: ResponseSecrets
    /// Hears of the transfer's progress.
    public var progress: ProgressHandler?
    /// Where a live body is written instead of kept.
    public var saveTo: DownloadDestination?
    /// Makes the sink an attempt's body streams to as it arrives: one per attempt, so that
    /// after a login's refresh only the replay's body is kept.
    public var sink: (@Sendable () -> (any ResponseStream)?)?
    /// How a live attempt is waited for; `call` cancels it on Ctrl-C. Without, it is awaited.
    public var waiting: Waiting?

    /// A delivery; what is not given is left out.
    public init(
        cookies: CookieStore? = nil, responseSecrets: ResponseSecrets = ResponseSecrets(),
        progress: ProgressHandler? = nil, saveTo: DownloadDestination? = nil,
        sink: (@Sendable () -> (any ResponseStream)?)? = nil, waiting: Waiting? = nil
    ) {
        self.cookies = cookies
        self.responseSecrets = responseSecrets
        self.progress = progress
        self.saveTo = saveTo
        self.sink = sink
        self.waiting = waiting
    }
}

/// A delivered call: the result, the last attempt's sink and the signal that cancelled it,
/// and what of the exchange may be printed, the login's tokens among its secrets.
public struct Delivered: Sendable {
    /// The response whatever its status passed or failed validation, or why there is none.
    public var result: Result<Response, MoyaError>
    /// The last attempt's sink, if the delivery made one.
    public var sink: (any ResponseStream)?
    /// The signal that cancelled the request, if one did.
    public var signal: Int32?
    /// What may be printed of the exchange.
    public var redactor: Redactor
    /// The login tokens the attempts sent.
    public var tokens: [String]
}

extension SpecClient {
    /// Sends `prepared`, a target of `service`, or answers from its sample as its policy says:
    /// the one way a spec call reaches the wire, for `call`, checks, flows, logins and
    /// `SpecClient`. A target whose `auth:` is a login carries the shared token, and is
    /// replayed once after a refresh when its status asks for one; `authenticating: false`
    /// sends the login call itself. Each attempt is logged as `logOptions` say.
    public func deliver(
        _ prepared: PreparedCall, of service: ServiceSpec, _ delivery: Delivery = Delivery(),
        authenticating: Bool = true
    ) async -> Delivered {
        let delivered = await authenticated(prepared, of: service, delivery, authenticating: authenticating)
        if let heard {
            let response: Response? =
                switch delivered.result {
                case .success(let response), .failure(.statusCode(let response)): response
                case .failure: nil
                }
            heard(prepared.call.target, response)
        }
        return delivered
    }

    /// The delivery, with a login's token when the target has one.
    private func authenticated(
        _ prepared: PreparedCall, of service: ServiceSpec, _ delivery: Delivery, authenticating: Bool
    ) async -> Delivered {
        guard authenticating, let login = prepared.call.target.login, let logins else {
            return await attempt(prepared, credential: nil, delivery)
        }
        let authenticator = logins.authenticator(for: login, in: service, environment: environment) {
            loginService, target, options in
            // The body a login reads its token from is a secret's source: the log leaves it out.
            await exchange(
                loginService, target, with: options, responseSecrets: ResponseSecrets(body: true),
                authenticating: false)
        } serviceNamed: { [services] name in
            services.first { $0.name == name }
        }
        let last = Mutex<Delivered?>(nil)
        let tokens = Mutex<[String]>([])
        let result = await authenticator.perform(refreshOn: login.refreshOn) { credential in
            tokens.withLock { $0.append(credential.token) }
            let made = await attempt(prepared, credential: credential, delivery)
            last.withLock { $0 = made }
            return made.result
        }
        let sent = tokens.withLock { $0 }
        var delivered =
            last.withLock { $0 }
            ?? Delivered(result: result, sink: nil, signal: nil, redactor: prepared.redactor, tokens: [])
        delivered.result = result
        delivered.tokens = sent
        // The last attempt's redactor holds its token and its exchange's credentials; the
        // tokens of the attempts before a refresh were sent too.
        delivered.redactor = delivered.redactor.adding(sent)
        return delivered
    }

    /// One attempt, with a login's `credential` if it has one.
    private func attempt(
        _ prepared: PreparedCall, credential: Authenticator.Credential?, _ delivery: Delivery
    ) async -> Delivered {
        var call = prepared.call
        call.cookies = delivery.cookies
        call.credential = credential
        let tokens = credential.map { [$0.token] } ?? []
        let redactor = prepared.redactor.adding(tokens)
        var logger: NetworkLoggerPlugin?
        if !logOptions.isEmpty {
            var logged = redactor.adding([], headers: delivery.responseSecrets.headers)
            logged.hidesResponseBody = delivery.responseSecrets.body
            // A stub sends nothing, so the log shows the request's own headers alone.
            let session = session
            let wire: (@Sendable (Request) -> HTTPHeaders)? =
                prepared.policy.stub == .never ? { @Sendable request in session.wireHeaders(for: request) } : nil
            logger = NetworkLoggerPlugin(
                configuration: .init(output: log, logOptions: logOptions, redactor: logged, wireHeaders: wire))
        }
        let sink = delivery.sink?()
        // An answer from the sample at once has nothing to cancel, and stays on the caller's
        // executor.
        if let waiting = delivery.waiting, prepared.policy.stub != .immediate {
            let (result, signal) = await waiting { [call, logger] in
                await send(call, logger: logger, progress: delivery.progress, saveTo: delivery.saveTo, sink: sink)
            }
            return Delivered(
                result: result, sink: sink, signal: signal,
                redactor: result.answered.map(redactor.exchanged) ?? redactor,
                tokens: tokens)
        }
        let result = await send(call, logger: logger, progress: delivery.progress, saveTo: delivery.saveTo, sink: sink)
        return Delivered(
            result: result, sink: sink, signal: nil, redactor: result.answered.map(redactor.exchanged) ?? redactor,
            tokens: tokens)
    }

    /// One attempt of `call`, hop by hop: its request built once (`SpecCall.outgoingRequest`),
    /// logged, answered from the sample or sent through the session, its status judged once
    /// (`SpecCall.validated`), its result logged. Cancelling the calling task cancels it. The
    /// sample's answer stays on the caller's executor; the transfer runs on the session's.
    private func send(
        _ call: SpecCall, logger: NetworkLoggerPlugin?, progress: ProgressHandler?, saveTo: DownloadDestination?,
        sink: (any ResponseStream)?
    ) async -> Result<Response, MoyaError> {
        let request: Request
        do {
            request = try call.outgoingRequest()
        } catch {
            return .failure(error)
        }
        logger?.willSend(request, target: call.target)
        var result: Result<Response, MoyaError>
        switch call.policy.stub {
        case .never:
            let session = session
            result = await withTaskExecutorPreference(session.taskExecutor) {
                await transfer(call, request, progress: progress, saveTo: saveTo, sink: sink)
            }
        case .immediate:
            result = call.stubbed(request)
        case .delayed(let seconds):
            do {
                try await _Concurrency.Task.sleep(for: Seconds.duration(seconds))
                result = call.stubbed(request)
            } catch {
                result = .failure(Self.cancelled)
            }
        }
        if _Concurrency.Task.isCancelled, case .success = result { result = .failure(Self.cancelled) }
        logger?.didReceive(result, target: call.target)
        return result
    }

    /// How a cancelled attempt fails.
    private static let cancelled = MoyaError.underlying(NetworkError(.cancelled, "the request was cancelled"), nil)

    /// `request` through the session: its body written to `saveTo` or to the target's download
    /// destination, streamed to `sink`, or kept in the response.
    private func transfer(
        _ call: SpecCall, _ request: Request, progress: ProgressHandler?, saveTo: DownloadDestination?,
        sink: (any ResponseStream)?
    ) async -> Result<Response, MoyaError> {
        do {
            if let destination = saveTo ?? call.downloadDestination {
                return await session.download(
                    request, destination: destination, progress: progress, judgedBy: call.validated)
            }
            if let sink {
                return call.validated(try await session.stream(request, to: sink, progress: progress))
            }
            return call.validated(try await session.send(request, progress: progress))
        } catch {
            return .failure(error)
        }
    }
}

/// What of a response is a secret before it arrives: the headers, lowercased, and whether the
/// body, that a flow step's secret captures read; the log masks them.
public struct ResponseSecrets: Sendable {
    public var headers: Set<String> = []
    public var body = false

    /// Secrets in `headers`, and in the body when `body` is set.
    public init(headers: Set<String> = [], body: Bool) {
        self.headers = headers
        self.body = body
    }

    /// The parts of a response that `captures` take secrets from.
    public init(_ captures: [CaptureSpec] = []) {
        for capture in captures where capture.isSecret {
            switch capture.source {
            case .header(let name): headers.insert(name.lowercased())
            case .json, .body: body = true
            case .cookie, .status, .duration: break
            }
        }
    }
}
