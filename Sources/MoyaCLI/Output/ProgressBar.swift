import MoyaHTTP
import Synchronization

/// A one-line progress bar on stderr for a transfer: bytes, percentage when the length is
/// known, rate and time left. It appears only once a transfer has run for a moment, so quick
/// ones never flash it, and is redrawn at most ten times a second.
final class ProgressBar: Sendable {
    private struct State {
        var started: ContinuousClock.Instant
        var lastDraw: ContinuousClock.Instant?
        var shown = false
    }

    private let write: @Sendable ([UInt8]) -> Void
    private let delay: Duration
    private let state: Mutex<State>

    /// Creates a bar writing with `write`, shown once `delay` has passed.
    init(delay: Duration = .milliseconds(300), write: @escaping @Sendable ([UInt8]) -> Void) {
        self.write = write
        self.delay = delay
        state = Mutex(State(started: .now))
    }

    /// Redraws for `progress`.
    func update(_ progress: TransferProgress) {
        let now = ContinuousClock.now
        let line = state.withLock { state -> String? in
            let elapsed = now - state.started
            if progress.isCompleted {
                guard state.shown else { return nil }
                return Self.line(progress, elapsed: elapsed) + "\n"
            }
            guard elapsed >= delay else { return nil }
            if let last = state.lastDraw, now - last < .milliseconds(100) { return nil }
            state.lastDraw = now
            state.shown = true
            return Self.line(progress, elapsed: elapsed)
        }
        if let line { write(Array(("\r\u{1B}[K" + line).utf8)) }
    }

    /// Clears the bar, for a transfer that failed or was cancelled.
    func clear() {
        let shown = state.withLock { $0.shown }
        if shown { write(Array("\r\u{1B}[K".utf8)) }
    }

    /// The bar's text: `1.5 MiB / 4.0 MiB  37%  2.0 MiB/s  ETA 0:01`.
    static func line(_ progress: TransferProgress, elapsed: Duration) -> String {
        let seconds = elapsed / .seconds(1)
        let rate = seconds > 0 ? Double(progress.completedBytes) / seconds : 0
        var parts = [size(progress.completedBytes)]
        if let total = progress.totalBytes, let fraction = progress.fraction {
            parts[0] += " / " + size(total)
            parts.append("\(Int(fraction * 100))%")
            parts.append(size(rate) + "/s")
            if progress.isCompleted {
                parts.append("in " + clock(seconds))
            } else if rate > 0 {
                parts.append("ETA " + clock(Double(total - progress.completedBytes) / rate))
            }
        } else {
            parts.append(size(rate) + "/s")
            if progress.isCompleted { parts.append("in " + clock(seconds)) }
        }
        return parts.joined(separator: "  ")
    }

    /// Bytes in B, KiB, MiB or GiB.
    static func size(_ bytes: Int64) -> String { size(Double(bytes)) }

    /// Bytes in B, KiB, MiB or GiB; a count that is not finite counts as 0.
    static func size(_ bytes: Double) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        var value = bytes.isFinite ? max(bytes, 0) : 0
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return FixedPoint.format(value, places: 0) + " B" }
        return FixedPoint.format(value, places: 1) + " " + units[unit]
    }

    /// Seconds as m:ss, or h:mm:ss past an hour.
    static func clock(_ seconds: Double) -> String {
        // Past 99,999 hours an ETA means nothing; it is clamped before it is converted.
        let total = seconds.isFinite ? Int(min(max(seconds, 0), 359_999_999).rounded()) : 0
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
    }
}
