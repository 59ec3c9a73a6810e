import MoyaHTTP
import MoyaSpec

/// `moya-cli export arazzo SERVICE`: a service's flows as an Arazzo 1.1.0 document over the
/// service's OpenAPI export. What Arazzo says, it says natively, for any Arazzo tool: a step's
/// operation, parameters and body, status, header, body and JSON criteria, outputs, a retry.
/// What it cannot say (a `type:` predicate, `each`, `skip`, `finally`, a secret capture) goes in
/// `x-moya` extensions, which other tools ignore and `import arazzo` reads back, so that
/// export then import gives the same flows; a native criterion that only approximates one is
/// marked `x-moya-lossy` and skipped on the way back.
public enum ArazzoExporter {
    /// The document's text, YAML, and a warning for each value it carries only in `x-moya`.
    public static func export(_ service: ServiceSpec, source url: String) -> (text: String, notes: [String]) {
        var writer = WorkflowWriter(service: service, exporter: Exporter(service: service))
        let workflows = service.flows.map { writer.workflow($0) }
        let document: JSONValue = .object([
            ("arazzo", .string("1.1.0")),
            (
                "info",
                .object([
                    ("title", .string("\(service.name) flows")), ("version", .string("1")),
                    ("description", .string("The flows of moya-cli's \(service.name) service.")),
                ])
            ),
            (
                "sourceDescriptions",
                .array([
                    .object([("name", .string(service.name)), ("url", .string(url)), ("type", .string("openapi"))])
                ])
            ),
            ("workflows", .array(workflows)),
            // An output that finds nothing fails its step, as the flow's capture does.
            ("x-moya", .object([("strictOutputs", .bool(true))])),
        ])
        let lines = document.objectMembers.flatMap {
            YAMLText.block(YAMLText.key($0.key), $0.value, indent: 0, templates: false)
        }
        return (lines.joined(separator: "\n") + "\n", writer.notes)
    }
}

extension JSONValue {
    var objectMembers: [(key: String, value: JSONValue)] {
        if case .object(let members) = self { return members }
        return []
    }
}

/// The state of one service's export.
struct WorkflowWriter {
    let service: ServiceSpec
    let exporter: Exporter
    var notes: [String] = []

    /// Each variable's expression as the step that sets it last: `$inputs.x`, or
    /// `$steps.S.outputs.x`.
    var sources: [String: String] = [:]

    mutating func workflow(_ flow: FlowSpec) -> JSONValue {
        sources = [:]
        var members: [(key: String, value: JSONValue)] = [("workflowId", .string(flow.name))]
        if let summary = flow.summary { members.append(("summary", .string(summary))) }
        var properties: [(key: String, value: JSONValue)] = []
        var literal = true
        for variable in flow.variables {
            sources[variable.name] = "$inputs." + variable.name
            guard case .value(let value) = variable.value else {
                literal = false
                continue
            }
            properties.append((variable.name, .object([("default", value)] + Self.type(of: value))))
        }
        if !properties.isEmpty {
            members.append(("inputs", .object([("type", .string("object")), ("properties", .object(properties))])))
        }
        var extensions: [(key: String, value: JSONValue)] = []
        if !literal {
            // A variable built from others has no place in a JSON Schema's defaults.
            extensions.append(("vars", .object(flow.variables.map { ($0.name, Self.written($0.value)) })))
        }
        if !flow.mcpExposed { extensions.append(("mcp", .bool(false))) }
        var steps: [JSONValue] = []
        var ids: Set<String> = []
        for step in flow.steps { steps.append(self.step(step, ids: &ids, isFinally: false)) }
        for step in flow.finally { steps.append(self.step(step, ids: &ids, isFinally: true)) }
        members.append(("steps", .array(steps)))
        if !extensions.isEmpty { members.append(("x-moya", .object(extensions))) }
        return .object(members)
    }

    static func type(of value: JSONValue) -> [(key: String, value: JSONValue)] {
        switch value {
        case .null: []
        case .bool: [("type", .string("boolean"))]
        case .integer: [("type", .string("integer"))]
        case .number: [("type", .string("number"))]
        case .string: [("type", .string("string"))]
        case .array: [("type", .string("array"))]
        case .object: [("type", .string("object"))]
        }
    }

    // MARK: - Steps

    mutating func step(_ step: FlowStep, ids: inout Set<String>, isFinally: Bool) -> JSONValue {
        var id = step.name
        var number = 2
        while !ids.insert(id).inserted {
            id = "\(step.name)-\(number)"
            number += 1
        }
        var members: [(key: String, value: JSONValue)] = [("stepId", .string(id))]
        var extensions: [(key: String, value: JSONValue)] = []
        let target = step.service == nil ? service.target(named: step.target) : nil
        if step.service != nil {
            notes.append(
                "\(step.targetReference): a step of another service's target is exported as its operationId alone")
        }
        members.append(("operationId", .string(step.target)))
        let placements = target.map { exporter.placements($0) } ?? [:]
        var parameters: [JSONValue] = []
        var payload: [(key: String, value: JSONValue)] = []
        var kept: [(key: String, value: JSONValue)] = []
        for argument in step.arguments {
            guard let placement = placements[argument.name], let value = value(argument.value) else {
                kept.append((argument.name, Self.written(argument.value)))
                continue
            }
            if placement.location == "body" {
                payload.append((placement.key, value))
            } else {
                parameters.append(
                    .object([("name", .string(placement.key)), ("in", .string(placement.location)), ("value", value)]))
            }
        }
        if !parameters.isEmpty { members.append(("parameters", .array(parameters))) }
        if !payload.isEmpty {
            let type = target.flatMap(exporter.bodyType) ?? "application/json"
            members.append(("requestBody", .object([("contentType", .string(type)), ("payload", .object(payload))])))
        }
        if !kept.isEmpty { extensions.append(("params", .object(kept))) }

        let (criteria, expect) = self.criteria(step.assertions)
        if !criteria.isEmpty { members.append(("successCriteria", .array(criteria))) }
        if !expect.isEmpty { extensions.append(("expect", .object(expect))) }
        if let retry = step.retry {
            // A retry whose `until` is what the step expects and which is bounded by count is
            // Arazzo's retry action; anything else goes whole in `x-moya`.
            let (untilCriteria, untilExpect) = self.criteria(step.until)
            let exact =
                retry.timeLimit == nil && retry.attempts != nil && untilExpect.isEmpty && expect.isEmpty
                && untilCriteria == criteria && !criteria.isEmpty
            var action: [(key: String, value: JSONValue)] = [
                ("name", .string("retry")), ("type", .string("retry")),
                ("retryAfter", Self.number(retry.interval)),
                ("retryLimit", .integer(max(0, (retry.attempts ?? 2) - 1))),
            ]
            if !exact {
                action.append(("x-moya-lossy", .bool(true)))
                extensions.append(("until", .object(Self.expectMapping(step.until))))
                var poll: [(key: String, value: JSONValue)] = [
                    ("every", .string(JSONValue.format(retry.interval) + "s"))
                ]
                if let limit = retry.timeLimit { poll.append(("for", .string(JSONValue.format(limit) + "s"))) }
                if let attempts = retry.attempts { poll.append(("times", .integer(attempts))) }
                extensions.append(("retry", .object(poll)))
            }
            members.append(("onFailure", .array([.object(action)])))
        }
        let (outputs, captures) = self.outputs(step.captures, step: id)
        if !outputs.isEmpty { members.append(("outputs", .object(outputs))) }
        if !captures.isEmpty { extensions.append(("capture", .object(captures))) }
        if let each = step.each { extensions.append(("each", Self.written(each))) }
        if let skip = step.skip { extensions.append(("skip", .string(skip.description))) }
        if let sample = step.sample { extensions.append(("sample", .string(sample))) }
        if let pages = step.pages { extensions.append(("pages", pages.written)) }
        if isFinally { extensions.append(("finally", .bool(true))) }
        if !extensions.isEmpty { members.append(("x-moya", .object(extensions))) }
        for capture in step.captures { sources[capture.name] = "$steps.\(id).outputs.\(capture.name)" }
        return .object(members)
    }

    // MARK: - Values

    /// A flow value as an Arazzo value: a literal, a runtime expression for a whole reference,
    /// `{$…}` inside text; nil when it reads what Arazzo has no expression for (`{item}`,
    /// `{$uuid}`, a variable nothing set).
    func value(_ value: FlowValue) -> JSONValue? {
        switch value {
        case .value(let literal): return literal
        case .template(let template):
            if let reference = template.wholeReference { return expression(reference).map(JSONValue.string) }
            var text = ""
            for segment in template.segments {
                switch segment {
                case .literal(let literal): text += literal
                case .reference(let reference):
                    guard let expression = expression(reference) else { return nil }
                    text += "{" + expression + "}"
                case .environment: return nil
                }
            }
            return .string(text)
        case .array(let items):
            var made: [JSONValue] = []
            for item in items {
                guard let converted = self.value(item) else { return nil }
                made.append(converted)
            }
            return .array(made)
        case .object(let members):
            var made: [(key: String, value: JSONValue)] = []
            for member in members {
                guard let converted = self.value(member.value) else { return nil }
                made.append((member.key, converted))
            }
            return .object(made)
        }
    }

    func expression(_ reference: VariableTemplate.Reference) -> String? {
        guard !reference.isBuiltIn, let base = sources[reference.name] else { return nil }
        guard !reference.path.isEmpty else { return base }
        return base + "#/"
            + reference.path.map { $0.replacing("~", with: "~0").replacing("/", with: "~1") }.joined(separator: "/")
    }

    /// A flow value as the spec writes it, for `x-moya`.
    static func written(_ value: FlowValue) -> JSONValue {
        switch value {
        case .value(let literal): YAMLTemplates.literal(literal)
        case .template(let template): .string(template.description)
        case .array(let items): .array(items.map(written))
        case .object(let members): .object(members.map { ($0.key, written($0.value)) })
        }
    }

    static func number(_ value: Double) -> JSONValue {
        value.rounded() == value && abs(value) < 1e15 ? .integer(Int(value)) : .number(value)
    }
}

/// A literal written where the spec reads templates, as export and import write flow values:
/// its strings' braces doubled.
enum YAMLTemplates {
    static func literal(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): .string(YAMLText.template(text))
        case .array(let items): .array(items.map(literal))
        case .object(let members): .object(members.map { ($0.key, literal($0.value)) })
        default: value
        }
    }
}

extension PageCount {
    /// `all` or the number, as a step writes it.
    var written: JSONValue {
        switch self {
        case .all: .string("all")
        case .first(let count): .integer(count)
        }
    }
}
