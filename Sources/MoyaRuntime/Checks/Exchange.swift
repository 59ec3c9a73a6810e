import MoyaCore
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
    public let failure: String?

    /// An exchange as it ended.
    public init(target: SpecTarget?, redactor: Redactor, response: Response?, seconds: Double, failure: String?) {
        self.target = target
        self.redactor = redactor
        self.response = response
        self.seconds = seconds
        self.failure = failure
    }

    /// What of `assertions` the response fails; a failed validation is placed at `mark`, the
    /// check or step. What the server sent is scrubbed of the exchange's secrets, and an
    /// expected value is masked when the assertion says it is a secret (`expectsSecret`), so
    /// the spec's own literals print as written.
    public func failures(of assertions: [Assertion], response: Response, mark: Mark) -> [CheckFailure] {
        guard let target else { return [] }
        let check = CheckSpec(name: "", assertions: assertions, mark: mark)
        let needsSample = assertions.contains { $0.subject == .sampleShape }
        let sample = needsSample ? try? JSONValue(parsing: target.sampleData) : nil
        return check.failures(
            of: response, seconds: seconds, validation: target.validationType, sample: sample,
            schema: target.responseSchema, scrub: redactor.scrub)
    }
}
