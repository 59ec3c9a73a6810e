import Foundation

/// Command output with its times replaced by `T` (`(12 ms)` by `(T)`, `in 0.004 s` by
/// `in T s`), so that it can be compared whole.
public func timeless(_ text: String) -> String {
    text.replacingOccurrences(of: #"\(\d+ ms\)"#, with: "(T)", options: .regularExpression)
        .replacingOccurrences(of: #"in \d+\.\d{3} s"#, with: "in T s", options: .regularExpression)
        .replacingOccurrences(of: #"in \d+\.\d s"#, with: "in T s", options: .regularExpression)
}
