import MoyaHTTP
import MoyaJSONPath
import MoyaRegex
import MoyaSpec
import MoyaYAML

extension CompileContext {
    static let flowKeys = ["summary", "vars", "steps", "finally", "mcp"]
    static let stepKeys = [
        "name", "call", "params", "sample", "pages", "expect", "capture", "until", "retry", "each", "skip",
    ]
    static let captureKeys = ["json", "header", "status", "body", "regex", "cookie", "duration", "secret", "optional"]
    static let retryKeys = ["every", "for", "times"]

    /// The service's `flows`: each step names a target, of this service or `SERVICE.TARGET`,
    /// gives only that target's params, and uses only variables set before it.
    mutating func flows(_ node: YAMLNode, _ path: String, service: String, targets: [TargetSpec]) -> [FlowSpec] {
        var flows: [FlowSpec] = []
        for entry in reader.namedEntries(node, path, what: "flow") {
            if targets.contains(where: { $0.name == entry.name }) {
                reader.error(entry.mark, entry.path, "'\(entry.name)' is already a target; a flow needs its own name")
            }
            if let flow = flow(
                entry.name, entry.value, entry.path, service: service, targets: targets, mark: entry.mark)
            {
                flows.append(flow)
            }
        }
        return flows
    }

    private mutating func flow(
        _ name: String, _ node: YAMLNode, _ path: String, service: String, targets: [TargetSpec], mark: Mark
    ) -> FlowSpec? {
        guard let fields = reader.fields(node, path, known: Self.flowKeys, nearby: Self.stepKeys) else { return nil }
        let summary = fields["summary"].flatMap { reader.prose($0, path + ".summary") }
        var variables: [(name: String, value: FlowValue)] = []
        if let node = fields["vars"], let entries = reader.fields(node, path + ".vars", known: nil) {
            for entry in entries {
                let varPath = path + ".vars." + entry.key
                if !ParamSpec.isValidParamName(entry.key) {
                    reader.error(entry.mark, varPath, "\"\(entry.key)\" is not a valid variable name")
                }
                if let value = flowValue(entry.value, varPath) { variables.append((entry.key, value)) }
            }
        }
        var scope = FlowScope(defined: Set(variables.map(\.name)))
        // A variable may refer to the ones declared before it.
        for (index, variable) in variables.enumerated() {
            let earlier = FlowScope(defined: Set(variables[..<index].map(\.name)))
            checkReferences(variable.value.references, in: earlier, mark: mark, path + ".vars." + variable.name)
        }
        guard let stepsNode = fields["steps"] else {
            reader.error(fields.mark, path + ".steps", "required key is missing; a flow needs at least one step")
            return nil
        }
        let steps = self.steps(stepsNode, path + ".steps", service: service, targets: targets, scope: &scope)
        // `finally` runs after a failure too, so a variable it uses may never have been
        // captured; that step is then skipped, and the run says why.
        var finalScope = scope
        let finally =
            fields["finally"].map {
                self.steps($0, path + ".finally", service: service, targets: targets, scope: &finalScope)
            } ?? []
        var flow = FlowSpec(
            name: name, summary: summary, variables: variables, steps: steps, finally: finally, mark: mark)
        flow.mcpExposed = fields["mcp"].flatMap { reader.bool($0, path + ".mcp") } ?? true
        return flow
    }

    private mutating func steps(
        _ node: YAMLNode, _ path: String, service: String, targets: [TargetSpec], scope: inout FlowScope
    ) -> [FlowStep] {
        guard case .sequence(let items) = node.content else {
            reader.error(node.mark, path, "expected a sequence of steps, got \(node.kindDescription)")
            return []
        }
        var steps: [FlowStep] = []
        for (index, item) in items.enumerated() {
            if let step = step(item, "\(path)[\(index)]", service: service, targets: targets, scope: &scope) {
                steps.append(step)
            }
        }
        return steps
    }

    private mutating func step(
        _ node: YAMLNode, _ path: String, service: String, targets: [TargetSpec], scope: inout FlowScope
    ) -> FlowStep? {
        guard let fields = reader.fields(node, path, known: Self.stepKeys, nearby: Self.expectKeys) else { return nil }
        guard let callNode = fields["call"] else {
            reader.error(fields.mark, path + ".call", "required key is missing; name the target the step calls")
            return nil
        }
        guard let reference = reader.string(callNode, path + ".call") else { return nil }
        var stepService: String?
        var targetName = reference
        if let dot = reference.firstIndex(of: ".") {
            let named = String(reference[..<dot])
            targetName = String(reference[reference.index(after: dot)...])
            if named != service { stepService = named }
        }
        // Another service's target is checked when the services are loaded together.
        let target = stepService == nil ? targets.first { $0.name == targetName } : nil
        if stepService == nil, target == nil {
            reader.error(
                callNode.mark, path + ".call",
                "unknown target '\(targetName)'" + Suggestion.hint(for: targetName, in: targets.map(\.name)))
        }

        var stepScope = scope
        var each: FlowValue?
        if let node = fields["each"] {
            each = flowValue(node, path + ".each")
            if let each {
                checkReferences(each.references, in: scope, mark: node.mark, path + ".each")
                if case .value(let value) = each, !value.isArray {
                    reader.error(node.mark, path + ".each", "expected a sequence of rows or \"{variable}\"")
                }
            }
            stepScope.defined.insert("item")
        }
        var skip: FlowCondition?
        if let node = fields["skip"], let text = reader.string(node, path + ".skip") {
            do {
                let condition = try FlowCondition(parsing: text)
                checkReferences(condition.references, in: stepScope, mark: node.mark, path + ".skip")
                skip = condition
            } catch {
                reader.error(node.mark, path + ".skip", "\(error)")
            }
        }

        let arguments = stepArguments(fields, path, target: target, scope: stepScope)
        var sample: String?
        if let node = fields["sample"], let text = reader.string(node, path + ".sample") {
            sample = text
            if let target, target.sample(named: text) == nil {
                let names = target.samples.map(\.name)
                reader.error(
                    node.mark, path + ".sample",
                    "unknown sample '\(text)'"
                        + (names.isEmpty ? "; the target has no named samples" : Suggestion.hint(for: text, in: names)))
            }
        }
        let assertions = stepAssertions(fields["expect"], path, key: "expect", scope: stepScope)

        var retry: PollSpec?
        if let node = fields["retry"] { retry = poll(node, path + ".retry") }
        let until = stepAssertions(fields["until"], path, key: "until", scope: stepScope)
        if fields["until"] != nil, retry == nil {
            reader.error(
                fields["until"]?.mark ?? fields.mark, path + ".until",
                "'until' needs 'retry', such as retry: { every: 500ms, for: 30s }")
        }
        if fields["retry"] != nil, fields["until"] == nil {
            reader.error(
                fields["retry"]?.mark ?? fields.mark, path + ".retry",
                "'retry' polls until a condition holds; add 'until' with what to wait for")
        }

        var captures: [CaptureSpec] = []
        if let node = fields["capture"], let entries = reader.fields(node, path + ".capture", known: nil) {
            for entry in entries {
                let capturePath = path + ".capture." + entry.key
                if !ParamSpec.isValidParamName(entry.key) {
                    reader.error(entry.mark, capturePath, "\"\(entry.key)\" is not a valid variable name")
                    continue
                }
                if let capture = capture(entry.key, entry.value, capturePath, mark: entry.mark) {
                    captures.append(capture)
                }
            }
        }
        for capture in captures { scope.defined.insert(capture.name) }

        var name = targetName
        if let node = fields["name"], let text = reader.string(node, path + ".name") { name = text }
        var step = FlowStep(
            name: name, service: stepService, target: targetName, arguments: arguments, sample: sample,
            assertions: assertions, captures: captures, until: until, retry: retry, each: each, skip: skip,
            mark: node.mark)
        step.pages = fields["pages"].flatMap {
            pageCount($0, path + ".pages", target: targetName, paginated: target.map { $0.pagination != nil })
        }
        return step
    }

    /// A step's `params`: each a param of its target, written as a flow value whose variables
    /// are defined; every required param of the target given.
    private mutating func stepArguments(
        _ fields: SpecReader.Fields, _ path: String, target: TargetSpec?, scope stepScope: FlowScope
    ) -> [(name: String, value: FlowValue)] {
        var arguments: [(name: String, value: FlowValue)] = []
        var given: Set<String> = []
        if let node = fields["params"], let entries = reader.fields(node, path + ".params", known: nil) {
            for entry in entries {
                let paramPath = path + ".params." + entry.key
                given.insert(entry.key)
                if let target, target.param(named: entry.key) == nil {
                    let names = target.params.map(\.name)
                    reader.error(
                        entry.mark, paramPath,
                        "unknown param '\(entry.key)'"
                            + (names.isEmpty
                                ? "; the target takes no params" : Suggestion.hint(for: entry.key, in: names)))
                    continue
                }
                guard let value = flowValue(entry.value, paramPath) else { continue }
                checkReferences(value.references, in: stepScope, mark: entry.value.mark, paramPath)
                arguments.append((entry.key, value))
            }
        }
        if let target {
            for param in target.params where param.isRequired && !given.contains(param.name) {
                reader.error(
                    fields["params"]?.mark ?? fields.mark, path + ".params",
                    "the step does not give required param '\(param.name)'")
            }
        }
        return arguments
    }

    /// `expect` or `until`, with the key paths failures name starting there, and the variables
    /// in expected values checked.
    private mutating func stepAssertions(_ node: YAMLNode?, _ path: String, key: String, scope: FlowScope)
        -> [Assertion]
    {
        guard let node else { return [] }
        return expect(node, path + "." + key, variables: true).map { assertion in
            var short = assertion
            short.keyPath = String(assertion.keyPath.dropFirst(path.count + 1))
            let references = assertion.predicate.expectedStrings.flatMap { VariableTemplate($0).references }
            checkReferences(references, in: scope, mark: assertion.mark, path + "." + short.keyPath)
            return short
        }
    }

    private mutating func capture(_ name: String, _ node: YAMLNode, _ path: String, mark: Mark) -> CaptureSpec? {
        if case .scalar = node.content {
            guard let text = reader.string(node, path) else { return nil }
            guard let jsonPath = jsonPath(text, node.mark, path) else { return nil }
            return CaptureSpec(
                name: name, source: .json(jsonPath), pattern: nil, isSecret: false, isOptional: false, mark: mark)
        }
        guard let fields = reader.fields(node, path, known: Self.captureKeys) else { return nil }
        var sources: [CaptureSpec.Source] = []
        if let node = fields["json"], let text = reader.string(node, path + ".json"),
            let jsonPath = jsonPath(text, node.mark, path + ".json")
        {
            sources.append(.json(jsonPath))
        }
        if let node = fields["header"], let text = reader.string(node, path + ".header") {
            sources.append(.header(text))
        }
        if let node = fields["cookie"], let text = reader.string(node, path + ".cookie") {
            sources.append(.cookie(text))
        }
        for (key, source) in [("status", CaptureSpec.Source.status), ("body", .body), ("duration", .duration)] {
            if let node = fields[key], reader.bool(node, path + "." + key) == true { sources.append(source) }
        }
        var pattern: RegularExpression?
        if let node = fields["regex"], let text = reader.string(node, path + ".regex") {
            do throws(RegularExpression.SyntaxError) {
                pattern = try RegularExpression(text)
            } catch {
                reader.error(node.mark, path + ".regex", "'\(text)' is not a valid regular expression: \(error)")
            }
        }
        if sources.isEmpty, pattern != nil { sources.append(.body) }
        guard sources.count == 1, let source = sources.first else {
            reader.error(
                fields.mark, path,
                sources.isEmpty
                    ? "a capture needs a source: a JSON path, header, status, body, regex, cookie or duration"
                    : "a capture reads one source; it has \(sources.count)")
            return nil
        }
        switch source {
        case .body, .header: break
        default:
            if pattern != nil { reader.error(fields.mark, path + ".regex", "'regex' applies to the body or a header") }
        }
        let isSecret = fields["secret"].flatMap { reader.bool($0, path + ".secret") } ?? false
        let isOptional = fields["optional"].flatMap { reader.bool($0, path + ".optional") } ?? false
        return CaptureSpec(
            name: name, source: source, pattern: pattern, isSecret: isSecret, isOptional: isOptional, mark: mark)
    }

    /// `text` as a JSON path, or an error at `mark` saying why it is not one.
    mutating func jsonPath(_ text: String, _ mark: Mark, _ path: String) -> JSONPath? {
        do {
            return try JSONPath(parsing: text)
        } catch {
            reader.error(mark, path, "bad JSON path '\(text)': \(error)")
            return nil
        }
    }

    private mutating func poll(_ node: YAMLNode, _ path: String) -> PollSpec? {
        guard let fields = reader.fields(node, path, known: Self.retryKeys) else { return nil }
        guard let everyNode = fields["every"], let interval = duration(everyNode, path + ".every") else {
            if fields["every"] == nil {
                reader.error(fields.mark, path + ".every", "required key is missing; say how often, such as every: 1s")
            }
            return nil
        }
        let timeLimit = fields["for"].flatMap { duration($0, path + ".for") }
        // Both become sleeps and deadlines, so both stay within a week.
        for (key, value) in [("every", interval), ("for", timeLimit)] {
            if let value, !Seconds.isValidTimeout(value), let node = fields[key] {
                reader.error(node.mark, path + "." + key, "expected at most \(Int(Seconds.maximum)) s (a week)")
            }
        }
        var attempts: Int?
        if let node = fields["times"], let count = reader.integer(node, path + ".times") {
            if (1...10_000).contains(count) {
                attempts = count
            } else {
                reader.error(node.mark, path + ".times", "expected 1 to 10000 attempts, got \(count)")
            }
        }
        if timeLimit == nil, attempts == nil, fields["for"] == nil, fields["times"] == nil {
            reader.error(fields.mark, path, "say how long to poll: 'for: 30s' or 'times: 10'")
            return nil
        }
        return PollSpec(interval: interval, timeLimit: timeLimit, attempts: attempts)
    }

    /// A value that may use variables: strings with references become templates, YAML's plain
    /// scalars keep their types, and sequences and mappings nest.
    mutating func flowValue(_ node: YAMLNode, _ path: String) -> FlowValue? {
        switch node.content {
        case .scalar(let text, _):
            if let plain = YAMLScalar.plainValue(node) { return .value(plain) }
            let keeps = reader.keepsReferencesApart
            reader.keepsReferencesApart = true
            defer { reader.keepsReferencesApart = keeps }
            guard let pieces = reader.pieces(text, node.mark, path) else { return nil }
            let template = VariableTemplate(pieces: pieces)
            if !pieces.contains(where: { if case .environment = $0 { true } else { false } }),
                template.references.isEmpty
            {
                return .value(.string(pieces.map(\.specText).joined()))
            }
            return .template(template)
        case .sequence(let items):
            var values: [FlowValue] = []
            for (index, item) in items.enumerated() {
                guard let value = flowValue(item, "\(path)[\(index)]") else { return nil }
                values.append(value)
            }
            return .array(values)
        case .mapping:
            if let name = SpecReader.unquotedReference(node) {
                reader.unquotedReferenceError(node, name, path, what: "variable")
                return nil
            }
            guard let fields = reader.fields(node, path, known: nil) else { return nil }
            var members: [FlowValue.Member] = []
            for entry in fields {
                guard let value = flowValue(entry.value, path + "." + entry.key) else { return nil }
                members.append(FlowValue.Member(key: entry.key, value: value))
            }
            return .object(members)
        }
    }

    /// Reports each reference to a variable nothing sets before this point.
    private mutating func checkReferences(
        _ references: [VariableTemplate.Reference], in scope: FlowScope, mark: Mark, _ path: String
    ) {
        for reference in references where !scope.defines(reference.name) {
            if reference.isBuiltIn {
                reader.error(
                    mark, path,
                    "unknown built-in '{\(reference.name)}'; the built-ins are "
                        + VariableTemplate.Reference.builtIns.map { "{\($0)}" }.joined(separator: ", "))
            } else {
                reader.error(
                    mark, path,
                    "variable '\(reference.name)' is not set by vars or an earlier step's capture"
                        + Suggestion.hint(for: reference.name, in: scope.defined.sorted()))
            }
        }
    }
}

/// The variables known at a point of a flow.
struct FlowScope {
    var defined: Set<String>

    func defines(_ name: String) -> Bool {
        defined.contains(name) || VariableTemplate.Reference.builtIns.contains(name)
    }
}

extension JSONValue {
    var isArray: Bool {
        if case .array = self { return true }
        return false
    }
}
