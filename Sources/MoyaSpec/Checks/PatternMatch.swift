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
        let result = Mutex<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let matched = (try? Regex(pattern)).map { text.contains($0) } ?? false
            result.withLock { $0 = matched }
            done.signal()
        }
        guard done.wait(timeout: .now() + budget) == .success else { throw OverBudget(pattern: pattern) }
        return result.withLock { $0 } ?? false
    }
}
