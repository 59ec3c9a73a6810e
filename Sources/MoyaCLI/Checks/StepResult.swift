import MoyaSpec

/// How one step of a flow ended; an `each` step has one per row.
struct StepResult: Sendable {
    /// The step's name, with the row's index for an `each` step: `showUser[1]`.
    let name: String
    let outcome: CheckResult.Outcome
    /// The response's status, when one came.
    let status: Int?
    /// Seconds the step took, polls included.
    let seconds: Double
    /// What failed, secrets redacted.
    let failures: [CheckFailure]
    /// Why it was skipped.
    let reason: String?
    /// Whether it is one of the flow's `finally` steps.
    let isFinally: Bool

    /// A step that did not run, and why.
    static func skipped(_ name: String, because reason: String, isFinally: Bool) -> StepResult {
        StepResult(
            name: name, outcome: .skipped, status: nil, seconds: 0, failures: [], reason: reason, isFinally: isFinally)
    }

    /// The time in whole milliseconds.
    var milliseconds: Int { Int((seconds * 1000).rounded()) }

    /// `PASS  create  201  (12 ms)`, as reports show it.
    var line: String { outcome.word + details }

    /// What follows the word: `  create  201  (12 ms)`, or the reason a step was skipped.
    var details: String {
        if outcome == .skipped { return "  \(label)  (\(reason ?? "skipped"))" }
        return "  \(label)  \(status.map(String.init) ?? "---")  (\(milliseconds) ms)"
    }

    /// The name, marked when it is a `finally` step.
    var label: String { isFinally ? "finally: \(name)" : name }
}
