import MoyaRuntime

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
