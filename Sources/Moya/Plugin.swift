import MoyaCore

/// Hooks into every request a provider makes. Each does nothing unless a plugin implements it.
///
/// Every plugin's `prepare` runs, in order, then every plugin's `willSend`; then the request
/// is sent or stubbed, then every plugin's `didReceive` runs, and last every `process`, each
/// plugin's result feeding the next.
public protocol PluginType {
    /// Changes the request before it is sent.
    func prepare(_ request: URLRequest, target: TargetType) -> URLRequest
    /// Sees the request just before it is sent.
    func willSend(_ request: RequestType, target: TargetType)
    /// Sees the result as soon as it arrives.
    func didReceive(_ result: Result<Moya.Response, MoyaError>, target: TargetType)
    /// Changes the result before the caller gets it.
    func process(_ result: Result<Moya.Response, MoyaError>, target: TargetType) -> Result<Moya.Response, MoyaError>
}

extension PluginType {
    public func prepare(_ request: URLRequest, target: TargetType) -> URLRequest { request }
    public func willSend(_ request: RequestType, target: TargetType) {}
    public func didReceive(_ result: Result<Moya.Response, MoyaError>, target: TargetType) {}
    public func process(_ result: Result<Moya.Response, MoyaError>, target: TargetType) -> Result<
        Moya.Response, MoyaError
    > {
        result
    }
}

/// The request a plugin's `willSend` sees.
public protocol RequestType {
    /// The request as it will be sent, or nil when it could not be built.
    var request: URLRequest? { get }
    /// Headers the session adds to every request.
    var sessionHeaders: [String: String] { get }
    /// Sends the request with these credentials.
    func authenticate(username: String, password: String, persistence: URLCredential.Persistence) -> Self
    /// Sends the request with this credential.
    func authenticate(with credential: URLCredential) -> Self
    /// Calls `handler` with the request as a cURL command.
    func cURLDescription(calling handler: @escaping (String) -> Void) -> Self
}

/// The request `willSend` sees: credentials given to it are sent, as HTTP Basic
/// authentication, with the request.
struct SentRequest: RequestType {
    let request: URLRequest?
    let exchange: Exchange
    let sessionHeaders: [String: String]

    func authenticate(username: String, password: String, persistence: URLCredential.Persistence) -> SentRequest {
        authenticate(with: URLCredential(user: username, password: password, persistence: persistence))
    }

    func authenticate(with credential: URLCredential) -> SentRequest {
        exchange.credential = credential
        return self
    }

    func cURLDescription(calling handler: @escaping (String) -> Void) -> SentRequest {
        guard let request, let core = try? MoyaCore.Request(request) else {
            handler("$ curl command could not be created")
            return self
        }
        handler("$ " + CURLCommand(request: core).text)
        return self
    }
}

/// One request on its way through MoyaCore: the Moya target it was made for, and what must
/// come back as it went in, such as the very `HTTPURLResponse` a sample gave.
final class Exchange: @unchecked Sendable {
    // One request's hooks run one after another; the lock covers the hand-over between threads.
    let target: TargetType?
    private let lock = NSLock()
    private var moyaResponses: [ObjectIdentifier: (core: MoyaCore.Response, moya: Response)] = [:]
    private var coreResponses: [ObjectIdentifier: (moya: Response, core: MoyaCore.Response)] = [:]
    private var _sampleResponse: HTTPURLResponse?
    private var _credential: URLCredential?

    init(target: TargetType?) {
        self.target = target
    }

    /// For conversions made outside any request, such as `Endpoint.urlRequest()`.
    static var detached: Exchange { Exchange(target: nil) }

    /// The `HTTPURLResponse` a sample answered with.
    var sampleResponse: HTTPURLResponse? {
        get { lock.withLock { _sampleResponse } }
        set { lock.withLock { _sampleResponse = newValue } }
    }

    /// The credential a plugin gave in `willSend`.
    var credential: URLCredential? {
        get { lock.withLock { _credential } }
        set { lock.withLock { _credential = newValue } }
    }

    /// A MoyaCore response as Moya's: the same object each time it is asked for.
    func response(_ core: MoyaCore.Response) -> Response {
        lock.withLock {
            if let known = moyaResponses[ObjectIdentifier(core)] { return known.moya }
            let url = core.request?.url ?? URL(fileURLWithPath: "/")
            let http = core.response.map { _sampleResponse ?? Bridge.httpResponse($0, url: url) } ?? nil
            let moya = Response(
                statusCode: core.statusCode, data: core.data, request: core.request.map(URLRequest.init),
                response: http)
            remember(core: core, moya: moya)
            return moya
        }
    }

    /// A Moya response as MoyaCore's: the same object each time it is asked for.
    func core(_ moya: Response) -> MoyaCore.Response {
        lock.withLock {
            if let known = coreResponses[ObjectIdentifier(moya)] { return known.core }
            let core = moya.core
            remember(core: core, moya: moya)
            return core
        }
    }

    private func remember(core: MoyaCore.Response, moya: Response) {
        moyaResponses[ObjectIdentifier(core)] = (core, moya)
        coreResponses[ObjectIdentifier(moya)] = (moya, core)
    }

    /// A MoyaCore result as Moya's.
    func result(_ result: Result<MoyaCore.Response, MoyaCore.MoyaError>) -> Result<Response, MoyaError> {
        result.map(response).mapError { Bridge.error($0, self) }
    }

    /// A Moya result as MoyaCore's.
    func core(_ result: Result<Response, MoyaError>) -> Result<MoyaCore.Response, MoyaCore.MoyaError> {
        result.map(core).mapError { Bridge.error($0, self) }
    }
}

/// The target MoyaCore sends: it carries the request's `Exchange`, where the Moya target is.
/// Its properties are the Moya target's, read only when MoyaCore asks for them.
struct Bridged: MoyaCore.TargetType, @unchecked Sendable {
    // Read only by the provider and the plugins' hooks, which run one after another.
    let exchange: Exchange
    let stubBehavior: StubBehavior
    private let target: TargetType

    init(_ target: TargetType, stubBehavior: StubBehavior) {
        exchange = Exchange(target: target)
        self.stubBehavior = stubBehavior
        self.target = target
    }

    var baseURL: URL { target.baseURL }
    var path: String { target.path }
    var method: MoyaCore.Method { target.method }
    var headers: [String: String]? { target.headers }
    var validationType: ValidationType { target.validationType }

    /// Unused: the provider hands MoyaCore an endpoint it has built.
    var task: MoyaCore.Task { .requestPlain }
}

/// Moya's plugins as one MoyaCore plugin, so that each hook sees Moya's types, a credential
/// given in `willSend` is sent with the request, and the session's headers are added after
/// the plugins have run, as URLSession adds them.
struct PluginBridge: MoyaCore.PluginType, @unchecked Sendable {
    // The plugins are called for one request at a time, as Moya calls them.
    let plugins: [PluginType]

    /// The headers every request gets unless it has its own: Alamofire's defaults.
    static let defaultHeaders: [(name: String, value: String)] = [
        ("Accept-Encoding", "gzip, deflate"),
        ("Accept-Language", acceptLanguage),
        ("User-Agent", "\(ProcessInfo.processInfo.processName) Moya/15.0 (moya-cli MoyaCore)"),
    ]

    /// The same, as `RequestType.sessionHeaders` gives them.
    static let sessionHeaders = Dictionary(defaultHeaders.map { ($0.name, $0.value) }) { first, _ in first }

    /// The preferred languages, at most six, each weighted 0.1 below the one before.
    private static var acceptLanguage: String {
        let languages = Locale.preferredLanguages.prefix(6)
        guard !languages.isEmpty else { return "en;q=1.0" }
        return languages.enumerated().map { index, language in
            "\(language);q=\(String(format: "%.1f", 1.0 - Double(index) * 0.1))"
        }.joined(separator: ", ")
    }

    func prepare(_ request: MoyaCore.Request, target: any MoyaCore.TargetType) -> MoyaCore.Request {
        guard !plugins.isEmpty else {
            // No plugin to show a URLRequest to: the session's headers are all there is to add.
            var prepared = request
            for (name, value) in Self.defaultHeaders where !prepared.headers.contains(name) {
                prepared.headers.add(name: name, value: value)
            }
            return prepared
        }
        guard let bridged = target as? Bridged, let moyaTarget = bridged.exchange.target else { return request }
        var urlRequest = plugins.reduce(URLRequest(request)) { $1.prepare($0, target: moyaTarget) }
        let sent = SentRequest(request: urlRequest, exchange: bridged.exchange, sessionHeaders: Self.sessionHeaders)
        for plugin in plugins { plugin.willSend(sent, target: moyaTarget) }
        for (name, value) in Self.defaultHeaders where urlRequest.value(forHTTPHeaderField: name) == nil {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        if let credential = bridged.exchange.credential, let user = credential.user,
            urlRequest.value(forHTTPHeaderField: "Authorization") == nil
        {
            let pair = Data("\(user):\(credential.password ?? "")".utf8).base64EncodedString()
            urlRequest.setValue("Basic \(pair)", forHTTPHeaderField: "Authorization")
        }
        guard var prepared = try? MoyaCore.Request(urlRequest) else { return request }
        if urlRequest.httpBody == nil, case .file = request.body { prepared.body = request.body }
        prepared.retry = request.retry
        prepared.followsRedirects = request.followsRedirects
        return prepared
    }

    func didReceive(_ result: Result<MoyaCore.Response, MoyaCore.MoyaError>, target: any MoyaCore.TargetType) {
        guard let bridged = target as? Bridged, let moyaTarget = bridged.exchange.target else { return }
        let converted = bridged.exchange.result(result)
        for plugin in plugins { plugin.didReceive(converted, target: moyaTarget) }
    }

    func process(_ result: Result<MoyaCore.Response, MoyaCore.MoyaError>, target: any MoyaCore.TargetType)
        -> Result<MoyaCore.Response, MoyaCore.MoyaError>
    {
        guard let bridged = target as? Bridged, let moyaTarget = bridged.exchange.target else { return result }
        let processed = plugins.reduce(bridged.exchange.result(result)) { $1.process($0, target: moyaTarget) }
        return bridged.exchange.core(processed)
    }
}
