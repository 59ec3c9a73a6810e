import MoyaCore
import MoyaSpec

/// Why a spec call ended without a response that passed validation: one line that names the
/// target, with its secrets scrubbed, and the kind of failure, from which a command chooses
/// its exit status.
public struct SendFailure: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Kind: Sendable, Hashable {
        /// The response's status did not pass validation.
        case status(Int)
        /// The request was not answered; the network error's code, when there is one.
        case network(NetworkError.Code?)
        /// The spec's params or body could not be encoded into a request.
        case encoding
    }

    /// `service.target: what happened`.
    public var message: String
    /// What kind of failure it is.
    public var kind: Kind

    /// A failure with its message and kind.
    public init(message: String, kind: Kind) {
        self.message = message
        self.kind = kind
    }

    /// The failure `error` is for `target`, its text scrubbed by `redactor`.
    public init(error: MoyaError, target: SpecTarget, redactor: Redactor) {
        let name = target.qualifiedName
        switch error {
        case .statusCode(let response):
            message = "\(name): status \(response.statusCode) did not pass validation: \(target.validationType.summary)"
            kind = .status(response.statusCode)
        case .underlying(let underlying, _):
            let network = underlying as? NetworkError
            var text = redactor.scrub(network?.message ?? "\(underlying)")
            // The server is where requests go, never a secret.
            if let network, Self.namesServer(network.code), let server = NetworkError.address(of: target.baseURL),
                !text.contains(server)
            {
                text += " (\(server))"
            }
            message = "\(name): \(text)"
            kind = .network(network?.code)
        case .parameterEncoding(let underlying):
            message = "\(name): cannot encode the parameters: \(underlying)"
            kind = .encoding
        case .encodableMapping(let underlying):
            message = "\(name): cannot encode the body: \(underlying)"
            kind = .encoding
        case .requestMapping(let url):
            message = "\(name): cannot build a request for \(redactor.scrub(url))"
            kind = .encoding
        default:
            message = "\(name): \(error.errorDescription)"
            kind = .network(nil)
        }
    }

    public var description: String { message }

    /// Whether a failure is about the server, so the message names it.
    static func namesServer(_ code: NetworkError.Code) -> Bool {
        [
            .timedOut, .cannotConnectToHost, .cannotFindHost, .networkConnectionLost, .secureConnectionFailed,
            .badServerResponse, .tooManyRedirects,
        ].contains(code)
    }
}
