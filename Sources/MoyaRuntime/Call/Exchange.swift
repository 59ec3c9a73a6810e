import MoyaHTTP
import MoyaSpec

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

    /// An exchange as it ended.
    public init(
        target: SpecTarget?, redactor: Redactor, response: Response?, seconds: Double, failure: SendFailure?
    ) {
        self.target = target
        self.redactor = redactor
        self.response = response
        self.seconds = seconds
        self.failure = failure
    }
}
