import MoyaBinding
import MoyaHTTP
import MoyaSpec
import MoyaStreams
import MoyaTransport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Sends spec targets as `moya-cli` does, and owns everything that takes: the session (one
/// HTTP client and connection pool), the logins, the command line's overrides, the
/// environment, and where `-v` logs. Its `deliver` is the one way a spec call reaches the
/// wire, for `call`, checks, flows, logins and library users; it is `Sendable`, and one
/// client serves any number of tasks.
///
/// ```swift
/// let compiler = SpecCompiler(environment: .process)
/// let catalog = try SpecLibrary(searchPaths: ["specs"], compiler: compiler).loadAll()
/// let client = SpecClient(services: catalog.services)
/// let user = try await client.response("myservice.showUser", ["id": .int(1)])
/// let flow = await client.run(flow: "myservice.userLifecycle")
/// await client.shutdown()
/// ```
public struct SpecClient: Sendable {
    /// The services the client knows, by name; flow steps and logins may name any of them.
    public let services: [ServiceSpec]
    /// `--env`: each service's environment of that name, else its own base URL.
    public let environment: String?
    /// What the command line overrides of each target's policy (see `CallPolicy.decide`).
    public let overrides: CallPolicy.Overrides
    /// The shared transport, carrying the TLS options.
    public let session: Session
    /// Whether secrets print as they are (`--show-secrets`).
    public let showSecrets: Bool
    /// The logins shared by every request; nil sends a login target's requests without one.
    public let logins: Logins?
    /// What `-v` logs of each request; nothing by default.
    public let logOptions: NetworkLoggerPlugin.LogOptions
    /// Where the log's lines go.
    public let log: @Sendable (String) -> Void
    /// Whether each exchange keeps its request's masked twin, so that a report can show it
    /// (`ExchangeTrace`); `check --html` sets it.
    public var tracesExchanges = false
    /// Hears of every delivery as it ends, with the response whatever its status, or nil
    /// when none came: what `--coverage` counts. Called once per delivery, after its retries.
    public var heard: (@Sendable (_ target: SpecTarget, _ response: Response?) -> Void)? = nil
    /// Reads the secrets a target that is sent needs from their sources (`secrets:`); nil
    /// leaves a `${NAME}` the environment does not set unset.
    public var secrets: SecretVault? = nil

    /// A client for `services`, in the environment named `environment`, with `overrides` in
    /// place of the spec's settings where given, as a command line's flags are.
    public init(
        services: [ServiceSpec], environment: String? = nil, overrides: CallPolicy.Overrides = CallPolicy.Overrides(),
        session: Session = Session(), showSecrets: Bool = false, logins: Logins?,
        logOptions: NetworkLoggerPlugin.LogOptions = [], log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.services = services
        self.environment = environment
        self.overrides = overrides
        self.session = session
        self.showSecrets = showSecrets
        self.logins = logins
        self.logOptions = logOptions
        self.log = log
    }

    /// A client as a library user makes one: `processEnvironment` is where the login token
    /// cache is found; tokens are cached only when `cachesTokens` and the login asks for it.
    public init(
        services: [ServiceSpec], environment: String? = nil, overrides: CallPolicy.Overrides = CallPolicy.Overrides(),
        session: Session = Session(), processEnvironment: Environment = .process, cachesTokens: Bool = false
    ) {
        self.init(
            services: services, environment: environment, overrides: overrides, session: session,
            logins: Logins(environment: processEnvironment, usesCache: cachesTokens))
    }

    /// Why a name names nothing the client has.
    public struct UnknownName: Error, Sendable, CustomStringConvertible {
        /// The name asked for.
        public var name: String
        public var description: String { "no target or flow '\(name)'" }
    }

    /// The service and target `SERVICE.TARGET` names.
    public func target(_ name: String) throws(UnknownName) -> (ServiceSpec, TargetSpec) {
        guard let (service, member) = split(name), let target = service.target(named: member) else {
            throw UnknownName(name: name)
        }
        return (service, target)
    }

    /// The service `SERVICE.NAME` names, and `NAME`.
    func split(_ name: String) -> (ServiceSpec, String)? {
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, let service = services.first(where: { $0.name == parts[0] }) else { return nil }
        return (service, parts[1])
    }

    /// `SERVICE.TARGET` with `arguments` prepared as `call --dry-run` prints it.
    public func prepare(
        _ name: String, _ arguments: [String: ParamValue] = [:], headers: HTTPHeaders = [:]
    ) throws -> PreparedCall {
        let (service, target) = try target(name)
        return try PreparedCall.prepare(
            target, of: service, with: CallOptions(arguments: arguments, environment: environment),
            headers: headers, overrides: overrides)
    }

    /// Sends `SERVICE.TARGET` with `arguments` and `headers`, or answers from its sample when
    /// the policy stubs it: the response whatever its status, or why there is none.
    public func send(
        _ name: String, _ arguments: [String: ParamValue] = [:], headers: HTTPHeaders = [:]
    ) async -> Exchange {
        let service: ServiceSpec
        let target: TargetSpec
        do {
            (service, target) = try self.target(name)
        } catch {
            let failure = SendFailure(kind: .invalidCall, target: nil, reason: error.description)
            return Exchange(target: nil, redactor: Redactor(), response: nil, seconds: 0, failure: failure)
        }
        return await exchange(
            service, target, with: CallOptions(arguments: arguments, environment: environment), headers: headers)
    }

    /// Resolves `target` with `options` and sends it (or answers from its sample), through the
    /// same provider and redaction a call uses. `headers` are added as `call -H` adds them;
    /// `cookies` are sent and kept, as a flow's are; `secrets` are more values to redact. A
    /// target whose `auth:` is a login carries the shared token, and is replayed once after a
    /// refresh when its status asks for one; `authenticating: false` sends the login call itself.
    /// With `pages`, the target's pages are read and the exchange's body is all their items
    /// (see `pagedExchange`).
    public func exchange(
        _ service: ServiceSpec, _ target: TargetSpec, with options: CallOptions, headers: HTTPHeaders = [:],
        cookies: CookieStore? = nil, secrets: SecretSet = .none,
        responseSecrets: ResponseSecrets = ResponseSecrets(), authenticating: Bool = true, pages: PageCount? = nil
    ) async -> Exchange {
        let (unbound, unboundTarget) = (service, target)
        let service: ServiceSpec
        let target: TargetSpec
        do {
            (service, target) = try withSecrets(unbound, unboundTarget, environment: options.environment)
        } catch {
            let (service, target) = (unbound, unboundTarget)
            let failure = SendFailure(secret: error, target: service.name + "." + target.name)
            return Exchange(target: nil, redactor: Redactor(), response: nil, seconds: 0, failure: failure)
        }
        if let pages {
            return await pagedExchange(
                service, target, with: options, pages: pages, headers: headers, secrets: secrets,
                delivery: Delivery(cookies: cookies, responseSecrets: responseSecrets))
        }
        let prepared: PreparedCall
        do {
            prepared = try PreparedCall.prepare(
                target, of: service, with: options, headers: headers, secrets: secrets, overrides: overrides,
                showingSecrets: showSecrets, printsRequest: !logOptions.isEmpty || tracesExchanges,
                keepsDownloadsInMemory: true)
        } catch {
            let failure = SendFailure(resolving: error, target: service.name + "." + target.name)
            return Exchange(target: nil, redactor: Redactor(), response: nil, seconds: 0, failure: failure)
        }
        var resolved = prepared.call.target

        let start = ContinuousClock.now
        var delivery = Delivery(cookies: cookies, responseSecrets: responseSecrets)
        // A stream, declared or by its `Content-Type`, is read as events, ended at its bounds
        // (the defaults for one not declared), and its expectations read the events as one JSON
        // array (`StreamTranscript`); any other body is held as a body is. A log of bodies
        // reads them whole, so an undeclared stream is then read as a body, as `call -vv` does.
        let transcript = StreamTranscript()
        let logsBodies = !logOptions.isDisjoint(with: [.successResponseBody, .errorResponseBody])
        if prepared.policy.stub == .never, target.stream != nil || !logsBodies {
            let limit = session.configuration.maximumBodyBytes ?? .max
            delivery.sink = { [stream = target.stream, script = resolved.script] in
                EventReader(for: stream, otherwise: HeldBody(limit: limit), sink: transcript, script: script)
            }
        }
        let delivered = await deliver(prepared, of: service, delivery, authenticating: authenticating)
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        resolved.secrets.add(delivered.tokens)
        let redactor = delivered.redactor
        let reader = delivered.sink as? EventReader
        guard target.stream != nil || reader?.isStream == true else {
            // Not a stream: the held body is the response's.
            let held = (reader?.otherwise as? HeldBody)?.data
            let result = delivered.result.mapAnswered { held.map($0.withData) ?? $0 }
            return Exchange(target: resolved, redactor: redactor, result: result, seconds: seconds)
        }
        return Self.streamExchange(
            delivered, transcript: transcript, stream: target.stream, target: resolved, seconds: seconds)
    }

    /// The exchange of a target that declares a stream: its events as the body, or the body
    /// held when the response was not a stream; a stream ended by a default bound, or with
    /// more events than are kept, fails, naming the bound.
    private static func streamExchange(
        _ delivered: Delivered, transcript: StreamTranscript, stream: StreamSpec?, target: SpecTarget, seconds: Double
    ) -> Exchange {
        var result = delivered.result
        let response: Response
        switch result {
        case .success(let answered), .failure(.statusCode(let answered)): response = answered
        case .failure:
            return Exchange(target: target, redactor: delivered.redactor, result: result, seconds: seconds)
        }
        let reader: EventReader
        let summary: EventReader.Summary?
        if let live = delivered.sink as? EventReader {
            reader = live
            summary = reader.finish()
        } else {
            // A stub's body, read as a live one is.
            reader = EventReader(for: stream, otherwise: nil, sink: transcript)
            summary = reader.read(whole: response)
        }
        let body: Data
        var failure: String?
        var kind = SendFailure.Kind.network(.timedOut)
        if let summary {
            let (events, overflowed) = transcript.events
            body = StreamTranscript.body(of: events)
            if overflowed {
                failure =
                    "the stream sent more than \(StreamTranscript.maximumEvents) events or "
                    + "\(ByteCount.format(StreamTranscript.maximumBytes)) of data, the most a check keeps; "
                    + "give the target stream: { maxEvents: … }"
            } else if let said = summary.failure {
                failure = "the WebSocket script failed at " + said
                kind = .network(.badServerResponse)
            } else {
                // The failure names the server itself.
                failure = summary.defaultBoundReason(server: nil)
            }
        } else {
            body = (reader.otherwise as? HeldBody)?.data ?? response.data
        }
        let read = Response(
            statusCode: response.statusCode, data: body, request: response.request, response: response.response)
        if case .success = result { result = .success(read) } else { result = .failure(.statusCode(read)) }
        if let failure {
            let server = response.request.flatMap { NetworkError.address(of: $0.url) }
            return Exchange(
                target: target, redactor: delivered.redactor, response: nil, seconds: seconds,
                failure: SendFailure(
                    kind: kind, target: target.qualifiedName, reason: failure, server: server,
                    response: read))
        }
        var exchange = Exchange(target: target, redactor: delivered.redactor, result: result, seconds: seconds)
        exchange.stream = summary
        return exchange
    }

    /// `service` and `target` as they are sent, with the secrets they need read from their
    /// sources and bound (`SecretVault`); as they are when the policy stubs the target,
    /// which sends nothing.
    public func withSecrets(_ service: ServiceSpec, _ target: TargetSpec, environment: String?)
        throws(SecretFailure) -> (ServiceSpec, TargetSpec)
    {
        guard let secrets else { return (service, target) }
        return try secrets.bind(service, target, overrides: overrides, environment: environment)
    }

    /// Sends `SERVICE.TARGET` with `arguments` and `headers`, or answers from its sample when
    /// the policy stubs it, and returns the response that passed the target's validation.
    /// Anything else throws, typed: switch on `SendFailure.kind`.
    public func response(
        _ name: String, _ arguments: [String: ParamValue] = [:], headers: HTTPHeaders = [:]
    ) async throws(SendFailure) -> Response {
        let exchange = await send(name, arguments, headers: headers)
        if let failure = exchange.failure { throw failure }
        guard let response = exchange.response, let target = exchange.target else {
            throw SendFailure(kind: .invalidCall, target: name, reason: "no response")
        }
        guard exchange.passedValidation else {
            throw SendFailure(error: .statusCode(response), target: target, redactor: exchange.redactor)
        }
        return response
    }

    /// What a report shows of `exchange`, a call of `target` in `service`, when the client
    /// keeps traces (`tracesExchanges`): a live one with the headers the session sent.
    public func trace(_ exchange: Exchange, of target: TargetSpec, in service: ServiceSpec) -> ExchangeTrace? {
        guard tracesExchanges else { return nil }
        let session = session
        var wire: (@Sendable (Request) -> HTTPHeaders)?
        if CallPolicy.decide(overrides, target: target, service: service).stub == .never {
            wire = { request in session.wireHeaders(for: request) }
        }
        return ExchangeTrace(exchange, wire: wire)
    }

    /// Closes the session's connections; call once, when every request has finished.
    public func shutdown() async {
        await session.shutdown()
    }
}

extension Response {
    /// The response with `data` as its body, as `Session.send` would have held it.
    fileprivate func withData(_ data: Data) -> Response {
        Response(statusCode: statusCode, data: data, request: request, response: response)
    }
}
