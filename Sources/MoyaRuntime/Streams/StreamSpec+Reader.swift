import MoyaHTTP
import MoyaSpec
import MoyaStreams

extension StreamSpec {
    /// Whether `event` meets `until`: its variables are the event's `event`, `id`, `data`
    /// (parsed when it is JSON) and `index`.
    public func ends(at event: StreamEvent) -> Bool {
        guard let until else { return false }
        return Self.meets(until, event)
    }

    /// Whether `condition` holds for `event`, over its `event`, `id`, `data` and `index`.
    static func meets(_ condition: FlowCondition, _ event: StreamEvent) -> Bool {
        var variables = FlowVariables()
        variables.set("index", to: .integer(event.index))
        variables.set("data", to: event.value)
        if let name = event.event { variables.set("event", to: .string(name)) }
        if let id = event.id { variables.set("id", to: .string(id)) }
        return variables.holds(condition)
    }
}

extension EventReader {
    /// A reader for a target's response: as its `stream:` declares, or, without one, by the
    /// response's `Content-Type` with the default bounds. `otherwise` takes a body that is not
    /// a stream; `sink` the events. A reader `resuming` an earlier connection's stream goes on
    /// from it. A WebSocket's reader says `script` once it opens, or holds `conversation`.
    public convenience init(
        for stream: StreamSpec?, otherwise: (any ResponseStream)?, sink: any EventSink,
        resuming: EventReader.Summary? = nil, script: [SocketStep] = [], conversation: Conversation? = nil
    ) {
        var until: (@Sendable (StreamEvent) -> Bool)?
        if let stream, stream.until != nil { until = { @Sendable event in stream.ends(at: event) } }
        self.init(
            declared: stream?.kind, bounds: stream?.bounds ?? StreamBounds(), until: until, otherwise: otherwise,
            sink: sink, resuming: resuming, conversation: conversation ?? SocketScript.conversation(script))
    }
}
