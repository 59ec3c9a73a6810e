import MoyaHTTP
import NIOCore

extension Seconds {
    /// `seconds` as NIO's `TimeAmount`, clamped.
    static func timeAmount(_ seconds: Double) -> TimeAmount {
        .milliseconds(milliseconds(seconds))
    }
}
