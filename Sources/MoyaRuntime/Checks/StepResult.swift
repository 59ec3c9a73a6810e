import MoyaSpec
import MoyaYAML

/// How one step of a flow ended; an `each` step has one per row.
public struct StepResult: Sendable {
    /// The step's name, with the row's index for an `each` step: `showUser[1]`.
    public let name: String
    /// How it ended.
    public let outcome: CheckResult.Outcome
    /// The response's status, when one came.
    public let status: Int?
    /// Seconds the step took, polls included.
    public let seconds: Double
    /// What failed, secrets redacted.
    public var failures: [CheckFailure]
    /// Why it was skipped.
    public let reason: String?
    /// Whether it is one of the flow's `finally` steps.
    public let isFinally: Bool
    /// Where the step is written.
    public var mark: Mark? = nil
    /// Its last request and response, for the HTML report, when the client keeps them
    /// (`SpecClient.tracesExchanges`).
    public var trace: ExchangeTrace? = nil

    /// A step's result.
    public init(
        name: String, outcome: CheckResult.Outcome, status: Int?, seconds: Double, failures: [CheckFailure],
        reason: String?, isFinally: Bool
    ) {
        self.name = name
        self.outcome = outcome
        self.status = status
        self.seconds = seconds
        self.failures = failures
        self.reason = reason
        self.isFinally = isFinally
    }

    /// A step that did not run, and why.
    public static func skipped(_ name: String, because reason: String, isFinally: Bool) -> StepResult {
        StepResult(
            name: name, outcome: .skipped, status: nil, seconds: 0, failures: [], reason: reason, isFinally: isFinally)
    }

    /// The time in whole milliseconds.
    public var milliseconds: Int { Int((seconds * 1000).rounded()) }

    /// `PASS  create  201  (12 ms)`, as reports show it.
    public var line: String { outcome.word + details }

    /// What follows the word: `  create  201  (12 ms)`, or the reason a step was skipped.
    public var details: String {
        if outcome == .skipped { return "  \(label)  (\(reason ?? "skipped"))" }
        return "  \(label)  \(status.map(String.init) ?? "---")  (\(milliseconds) ms)"
    }

    /// The name, marked when it is a `finally` step.
    public var label: String { isFinally ? "finally: \(name)" : name }
}
