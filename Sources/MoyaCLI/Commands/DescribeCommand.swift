import ArgumentParser
import MoyaHTTP
import MoyaRuntime
import MoyaSpec

/// `moya-cli describe`: everything a target declares.
struct DescribeCommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        _superCommandName: MoyaCommand.name,
        abstract: "Show a target's params, method, path, task and samples, or a flow's steps.",
        discussion: """
            Examples:
              moya-cli describe myservice.showUser
              moya-cli describe myservice.userLifecycle
              moya-cli describe translator.translate --json
            """
    )

    @Argument(
        help: ArgumentHelp("The target or flow, as SERVICE.NAME.", valueName: "service.name"),
        completion: .custom(DescribeCommand.completeNames))
    var target: String

    /// Completes `SERVICE.NAME` with the targets and flows of the specs the line names.
    @Sendable static func completeNames(_ words: [String], _: Int, _ prefix: String) -> [String] {
        SpecOptions.completions(words, prefix) { service in
            (service.targets.map(\.name) + service.flows.map(\.name)).map { "\(service.name).\($0)" }
        }
    }

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @OptionGroup var specOptions: SpecOptions

    func execute() async throws {
        let context = CommandContext.current
        let (serviceName, name) = try SpecOptions.split(target, "SERVICE.NAME")
        let found = try? specOptions.loadService(named: serviceName)
        if let service = found, service.target(named: name) == nil,
            let flow = service.flows.first(where: { $0.name == name })
        {
            let description = FlowDescription(service: service, flow: flow)
            if json {
                context.line(description.json.serialized(pretty: true, escapeSlashes: false))
            } else {
                for line in description.lines { context.line(line) }
            }
            return
        }
        let (service, target) = try specOptions.loadTarget(target)
        let description = TargetDescription(service: service, target: target)
        if json {
            context.line(description.json.serialized(pretty: true, escapeSlashes: false))
        } else {
            for line in description.lines { context.line(line) }
        }
    }
}

/// A target described for people and for programs.
struct TargetDescription {
    let service: ServiceSpec
    let target: TargetSpec

    /// The base URL, a password in it masked.
    var baseURL: String { PrintableRequest.maskingPassword(target.baseURL ?? service.baseURL) }

    var url: String {
        let path = target.path.description
        guard !path.isEmpty else { return baseURL }
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        return base + (path.hasPrefix("/") ? path : "/" + path)
    }

    /// A param's default as it may be printed: a secret's is masked.
    static func defaultText(_ param: ParamSpec) -> String? {
        guard let value = param.defaultValue else { return nil }
        if param.isSecret { return Redactor.mask }
        return param.writtenDefault.map(TerminalText.escapingControls) ?? value.description
    }

    var validation: ValidationType { target.validation(in: service) }

    var lines: [String] {
        var lines = [
            "\(service.name).\(target.name)" + (target.summary.map { ": " + TerminalText.escapingControls($0) } ?? "")
        ]
        if let description = target.description { lines.append("  " + TerminalText.escapingControls(description)) }
        lines.append("  \(target.method.rawValue) \(url)")
        lines.append("  task: \(taskSummary)")
        if !target.params.isEmpty {
            lines.append("  params:")
            let rows = target.params.map { param in
                [
                    "    --\(param.name)", param.type.description, requirement(param),
                    TerminalText.escapingControls(param.description ?? ""),
                ]
            }
            lines += TextTable.render(rows)
        }
        let headers = service.headers(of: target)
        // Values as written (`${VAR}`, `{param}`), a declared secret masked.
        for (title, entries) in [("headers", headers), ("cookies", target.cookies)] where !entries.isEmpty {
            lines.append("  \(title):")
            lines += entries.map { "    \($0.name): \($0.isSecret ? Redactor.mask : $0.value.description)" }
        }
        if let stream = target.stream { lines.append("  stream: " + TerminalText.escapingControls(stream.summary)) }
        lines.append("  validation: \(validation.summary)")
        if let auth = target.auth ?? service.auth { lines.append("  auth: \(auth.kind)") }
        if let pagination = target.pagination { lines.append("  pages: \(pagination.summary)") }
        // The policy the call would be sent with, without the command line's overrides.
        lines += CallPolicy.decide(CallPolicy.Overrides(), target: target, service: service).summary.map { "  " + $0 }
        var sampleRows: [[String]] = []
        if let sample = target.sample { sampleRows.append(["    (default)"] + Self.describe(sample)) }
        for named in target.samples { sampleRows.append(["    " + named.name] + Self.describe(named.sample)) }
        if !sampleRows.isEmpty {
            lines.append("  samples:")
            lines += TextTable.render(sampleRows)
        }
        if !service.environments.isEmpty {
            lines.append("  environments: " + service.environments.map(\.name).joined(separator: ", "))
        }
        return lines
    }

    func requirement(_ param: ParamSpec) -> String {
        let rules = Self.rulesText(param).map { ", " + $0 } ?? ""
        if let value = Self.defaultText(param) { return "default: \(value)" + rules }
        return (param.isOptional ? "optional" : "required") + rules
    }

    /// A param's rules as the spec writes them: `minimum 1, maximum 100`.
    static func rulesText(_ param: ParamSpec) -> String? {
        guard let rules = param.rules else { return nil }
        return rules.keywords.map { "\($0.key) \(TerminalText.escapingControls($0.value.text))" }
            .joined(separator: ", ")
    }

    var taskSummary: String {
        var text = target.task.moyaName
        switch target.task {
        case .parameters(let block, let encoding, _):
            text += ", encoding \(encoding.kind.rawValue)" + (block.isOrdered ? ", ordered" : "")
        case .download(let destination, _, _):
            text += " to \(destination.description)"
        case .upload(let file, _):
            text += " from \(file.description)"
        default:
            break
        }
        return text
    }

    static func describe(_ sample: SampleSpec) -> [String] {
        switch sample {
        case .error(let error): return ["error", error.rawValue]
        case .response(let status, _, let body):
            let kind: String =
                switch body {
                case .empty: "empty"
                case .text: "text"
                case .json: "json"
                case .file(let path): "file \(path)"
                case .events(let events): events.count == 1 ? "1 event" : "\(events.count) events"
                }
            return [String(status), kind]
        }
    }

    var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            (key: "service", value: .string(service.name)),
            (key: "target", value: .string(target.name)),
            (key: "summary", value: target.summary.map(JSONValue.string) ?? .null),
            (key: "description", value: target.description.map(JSONValue.string) ?? .null),
            (key: "method", value: .string(target.method.rawValue)),
            (key: "baseURL", value: .string(baseURL)),
            (key: "path", value: .string(target.path.description)),
            (key: "task", value: .string(target.task.moyaName)),
            (key: "validation", value: validationJSON),
            (key: "paginate", value: target.pagination?.json ?? .null),
        ]
        members.append(
            (
                key: "params",
                value: .array(
                    target.params.map { param in
                        .object([
                            (key: "name", value: .string(param.name)),
                            (key: "type", value: .string(param.type.description)),
                            (key: "required", value: .bool(param.isRequired)),
                            (key: "default", value: Self.defaultText(param).map(JSONValue.string) ?? .null),
                            (key: "description", value: param.description.map(JSONValue.string) ?? .null),
                            (key: "secret", value: .bool(param.isSecret)),
                            (key: "rules", value: param.rules.map { .object($0.keywords) } ?? .null),
                        ])
                    })
            ))
        var samples: [(key: String, value: JSONValue)] = []
        if let sample = target.sample { samples.append((key: "default", value: Self.sampleJSON(sample))) }
        for named in target.samples { samples.append((key: named.name, value: Self.sampleJSON(named.sample))) }
        members.append((key: "samples", value: .object(samples)))
        return .object(members)
    }

    var validationJSON: JSONValue {
        switch validation {
        case .none: .string("none")
        case .successCodes: .string("successCodes")
        case .successAndRedirectCodes: .string("successAndRedirectCodes")
        case .customCodes(let codes): .array(codes.map(JSONValue.integer))
        }
    }

    static func sampleJSON(_ sample: SampleSpec) -> JSONValue {
        switch sample {
        case .error(let error): .object([(key: "error", value: .string(error.rawValue))])
        case .response(let status, _, _): .object([(key: "status", value: .integer(status))])
        }
    }
}
