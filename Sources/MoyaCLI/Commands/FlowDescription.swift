import MoyaHTTP
import MoyaRuntime
import MoyaSpec

/// A flow described for people and for programs: its variables and steps, with templates as
/// written, so that no environment value (a secret) is printed.
struct FlowDescription {
    let service: ServiceSpec
    let flow: FlowSpec

    var lines: [String] {
        var lines = [
            "\(service.name).\(flow.name) (flow)"
                + (flow.summary.map { ": " + TerminalText.escapingControls($0) } ?? "")
        ]
        if !flow.variables.isEmpty {
            lines.append("  vars:")
            lines += flow.variables.map { "    \($0.name): \(TerminalText.escapingControls(Self.text($0.value)))" }
        }
        lines.append("  steps:")
        lines += flow.steps.enumerated().flatMap { stepLines($1, number: $0 + 1) }
        if !flow.finally.isEmpty {
            lines.append("  finally:")
            lines += flow.finally.enumerated().flatMap { stepLines($1, number: $0 + 1) }
        }
        return lines
    }

    private func stepLines(_ step: FlowStep, number: Int) -> [String] {
        var call = step.targetReference
        if !step.arguments.isEmpty {
            call += " " + step.arguments.map { "\($0.name)=\(Self.text($0.value))" }.joined(separator: " ")
        }
        var lines = ["    \(number). \(step.name): \(TerminalText.escapingControls(call))"]
        var details: [(String, String)] = []
        if let each = step.each { details.append(("each", Self.text(each))) }
        if let skip = step.skip { details.append(("skip", "\(skip)")) }
        if !step.until.isEmpty { details.append(("until", Self.subjects(step.until, under: "until"))) }
        if !step.assertions.isEmpty { details.append(("expect", Self.subjects(step.assertions, under: "expect"))) }
        if !step.captures.isEmpty {
            details.append(
                ("capture", step.captures.map { "\($0.name)\($0.isSecret ? " (secret)" : "")" }.joined(separator: ", "))
            )
        }
        lines += details.map { "       \($0): \(TerminalText.escapingControls($1))" }
        return lines
    }

    /// What assertions look at, without the key they are written under: `status, json.$.id`.
    static func subjects(_ assertions: [Assertion], under key: String) -> String {
        assertions.map { $0.keyPath.hasPrefix(key + ".") ? String($0.keyPath.dropFirst(key.count + 1)) : $0.keyPath }
            .joined(separator: ", ")
    }

    var json: JSONValue {
        func step(_ step: FlowStep) -> JSONValue {
            .object([
                ("name", .string(step.name)), ("call", .string(step.targetReference)),
                ("params", .object(step.arguments.map { ($0.name, .string(Self.text($0.value))) })),
                ("expect", .string(Self.subjects(step.assertions, under: "expect"))),
                ("capture", .array(step.captures.map { .string($0.name) })),
            ])
        }
        return .object([
            ("service", .string(service.name)), ("flow", .string(flow.name)),
            ("summary", flow.summary.map(JSONValue.string) ?? .null),
            ("vars", .object(flow.variables.map { ($0.name, .string(Self.text($0.value))) })),
            ("steps", .array(flow.steps.map(step))), ("finally", .array(flow.finally.map(step))),
        ])
    }

    /// A flow value as the spec wrote it: `${NAME}` for an environment value.
    static func text(_ value: FlowValue) -> String {
        switch value {
        case .value(let json): json.text
        case .template(let template): template.description
        case .array(let items): "[" + items.map(text).joined(separator: ", ") + "]"
        case .object(let members): "{" + members.map { "\($0.key): \(text($0.value))" }.joined(separator: ", ") + "}"
        }
    }
}
