import MoyaHTTP
import MoyaSpec

/// Why a spec call ended without a response that passed validation: its kind, which a
/// command maps to an exit status and a library user switches on, the target, the server
/// when the network failed, and one line of reason with the call's secrets scrubbed.
public struct SendFailure: Problem, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Kind: Sendable, Hashable {
        /// The response's status did not pass validation.
        case status(Int)
        /// The request was not answered; the network error's code, when there is one.
        case network(NetworkError.Code?)
        /// The spec's params or body could not be encoded into a request.
        case encoding
        /// The call could not be made as asked: an unknown target, a param missing or of the
        /// wrong type, a file outside the spec's folder.
        case invalidCall
        /// The target's login failed, so it was not sent.
        case login
        /// A secret the target needs could not be read (`SecretFailure`): its status, 66, 69
        /// or 77.
        case secret(ExitStatus)
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
        self.init(kind: .secret(error.status), target: target, reason: "needs " + error.message)
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
            reason = "status \(response.statusCode) did not pass validation: \(target.validationType.summary)"
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

    public var description: String { message }

    /// The exit status of each kind of failure: the table `call`, `check` and `run` exit by.
    public var exitStatus: ExitStatus {
        switch kind {
        case .status(let code): .forFailedStatus(code)
        case .network(.timedOut?): .timeout
        case .network(.tooManyRedirects?): .tooManyRedirects
        case .network(.cancelled?): .interrupted
        // The response's file (`--output`, a download) could not be written, stubbed or live.
        case .network(.fileFailed?): .cannotWrite
        case .network, .login: .transportFailure
        case .encoding, .invalidCall: .invalidSpec
        case .secret(let status): status
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
