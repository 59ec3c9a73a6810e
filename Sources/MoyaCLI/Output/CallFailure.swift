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
            let message = redactor.text(network?.message ?? "\(underlying)")
            return CommandFailure("\(name): \(message)", status: Self.status(for: network?.code))
        case .parameterEncoding(let underlying):
            return CommandFailure("\(name): cannot encode the parameters: \(underlying)", status: .invalidSpec)
        case .encodableMapping(let underlying):
            return CommandFailure("\(name): cannot encode the body: \(underlying)", status: .invalidSpec)
        case .requestMapping(let url):
            return CommandFailure("\(name): cannot build a request for \(redactor.text(url))", status: .invalidSpec)
        default:
            return CommandFailure("\(name): \(error.errorDescription)", status: .transportFailure)
        }
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
