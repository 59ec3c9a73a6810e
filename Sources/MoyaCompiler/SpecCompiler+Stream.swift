import MoyaHTTP
import MoyaSpec
import MoyaStreams
import MoyaYAML

extension CompileContext {
    /// The keys of `stream:` written as a mapping.
    static let streamKeys = ["kind", "until", "maxEvents", "maxTime", "idle", "maxBytes", "script"]
    /// The keys of a WebSocket script's step: one of the first six, `within` beside `expect`
    /// or `ping`.
    static let socketStepKeys = ["send", "send-json", "expect", "ping", "wait", "close", "within"]
    /// The most steps a script holds.
    static let maximumSocketSteps = 10_000
    /// The most events, or bytes, a bound may give.
    static let maximumStreamCount = 1 << 40

    /// `stream: KIND`, or `stream: { kind: KIND, until: CONDITION, maxEvents: N, maxTime: 30s,
    /// idle: 5s, maxBytes: 1MiB }`, every key optional.
    mutating func stream(_ node: YAMLNode, _ path: String, scope: ParamScope) -> StreamSpec? {
        let kinds = StreamKind.allCases.map(\.rawValue)
        if case .scalar = node.content {
            guard let text = reader.choice(node, path, kinds, what: "stream kind") else { return nil }
            return StreamSpec(kind: StreamKind(rawValue: text), mark: node.mark)
        }
        guard let fields = reader.fields(node, path, known: Self.streamKeys) else { return nil }
        var stream = StreamSpec(kind: nil, mark: node.mark)
        if let kindNode = fields["kind"] {
            guard let text = reader.choice(kindNode, path + ".kind", kinds, what: "stream kind") else { return nil }
            stream.kind = StreamKind(rawValue: text)
        }
        if let untilNode = fields["until"] { stream.until = eventCondition(untilNode, path + ".until")?.condition }
        if let countNode = fields["maxEvents"], let count = reader.integer(countNode, path + ".maxEvents") {
            if (1...Self.maximumStreamCount).contains(count) {
                stream.bounds.maxEvents = count
            } else {
                reader.error(countNode.mark, path + ".maxEvents", "expected a number of events from 1, got \(count)")
            }
        }
        for (key, keyPath) in [("maxTime", \StreamBounds.maxTime), ("idle", \StreamBounds.idle)] {
            guard let timeNode = fields[key], let seconds = duration(timeNode, path + "." + key) else { continue }
            guard seconds <= Seconds.maximum else {
                reader.error(
                    timeNode.mark, path + "." + key,
                    "expected a duration of at most \(Int(Seconds.maximum)) s (a week), got \(JSONValue.format(seconds)) s"
                )
                continue
            }
            stream.bounds[keyPath: keyPath] = seconds
        }
        if let sizeNode = fields["maxBytes"] { stream.bounds.maxBytes = byteCount(sizeNode, path + ".maxBytes") }
        if let scriptNode = fields["script"] {
            if stream.kind != .websocket {
                reader.error(
                    scriptNode.mark, path + ".script", "a script is a WebSocket's; give the stream kind: websocket")
            }
            stream.script = script(scriptNode, path + ".script", scope: scope)
        }
        return stream
    }

    /// A condition over an event's variables, `{event}`, `{id}`, `{data}` and `{index}`, and
    /// its text.
    private mutating func eventCondition(_ node: YAMLNode, _ path: String) -> (condition: FlowCondition, text: String)?
    {
        guard let text = reader.string(node, path) else { return nil }
        do {
            let condition = try FlowCondition(parsing: text)
            var known = true
            for reference in condition.references where !StreamSpec.eventVariables.contains(reference.name) {
                known = false
                reader.error(
                    node.mark, path,
                    "unknown variable '\(reference.name)'; an event's are "
                        + StreamSpec.eventVariables.map { "{\($0)}" }.joined(separator: ", ")
                        + Suggestion.hint(for: reference.name, in: StreamSpec.eventVariables))
            }
            return known ? (condition, text) : nil
        } catch {
            reader.error(node.mark, path, "\(error)")
            return nil
        }
    }

    /// `script: [ {send: TEXT}, {send-json: VALUE}, {expect: CONDITION, within: 5s}, ping,
    /// {wait: 1s}, close ]`: a WebSocket's steps, each one key (`ping` and `close` may be
    /// written alone).
    private mutating func script(_ node: YAMLNode, _ path: String, scope: ParamScope) -> [SocketStepSpec] {
        guard case .sequence(let items) = node.content else {
            reader.error(
                node.mark, path, "expected a sequence of steps such as - send: hello, got \(node.kindDescription)")
            return []
        }
        guard items.count <= Self.maximumSocketSteps else {
            reader.error(node.mark, path, "at most \(Self.maximumSocketSteps) steps, got \(items.count)")
            return []
        }
        var steps: [SocketStepSpec] = []
        for (index, item) in items.enumerated() {
            let itemPath = path + "[\(index)]"
            if case .scalar(let text, _) = item.content {
                if text == "ping" || text == "close" {
                    steps.append(text == "ping" ? .ping(within: SocketStepSpec.defaultWithin) : .close(code: 1000))
                } else {
                    reader.error(
                        item.mark, itemPath,
                        "expected a step such as send: hello, or ping or close alone, got \(reader.describe(item))")
                }
                continue
            }
            guard let fields = reader.fields(item, itemPath, known: Self.socketStepKeys) else { continue }
            let actions = Self.socketStepKeys.dropLast().filter { fields[$0] != nil }
            guard actions.count == 1, let action = actions.first, let value = fields[action] else {
                // An unknown key has its own error already.
                let unknown =
                    if case .mapping(let pairs) = item.content {
                        pairs.contains { !Self.socketStepKeys.contains($0.key.scalar ?? "") }
                    } else { false }
                if !actions.isEmpty || !unknown {
                    reader.error(
                        fields.mark, itemPath,
                        "a step is one of send, send-json, expect, ping, wait or close"
                            + (actions.isEmpty ? "" : "; found \(actions.joined(separator: " and "))"))
                }
                continue
            }
            var within = SocketStepSpec.defaultWithin
            if let withinNode = fields["within"] {
                if action != "expect" && action != "ping" {
                    reader.error(withinNode.mark, itemPath + ".within", "within goes with expect or ping")
                } else if let seconds = duration(withinNode, itemPath + ".within") {
                    within = min(seconds, Seconds.maximum)
                }
            }
            let valuePath = itemPath + "." + action
            switch action {
            case "send":
                guard let template = reader.template(value, valuePath) else { continue }
                check(template, valuePath, scope, allowArrays: true)
                steps.append(.send(template))
            case "send-json":
                if let json = self.value(value, valuePath, scope: scope) { steps.append(.sendJSON(json)) }
            case "expect":
                if let (condition, text) = eventCondition(value, valuePath) {
                    steps.append(.expect(condition, text: text, within: within))
                }
            case "ping":
                steps.append(.ping(within: within))
            case "wait":
                if let seconds = duration(value, valuePath) { steps.append(.wait(min(seconds, Seconds.maximum))) }
            default:
                guard let code = value.isNull ? 1000 : reader.integer(value, valuePath) else { continue }
                // What an endpoint may send (RFC 6455 7.4): 1000, or 3000 to 4999.
                guard code == 1000 || (3000...4999).contains(code) else {
                    reader.error(value.mark, valuePath, "expected a close code of 1000 or 3000 to 4999, got \(code)")
                    continue
                }
                steps.append(.close(code: code))
            }
        }
        return steps
    }

    /// A size: a number of bytes, or one with a `KiB`, `MiB` or `GiB` suffix.
    private mutating func byteCount(_ node: YAMLNode, _ path: String) -> Int? {
        if case .scalar(let text, _) = node.content {
            let units = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10), ("B", 1)]
            let (digits, scale) =
                units.first { text.hasSuffix($0.0) }.map { (text.dropLast($0.0.count), $0.1) } ?? (Substring(text), 1)
            if let count = YAMLScalar.parseInteger(String(digits).trimmingSuffix(" ")), count > 0,
                count <= Self.maximumStreamCount / scale
            {
                return count * scale
            }
        }
        reader.error(
            node.mark, path, "expected a size such as 65536, 64KiB or 16MiB, above 0, got \(reader.describe(node))")
        return nil
    }
}

extension String {
    fileprivate func trimmingSuffix(_ character: Character) -> String {
        var text = Substring(self)
        while text.last == character { text = text.dropLast() }
        return String(text)
    }
}
