/// Where a stream ends, if its body does not end first: the first bound reached ends it.
public struct StreamBounds: Sendable, Hashable {
    /// The most events read; the last one is kept.
    public var maxEvents: Int?
    /// The most seconds the stream is read, from its head's arrival.
    public var maxTime: Double?
    /// The most seconds without an event.
    public var idle: Double?
    /// The most body bytes read.
    public var maxBytes: Int?

    /// The idle bound of a stream that declares no bound at all: five minutes.
    public static let defaultIdle = 300.0
    /// The most bytes of one event held when `maxBytes` is not given: 16 MiB.
    public static let defaultEventLimit = 16 << 20

    /// Bounds; what is not given does not bound.
    public init(maxEvents: Int? = nil, maxTime: Double? = nil, idle: Double? = nil, maxBytes: Int? = nil) {
        self.maxEvents = maxEvents
        self.maxTime = maxTime
        self.idle = idle
        self.maxBytes = maxBytes
    }

    /// Whether no bound is given, so the defaults apply.
    public var isEmpty: Bool { maxEvents == nil && maxTime == nil && idle == nil && maxBytes == nil }
}

/// Why a stream ended.
public enum StreamStop: String, Sendable, Hashable {
    /// The server ended the body.
    case end
    /// An event met the `until` condition.
    case until
    /// `maxEvents` events arrived.
    case maxEvents
    /// `maxTime` passed.
    case maxTime
    /// No event arrived for `idle`.
    case idle
    /// `maxBytes` bytes arrived, or one event was larger than is held.
    case maxBytes
}
