import MoyaSpec
import MoyaYAML

extension CompileContext {
    mutating func sample(_ node: YAMLNode, _ path: @autoclosure () -> String, scope: ParamScope) -> SampleSpec? {
        switch node.content {
        case .scalar:
            if node.isNull { return .response(status: 200, headers: [], body: .empty) }
            guard let template = reader.template(node, path()) else { return nil }
            check(template, path(), scope, allowArrays: true)
            return .response(status: 200, headers: [], body: .text(template))
        case .sequence:
            reader.error(
                node.mark, path(),
                "expected text or a mapping with json, file, body, status, headers or error; got a sequence")
            return nil
        case .mapping:
            break
        }
        guard let fields = reader.fields(node, path(), known: SpecCompiler.sampleKeys, nearby: SpecCompiler.targetKeys)
        else {
            return nil
        }
        if let errorNode = fields["error"] {
            for entry in fields where entry.key != "error" {
                let key = entry.key
                reader.error(
                    entry.mark, path() + "." + key,
                    "a sample with 'error' is a network failure and has no \(key)")
            }
            let names = SampleNetworkError.allCases.map(\.rawValue)
            return reader.choice(errorNode, path() + ".error", names, what: "network error")
                .flatMap(SampleNetworkError.init(rawValue:)).map(SampleSpec.error)
        }
        var status = 200
        if let statusNode = fields["status"], let code = reader.integer(statusNode, path() + ".status") {
            if (100...599).contains(code) {
                status = code
            } else {
                reader.error(
                    statusNode.mark, path() + ".status", "\(code) is not an HTTP status code; expected 100 to 599")
            }
        }
        let headers = fields["headers"].map { self.headers($0, path() + ".headers", scope: scope) } ?? []
        let bodies = ["body", "json", "file", "events"].filter { fields[$0] != nil }
        if bodies.count > 1 {
            reader.error(
                node.mark, path(),
                "a sample has one of body, json, file or events; found \(bodies.joined(separator: " and "))")
            return nil
        }
        var body = SampleBody.empty
        if let bodyNode = fields["body"] {
            guard let template = reader.template(bodyNode, path() + ".body") else { return nil }
            check(template, path() + ".body", scope, allowArrays: true)
            body = .text(template)
        } else if let jsonNode = fields["json"] {
            guard let json = value(jsonNode, path() + ".json", scope: scope) else { return nil }
            body = .json(json)
        } else if let fileNode = fields["file"] {
            guard let file = existingFile(fileNode, path() + ".file") else { return nil }
            body = .file(resolve(relativePath: file))
        } else if let eventsNode = fields["events"] {
            guard let events = events(eventsNode, path() + ".events", scope: scope) else { return nil }
            body = .events(events)
        }
        return .response(status: status, headers: headers, body: body)
    }

    /// The keys of a stream sample's event.
    static let sampleEventKeys = ["event", "id", "data", "retry", "delay"]
    /// The most events a stream sample holds.
    static let maximumSampleEvents = 100_000

    /// `events: [ { event, id, data, retry, delay }, … ]`: a stream sample's events.
    private mutating func events(_ node: YAMLNode, _ path: String, scope: ParamScope) -> [SampleEvent]? {
        guard case .sequence(let items) = node.content else {
            reader.error(
                node.mark, path, "expected a sequence of events such as - { data: hello }, got \(node.kindDescription)")
            return nil
        }
        guard items.count <= Self.maximumSampleEvents else {
            reader.error(node.mark, path, "at most \(Self.maximumSampleEvents) events, got \(items.count)")
            return nil
        }
        var events: [SampleEvent] = []
        for (index, item) in items.enumerated() {
            let itemPath = path + "[\(index)]"
            guard let fields = reader.fields(item, itemPath, known: Self.sampleEventKeys) else { continue }
            guard let dataNode = fields["data"] else {
                reader.error(fields.mark, itemPath + ".data", "required key is missing; an event has data")
                continue
            }
            guard let data = value(dataNode, itemPath + ".data", scope: scope) else { continue }
            var event = SampleEvent(data: data)
            for (key, keyPath) in [("event", \SampleEvent.event), ("id", \SampleEvent.id)] {
                guard let textNode = fields[key], let text = reader.string(textNode, itemPath + "." + key) else {
                    continue
                }
                // One line each, and no NUL in an id: an SSE field cannot hold more.
                if text.contains(where: { $0 == "\n" || $0 == "\r" }) || (key == "id" && text.contains("\0")) {
                    reader.error(
                        textNode.mark, itemPath + "." + key,
                        key == "id" ? "an event id is one line without NUL" : "an event type is one line")
                    continue
                }
                event[keyPath: keyPath] = text
            }
            if let retryNode = fields["retry"], let retry = reader.integer(retryNode, itemPath + ".retry") {
                if retry >= 0 {
                    event.retry = retry
                } else {
                    reader.error(retryNode.mark, itemPath + ".retry", "expected milliseconds from 0, got \(retry)")
                }
            }
            if let delayNode = fields["delay"], let delay = duration(delayNode, itemPath + ".delay") {
                if delay <= 3600 {
                    event.delay = delay
                } else {
                    reader.error(delayNode.mark, itemPath + ".delay", "expected a delay of at most an hour")
                }
            }
            events.append(event)
        }
        return events
    }
}
