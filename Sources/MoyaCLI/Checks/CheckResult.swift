import MoyaSpec

/// How one planned check ended.
struct CheckResult: Sendable {
    enum Outcome: String, Sendable {
        case passed, failed, skipped
    }

    let planned: PlannedCheck
    let outcome: Outcome
    /// Seconds the request took; 0 when skipped.
    let seconds: Double
    /// What failed, secrets redacted.
    let failures: [CheckFailure]
    /// Why it was skipped.
    let reason: String?
    /// A flow's steps, in the order they ran.
    var steps: [StepResult] = []

    var file: String { planned.service.file }

    /// The time in whole milliseconds, as lines and reports show it.
    var milliseconds: Int { Int((seconds * 1000).rounded()) }

    /// `file:line:col: key.path: message` for each failure.
    var failureLines: [String] {
        failures.map { failure in
            let place = failure.mark.map { "\(file):\($0.line):\($0.column): " } ?? "\(file): "
            return place + failure.keyPath + ": " + failure.message
        }
    }
}

/// Counts and time of a run.
struct CheckSummary: Sendable {
    var passed = 0
    var failed = 0
    var skipped = 0
    var seconds = 0.0

    var total: Int { passed + failed + skipped }

    init(results: [CheckResult], seconds: Double) {
        for result in results {
            switch result.outcome {
            case .passed: passed += 1
            case .failed: failed += 1
            case .skipped: skipped += 1
            }
        }
        self.seconds = seconds
    }

    var line: String {
        "\(total) \(total == 1 ? "check" : "checks"): \(passed) passed, \(failed) failed, \(skipped) skipped "
            + "in \(CheckReports.seconds(seconds)) s"
    }
}
