import MoyaSpec

/// How one planned check ended.
struct CheckResult: Sendable {
    enum Outcome: String, Sendable {
        case passed, failed, skipped

        /// The word lines start with.
        var word: String {
            switch self {
            case .passed: "PASS"
            case .failed: "FAIL"
            case .skipped: "SKIP"
            }
        }

        /// The word painted green, red or yellow when `colored`.
        func painted(colored: Bool) -> String {
            let style =
                switch self {
                case .passed: "\u{1B}[32m"
                case .failed: "\u{1B}[31m"
                case .skipped: "\u{1B}[33m"
                }
            return TerminalText.painted(word, style, colored: colored)
        }
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
        failures.map { Self.line(for: $0, in: file) }
    }

    /// `file:line:col: key.path: message`, or `file: key.path: message` without a line.
    static func line(for failure: CheckFailure, in file: String) -> String {
        let place = failure.mark.map { "\(file):\($0.line):\($0.column): " } ?? "\(file): "
        return place + failure.keyPath + ": " + failure.message
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
