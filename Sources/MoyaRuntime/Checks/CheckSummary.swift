/// Counts and time of a run.
public struct CheckSummary: Sendable {
    public var passed = 0
    public var failed = 0
    public var skipped = 0
    public var seconds = 0.0

    public var total: Int { passed + failed + skipped }

    public init(results: [CheckResult], seconds: Double) {
        for result in results {
            switch result.outcome {
            case .passed: passed += 1
            case .failed: failed += 1
            case .skipped: skipped += 1
            }
        }
        self.seconds = seconds
    }

    /// `3 checks: 2 passed, 1 failed, 0 skipped in 0.012 s`.
    public var line: String {
        "\(total) \(total == 1 ? "check" : "checks"): \(passed) passed, \(failed) failed, \(skipped) skipped "
            + "in \(CheckReports.seconds(seconds)) s"
    }
}
