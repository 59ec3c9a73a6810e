import MoyaArazzo
import MoyaHTTP
import MoyaSchema
import MoyaSpec

/// `moya-cli import arazzo`: an Arazzo document's workflows as flows of the specs its OpenAPI
/// source descriptions import to (docs/arazzo.md has the mapping). A step is its operation's
/// target, its parameters and body members the target's params, with runtime expressions as
/// variables; `successCriteria` is its `expect`, `outputs` its captures, a `retry` failure
/// action its `until` and `retry`; a step that runs another workflow runs that workflow's steps
/// in its place. What a flow cannot hold is a warning naming its place, never left out silently.
public enum ArazzoImporter {
    /// A source description imported as a spec.
    public struct Service: Sendable {
        /// The source description's name.
        public var source: String
        /// The spec's service.
        public var name: String
        /// Its targets' operations.
        public var operations: [ImportedOperation]

        public init(source: String, name: String, operations: [ImportedOperation]) {
            self.source = source
            self.name = name
            self.operations = operations
        }
    }

    /// The flows made, each in the spec of its first step's service, and the warnings.
    public struct Flows: Sendable {
        /// For each service, the lines under its spec's `flows:`.
        public var lines: [String: [String]] = [:]
        /// The flows' names, by service, in order.
        public var names: [String: [String]] = [:]
        /// Each as `FILE:LINE:COL: warning: key.path: message`.
        public var warnings: [String] = []
    }

    /// The document's workflows as flows of `services`.
    public static func flows(_ document: ArazzoDocument, services: [Service]) -> Flows {
        var writer = FlowWriter(document: document, services: services)
        var flows = Flows()
        var taken: [String: Set<String>] = [:]
        for service in services { taken[service.name] = Set(service.operations.map(\.target)) }
        for (index, workflow) in document.workflows.enumerated() {
            guard let made = writer.flow(workflow, at: [.key("workflows"), .index(index)]) else { continue }
            var name = made.name
            while taken[made.service, default: []].contains(name) { name += "Flow" }
            taken[made.service, default: []].insert(name)
            flows.lines[made.service, default: []] += YAMLText.block(
                YAMLText.key(name), made.value, indent: 2, templates: false)
            flows.names[made.service, default: []].append(name)
        }
        flows.warnings = writer.warnings
        return flows
    }
}

/// The state of one document's conversion.
struct FlowWriter {
    typealias Path = [SchemaError.Step]

    let document: ArazzoDocument
    let services: [ArazzoImporter.Service]
    var warnings: [String] = []

    init(document: ArazzoDocument, services: [ArazzoImporter.Service]) {
        self.document = document
        self.services = services
    }

    mutating func warn(_ path: Path, _ message: String) {
        let mark = document.node(at: path).mark
        let line = "\(document.file):\(mark.line):\(mark.column): warning: \(ArazzoDocument.keyPath(path)): \(message)"
        if !warnings.contains(line) { warnings.append(line) }
    }

    // MARK: - One flow

    /// A workflow or an inlined one: the values its expressions read.
    struct Frame {
        var workflow: JSONValue
        var path: Path
        /// The frame's key in `outputs`; unique per inlining.
        var key: String
        /// The steps' names start with this: the calling step's id and a dot.
        var prefix: String
        /// Inputs the calling step sets, as flow values; an input it does not set is the flow's
        /// variable of that name.
        var inputs: [String: JSONValue] = [:]
        /// The workflows being inlined, against cycles.
        var stack: [String]
    }

    /// The flow's state: its variables, each step output's value, the steps written.
    var variables: [(key: String, value: JSONValue)] = []
    var names: Set<String> = []
    /// `frame/step/output` to the flow value it is: a `{variable}` or what it aliases.
    var outputs: [String: JSONValue] = [:]
    var steps: [JSONValue] = []
    /// The steps `export arazzo` marked `x-moya: { finally: true }`.
    var finallySteps: [JSONValue] = []
    var service: String?
    /// The steps visited for this flow, inlined workflows' included, against a document
    /// whose workflows run each other many times over (8 deep, 6 each: 6^7 steps).
    var visited = 0
    /// The most steps one flow may come to with its workflows inlined.
    static let stepLimit = 1000

    mutating func flow(_ workflow: JSONValue, at path: Path) -> (name: String, service: String, value: JSONValue)? {
        guard let id = workflow["workflowId"]?.stringValue else { return nil }
        variables = []
        names = []
        outputs = [:]
        steps = []
        finallySteps = []
        service = nil
        visited = 0
        // `export arazzo` writes vars a JSON Schema cannot hold in `x-moya`, as the spec does.
        if case .object(let written)? = workflow["x-moya"]?["vars"] {
            variables = written
        } else {
            variables = inputs(of: workflow, at: path).map { (key: $0.0, value: $0.1) }
        }
        names = Set(variables.map(\.key))
        if workflow["dependsOn"] != nil {
            warn(path + [.key("dependsOn")], "a flow does not run other workflows first; run them before this one")
        }
        let frame = Frame(workflow: workflow, path: path, key: id, prefix: "", stack: [id])
        self.steps(of: frame)
        guard visited <= Self.stepLimit else {
            warn(
                path + [.key("steps")],
                "with the workflows its steps run inlined, it comes to more than \(Self.stepLimit) steps; "
                    + "it is left out")
            return nil
        }
        guard let service, !steps.isEmpty else {
            warn(path, "no step of this workflow calls an operation of an imported description; it is left out")
            return nil
        }
        if workflow["outputs"] != nil {
            warn(
                path + [.key("outputs")],
                "a flow has no outputs of its own; its variables are what its steps capture")
        }
        var members: [(key: String, value: JSONValue)] = []
        if let summary = workflow["summary"]?.stringValue ?? workflow["description"]?.stringValue {
            members.append(("summary", .string(Names.oneLine(summary))))
        }
        if !variables.isEmpty { members.append(("vars", .object(variables))) }
        members.append(("steps", .array(steps)))
        if !finallySteps.isEmpty { members.append(("finally", .array(finallySteps))) }
        if let exposed = workflow["x-moya"]?["mcp"] { members.append(("mcp", exposed)) }
        return (Self.flowName(id), service, .object(members))
    }

    /// A workflow id as a flow's name: kept where it is one.
    static func flowName(_ id: String) -> String {
        ParamSpec.isValidParamName(id) ? id : Names.lowerCamel(id, fallback: "workflow")
    }

    /// The inputs a workflow's schema declares, through `#/components/inputs/…`, each with its
    /// default (else null), as the flow's variables.
    func inputs(of workflow: JSONValue, at path: Path) -> [(String, JSONValue)] {
        guard var schema = workflow["inputs"] else { return [] }
        if let reference = schema["$ref"]?.stringValue, reference.hasPrefix("#/"),
            let found = document.json.value(atPath: RuntimeExpression.tokens(ofPointer: String(reference.dropFirst())))
        {
            schema = found
        }
        guard case .object(let properties)? = schema["properties"] else { return [] }
        return properties.compactMap { property in
            guard ParamSpec.isValidParamName(property.key) else { return nil }
            return (property.key, YAMLTemplates.literal(property.value["default"] ?? .null))
        }
    }

    // MARK: - Steps

    mutating func steps(of frame: Frame) {
        guard case .array(let items)? = frame.workflow["steps"] else { return }
        for (index, step) in items.enumerated() {
            visited += 1
            guard visited <= Self.stepLimit else { return }
            let path = frame.path + [.key("steps"), .index(index)]
            guard let id = step["stepId"]?.stringValue else { continue }
            if let workflowId = step["workflowId"]?.stringValue {
                inline(workflowId, from: step, id: id, frame: frame, at: path)
            } else {
                operationStep(step, id: id, frame: frame, at: path)
            }
        }
    }

    /// A step that runs another workflow: that workflow's steps, with the inputs the step sets.
    mutating func inline(_ workflowId: String, from step: JSONValue, id: String, frame: Frame, at path: Path) {
        guard let workflow = document.workflows.first(where: { $0["workflowId"]?.stringValue == workflowId }) else {
            warn(
                path + [.key("workflowId")], "'\(workflowId)' is not a workflow of this document; the step is left out")
            return
        }
        guard !frame.stack.contains(workflowId), frame.stack.count < 8 else {
            warn(path + [.key("workflowId")], "'\(workflowId)' runs itself; the step is left out")
            return
        }
        let index = document.workflows.firstIndex { $0["workflowId"]?.stringValue == workflowId } ?? 0
        var inner = Frame(
            workflow: workflow, path: [.key("workflows"), .index(index)], key: frame.key + "/" + id,
            prefix: frame.prefix + id + ".", stack: frame.stack + [workflowId])
        for (index, parameter) in parameters(step["parameters"], at: path + [.key("parameters")]).enumerated() {
            guard let converted = value(parameter.value, frame: frame, at: path + [.key("parameters"), .index(index)])
            else { continue }
            inner.inputs[parameter.name] = converted
        }
        // An input the step does not set is the flow's variable, declared if it is not yet.
        for (name, value) in inputs(of: workflow, at: inner.path) where inner.inputs[name] == nil {
            if names.insert(name).inserted { variables.append((name, value)) }
        }
        steps(of: inner)
        if step["successCriteria"] != nil {
            warn(
                path + [.key("successCriteria")],
                "a flow runs the workflow's steps in this step's place; their own criteria are checked, not these")
        }
        // The step's outputs are the inner workflow's (`$outputs.NAME`).
        guard case .object(let members)? = step["outputs"] else { return }
        for member in members {
            let at = path + [.key("outputs"), .key(member.key)]
            guard let text = member.value.stringValue,
                case .outputs(let name, let pointer)? = try? RuntimeExpression(parsing: text),
                let expression = workflow["outputs"]?[name]?.stringValue,
                let parsed = try? RuntimeExpression.lenient(expression).expression
            else {
                warn(
                    at,
                    "a workflow step's output is one of the workflow's outputs ($outputs.NAME); this one is left out")
                continue
            }
            guard let aliased = value(of: parsed, frame: inner, at: inner.path + [.key("outputs"), .key(name)]) else {
                continue
            }
            outputs[frame.key + "/" + id + "/" + member.key] = Self.appending(pointer, to: aliased)
        }
    }

    mutating func operationStep(_ step: JSONValue, id: String, frame: Frame, at path: Path) {
        guard let (stepService, operation) = self.operation(of: step, at: path) else { return }
        if service == nil { service = stepService.name }
        var members: [(key: String, value: JSONValue)] = []
        let name = frame.prefix + id
        if name != operation.target { members.append(("name", .string(name))) }
        let call = stepService.name == service ? operation.target : stepService.name + "." + operation.target
        members.append(("call", .string(call)))

        var params: [(key: String, value: JSONValue)] = []
        // The workflow's parameters go to every operation step; the step's own replace them.
        let shared = parameters(frame.workflow["parameters"], at: frame.path + [.key("parameters")])
        let own = parameters(step["parameters"], at: path + [.key("parameters")])
        let merged =
            shared.filter { parameter in
                !own.contains { $0.name == parameter.name && $0.location == parameter.location }
            }
            + own
        for parameter in merged {
            let at = parameter.path
            guard let location = parameter.location else {
                warn(at, "an operation's parameter says where it goes ('in'); this one is left out")
                continue
            }
            guard let param = param(for: parameter.name, in: location, of: operation, at: at) else { continue }
            if let converted = value(parameter.value, frame: frame, at: at + [.key("value")]) {
                params.append((param, converted))
            }
        }
        if let body = step["requestBody"] {
            params += self.body(body, operation: operation, frame: frame, at: path + [.key("requestBody")])
        }
        // What `export arazzo` kept in `x-moya`, in the spec's own words.
        let kept = step["x-moya"]
        if case .object(let more)? = kept?["params"] { params += more }
        // A required param the step does not set is the flow's variable, for --var to give.
        for required in operation.required where !params.contains(where: { $0.key == required }) {
            warn(
                path,
                "target \(operation.target) needs the param '\(required)', which the step does not set; "
                    + "it is the flow's variable {\(required)}, which --var \(required)=VALUE sets")
            if names.insert(required).inserted { variables.append((required, .null)) }
            params.append((required, .string("{\(required)}")))
        }
        if !params.isEmpty { members.append(("params", .object(params))) }

        var expect = Expectation()
        criteria(step["successCriteria"], frame: frame, at: path + [.key("successCriteria")], into: &expect)
        let expected = Self.merged(expect.value, kept?["expect"])
        if let expected { members.append(("expect", expected)) }
        for key in ["each", "skip", "pages"] {
            if let value = kept?[key] { members.append((key, value)) }
        }
        // A named sample is an example of the description, which import may have renamed.
        if let sample = kept?["sample"]?.stringValue {
            members.append(("sample", .string(operation.samples[sample] ?? sample)))
        }
        if let until = kept?["until"], let retry = kept?["retry"] {
            members += [("until", until), ("retry", retry)]
        } else {
            members += actions(of: step, frame: frame, at: path, expect: expected)
        }
        var captures = self.captures(step["outputs"], step: id, frame: frame, at: path + [.key("outputs")])
        // `x-moya` keeps every capture, in order, when one has no output to be.
        if case .object(let written)? = kept?["capture"] {
            for capture in written {
                names.insert(capture.key)
                outputs[frame.key + "/" + id + "/" + capture.key] = .string("{\(capture.key)}")
            }
            captures = written
        }
        if !captures.isEmpty { members.append(("capture", .object(captures))) }
        for key in ["timeout", "dependsOn"] where step[key] != nil {
            warn(path + [.key(key)], "a flow step has no '\(key)'; it is left out")
        }
        if kept?["finally"] == .bool(true) {
            finallySteps.append(.object(members))
        } else {
            steps.append(.object(members))
        }
    }

    /// The service and operation a step names by `operationId` or `operationPath`.
    mutating func operation(of step: JSONValue, at path: Path) -> (ArazzoImporter.Service, ImportedOperation)? {
        if let id = step["operationId"]?.stringValue {
            var candidates = services
            var name = id
            if case .source(let source, let rest)? = try? RuntimeExpression(parsing: id) {
                candidates = services.filter { $0.source.lowercased() == source.lowercased() }
                name = rest
            } else if !services.contains(where: { $0.operations.contains { $0.operationId == id } }),
                let (source, rest) = ArazzoSource.sourcePrefixed(id, among: services.map(\.source))
            {
                // `source.operationId`, which validation has warned of.
                candidates = services.filter { $0.source == source }
                name = rest
            }
            for service in candidates {
                if let found = service.operations.first(where: { $0.operationId == name })
                    ?? service.operations.first(where: { $0.operationId?.lowercased() == name.lowercased() })
                {
                    return (service, found)
                }
            }
            warn(
                path + [.key("operationId")], "no imported description has the operation '\(id)'; the step is left out")
            return nil
        }
        if let reference = step["operationPath"]?.stringValue {
            if let (source, pointer) = ArazzoSource.operationPath(reference),
                let service = services.first(where: { $0.source.lowercased() == source.lowercased() })
            {
                let tokens = RuntimeExpression.tokens(ofPointer: pointer)
                let found = service.operations.filter {
                    tokens.count >= 2 && tokens[0] == "paths" && $0.path == tokens[1]
                }
                let method = tokens.count > 2 ? tokens[2].lowercased() : nil
                if let operation = found.first(where: { $0.method == method }) ?? (found.count == 1 ? found.first : nil)
                {
                    return (service, operation)
                }
            }
            warn(
                path + [.key("operationPath")],
                "no imported description has the operation '\(reference)'; the step is left out")
            return nil
        }
        warn(path, "an AsyncAPI step has no place in a flow; it is left out")
        return nil
    }

    /// An `expect` with the mapping `x-moya` kept merged in: its keys, and inside `headers`
    /// and `json`, its members.
    static func merged(_ expect: JSONValue?, _ kept: JSONValue?) -> JSONValue? {
        guard case .object(let more)? = kept else { return expect }
        var members: [(key: String, value: JSONValue)] = []
        if case .object(let built)? = expect { members = built }
        for member in more {
            if let index = members.firstIndex(where: { $0.key == member.key }),
                case .object(let inner) = members[index].value, case .object(let added) = member.value,
                member.key == "headers" || member.key == "json"
            {
                members[index].value = .object(inner + added)
            } else {
                members.removeAll { $0.key == member.key }
                members.append(member)
            }
        }
        return .object(members)
    }

    // MARK: - Parameters and bodies

    /// The target's param for a parameter: the one import made of it, else one whose name
    /// differs only in case, `_` and `-` (`pet_id` for `petId`), with a warning.
    mutating func param(for name: String, in location: String, of operation: ImportedOperation, at path: Path)
        -> String?
    {
        if let param = operation.params[ImportedOperation.key(in: location, name)] { return param }
        func folded(_ text: String) -> String { text.lowercased().filter { $0 != "_" && $0 != "-" } }
        let prefix = location + ":"
        if let near = operation.params.first(where: {
            $0.key.hasPrefix(prefix) && folded(String($0.key.dropFirst(prefix.count))) == folded(name)
        }) {
            warn(
                path,
                "the operation has no \(location) parameter '\(name)'; '\(near.key.dropFirst(prefix.count))', "
                    + "which differs only in case and separators, is taken")
            return near.value
        }
        warn(
            path, "target \(operation.target) has no param for the \(location) parameter '\(name)'; it is left out")
        return nil
    }

    struct Parameter {
        var name: String
        var location: String?
        var value: JSONValue
        var path: Path
    }

    /// A parameters list, each reusable one resolved from `components.parameters` with the
    /// value it sets.
    mutating func parameters(_ list: JSONValue?, at path: Path) -> [Parameter] {
        guard case .array(let items)? = list else { return [] }
        var parameters: [Parameter] = []
        for (index, item) in items.enumerated() {
            let at = path + [.index(index)]
            var parameter = item
            if let reference = item["reference"]?.stringValue {
                guard case .component("parameters", let name)? = try? RuntimeExpression(parsing: reference),
                    let found = document.json["components"]?["parameters"]?[name]
                else {
                    warn(at, "'\(reference)' is not a parameter of components; it is left out")
                    continue
                }
                parameter = found
                if let value = item["value"], case .object(var members) = parameter {
                    members.removeAll { $0.key == "value" }
                    members.append(("value", value))
                    parameter = .object(members)
                }
            }
            guard let name = parameter["name"]?.stringValue, let value = parameter["value"] else { continue }
            parameters.append(Parameter(name: name, location: parameter["in"]?.stringValue, value: value, path: at))
        }
        return parameters
    }

    /// A request body's payload as the target's body params: each member of a JSON or form
    /// body to the param import made of it.
    mutating func body(_ body: JSONValue, operation: ImportedOperation, frame: Frame, at path: Path)
        -> [(key: String, value: JSONValue)]
    {
        if body["replacements"] != nil {
            warn(path + [.key("replacements")], "a flow sets a body's members by param; replacements are left out")
        }
        guard var payload = body["payload"] else { return [] }
        // A payload written as JSON text is read as the JSON it holds.
        if case .string(let text) = payload, let parsed = try? JSONValue(parsing: text) { payload = parsed }
        guard !operation.bodyIsFixed, case .object(let members) = payload else {
            warn(
                path + [.key("payload")],
                operation.bodyIsFixed
                    ? "target \(operation.target) sends its example body, which has no params; the payload is left out"
                    : "a flow sets a body by its members; a payload that is not an object is left out")
            return []
        }
        var params: [(key: String, value: JSONValue)] = []
        for member in members {
            guard let param = operation.bodyMembers[member.key] else {
                warn(
                    path + [.key("payload"), .key(member.key)],
                    "target \(operation.target) has no param for the body member '\(member.key)'; it is left out")
                continue
            }
            if let converted = value(member.value, frame: frame, at: path + [.key("payload"), .key(member.key)]) {
                params.append((param, converted))
            }
        }
        return params
    }

    // MARK: - Values

    /// A document value as a flow value: a runtime expression as the variable it reads, an
    /// embedded `{$…}` as `{variable}`, literal text with its braces doubled.
    mutating func value(_ value: JSONValue, frame: Frame, at path: Path) -> JSONValue? {
        switch value {
        case .string(let text):
            if ArazzoValidator.readsAsExpression(text) {
                guard let (expression, _) = try? RuntimeExpression.lenient(text) else {
                    warn(path, "'\(text)' is not a runtime expression; it is left out")
                    return nil
                }
                return self.value(of: expression, frame: frame, at: path)
            }
            guard text.contains("{$"), let pieces = try? RuntimeExpression.embedded(in: text) else {
                return .string(YAMLText.template(text))
            }
            if pieces.count == 1, case .expression(let expression) = pieces[0] {
                return self.value(of: expression, frame: frame, at: path)
            }
            var written = ""
            for piece in pieces {
                switch piece {
                case .text(let literal): written += YAMLText.template(literal)
                case .expression(let expression):
                    guard let made = self.value(of: expression, frame: frame, at: path) else { return nil }
                    written += made.stringValue ?? YAMLText.template(made.text)
                }
            }
            return .string(written)
        case .array(let items):
            var made: [JSONValue] = []
            for (index, item) in items.enumerated() {
                guard let converted = self.value(item, frame: frame, at: path + [.index(index)]) else { return nil }
                made.append(converted)
            }
            return .array(made)
        case .object(let members):
            var made: [(key: String, value: JSONValue)] = []
            for member in members {
                guard let converted = self.value(member.value, frame: frame, at: path + [.key(member.key)]) else {
                    return nil
                }
                made.append((member.key, converted))
            }
            return .object(made)
        default:
            return value
        }
    }

    /// The flow value an expression reads before the step is sent: an input, a step's output.
    mutating func value(of expression: RuntimeExpression, frame: Frame, at path: Path) -> JSONValue? {
        switch expression {
        case .inputs(let written, let pointer):
            let parts = written.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let name = parts[0]
            let inner = Array(parts.dropFirst()) + (pointer.map(RuntimeExpression.tokens(ofPointer:)) ?? [])
            if let bound = frame.inputs[name] { return Self.appending(tokens: inner, to: bound) }
            guard ParamSpec.isValidParamName(name) else {
                warn(path, "the input '\(name)' cannot be a variable's name; it is left out")
                return nil
            }
            if names.insert(name).inserted { variables.append((name, .null)) }
            return Self.appending(tokens: inner, to: .string("{\(name)}"))
        case .step(let id, let output?, let pointer):
            guard let found = outputs[frame.key + "/" + id + "/" + output] else {
                warn(path, "step '\(id)' has no output '\(output)' before this step; it is left out")
                return nil
            }
            return Self.appending(pointer, to: found)
        default:
            warn(path, "'\(expression)' has no value before the step is sent; it is left out")
            return nil
        }
    }

    /// A reference reaching inside the value: `{user}` and `/address/city` give
    /// `{user.address.city}`; inside a literal, the member itself.
    static func appending(_ pointer: String?, to value: JSONValue) -> JSONValue {
        appending(tokens: pointer.map(RuntimeExpression.tokens(ofPointer:)) ?? [], to: value)
    }

    static func appending(tokens: [String], to value: JSONValue) -> JSONValue {
        guard !tokens.isEmpty else { return value }
        if case .string(let text) = value, text.hasPrefix("{"), text.hasSuffix("}"), !text.hasPrefix("{{"),
            VariableTemplate(text).wholeReference != nil
        {
            return .string(String(text.dropLast()) + "." + tokens.joined(separator: ".") + "}")
        }
        return value.value(atPath: tokens) ?? .null
    }

    // MARK: - Captures

    /// A step's outputs as captures; an output that names a value the flow already holds (an
    /// input, another step's output) is that value, with no capture.
    mutating func captures(_ outputs: JSONValue?, step id: String, frame: Frame, at path: Path)
        -> [(key: String, value: JSONValue)]
    {
        guard case .object(let members)? = outputs else { return [] }
        var captures: [(key: String, value: JSONValue)] = []
        for member in members {
            let at = path + [.key(member.key)]
            let key = frame.key + "/" + id + "/" + member.key
            guard let source = capture(member.value, frame: frame, at: at) else { continue }
            switch source {
            case .alias(let value):
                self.outputs[key] = value
            case .capture(let value):
                let name = variable(for: member.key, step: id)
                captures.append((name, strictOutputs ? value : Self.optional(value)))
                self.outputs[key] = .string("{\(name)}")
            }
        }
        return captures
    }

    enum CaptureSource {
        case capture(JSONValue)
        case alias(JSONValue)
    }

    mutating func capture(_ output: JSONValue, frame: Frame, at path: Path) -> CaptureSource? {
        if case .object = output {
            // A selector object: a JSON path or pointer into the body.
            let type = output["type"]?.stringValue ?? output["type"]?["type"]?.stringValue
            guard let context = output["context"]?.stringValue, let selector = output["selector"]?.stringValue,
                case .exchange(true, .body(nil))? = try? RuntimeExpression(parsing: context)
            else {
                warn(path, "a capture reads the response; this selector is left out")
                return nil
            }
            switch type {
            case "jsonpath": return .capture(.string(selector))
            case "jsonpointer": return .capture(.string(Self.jsonPath(RuntimeExpression.tokens(ofPointer: selector))))
            default:
                warn(path, "moya-cli reads no \(type ?? "such") selector; it is left out")
                return nil
            }
        }
        guard let text = output.stringValue, let (expression, _) = try? RuntimeExpression.lenient(text) else {
            warn(path, "an output is a runtime expression; this one is left out")
            return nil
        }
        switch expression {
        case .exchange(true, .body(let pointer)):
            return .capture(.string(Self.jsonPath(pointer.map(RuntimeExpression.tokens(ofPointer:)) ?? [])))
        case .exchange(true, .header(let name)):
            return .capture(.object([("header", .string(name))]))
        case .plain("statusCode"):
            return .capture(.object([("status", .bool(true))]))
        case .inputs, .step:
            return value(of: expression, frame: frame, at: path).map(CaptureSource.alias)
        default:
            warn(path, "'\(text)' is not a part of the response a capture reads; it is left out")
            return nil
        }
    }

    /// Whether an output that finds nothing fails its step, as a flow's capture does: in a
    /// document `export arazzo` wrote (`x-moya: { strictOutputs: true }`). Elsewhere, as Arazzo
    /// runners read outputs, it leaves its variable unset (`optional: true`).
    var strictOutputs: Bool { document.json["x-moya"]?["strictOutputs"] == .bool(true) }

    /// A capture that leaves its variable unset when it finds nothing.
    static func optional(_ capture: JSONValue) -> JSONValue {
        switch capture {
        case .string(let path): .object([("json", .string(path)), ("optional", .bool(true))])
        case .object(let members) where members.first?.key != "status":
            .object(members + [("optional", .bool(true))])
        default: capture
        }
    }

    /// A variable's name for a step's output: the output's own when it is free, else the
    /// step's id and the output's.
    mutating func variable(for output: String, step: String) -> String {
        func clean(_ text: String) -> String {
            let name = String(
                text.unicodeScalars.map { scalar in
                    scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-")
                        ? Character(scalar) : "_"
                })
            return ParamSpec.isValidParamName(name) ? name : "v_" + name
        }
        var name = clean(output)
        if names.contains(name) { name = clean(step + "_" + output) }
        var candidate = name
        var number = 2
        while names.contains(candidate) {
            candidate = "\(name)\(number)"
            number += 1
        }
        names.insert(candidate)
        return candidate
    }

    /// A JSON path to the pointer's tokens: `$[0].id`, `$['a b']`.
    static func jsonPath(_ tokens: [String]) -> String {
        var path = "$"
        for token in tokens {
            if let index = Int(token), index >= 0, String(index) == token {
                path += "[\(index)]"
            } else if ParamSpec.isValidParamName(token), !token.contains("-") {
                path += "." + token
            } else {
                path += "['" + token.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "']"
            }
        }
        return path
    }
}
