import MoyaHTTP
import MoyaSpec
import MoyaYAML

/// How one planned check ended.
public struct CheckResult: Sendable {
    /// How it ended.
    public enum Outcome: String, Sendable {
        /// Every assertion held.
        case passed
        /// An assertion failed, or the request did.
        case failed
        /// It did not run.
        case skipped

        /// The word lines start with.
        public var word: String {
            switch self {
            case .passed: "PASS"
            case .failed: "FAIL"
            case .skipped: "SKIP"
            }
        }

        /// The word painted green, red or yellow when `colored`.
        public func painted(colored: Bool) -> String {
            let style =
                switch self {
                case .passed: "\u{1B}[32m"
                case .failed: "\u{1B}[31m"
                case .skipped: "\u{1B}[33m"
                }
            return TerminalText.painted(word, style, colored: colored)
        }
    }

    /// What ran.
    public let planned: PlannedCheck
    /// How it ended.
    public let outcome: Outcome
    /// Seconds the request took; 0 when skipped.
    public let seconds: Double
    /// What failed, secrets redacted.
    public let failures: [CheckFailure]
    /// Why it was skipped.
    public let reason: String?
    /// A check's request and response, for the HTML report, when the client keeps them
    /// (`SpecClient.tracesExchanges`).
    public var trace: ExchangeTrace? = nil
    /// A flow's steps, in the order they ran.
    public var steps: [StepResult] = []
    /// A flow's captures that are not secret, in the order its steps declare them, with the
    /// value each holds at the end; a string that is a secret's value, whole, is masked.
    public var captures: [(name: String, value: JSONValue)] = []

    /// A result.
    public init(
        planned: PlannedCheck, outcome: Outcome, seconds: Double, failures: [CheckFailure], reason: String?,
        steps: [StepResult] = []
    ) {
        self.planned = planned
        self.outcome = outcome
        self.seconds = seconds
        self.failures = failures
        self.reason = reason
        self.steps = steps
    }

    /// The spec file it comes from.
    public var file: String { planned.service.file }

    /// The time in whole milliseconds, as lines and reports show it.
    public var milliseconds: Int { Int((seconds * 1000).rounded()) }

    /// `file:line:col: key.path: message` for each failure.
    public var failureLines: [String] {
        failures.map { Self.line(for: $0, in: file) }
    }

    /// `file:line:col: key.path: message`, or `file: key.path: message` without a line.
    public static func line(for failure: CheckFailure, in file: String) -> String {
        let place = failure.mark.map { "\(file):\($0.line):\($0.column): " } ?? "\(file): "
        return place + failure.keyPath + ": " + failure.message
    }
}
