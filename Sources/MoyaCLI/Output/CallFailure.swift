import MoyaCore
import MoyaRuntime
import MoyaSpec

/// A provider error as one line for stderr and an exit status.
struct CallFailure {
    let error: MoyaError
    let target: SpecTarget
    let redactor: Redactor

    var failure: CommandFailure {
        Self.failure(SendFailure(error: error, target: target, redactor: redactor))
    }

    /// The exit status of each kind of failure, with its line.
    static func failure(_ failure: SendFailure) -> CommandFailure {
        let status: ExitStatus =
            switch failure.kind {
            case .status(let code): .forFailedStatus(code)
            case .network(.timedOut?): .timeout
            case .network(.tooManyRedirects?): .tooManyRedirects
            case .network(.cancelled?): .interrupted
            case .network, .login: .transportFailure
            case .encoding, .invalidCall: .invalidSpec
            }
        return CommandFailure(failure.message, status: status)
    }
}
