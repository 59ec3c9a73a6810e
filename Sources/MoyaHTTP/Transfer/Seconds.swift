/// Seconds that came from input (a flag, a spec, a server) checked and converted in one place,
/// so that no conversion to a whole number of milliseconds can overflow.
public enum Seconds {
    /// The longest wait accepted anywhere: a week. Timeouts, stub delays and retry waits above
    /// it are refused where a user gives them and clamped where a server does.
    public static let maximum: Double = 604_800

    /// Whether `seconds` is a usable timeout: finite, above zero and at most `maximum`.
    public static func isValidTimeout(_ seconds: Double) -> Bool {
        seconds.isFinite && seconds > 0 && seconds <= maximum
    }

    /// Whether `seconds` is a usable delay: finite, zero or more and at most `maximum`.
    public static func isValidDelay(_ seconds: Double) -> Bool {
        seconds.isFinite && seconds >= 0 && seconds <= maximum
    }

    /// `seconds` clamped to 0...`maximum`; not a number counts as 0.
    public static func clamped(_ seconds: Double) -> Double {
        seconds.isNaN ? 0 : min(max(seconds, 0), maximum)
    }

    /// Whole milliseconds of `seconds`, clamped.
    package static func milliseconds(_ seconds: Double) -> Int64 {
        Int64(clamped(seconds) * 1000)
    }

    /// `seconds` as a `Duration`, clamped.
    package static func duration(_ seconds: Double) -> Duration {
        .milliseconds(milliseconds(seconds))
    }
}
