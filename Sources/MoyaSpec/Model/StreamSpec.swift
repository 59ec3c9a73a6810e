import MoyaHTTP
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
    /// A WebSocket's script: what is sent and waited for once it opens, in order.
    public var script: [SocketStepSpec] = []

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

/// One step of a WebSocket target's `script:`.
public enum SocketStepSpec: Sendable {
    /// `send: TEXT`: a text message, `{param}` references bound.
    case send(Template)
    /// `send-json: VALUE`: a text message of the value as JSON, references bound.
    case sendJSON(ValueTemplate)
    /// `expect: CONDITION`: waits for a message the condition holds for, over the event's
    /// variables, at most `within` seconds; the messages before it are passed over.
    case expect(FlowCondition, text: String, within: Double)
    /// `ping`: a ping, waiting at most `within` seconds for its pong.
    case ping(within: Double)
    /// `wait: DURATION`: a pause.
    case wait(Double)
    /// `close: CODE`: a close frame (1000 unless given); the server's close ends the stream.
    case close(code: Int)

    /// How long an `expect` or a `ping` waits unless it says: 10 seconds.
    public static let defaultWithin = 10.0
}

/// A script step bound to a call's values: what a WebSocket target sends and waits for.
public enum SocketStep: Sendable {
    case send(String)
    case expect(FlowCondition, text: String, within: Double)
    case ping(within: Double)
    case wait(Double)
    case close(code: Int)
}

extension TargetSpec {
    /// How the target's status is judged, in `service`: its own validation or the service's,
    /// except that a WebSocket opens with 101 Switching Protocols whatever is declared.
    public func validation(in service: ServiceSpec) -> ValidationType {
        stream?.kind == .websocket ? .customCodes([101]) : validation ?? service.validation
    }
}

extension StreamSpec {
    /// The declaration in a few words, as `describe` shows it: `websocket, maxTime 10 s, a
    /// script of 6 steps`.
    public var summary: String {
        var parts = [kind?.rawValue ?? "by Content-Type"]
        if let until { parts.append("until \(until)") }
        if let count = bounds.maxEvents { parts.append("maxEvents \(count)") }
        if let seconds = bounds.maxTime { parts.append("maxTime \(JSONValue.format(seconds)) s") }
        if let seconds = bounds.idle { parts.append("idle \(JSONValue.format(seconds)) s") }
        if let bytes = bounds.maxBytes { parts.append("maxBytes \(bytes)") }
        if !script.isEmpty {
            parts.append(script.count == 1 ? "a script of 1 step" : "a script of \(script.count) steps")
        }
        return parts.joined(separator: ", ")
    }
}
