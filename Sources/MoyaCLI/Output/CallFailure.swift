import MoyaCore
import MoyaSpec

/// A provider error as one line for stderr and an exit status.
struct CallFailure {
    let error: MoyaError
    let target: SpecTarget
    let redactor: Redactor

    var failure: CommandFailure {
        let name = target.qualifiedName
        switch error {
        case .statusCode(let response):
            return CommandFailure(
                "\(name): status \(response.statusCode) did not pass validation: \(target.validationType.summary)",
                status: .forFailedStatus(response.statusCode))
        case .underlying(let underlying, _):
            let network = underlying as? NetworkError
            var message = redactor.scrub(network?.message ?? "\(underlying)")
            if let network, Self.namesServer(network.code), let server = server, !message.contains(server) {
                message += " (\(server))"
            }
            return CommandFailure("\(name): \(message)", status: Self.status(for: network?.code))
        case .parameterEncoding(let underlying):
            return CommandFailure("\(name): cannot encode the parameters: \(underlying)", status: .invalidSpec)
        case .encodableMapping(let underlying):
            return CommandFailure("\(name): cannot encode the body: \(underlying)", status: .invalidSpec)
        case .requestMapping(let url):
            return CommandFailure("\(name): cannot build a request for \(redactor.scrub(url))", status: .invalidSpec)
        default:
            return CommandFailure("\(name): \(error.errorDescription)", status: .transportFailure)
        }
    }

    /// `host:port` of the target's base URL, which is where requests go, never a secret.
    var server: String? {
        NetworkError.address(of: target.baseURL)
    }

    /// Whether a failure is about the server, so the message names it.
    static func namesServer(_ code: NetworkError.Code) -> Bool {
        [
            .timedOut, .cannotConnectToHost, .cannotFindHost, .networkConnectionLost, .secureConnectionFailed,
            .badServerResponse, .tooManyRedirects,
        ].contains(code)
    }

    static func status(for code: NetworkError.Code?) -> ExitStatus {
        switch code {
        case .timedOut?: .timeout
        case .tooManyRedirects?: .tooManyRedirects
        case .cancelled?: .interrupted
        default: .transportFailure
        }
    }
}
