import Dispatch
import Synchronization

/// A check's regular expression, run under a time budget.
///
/// Swift's `Regex` backtracks, so a pattern such as `^(a+)+$` can take exponential time on a
/// short body, and its matching cannot be cancelled. Each match therefore runs on a thread of
/// its own while the check waits at most `budget`; past it the check fails naming the
/// pattern, and the abandoned match ends with the process.
public enum PatternMatch {
    /// How long one evaluation may take.
    public static let budget = DispatchTimeInterval.milliseconds(100)

    /// A pattern that ran past the budget.
    public struct OverBudget: Error, Sendable {
        /// The pattern as written.
        public var pattern: String
    }

    /// Whether `pattern` matches somewhere in `text`; an invalid pattern matches nothing.
    public static func matches(_ pattern: String, in text: String) throws(OverBudget) -> Bool {
        try withinBudget(pattern) { (try? Regex(pattern)).map { text.contains($0) } ?? false }
    }

    /// The first group of the first match of `pattern` in `text`, else the whole match; nil
    /// when it does not match or is invalid.
    public static func capture(_ pattern: String, in text: String) throws(OverBudget) -> String? {
        try withinBudget(pattern) {
            guard let regex = try? Regex(pattern), let match = text.firstMatch(of: regex) else { return nil }
            let output = match.output
            if output.count > 1, let group = output[1].substring { return String(group) }
            return output[0].substring.map(String.init)
        }
    }

    /// Runs `body` on another thread and waits for it no longer than `budget`.
    static func withinBudget<T: Sendable>(
        _ pattern: String, budget: DispatchTimeInterval = budget, _ body: @escaping @Sendable () -> T
    ) throws(OverBudget) -> T {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        // A queue of its own targets the overcommitting root queue, which starts a thread when
        // the others are busy: an abandoned match then never holds one of the few threads that
        // Swift concurrency and every other budgeted match share.
        let queue = DispatchQueue(label: "moya-cli.pattern-match")
        queue.async {
            let value = body()
            result.withLock { $0 = value }
            done.signal()
        }
        guard done.wait(timeout: .now() + budget) == .success, let value = result.withLock({ $0 }) else {
            throw OverBudget(pattern: pattern)
        }
        // Join the finished work, so that what it captured is released before this returns.
        queue.sync {}
        return value
    }
}
