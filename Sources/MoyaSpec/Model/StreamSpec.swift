import MoyaStreams
import MoyaYAML

/// A target's `stream:`: its response is read as events, as they arrive, and ends at the
/// first of its bounds.
public struct StreamSpec: Sendable {
    /// The kind declared; nil reads the kind from the response's `Content-Type`.
    public var kind: StreamKind?
    /// The bounds given.
    public var bounds: StreamBounds
    /// The condition on an event that ends the stream after it; its variables are the event's
    /// `event`, `id`, `data` (parsed when it is JSON) and `index`.
    public var until: FlowCondition?
    /// Where `stream:` is written.
    public var mark: Mark

    /// The variables `until` may read.
    public static let eventVariables = ["event", "id", "data", "index"]

    /// A stream declaration.
    public init(kind: StreamKind?, bounds: StreamBounds = StreamBounds(), until: FlowCondition? = nil, mark: Mark) {
        self.kind = kind
        self.bounds = bounds
        self.until = until
        self.mark = mark
    }
}
