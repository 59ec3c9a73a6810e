import MoyaSpec

/// A unified diff of a file changed in one place, as `diff -u` and `git diff` print it:
/// the lines that differ, between the longest common runs of lines before and after them,
/// with three lines of context. A recording changes one region of a spec, so one hunk says
/// all of it; no general longest-common-subsequence search is needed.
public enum UnifiedDiff {
    /// Lines of context around the change.
    static let context = 3

    /// The diff from `old` to `new`, headed `--- PATH` and `+++ PATH`, as `patch -p0` reads
    /// it; empty when they are the same.
    public static func between(_ old: String, _ new: String, path: String) -> String {
        guard old != new else { return "" }
        let before = lines(old)
        let after = lines(new)
        var prefix = 0
        while prefix < before.count, prefix < after.count, before[prefix] == after[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < before.count - prefix, suffix < after.count - prefix,
            before[before.count - 1 - suffix] == after[after.count - 1 - suffix]
        {
            suffix += 1
        }
        let start = max(0, prefix - context)
        let oldEnd = min(before.count, before.count - suffix + context)
        let newEnd = min(after.count, after.count - suffix + context)
        var output = ["--- \(path)", "+++ \(path)"]
        output.append("@@ -\(range(start, oldEnd)) +\(range(start, newEnd)) @@")
        output += before[start..<prefix].map { " " + $0 }
        output += before[prefix..<(before.count - suffix)].map { "-" + $0 }
        output += after[prefix..<(after.count - suffix)].map { "+" + $0 }
        output += before[(before.count - suffix)..<oldEnd].map { " " + $0 }
        return output.joined(separator: "\n") + "\n"
    }

    /// `start,count` with the start from 1, as a hunk header gives it; an empty range names
    /// the line before it.
    private static func range(_ start: Int, _ end: Int) -> String {
        let count = end - start
        return count == 0 ? "\(start),0" : "\(start + 1),\(count)"
    }

    /// The text's lines without their breaks; a final break ends the last line.
    private static func lines(_ text: String) -> [Substring] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        return lines.map { $0.last == "\r" ? $0.dropLast() : $0 }
    }
}
