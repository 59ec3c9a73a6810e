import MoyaHTTP
import MoyaJSONPath
import MoyaSpec

extension WorkflowWriter {
    // MARK: - Criteria

    /// A step's assertions as Arazzo criteria, and those a criterion cannot say exactly as
    /// the `expect` mapping `x-moya` carries (with an approximate criterion, marked
    /// `x-moya-lossy`, where one reads close).
    func criteria(_ assertions: [Assertion]) -> ([JSONValue], [(key: String, value: JSONValue)]) {
        var criteria: [JSONValue] = []
        var lossy: [Assertion] = []
        for assertion in assertions {
            if let exact = criterion(assertion) {
                criteria.append(exact)
            } else {
                lossy.append(assertion)
            }
        }
        return (criteria, lossy.isEmpty ? [] : Self.expectMapping(lossy))
    }

    /// The criterion that says exactly what the assertion does, which import reads back as it.
    func criterion(_ assertion: Assertion) -> JSONValue? {
        func simple(_ condition: String) -> JSONValue { .object([("condition", .string(condition))]) }
        func typed(_ context: String, _ condition: String, _ type: String) -> JSONValue {
            .object([("context", .string(context)), ("condition", .string(condition)), ("type", .string(type))])
        }
        switch (assertion.subject, assertion.predicate) {
        case (.status, .equals(let value)):
            return operand(value).map { simple("$statusCode == " + $0) }
        case (.status, .oneOf(let values)):
            let codes = values.compactMap { value -> String? in
                if case .integer(let code) = value { return "$statusCode == \(code)" }
                return nil
            }
            return codes.count == values.count && codes.count > 1 ? simple(codes.joined(separator: " || ")) : nil
        case (.json(let path), let predicate):
            if case .exists(true) = predicate { return typed("$response.body", path.description, "jsonpath") }
            guard let pointer = Self.pointer(path) else { return nil }
            return comparison(predicate).map { simple("$response.body#" + pointer + " " + $0) }
        case (.header(let name), .matches(let pattern)):
            return typed("$response.header." + name, pattern.source, "regex")
        case (.body, .matches(let pattern)):
            return typed("$response.body", pattern.source, "regex")
        case (.header(let name), let predicate):
            return comparison(predicate, text: true).map { simple("$response.header." + name + " " + $0) }
        case (.body, let predicate):
            return comparison(predicate, text: true).map { simple("$response.body " + $0) }
        default:
            return nil
        }
    }

    /// `== v`, `!= v`, `< n`…, for the predicates import reads back as themselves.
    func comparison(_ predicate: Predicate, text: Bool = false) -> String? {
        switch predicate {
        case .equals(let value):
            if text, case .string = value {} else if text { return nil }
            return operand(value).map { "== " + $0 }
        case .not(.equals(let value)):
            if text, case .string = value {} else if text { return nil }
            return operand(value).map { "!= " + $0 }
        case .compare(let comparison, let bound) where !text:
            let symbol =
                switch comparison {
                case .lt: "<"
                case .le: "<="
                case .gt: ">"
                case .ge: ">="
                }
            return symbol + " " + JSONValue.format(bound)
        default:
            return nil
        }
    }

    /// A literal or a variable as a condition's operand; nil for what one cannot write:
    /// text with a quote, an object, a template with text around its reference.
    func operand(_ value: JSONValue) -> String? {
        switch value {
        case .integer(let int): return String(int)
        case .number(let number): return JSONValue.format(number)
        case .bool(let bool): return bool ? "true" : "false"
        case .null: return "null"
        case .string(let text):
            let template = VariableTemplate(text)
            if let reference = template.wholeReference { return expression(reference) }
            guard template.references.isEmpty, !text.contains("'"), !text.contains("{"), !text.contains("}") else {
                return nil
            }
            return "'" + text + "'"
        case .array, .object:
            return nil
        }
    }

    /// The JSON pointer of a path of names and indices: `$.items[0].id` is `/items/0/id`.
    static func pointer(_ path: JSONPath) -> String? {
        guard let steps = path.singularSteps else { return nil }
        var pointer = ""
        for step in steps {
            switch step {
            case .name(let name):
                // A name that reads as an index would come back as one.
                guard Int(name) == nil else { return nil }
                pointer += "/" + name.replacing("~", with: "~0").replacing("/", with: "~1")
            case .index(let index):
                guard index >= 0 else { return nil }
                pointer += "/\(index)"
            }
        }
        return pointer
    }

    /// Assertions as the spec's `expect` mapping writes them.
    static func expectMapping(_ assertions: [Assertion]) -> [(key: String, value: JSONValue)] {
        var members: [(key: String, value: JSONValue)] = []
        func add(_ key: String, _ value: JSONValue) {
            members.removeAll { $0.key == key }
            members.append((key, value))
        }
        func addInside(_ key: String, _ name: String, _ value: JSONValue) {
            var inner = members.first { $0.key == key }?.value.objectMembers ?? []
            inner.append((name, value))
            add(key, .object(inner))
        }
        for assertion in assertions {
            let predicate = written(assertion.predicate)
            switch assertion.subject {
            case .status:
                if case .oneOf(let values) = assertion.predicate {
                    add("status", .array(values))
                } else {
                    add("status", predicate)
                }
            case .header(let name): addInside("headers", name, predicate)
            case .json(let path): addInside("json", path.description, predicate)
            case .body: add("body", predicate)
            case .time:
                if case .compare(_, let bound) = assertion.predicate { add("maxTime", WorkflowWriter.number(bound)) }
            case .sampleShape: add("matchesSample", .bool(true))
            case .schema(let schema): add("schema", schema?.schema ?? .bool(true))
            case .events(let expectation):
                let matches = { (matches: [EventMatch]) -> JSONValue in
                    .object(matches.map { ($0.path.description, self.written($0.predicate)) })
                }
                switch expectation {
                case .count: addInside("events", "count", predicate)
                case .any(let found): addInside("events", "any", matches(found))
                case .all(let found): addInside("events", "all", matches(found))
                case .last(let found): addInside("events", "last", matches(found))
                case .sequence(let steps): addInside("events", "sequence", .array(steps.map(matches)))
                }
            }
        }
        return members
    }

    /// A predicate as an `expect` value: a plain scalar for equality, else its mapping.
    static func written(_ predicate: Predicate) -> JSONValue {
        switch predicate {
        case .equals(let value):
            switch value {
            case .array, .object, .null: return .object([("equals", value)])
            default: return value
            }
        case .statusClass(let hundreds): return .string("\(hundreds)xx")
        default: return .object(mapping(predicate))
        }
    }

    static func mapping(_ predicate: Predicate) -> [(key: String, value: JSONValue)] {
        switch predicate {
        case .equals(let value): [("equals", value)]
        case .exists(let present): [("exists", .bool(present))]
        case .type(let type): [("type", .string(type.rawValue))]
        case .contains(let value): [("contains", value)]
        case .matches(let pattern): [("matches", .string(pattern.source))]
        case .compare(let comparison, let bound): [(comparison.rawValue, WorkflowWriter.number(bound))]
        case .count(let count): [("count", .integer(count))]
        case .oneOf(let values): [("oneOf", .array(values))]
        case .statusClass(let hundreds): [("equals", .string("\(hundreds)xx"))]
        case .not(let inner): [("not", written(inner))]
        case .all(let predicates): predicates.flatMap(mapping)
        }
    }

    // MARK: - Outputs

    /// Captures as Arazzo outputs, and those an output cannot say exactly (a regex, a
    /// cookie, a secret) as the `capture` mapping `x-moya` carries.
    func outputs(_ captures: [CaptureSpec], step: String) -> (
        [(key: String, value: JSONValue)], [(key: String, value: JSONValue)]
    ) {
        var outputs: [(key: String, value: JSONValue)] = []
        var kept: [(key: String, value: JSONValue)] = []
        for capture in captures {
            let plain = capture.pattern == nil && !capture.isSecret && !capture.isOptional
            switch capture.source {
            case .json(let path) where plain:
                if path.description == "$" {
                    outputs.append((capture.name, .string("$response.body")))
                } else if let pointer = Self.pointer(path) {
                    outputs.append((capture.name, .string("$response.body#" + pointer)))
                } else {
                    outputs.append(
                        (
                            capture.name,
                            .object([
                                ("context", .string("$response.body")), ("selector", .string(path.description)),
                                ("type", .string("jsonpath")),
                            ])
                        ))
                }
            case .header(let name) where plain: outputs.append((capture.name, .string("$response.header." + name)))
            case .status where plain: outputs.append((capture.name, .string("$statusCode")))
            default: kept.append((capture.name, Self.written(capture)))
            }
        }
        // With one capture Arazzo cannot say, `x-moya` keeps them all, in order.
        if !kept.isEmpty { kept = captures.map { ($0.name, Self.written($0)) } }
        return (outputs, kept)
    }

    /// A capture as the spec's `capture` mapping writes it.
    static func written(_ capture: CaptureSpec) -> JSONValue {
        var members: [(key: String, value: JSONValue)]
        switch capture.source {
        case .json(let path): members = [("json", .string(path.description))]
        case .header(let name): members = [("header", .string(name))]
        case .status: members = [("status", .bool(true))]
        case .body: members = [("body", .bool(true))]
        case .cookie(let name): members = [("cookie", .string(name))]
        case .duration: members = [("duration", .bool(true))]
        }
        if let pattern = capture.pattern { members.append(("regex", .string(pattern.source))) }
        if capture.isSecret { members.append(("secret", .bool(true))) }
        if capture.isOptional { members.append(("optional", .bool(true))) }
        return .object(members)
    }
}
