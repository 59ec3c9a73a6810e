/// When and how often a failed request is sent again.
///
/// A request is retried after a connection failure, a timeout, a dropped connection, or a
/// 429 or 503 response, and only when its method is idempotent unless `retriesAllMethods` is
/// set. The wait doubles from `baseDelay` on each attempt, with jitter, up to `maximumDelay`;
/// a `Retry-After` header in seconds or as an HTTP date is honoured up to `maximumRetryAfter`.
public struct RetryPolicy: Sendable, Hashable {
    /// How many times a request is sent again after the first attempt.
    public var limit: Int
    /// Whether requests with methods that are not idempotent are retried too.
    public var retriesAllMethods: Bool
    /// Seconds before the first retry, before jitter.
    public var baseDelay: Double
    /// The longest backoff in seconds, before jitter.
    public var maximumDelay: Double
    /// The longest `Retry-After` wait in seconds that is honoured.
    public var maximumRetryAfter: Double

    /// Creates a policy.
    public init(
        limit: Int, retriesAllMethods: Bool = false, baseDelay: Double = 0.5, maximumDelay: Double = 8,
        maximumRetryAfter: Double = 30
    ) {
        self.limit = limit
        self.retriesAllMethods = retriesAllMethods
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maximumRetryAfter = maximumRetryAfter
    }

    /// Status codes that are worth another attempt.
    public static let retryableStatusCodes: Set<Int> = [429, 503]

    /// Network error codes that are worth another attempt.
    public static let retryableErrors: Set<NetworkError.Code> = [
        .timedOut, .cannotConnectToHost, .networkConnectionLost, .notConnectedToInternet,
    ]

    /// Whether a request with `method` may be retried at all.
    public func allows(_ method: Method) -> Bool {
        limit > 0 && (retriesAllMethods || method.isIdempotent)
    }

    /// Seconds to wait before retry number `attempt` (1 for the first retry): the server's
    /// `Retry-After`, capped, when it sent one, else exponential backoff with "equal jitter"
    /// (half fixed, half random), so that many clients do not retry in step.
    public func delay<Generator: RandomNumberGenerator>(
        beforeRetry attempt: Int, retryAfter: Double?, using generator: inout Generator
    ) -> Double {
        if let retryAfter { return min(Seconds.clamped(retryAfter), maximumRetryAfter) }
        let exponent = Double(1 << min(max(attempt - 1, 0), 30))
        let backoff = min(baseDelay * exponent, maximumDelay)
        return backoff / 2 + Double.random(in: 0...(backoff / 2), using: &generator)
    }

    /// The seconds a `Retry-After` value asks for: delta-seconds or an HTTP date relative to
    /// `now` (seconds since 1970). Nil when it is neither.
    public static func retryAfterSeconds(_ value: String, now: Double) -> Double? {
        let trimmed = value.trimmingSpaces()
        // Any run of digits is a wait, however long: one too large for an Int is still "long".
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return Int(trimmed).map(Double.init) ?? Seconds.maximum
        }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        return max(date - now, 0)
    }
}

/// Parses the IMF-fixdate form of an HTTP date, `Sun, 06 Nov 1994 08:49:37 GMT`, the only form
/// servers may send (RFC 9110, 5.6.7).
enum HTTPDate {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Seconds since 1970 for an IMF-fixdate, or nil.
    static func parse(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        // IMF-fixdate has a four-digit year; anything longer is refused before any arithmetic.
        guard parts.count == 6, parts[5] == "GMT", parts[3].utf8.count == 4, let day = Int(parts[1]),
            let year = Int(parts[3]), year >= 0, let month = months.firstIndex(of: String(parts[2]))
        else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (1...31).contains(day), (0..<24).contains(clock[0]), (0..<60).contains(clock[1]),
            (0...60).contains(clock[2])
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month + 1, day: day)
        return Double(days * 86_400 + clock[0] * 3_600 + clock[1] * 60 + clock[2])
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

extension String {
    /// The string without leading and trailing spaces.
    package func trimmingSpaces() -> String {
        var view = Substring(self)
        while view.first == " " { view = view.dropFirst() }
        while view.last == " " { view = view.dropLast() }
        return String(view)
    }
}
