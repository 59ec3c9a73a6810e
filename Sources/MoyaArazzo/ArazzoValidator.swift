import MoyaHTTP
import MoyaJSONPath
import MoyaRegex
import MoyaSchema
import MoyaSpec

/// `moya-cli validate` of an Arazzo document: its version's JSON Schema (moya-cli's, in
/// `schema/arazzo.schema.json`), then what a schema cannot say: ids unique and found, runtime
/// expressions and conditions well-formed, operations found in the source descriptions, and no
/// 1.1 field in a 1.0 document. Each problem is a diagnostic at the value's place.
public struct ArazzoValidator {
    let document: ArazzoDocument
    let sources: [ArazzoSource]
    /// Errors and warnings, in the order found.
    public private(set) var diagnostics: [Diagnostic] = []

    /// The schema, compiled once.
    static let schema: CompiledSchema? = {
        guard let value = try? JSONValue(parsing: ArazzoSchema.text) else { return nil }
        return CompiledSchema(schema: value, uri: ArazzoSchema.id)
    }()

    /// Validates `document`, whose sources are `sources` (`ArazzoSource.load`).
    public init(_ document: ArazzoDocument, sources: [ArazzoSource]) {
        self.document = document
        self.sources = sources
        checkSchema()
        // What follows reads the document's shape, which only a document the schema accepts has.
        guard !diagnostics.contains(where: { $0.severity == .error }) else { return }
        checkVersion()
        checkIds()
        for (index, workflow) in document.workflows.enumerated() {
            check(workflow: workflow, at: [.key("workflows"), .index(index)])
        }
    }

    /// Whether no error was found.
    public var isValid: Bool { !diagnostics.contains { $0.severity == .error } }

    // MARK: - Reporting

    mutating func error(_ steps: [SchemaError.Step], _ message: String) {
        report(steps, message, .error)
    }

    mutating func warning(_ steps: [SchemaError.Step], _ message: String) {
        report(steps, message, .warning)
    }

    private mutating func report(_ steps: [SchemaError.Step], _ message: String, _ severity: Diagnostic.Severity) {
        let diagnostic = Diagnostic(
            file: document.file, mark: document.node(at: steps).mark, keyPath: ArazzoDocument.keyPath(steps),
            message: message, severity: severity)
        if !diagnostics.contains(where: { $0.description == diagnostic.description }) { diagnostics.append(diagnostic) }
    }

    // MARK: - Schema

    private mutating func checkSchema() {
        guard case .object = document.json else {
            error([], "an Arazzo document is a mapping, got \(document.root.kindDescription)")
            return
        }
        guard let schema = Self.schema else {
            error([], "moya-cli's Arazzo schema does not compile; this is a bug")
            return
        }
        var failures = schema.errors(in: document.json, limit: 50)
        // A step that fits none of the three kinds of step is held to the kind its keys name,
        // whose failures say what is wrong.
        failures = failures.flatMap { failure -> [SchemaError] in
            guard failure.keyword == "oneOf", let steps = SchemaError.Step.steps(ofInstancePath: failure.instancePath),
                steps.count == 4, case .key("steps") = steps[2],
                let kind = Self.stepKind(document.json.value(atPath: steps.map(\.token)))
            else { return [failure] }
            let inner = Self.stepSchemas[kind]?.errors(in: document.json.value(atPath: steps.map(\.token)) ?? .null)
            guard let inner, !inner.isEmpty else { return [failure] }
            return inner.map { error in
                var error = error
                error.instancePath = failure.instancePath + error.instancePath.dropFirst()
                return error
            }
        }
        let places = failures.map { SchemaError.Step.steps(ofInstancePath: $0.instancePath) ?? [] }
        for (failure, steps) in zip(failures, places) {
            // A member left unevaluated because a value beside it or inside it failed (a failed
            // `$ref` evaluates nothing) is that failure, said once.
            let parent = Array(steps.dropLast())
            if failure.message == "unexpected property",
                zip(failures, places).contains(where: { other, place in
                    other.message != "unexpected property" && place.count >= parent.count
                        && Array(place.prefix(parent.count)) == parent
                })
            {
                continue
            }
            var message = failure.message
            if failure.keyword == "oneOf", steps.count == 4, case .key("steps") = steps[2] {
                message =
                    switch Self.stepKind(document.json.value(atPath: steps.map(\.token))) {
                    case "asyncStep": "an AsyncAPI step names exactly one of operationId and channelPath"
                    case "operationStep": "a step names exactly one of operationId, operationPath and workflowId"
                    default: message
                    }
            }
            if let missing = failure.missingMember { message = "'\(missing)' is required" }
            error(steps, message)
        }
    }

    /// The kind of step its keys name: a workflow's, an AsyncAPI operation's (`action` or
    /// `channelPath`) or an OpenAPI operation's.
    static func stepKind(_ step: JSONValue?) -> String? {
        guard case .object = step else { return nil }
        if step?["workflowId"] != nil { return "workflowStep" }
        if step?["action"] != nil || step?["channelPath"] != nil { return "asyncStep" }
        return "operationStep"
    }

    /// Each kind of step's schema, for a step that fits none.
    static let stepSchemas: [String: CompiledSchema] = {
        guard let value = try? JSONValue(parsing: ArazzoSchema.text) else { return [:] }
        var schemas: [String: CompiledSchema] = [:]
        for kind in ["workflowStep", "asyncStep", "operationStep"] {
            schemas[kind] = CompiledSchema(
                schema: .object([(key: "$ref", value: .string(ArazzoSchema.id + "#/$defs/" + kind))]),
                uri: "urn:moya-cli:arazzo-step",
                documents: [.init(uri: ArazzoSchema.id, value: value, dialect: .draft2020_12)])
        }
        return schemas
    }()

    // MARK: - Version

    /// What 1.1 added: a 1.0 document may not use it.
    private mutating func checkVersion() {
        guard document.version == "1.0" else { return }
        func added(_ steps: [SchemaError.Step], _ what: String) {
            error(steps, "\(what) is new in Arazzo 1.1; this document is \(document.json["arazzo"]?.text ?? "1.0")")
        }
        if document.json["$self"] != nil { added([.key("$self")], "'$self'") }
        for (index, source) in document.sources.enumerated() where source["type"]?.stringValue == "asyncapi" {
            added([.key("sourceDescriptions"), .index(index), .key("type")], "an asyncapi source")
        }
        for (w, workflow) in document.workflows.enumerated() {
            guard case .array(let steps)? = workflow["steps"] else { continue }
            for (s, step) in steps.enumerated() {
                let at: [SchemaError.Step] = [.key("workflows"), .index(w), .key("steps"), .index(s)]
                for key in ["timeout", "channelPath", "action", "correlationId", "dependsOn"] where step[key] != nil {
                    added(at + [.key(key)], "a step's '\(key)'")
                }
                guard case .array(let parameters)? = step["parameters"] else { continue }
                for (p, parameter) in parameters.enumerated() {
                    if let place = parameter["in"]?.stringValue, place == "querystring" || place == "channel" {
                        added(at + [.key("parameters"), .index(p), .key("in")], "'in: \(place)'")
                    }
                    if case .object? = parameter["value"] {
                        added(at + [.key("parameters"), .index(p), .key("value")], "a selector object")
                    }
                }
            }
        }
    }

    // MARK: - Ids

    private mutating func checkIds() {
        var names: Set<String> = []
        for (index, source) in document.sources.enumerated() {
            if let name = source["name"]?.stringValue, !names.insert(name).inserted {
                error([.key("sourceDescriptions"), .index(index), .key("name")], "'\(name)' names another source too")
            }
        }
        var ids: Set<String> = []
        for (index, workflow) in document.workflows.enumerated() {
            if let id = workflow["workflowId"]?.stringValue, !ids.insert(id).inserted {
                error([.key("workflows"), .index(index), .key("workflowId")], "'\(id)' is another workflow's id too")
            }
        }
        for source in sources where source.problem != nil && source.type == "openapi" {
            guard let index = document.sources.firstIndex(where: { $0["name"]?.stringValue == source.name }) else {
                continue
            }
            warning(
                [.key("sourceDescriptions"), .index(index), .key("url")],
                (source.problem ?? "") + "; its operations are not checked")
        }
    }

    var workflowIds: [String] { document.workflows.compactMap { $0["workflowId"]?.stringValue } }

    // MARK: - Workflows

    /// What a workflow's expressions may name.
    struct Scope {
        var stepIds: [String]
        /// Each step's declared outputs.
        var outputs: [String: [String]]
        /// The inputs its schema declares, nil when that is not known.
        var inputs: [String]?
    }

    private mutating func check(workflow: JSONValue, at path: [SchemaError.Step]) {
        guard case .array(let steps)? = workflow["steps"] else { return }
        var stepIds: [String] = []
        var outputs: [String: [String]] = [:]
        for (index, step) in steps.enumerated() {
            guard let id = step["stepId"]?.stringValue else { continue }
            if stepIds.contains(id) {
                error(path + [.key("steps"), .index(index), .key("stepId")], "'\(id)' is another step's id too")
            }
            stepIds.append(id)
            if case .object(let members)? = step["outputs"] { outputs[id] = members.map(\.key) }
        }
        let scope = Scope(stepIds: stepIds, outputs: outputs, inputs: inputNames(workflow["inputs"], at: path))
        if case .array(let depends)? = workflow["dependsOn"] {
            for (index, item) in depends.enumerated() {
                guard let id = item.stringValue else { continue }
                if !id.hasPrefix("$"), !workflowIds.contains(id) {
                    error(
                        path + [.key("dependsOn"), .index(index)],
                        "no workflow has the id '\(id)'" + Suggestion.hint(for: id, in: workflowIds))
                } else if id.hasPrefix("$") {
                    expression(id, at: path + [.key("dependsOn"), .index(index)], scope: scope)
                }
            }
        }
        parameters(workflow["parameters"], at: path + [.key("parameters")], scope: scope, operation: nil)
        actions(workflow["successActions"], at: path + [.key("successActions")], scope: scope, kind: "successActions")
        actions(workflow["failureActions"], at: path + [.key("failureActions")], scope: scope, kind: "failureActions")
        outputsOf(workflow["outputs"], at: path + [.key("outputs")], scope: scope)
        for (index, step) in steps.enumerated() {
            check(step: step, at: path + [.key("steps"), .index(index)], scope: scope)
        }
    }

    /// The names an inputs schema declares: its `properties`, through a `$ref` to
    /// `#/components/inputs/NAME`, which must be there.
    private mutating func inputNames(_ inputs: JSONValue?, at path: [SchemaError.Step]) -> [String]? {
        guard var inputs else { return [] }
        if let reference = inputs["$ref"]?.stringValue {
            guard reference.hasPrefix("#/"),
                let found = document.json.value(
                    atPath: RuntimeExpression.tokens(ofPointer: String(reference.dropFirst())))
            else {
                if reference.hasPrefix("#/") {
                    error(path + [.key("inputs"), .key("$ref")], "'\(reference)' is not in this document")
                }
                return nil
            }
            inputs = found
        }
        guard case .object(let properties)? = inputs["properties"] else { return nil }
        return properties.map(\.key)
    }

    private mutating func check(step: JSONValue, at path: [SchemaError.Step], scope: Scope) {
        var operation: ArazzoSource.Operation?
        if let id = step["operationId"]?.stringValue, step["action"] == nil {
            operation = self.operation(id: id, at: path + [.key("operationId")])
        }
        if let reference = step["operationPath"]?.stringValue {
            operation = self.operation(path: reference, at: path + [.key("operationPath")])
        }
        if let id = step["workflowId"]?.stringValue {
            workflowReference(id, at: path + [.key("workflowId")], scope: scope)
        }
        if case .array(let depends)? = step["dependsOn"] {
            for (index, item) in depends.enumerated() {
                guard let id = item.stringValue, !id.hasPrefix("$") else { continue }
                if !scope.stepIds.contains(id) {
                    error(
                        path + [.key("dependsOn"), .index(index)],
                        "no step of this workflow has the id '\(id)'" + Suggestion.hint(for: id, in: scope.stepIds))
                }
            }
        }
        parameters(step["parameters"], at: path + [.key("parameters")], scope: scope, operation: operation)
        if let body = step["requestBody"] {
            if let payload = body["payload"] {
                values(payload, at: path + [.key("requestBody"), .key("payload")], scope)
            }
            if case .array(let replacements)? = body["replacements"] {
                for (index, replacement) in replacements.enumerated() {
                    let at = path + [.key("requestBody"), .key("replacements"), .index(index)]
                    if let value = replacement["value"] { values(value, at: at + [.key("value")], scope) }
                }
            }
        }
        criteria(step["successCriteria"], at: path + [.key("successCriteria")], scope: scope)
        actions(step["onSuccess"], at: path + [.key("onSuccess")], scope: scope, kind: "successActions")
        actions(step["onFailure"], at: path + [.key("onFailure")], scope: scope, kind: "failureActions")
        outputsOf(step["outputs"], at: path + [.key("outputs")], scope: scope)
    }

    // MARK: - Operations

    private var openAPISources: [ArazzoSource] { sources.filter { $0.type == "openapi" } }

    private mutating func operation(id: String, at path: [SchemaError.Step]) -> ArazzoSource.Operation? {
        var candidates = openAPISources
        var name = id
        if id.hasPrefix("$sourceDescriptions.") {
            guard case .source(let sourceName, let rest)? = try? RuntimeExpression(parsing: id), !rest.isEmpty else {
                error(path, "'\(id)' is not $sourceDescriptions.NAME.OPERATION_ID")
                return nil
            }
            guard let source = source(named: sourceName, at: path) else { return nil }
            candidates = [source]
            name = rest
        } else if openAPISources.count > 1 {
            warning(path, "with more than one source description, name the source: $sourceDescriptions.NAME.\(id)")
        }
        let read = candidates.filter { $0.problem == nil }
        guard read.count == candidates.count, !read.isEmpty else { return nil }
        if let found = read.lazy.compactMap({ $0.operation(id: name) }).first { return found }
        // `source.operationId`, as Redocly's respect reads it: taken, with a warning.
        if !id.hasPrefix("$"), let (sourceName, rest) = ArazzoSource.sourcePrefixed(id, among: read.map(\.name)),
            let source = read.first(where: { $0.name == sourceName }), let found = source.operation(id: rest)
        {
            warning(
                path,
                "'\(id)' is read as $sourceDescriptions.\(source.name).\(rest), the form Arazzo defines; write it so")
            return found
        }
        let known = read.flatMap { $0.operations.compactMap(\.operationId) }
        // A name that differs only in case is taken, with a warning: Arazzo's own examples
        // write `PAR` for `Par`.
        if let near = known.first(where: { $0.lowercased() == name.lowercased() }) {
            warning(path, "no operation has the operationId '\(name)'; '\(near)', which differs only in case, is taken")
            return read.lazy.compactMap({ $0.operation(id: near) }).first
        }
        error(
            path,
            "no operation has the operationId '\(name)' in \(read.map { "'\($0.name)'" }.joined(separator: ", "))"
                + Suggestion.hint(for: name, in: known))
        return nil
    }

    private mutating func operation(path reference: String, at path: [SchemaError.Step]) -> ArazzoSource.Operation? {
        // The schema takes any string; one that names no source and pointer is a warning.
        guard let (name, pointer) = ArazzoSource.operationPath(reference) else {
            warning(
                path,
                "'\(reference)' is not {$sourceDescriptions.NAME.url}#/paths/…, a source and a JSON pointer; "
                    + "no operation is found for it")
            return nil
        }
        do throws(RuntimeExpressionError) {
            try RuntimeExpression.checkPointer(pointer)
        } catch {
            self.error(path, error.description)
            return nil
        }
        guard let source = source(named: name, at: path) else { return nil }
        guard source.problem == nil else { return nil }
        guard let operation = source.operation(pointer: pointer) else {
            error(path, "#\(pointer) is not an operation of '\(name)'")
            return nil
        }
        return operation
    }

    /// The source named so; one whose name differs only in case is taken with a warning.
    private mutating func source(named name: String, at path: [SchemaError.Step]) -> ArazzoSource? {
        if let source = sources.first(where: { $0.name == name }) { return source }
        if let source = sources.first(where: { $0.name.lowercased() == name.lowercased() }) {
            warning(
                path, "no source description is named '\(name)'; '\(source.name)', which differs only in case, is taken"
            )
            return source
        }
        error(path, "no source description is named '\(name)'" + Suggestion.hint(for: name, in: sources.map(\.name)))
        return nil
    }

    private mutating func workflowReference(_ id: String, at path: [SchemaError.Step], scope: Scope) {
        if id.hasPrefix("$") {
            expression(id, at: path, scope: scope)
        } else if !workflowIds.contains(id) {
            error(path, "no workflow has the id '\(id)'" + Suggestion.hint(for: id, in: workflowIds))
        }
    }

    // MARK: - Parameters, values and outputs

    private mutating func parameters(
        _ list: JSONValue?, at path: [SchemaError.Step], scope: Scope, operation: ArazzoSource.Operation?
    ) {
        guard case .array(let items)? = list else { return }
        for (index, item) in items.enumerated() {
            let at = path + [.index(index)]
            if let reference = item["reference"]?.stringValue {
                component(reference, kind: "parameters", at: at + [.key("reference")])
            }
            if let value = item["value"] { values(value, at: at + [.key("value")], scope) }
            if let operation, let name = item["name"]?.stringValue, let place = item["in"]?.stringValue,
                !operation.parameters.contains(.init(name: name, location: place))
            {
                warning(
                    at + [.key("name")],
                    "operation \(operation.operationId ?? operation.pointer) declares no \(place) parameter '\(name)'"
                        + Suggestion.hint(
                            for: name, in: operation.parameters.filter { $0.location == place }.map(\.name)))
            }
        }
    }

    /// A `$components.KIND.NAME` reference that must be in the document.
    private mutating func component(_ reference: String, kind: String, at path: [SchemaError.Step]) {
        guard case .component(let found, let name)? = try? RuntimeExpression(parsing: reference), found == kind
        else {
            error(path, "'\(reference)' is not $components.\(kind).NAME")
            return
        }
        guard case .object(let members)? = document.json["components"]?[kind],
            members.contains(where: { $0.key == name })
        else {
            let known: [String] =
                if case .object(let members)? = document.json["components"]?[kind] { members.map(\.key) } else { [] }
            error(path, "components.\(kind) has no '\(name)'" + Suggestion.hint(for: name, in: known))
            return
        }
    }

    /// The runtime expressions a value holds: a string that is one, and those a string embeds
    /// as `{$…}`, in a value of any depth.
    private mutating func values(_ value: JSONValue, at path: [SchemaError.Step], _ scope: Scope) {
        switch value {
        case .string(let text):
            if Self.readsAsExpression(text) {
                expression(text, at: path, scope: scope)
            } else if text.contains("{$") {
                do throws(RuntimeExpressionError) {
                    for case .expression(let expression) in try RuntimeExpression.embedded(in: text) {
                        names(expression, at: path, scope: scope)
                    }
                } catch {
                    self.error(path, error.description)
                }
            }
        case .array(let items):
            for (index, item) in items.enumerated() { values(item, at: path + [.index(index)], scope) }
        case .object(let members):
            if members.contains(where: { $0.key == "context" }), members.contains(where: { $0.key == "selector" }) {
                selector(value, at: path, scope: scope)
                return
            }
            for member in members { values(member.value, at: path + [.key(member.key)], scope) }
        default:
            break
        }
    }

    /// Whether a string value is a runtime expression rather than text that starts with `$`:
    /// it begins with one of the expressions' names, or with a word and a dot.
    public static func readsAsExpression(_ text: String) -> Bool {
        guard text.hasPrefix("$") else { return false }
        let head = text.dropFirst().prefix { $0 != "." && $0 != "#" }
        if [
            "url", "method", "statusCode", "request", "response", "inputs", "outputs", "steps", "workflows",
            "sourceDescriptions", "components", "self", "message",
        ].contains(String(head)) {
            return true
        }
        // A misspelt one (`$reqest.body`) is one too, to be refused; `$5 off` is text.
        return !head.isEmpty && head.allSatisfy { $0.isASCII && $0.isLetter }
            && text.dropFirst(head.count + 1).hasPrefix(".")
    }

    private mutating func outputsOf(_ outputs: JSONValue?, at path: [SchemaError.Step], scope: Scope) {
        guard case .object(let members)? = outputs else { return }
        for member in members {
            switch member.value {
            case .string(let text): expression(text, at: path + [.key(member.key)], scope: scope)
            default: selector(member.value, at: path + [.key(member.key)], scope: scope)
            }
        }
    }

    private mutating func selector(_ value: JSONValue, at path: [SchemaError.Step], scope: Scope) {
        if let context = value["context"]?.stringValue {
            expression(context, at: path + [.key("context")], scope: scope)
        }
        guard let selector = value["selector"]?.stringValue else { return }
        let type = value["type"]?.stringValue ?? value["type"]?["type"]?.stringValue
        language(selector, type: type, at: path + [.key("selector")])
    }

    /// A JSONPath, JSON pointer or regular expression is read as moya-cli will run it; XPath
    /// is not checked.
    private mutating func language(_ text: String, type: String?, at path: [SchemaError.Step]) {
        switch type {
        case "jsonpath":
            do throws(RuntimeExpressionError) {
                _ = try ArazzoPathCondition(parsing: text)
            } catch {
                self.error(path, "'\(text)': \(error)")
            }
        case "jsonpointer":
            do throws(RuntimeExpressionError) {
                try RuntimeExpression.checkPointer(text)
            } catch {
                self.error(path, error.description)
            }
        case "regex":
            do { _ = try RegularExpression(text) } catch { self.error(path, "\(error)") }
        case "xpath":
            warning(path, "moya-cli does not read XPath; this expression is not checked")
        default:
            break
        }
    }

    // MARK: - Expressions

    private mutating func expression(_ text: String, at path: [SchemaError.Step], scope: Scope) {
        do throws(RuntimeExpressionError) {
            let (expression, correction) = try RuntimeExpression.lenient(text)
            if let correction { warning(path, "'\(text)' is " + correction) }
            names(expression, at: path, scope: scope)
        } catch {
            self.error(path, "'\(text)': \(error)")
        }
    }

    /// What an expression names is there (warnings: a step or an output it cannot find has no
    /// value), a workflow, a source, a component, a declared input.
    private mutating func names(_ expression: RuntimeExpression, at path: [SchemaError.Step], scope: Scope) {
        switch expression {
        case .step(let id, let output, _):
            // The schema takes any step's id in an expression, and the specification's own
            // schema tests pass one no workflow has: it has no value, as a missing output has none.
            guard scope.stepIds.contains(id) else {
                warning(
                    path,
                    "no step of this workflow has the id '\(id)'; the expression has no value"
                        + Suggestion.hint(for: id, in: scope.stepIds))
                return
            }
            if let output, let declared = scope.outputs[id], !declared.contains(output) {
                warning(path, "step '\(id)' declares no output '\(output)'")
            } else if let output, scope.outputs[id] == nil {
                warning(path, "step '\(id)' declares no output '\(output)'")
            }
        case .inputs(let written, _):
            // `$inputs.customer.firstName` reaches inside the input `customer`.
            let name = String(written.prefix { $0 != "." })
            if let inputs = scope.inputs, !inputs.contains(name) {
                warning(path, "the workflow's inputs declare no '\(name)'" + Suggestion.hint(for: name, in: inputs))
            }
        case .workflow(let id, _):
            if !workflowIds.contains(id) {
                error(path, "no workflow has the id '\(id)'" + Suggestion.hint(for: id, in: workflowIds))
            }
        case .source(let name, _):
            _ = source(named: name, at: path)
        case .component(let kind, _):
            if !["parameters", "inputs", "successActions", "failureActions"].contains(kind) {
                error(path, "'\(kind)' is not a kind of component")
            } else {
                component(expression.description, kind: kind, at: path)
            }
        case .plain, .exchange, .outputs:
            break
        }
    }

    // MARK: - Criteria and actions

    private mutating func criteria(_ list: JSONValue?, at path: [SchemaError.Step], scope: Scope) {
        guard case .array(let items)? = list else { return }
        for (index, item) in items.enumerated() {
            let at = path + [.index(index)]
            guard let condition = item["condition"]?.stringValue else { continue }
            if let context = item["context"]?.stringValue {
                expression(context, at: at + [.key("context")], scope: scope)
            }
            let type = item["type"]?.stringValue ?? item["type"]?["type"]?.stringValue ?? "simple"
            guard type == "simple" else {
                language(condition, type: type, at: at + [.key("condition")])
                continue
            }
            do throws(RuntimeExpressionError) {
                for expression in try ArazzoCondition(parsing: condition).expressions {
                    names(expression, at: at + [.key("condition")], scope: scope)
                }
            } catch {
                self.error(at + [.key("condition")], "'\(condition)': \(error)")
            }
        }
    }

    private mutating func actions(_ list: JSONValue?, at path: [SchemaError.Step], scope: Scope, kind: String) {
        guard case .array(let items)? = list else { return }
        for (index, item) in items.enumerated() {
            let at = path + [.index(index)]
            if let reference = item["reference"]?.stringValue {
                component(reference, kind: kind, at: at + [.key("reference")])
                continue
            }
            if let step = item["stepId"]?.stringValue, !scope.stepIds.contains(step) {
                error(
                    at + [.key("stepId")],
                    "no step of this workflow has the id '\(step)'" + Suggestion.hint(for: step, in: scope.stepIds))
            }
            if let workflow = item["workflowId"]?.stringValue {
                workflowReference(workflow, at: at + [.key("workflowId")], scope: scope)
            }
            parameters(item["parameters"], at: at + [.key("parameters")], scope: scope, operation: nil)
            criteria(item["criteria"], at: at + [.key("criteria")], scope: scope)
        }
    }
}

extension SchemaError.Step {
    /// The step as a JSON pointer's token.
    var token: String {
        switch self {
        case .key(let key): key
        case .index(let index): String(index)
        }
    }
}
