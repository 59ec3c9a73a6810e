import MoyaBinding
import MoyaHTTP
import MoyaSpec
import MoyaStreams

/// One request of a check or a flow step: the target as resolved, what came back or why
/// nothing did, and how long it took.
public struct Exchange: Sendable {
    /// The resolved target; nil when it could not be resolved.
    public let target: SpecTarget?
    /// What of the exchange may be printed.
    public let redactor: Redactor
    /// The response, whatever its status; nil when the request failed.
    public let response: Response?
    /// How long it took.
    public let seconds: Double
    /// Why there is no response.
    public let failure: SendFailure?
    /// Whether the response's status passed the target's validation, as the delivery judged
    /// it (`SpecCall.validated`, the one place it is judged); false without a response.
    public let passedValidation: Bool
    /// How the stream ended, when the body is a stream's events as one JSON array
    /// (`StreamTranscript`); nil for any other body.
    public var stream: EventReader.Summary?
    /// Whether the body is a stream's events.
    public var streamed: Bool { stream != nil }

    /// An exchange as it ended; `passedValidation` as the delivery judged the response.
    public init(
        target: SpecTarget?, redactor: Redactor, response: Response?, seconds: Double, failure: SendFailure?,
        passedValidation: Bool = false
    ) {
        self.target = target
        self.redactor = redactor
        self.response = response
        self.seconds = seconds
        self.failure = failure
        self.passedValidation = response != nil && passedValidation
    }

    /// The exchange of a delivery's `result`: its response whether or not the status passed,
    /// and whether it did, or why there is none.
    init(
        target: SpecTarget, redactor: Redactor, result: Result<Response, MoyaError>, seconds: Double
    ) {
        switch result {
        case .success(let response):
            self.init(
                target: target, redactor: redactor, response: response, seconds: seconds, failure: nil,
                passedValidation: true)
        case .failure(.statusCode(let response)):
            self.init(target: target, redactor: redactor, response: response, seconds: seconds, failure: nil)
        case .failure(let error):
            self.init(
                target: target, redactor: redactor, response: nil, seconds: seconds,
                failure: SendFailure(error: error, target: target, redactor: redactor))
        }
    }
}
