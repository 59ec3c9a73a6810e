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

    /// The time in whole milliseconds.
    var milliseconds: Int { Int((seconds * 1000).rounded()) }

    /// `PASS  create  201  (12 ms)`, as `run` prints it and reports show it.
    var line: String {
        let word =
            switch outcome {
            case .passed: "PASS"
            case .failed: "FAIL"
            case .skipped: "SKIP"
            }
        if outcome == .skipped { return "\(word)  \(label)  (\(reason ?? "skipped"))" }
        return "\(word)  \(label)  \(status.map(String.init) ?? "---")  (\(milliseconds) ms)"
    }

    /// The name, marked when it is a `finally` step.
    var label: String { isFinally ? "finally: \(name)" : name }
}
