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
                "\(name): status \(response.statusCode) did not pass validation (\(Self.describe(target.validationType)))",
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

    static func describe(_ validation: ValidationType) -> String {
        switch validation {
        case .none: "none"
        case .successCodes: "successCodes: 200-299"
        case .successAndRedirectCodes: "successAndRedirectCodes: 200-399"
        case .customCodes(let codes): codes.map(String.init).joined(separator: ", ")
        }
    }
}
