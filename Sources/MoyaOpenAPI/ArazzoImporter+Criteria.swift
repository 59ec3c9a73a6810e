import MoyaArazzo
import MoyaHTTP
import MoyaSchema
import MoyaSpec

/// A step's `expect`, built from its criteria: the statuses, and a predicate mapping for each
/// header, JSON path and the body.
struct Expectation {
    /// Codes any of which is the status, or a predicate mapping on it.
    var statuses: [JSONValue] = []
    var statusPredicate: [(key: String, value: JSONValue)] = []
    var headers: [(name: String, predicate: [(key: String, value: JSONValue)])] = []
    var json: [(path: String, predicate: [(key: String, value: JSONValue)])] = []
    var body: [(key: String, value: JSONValue)] = []

    /// The subject a criterion looks at.
    enum Subject: Equatable {
        case status
        case header(String)
        case json(String)
        case body
    }

    /// Adds `key: value` to the subject's predicate; false when the predicate already has it
    /// with another value.
    mutating func add(_ subject: Subject, _ key: String, _ value: JSONValue) -> Bool {
        func merge(_ predicate: inout [(key: String, value: JSONValue)]) -> Bool {
            if let existing = predicate.first(where: { $0.key == key }) { return existing.value == value }
            predicate.append((key, value))
            return true
        }
        switch subject {
        case .status:
            if key == "equals", statusPredicate.isEmpty {
                if !statuses.contains(value) { statuses.append(value) }
                return true
            }
            return merge(&statusPredicate)
        case .header(let name):
            if let index = headers.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) {
                return merge(&headers[index].predicate)
            }
            headers.append((name, [(key, value)]))
            return true
        case .json(let path):
            if let index = json.firstIndex(where: { $0.path == path }) { return merge(&json[index].predicate) }
            json.append((path, [(key, value)]))
            return true
        case .body:
            return merge(&body)
        }
    }

    /// A predicate as `expect` writes it: a plain value for equality with a scalar.
    static func written(_ predicate: [(key: String, value: JSONValue)]) -> JSONValue {
        if predicate.count == 1, predicate[0].key == "equals" {
            switch predicate[0].value {
            case .array, .object, .null: break
            default: return predicate[0].value
            }
        }
        return .object(predicate)
    }

    /// The `expect` mapping, nil when there is nothing to expect.
    var value: JSONValue? {
        var members: [(key: String, value: JSONValue)] = []
        if !statusPredicate.isEmpty {
            members.append(("status", .object(statusPredicate)))
        } else if statuses.count == 1 {
            members.append(("status", statuses[0]))
        } else if !statuses.isEmpty {
            members.append(("status", .array(statuses)))
        }
        if !headers.isEmpty {
            members.append(("headers", .object(headers.map { ($0.name, Self.written($0.predicate)) })))
        }
        if !json.isEmpty { members.append(("json", .object(json.map { ($0.path, Self.written($0.predicate)) }))) }
        if !body.isEmpty { members.append(("body", Self.written(body))) }
        return members.isEmpty ? nil : .object(members)
    }
}

extension FlowWriter {
    /// Each criterion as lines of `expect`; one a flow cannot check is a warning.
    mutating func criteria(_ list: JSONValue?, frame: Frame, at path: Path, into expect: inout Expectation) {
        guard case .array(let items)? = list else { return }
        for (index, criterion) in items.enumerated() where criterion["x-moya-lossy"] != .bool(true) {
            let at = path + [.index(index)]
            guard let condition = criterion["condition"]?.stringValue else { continue }
            let type = criterion["type"]?.stringValue ?? criterion["type"]?["type"]?.stringValue ?? "simple"
            let context = criterion["context"]?.stringValue.flatMap { try? RuntimeExpression.lenient($0).expression }
            switch type {
            case "simple":
                guard let parsed = try? ArazzoCondition(parsing: condition) else {
                    warn(at, "'\(condition)' is not a condition; it is left out")
                    continue
                }
                simple(parsed, frame: frame, at: at + [.key("condition")], into: &expect)
            case "regex":
                guard let context, let subject = Self.subject(of: context), subject != .status else {
                    warn(at, "a regex criterion reads a header or the body; this one is left out")
                    continue
                }
                if !expect.add(subject, "matches", .string(condition)) {
                    warn(at, "the step already expects another pattern there; this one is left out")
                }
            case "jsonpath":
                guard case .exchange(true, .body(nil))? = context,
                    let parsed = try? ArazzoPathCondition(parsing: condition)
                else {
                    warn(at, "a jsonpath criterion reads the response body ($response.body); this one is left out")
                    continue
                }
                let subject = Expectation.Subject.json(parsed.path.description)
                let added: Bool
                if let (comparison, literal) = parsed.comparison {
                    added = self.add(comparison, .literal(literal), to: subject, into: &expect, at: at)
                } else {
                    added = expect.add(subject, "exists", .bool(true))
                }
                if !added { warn(at, "the step already expects another value there; this one is left out") }
            default:
                warn(at, "moya-cli reads no \(type) criterion; it is left out")
            }
        }
    }

    /// What part of the response an expression reads, if any.
    static func subject(of expression: RuntimeExpression) -> Expectation.Subject? {
        switch expression {
        case .plain("statusCode"): .status
        case .exchange(true, .header(let name)): .header(name)
        case .exchange(true, .body(nil)): .body
        case .exchange(true, .body(let pointer?)): .json(jsonPath(RuntimeExpression.tokens(ofPointer: pointer)))
        default: nil
        }
    }

    /// A simple condition: `&&` as several lines, `||` of status codes as a list of them.
    mutating func simple(_ condition: ArazzoCondition, frame: Frame, at path: Path, into expect: inout Expectation) {
        switch condition {
        case .and(let left, let right):
            simple(left, frame: frame, at: path, into: &expect)
            simple(right, frame: frame, at: path, into: &expect)
        case .or:
            let codes = Self.statusCodes(condition)
            guard let codes, expect.statusPredicate.isEmpty, expect.statuses.isEmpty else {
                warn(path, "an expect holds every line; an 'or' other than of status codes is left out")
                return
            }
            for code in codes { _ = expect.add(.status, "equals", code) }
        case .compare(let comparison, let left, let right):
            var (comparison, subjectSide, other) = (comparison, left, right)
            if case .expression(let expression) = right, Self.subject(of: expression) != nil,
                !Self.readsResponse(left)
            {
                (subjectSide, other) = (right, left)
                comparison = Self.flipped(comparison)
            }
            guard case .expression(let expression) = subjectSide, let subject = Self.subject(of: expression) else {
                warn(path, "an expect reads the response; a condition on variables alone is left out")
                return
            }
            guard let expected = operand(other, frame: frame, at: path) else { return }
            if !add(comparison, expected, to: subject, into: &expect, at: path) {
                warn(path, "the step already expects another value there; this one is left out")
            }
        case .operand(.expression(let expression)):
            guard let subject = Self.subject(of: expression) else {
                warn(path, "an expect reads the response; a condition on variables alone is left out")
                return
            }
            _ = expect.add(subject, "equals", .bool(true))
        case .operand(.literal), .not:
            warn(path, "a condition with '!' or a lone literal has no place in an expect; it is left out")
        }
    }

    enum Expected {
        case literal(JSONValue)
        case template(JSONValue)
    }

    /// The other side of a comparison as the expected value.
    mutating func operand(_ operand: ArazzoCondition.Operand, frame: Frame, at path: Path) -> Expected? {
        switch operand {
        case .literal(let value): return .literal(value)
        case .expression(let expression):
            guard let value = value(of: expression, frame: frame, at: path) else { return nil }
            return .template(value)
        }
    }

    /// Adds one comparison; false when it clashes with one already there.
    mutating func add(
        _ comparison: ArazzoCondition.Comparison, _ expected: Expected, to subject: Expectation.Subject,
        into expect: inout Expectation, at path: Path
    ) -> Bool {
        let value: JSONValue
        switch expected {
        case .literal(let literal): value = YAMLTemplates.literal(literal)
        case .template(let template): value = template
        }
        switch comparison {
        case .equal: return expect.add(subject, "equals", value)
        case .notEqual: return expect.add(subject, "not", Expectation.written([("equals", value)]))
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard case .literal(let literal) = expected, literal.isNumber else {
                warn(path, "an expect compares with a number; this comparison is left out")
                return true
            }
            let key: String =
                switch comparison {
                case .less: "lt"
                case .lessOrEqual: "le"
                case .greater: "gt"
                default: "ge"
                }
            return expect.add(subject, key, literal)
        }
    }

    static func readsResponse(_ operand: ArazzoCondition.Operand) -> Bool {
        if case .expression(let expression) = operand { return subject(of: expression) != nil }
        return false
    }

    static func flipped(_ comparison: ArazzoCondition.Comparison) -> ArazzoCondition.Comparison {
        switch comparison {
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        case .equal, .notEqual: comparison
        }
    }

    /// The codes of `$statusCode == A || $statusCode == B`, nil for another condition.
    static func statusCodes(_ condition: ArazzoCondition) -> [JSONValue]? {
        switch condition {
        case .or(let left, let right):
            guard let a = statusCodes(left), let b = statusCodes(right) else { return nil }
            return a + b
        case .compare(.equal, .expression(.plain("statusCode")), .literal(let code)),
            .compare(.equal, .literal(let code), .expression(.plain("statusCode"))):
            return [code]
        default:
            return nil
        }
    }

    // MARK: - Actions

    /// A step's and its workflow's actions: a `retry` failure action as `until` and `retry`;
    /// `end` on failure is what a flow does anyway; the rest are warnings.
    mutating func actions(of step: JSONValue, frame: Frame, at path: Path, expect: JSONValue?)
        -> [(key: String, value: JSONValue)]
    {
        var members: [(key: String, value: JSONValue)] = []
        let lists: [(JSONValue?, Path, Bool)] = [
            (step["onSuccess"], path + [.key("onSuccess")], true),
            (step["onFailure"], path + [.key("onFailure")], false),
            (frame.workflow["successActions"], frame.path + [.key("successActions")], true),
            (frame.workflow["failureActions"], frame.path + [.key("failureActions")], false),
        ]
        for (list, at, onSuccess) in lists {
            guard case .array(let items)? = list else { continue }
            for (index, item) in items.enumerated() {
                let here = at + [.index(index)]
                // What `export arazzo` marked as close but not exact is in `x-moya` exactly.
                if item["x-moya-lossy"] == .bool(true) { continue }
                var action = item
                if let reference = item["reference"]?.stringValue {
                    let kind = onSuccess ? "successActions" : "failureActions"
                    guard case .component(kind, let name)? = try? RuntimeExpression(parsing: reference),
                        let found = document.json["components"]?[kind]?[name]
                    else {
                        warn(here, "'\(reference)' is not an action of components; it is left out")
                        continue
                    }
                    action = found
                }
                switch (action["type"]?.stringValue, onSuccess) {
                case ("retry", false):
                    guard members.isEmpty else { continue }
                    let limit = action["retryLimit"].flatMap { if case .integer(let n) = $0 { n } else { nil } } ?? 1
                    let after = action["retryAfter"].flatMap(\.numberValue) ?? 0
                    members.append(("until", expect ?? .object([("status", .string("2xx"))])))
                    members.append(
                        (
                            "retry",
                            .object([("every", .string(JSONValue.format(after) + "s")), ("times", .integer(limit + 1))])
                        ))
                    if action["criteria"] != nil {
                        warn(
                            here + [.key("criteria")],
                            "a flow retries until the step's criteria hold, whatever failed; these criteria are left out"
                        )
                    }
                case ("end", false):
                    break
                case (let type, _):
                    warn(
                        here,
                        "a flow runs its steps in order; the \(onSuccess ? "success" : "failure") action "
                            + "'\(action["name"]?.stringValue ?? type ?? "")' (\(type ?? "?")) is left out")
                }
            }
        }
        return members
    }
}

extension JSONValue {
    var isNumber: Bool {
        switch self {
        case .integer, .number: true
        default: false
        }
    }
}
