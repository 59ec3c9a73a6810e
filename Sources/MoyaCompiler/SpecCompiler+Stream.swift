import MoyaHTTP
import MoyaSpec
import MoyaStreams
import MoyaYAML

extension CompileContext {
    /// The keys of `stream:` written as a mapping.
    static let streamKeys = ["kind", "until", "maxEvents", "maxTime", "idle", "maxBytes"]
    /// The most events, or bytes, a bound may give.
    static let maximumStreamCount = 1 << 40

    /// `stream: KIND`, or `stream: { kind: KIND, until: CONDITION, maxEvents: N, maxTime: 30s,
    /// idle: 5s, maxBytes: 1MiB }`, every key optional.
    mutating func stream(_ node: YAMLNode, _ path: String) -> StreamSpec? {
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
        if let untilNode = fields["until"], let text = reader.string(untilNode, path + ".until") {
            do {
                let condition = try FlowCondition(parsing: text)
                for reference in condition.references where !StreamSpec.eventVariables.contains(reference.name) {
                    reader.error(
                        untilNode.mark, path + ".until",
                        "unknown variable '\(reference.name)'; an event's are "
                            + StreamSpec.eventVariables.map { "{\($0)}" }.joined(separator: ", ")
                            + Suggestion.hint(for: reference.name, in: StreamSpec.eventVariables))
                }
                stream.until = condition
            } catch {
                reader.error(untilNode.mark, path + ".until", "\(error)")
            }
        }
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
        return stream
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
