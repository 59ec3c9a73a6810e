import MoyaBinding
import MoyaHTTP
import MoyaSpec

/// Why a spec call ended without a response that passed validation: its kind, which a
/// command maps to an exit status and a library user switches on, the target, the server
/// when the network failed, and one line of reason with the call's secrets scrubbed.
public struct SendFailure: Problem, CustomStringConvertible {
    /// What kind of failure it is: an open set, as `NetworkError.Code` is, so a kind added
    /// later breaks no one's code; compare with `==`, or read `statusCode` and `networkCode`.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        enum Base: Sendable, Hashable {
            case status(Int), network(NetworkError.Code?), encoding, invalidCall, login, secret(FailureKind)
        }

        let base: Base

        /// The response's status did not pass validation.
        public static func status(_ code: Int) -> Kind { Kind(base: .status(code)) }
        /// The request was not answered; the network error's code, when there is one.
        public static func network(_ code: NetworkError.Code?) -> Kind { Kind(base: .network(code)) }
        /// The spec's params or body could not be encoded into a request.
        public static let encoding = Kind(base: .encoding)
        /// The call could not be made as asked: an unknown target, a param missing or of the
        /// wrong type, a file outside the spec's folder.
        public static let invalidCall = Kind(base: .invalidCall)
        /// The target's login failed, so it was not sent.
        public static let login = Kind(base: .login)
        /// A secret the target needs could not be read (`SecretFailure`), of that failure's
        /// kind: `missing`, `unavailable` or `untrusted`.
        public static func secret(_ kind: FailureKind) -> Kind { Kind(base: .secret(kind)) }

        /// The response's status, for a status that did not pass validation.
        public var statusCode: Int? {
            if case .status(let code) = base { code } else { nil }
        }

        /// The network error's code, for a request that was not answered.
        public var networkCode: NetworkError.Code? {
            if case .network(let code) = base { code } else { nil }
        }

        public var description: String {
            switch base {
            case .status(let code): "status(\(code))"
            case .network(let code): "network(\(code.map(\.description) ?? "nil"))"
            case .encoding: "encoding"
            case .invalidCall: "invalidCall"
            case .login: "login"
            case .secret(let kind): "secret(\(kind))"
            }
        }
    }

    /// What kind of failure it is.
    public var kind: Kind
    /// `service.target`; nil when the call named no target the client has.
    public var target: String?
    /// The server the request went to, `host:port`, when the failure is about it.
    public var server: String?
    /// For a timeout, the time limit that ran out, in seconds, when it is known.
    public var seconds: Double?
    /// What happened, without the target: `status 500 did not pass validation: 2xx`.
    public var reason: String
    /// The response, for a status that did not pass validation.
    public var response: Response?
    /// For a call that could not be made, `reason` without the advice at its end for the
    /// command line's user (a flag to pass), which a model is not given.
    public var unhintedReason: String?
    /// For a call that could not be made, whether the caller's arguments were at fault (a
    /// param missing or breaking its rule) rather than the spec.
    public var isArgumentError = false

    /// A failure of `kind` for `target`.
    public init(
        kind: Kind, target: String?, reason: String, server: String? = nil, response: Response? = nil
    ) {
        self.kind = kind
        self.target = target
        self.reason = reason
        self.server = server
        self.response = response
    }

    /// `service.target: what happened`: the one line a command prints.
    public var message: String { target.map { "\($0): \(reason)" } ?? reason }

    /// The failure `error`, a call that could not be made, for `target`.
    public init(resolving error: ResolveError, target: String) {
        self.init(kind: .invalidCall, target: target, reason: error.message)
        unhintedReason = error.hint == nil ? nil : error.unhinted
        isArgumentError = error.isUsageError
    }

    /// The failure `error`, a secret `target` needs that could not be read.
    public init(secret error: SecretFailure, target: String) {
        var error = error
        error.needer = nil
        self.init(kind: .secret(error.failureKind), target: target, reason: "needs " + error.message)
    }

    /// `message` without the hint: what a reader who passes no flags (a model) is told.
    public var unhintedMessage: String {
        let shown = unhintedReason ?? reason
        return target.map { "\($0): \(shown)" } ?? shown
    }

    /// The failure `error` is for `target`, its text scrubbed by `redactor`.
    public init(error: MoyaError, target: SpecTarget, redactor: Redactor) {
        self.target = target.qualifiedName
        switch error {
        case .statusCode(let response):
            reason =
                target.stream?.kind == .websocket
                ? "the server answered \(response.statusCode) instead of switching to a WebSocket (101)"
                : "status \(response.statusCode) did not pass validation: \(target.validationType.summary)"
            kind = .status(response.statusCode)
            self.response = response
        case .underlying(let underlying, _):
            let network = underlying as? NetworkError
            var text = redactor.scrub(network?.message ?? "\(underlying)")
            // The server is where requests go, never a secret.
            if let network, Self.namesServer(network.code), let server = NetworkError.address(of: target.baseURL) {
                self.server = server
                if !text.contains(server) { text += " (\(server))" }
            }
            reason = text
            seconds = network?.seconds
            kind = underlying is LoginError ? .login : .network(network?.code)
        case .parameterEncoding(let underlying):
            reason = "cannot encode the parameters: \(underlying)"
            kind = .encoding
        case .encodableMapping(let underlying):
            reason = "cannot encode the body: \(underlying)"
            kind = .encoding
        case .requestMapping(let url):
            reason = "cannot build a request for \(redactor.scrub(url))"
            kind = .encoding
        default:
            reason = error.errorDescription
            kind = .network(nil)
        }
    }

    /// The failure's kind, which a command's exit status is chosen by (`ExitStatus(for:)`).
    public var failureKind: FailureKind {
        switch kind.base {
        case .status(let code): .status(code)
        case .network(let code): .network(code)
        case .login: .failed
        case .encoding, .invalidCall: .invalid
        case .secret(let kind): kind
        }
    }

    /// Whether a failure is about the server, so the message names it.
    static func namesServer(_ code: NetworkError.Code) -> Bool {
        [
            .timedOut, .cannotConnectToHost, .cannotFindHost, .networkConnectionLost, .secureConnectionFailed,
            .badServerResponse, .tooManyRedirects,
        ].contains(code)
    }
}
