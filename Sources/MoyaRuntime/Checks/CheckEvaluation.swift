import MoyaHTTP
import MoyaJSONPath
import MoyaSpec
import MoyaYAML

/// An assertion a response did not satisfy.
public struct CheckFailure: Sendable, Hashable {
    /// The spec's key path to the assertion, such as `expect.json.$.id`.
    public var keyPath: String
    /// Where the assertion is written; nil for failures no line of the spec states, such as a
    /// transport error.
    public var mark: Mark?
    /// What was expected and what came, such as `expected 1, got 2`.
    public var message: String

    /// Creates a failure.
    public init(keyPath: String, mark: Mark?, message: String) {
        self.keyPath = keyPath
        self.mark = mark
        self.message = message
    }
}

extension CheckSpec {
    /// Every assertion `response` fails. Without a `status` assertion, the status must pass
    /// `validation`, as in `call`: `passed` says whether it did when the delivery has judged it
    /// already (an `Exchange`'s `passedValidation`). `sample` is the target's JSON sample, for
    /// `matchesSample`.
    /// `redactor` removes secrets from each value the server sent before it is quoted in a
    /// message (text scrubbed, a secret's number masked), so that no escaping added for the
    /// message hides a secret from it.
    public func failures(
        of response: Response, seconds: Double, validation: ValidationType, passed: Bool? = nil,
        sample: JSONValue?, schema targetSchema: SchemaSpec? = nil, redactor: Redactor = Redactor(isEnabled: false),
        streamed: Bool = false
    ) -> [CheckFailure] {
        let scrub = redactor.scrub
        var failures: [CheckFailure] = []
        if !assertsStatus, !(passed ?? validation.accepts(response.statusCode)) {
            failures.append(
                CheckFailure(
                    keyPath: "validation", mark: mark,
                    message: "expected a status that passes \(validation.summary), got \(response.statusCode)"))
        }
        let text = String(decoding: response.data, as: UTF8.self)
        let json = try? JSONValue(parsing: response.data)
        for assertion in assertions {
            let failure = { (message: String) in
                failures.append(CheckFailure(keyPath: assertion.keyPath, mark: assertion.mark, message: message))
            }
            let secret = assertion.expectsSecret
            func check(_ predicate: Predicate, _ value: JSONValue?, textual: Bool, unit: String = "") {
                if let message = Self.failure(
                    of: predicate, for: value, textual: textual, unit: unit, redactor: redactor, secretExpected: secret)
                {
                    failure(message)
                }
            }
            switch assertion.subject {
            case .status:
                check(assertion.predicate, .integer(response.statusCode), textual: false)
            case .header(let name):
                check(assertion.predicate, response.headers[name].map(JSONValue.string), textual: true)
            case .body:
                check(assertion.predicate, .string(text), textual: true)
            case .time:
                check(assertion.predicate, .number(seconds), textual: false, unit: "s")
            case .json(let path):
                guard let json else {
                    failure("expected a JSON body, got \(Self.preview(scrub(text)))")
                    continue
                }
                let values = path.values(in: json)
                guard !path.isSingular else {
                    check(assertion.predicate, values.first, textual: false)
                    continue
                }
                // On a path that reaches several values, `count` counts the values reached, as
                // Hurl's `count` and RFC 9535's `count()` do; any other predicate holds for each.
                let (counted, each) = assertion.predicate.splitForNodeList()
                if let counted, (try? counted.holds(for: .array(values))) != true {
                    failure(
                        "expected \(counted.description), got \(values.count) \(values.count == 1 ? "value" : "values")"
                    )
                }
                guard let each else { continue }
                if values.isEmpty {
                    check(each, nil, textual: false)
                    continue
                }
                for value in values {
                    if let message = Self.failure(
                        of: each, for: value, textual: false, redactor: redactor, secretExpected: secret)
                    {
                        failure(message)
                        break
                    }
                }
            case .schema(let written):
                guard let schema = written ?? targetSchema else {
                    failure("the target has no schema to validate against; give it schema:")
                    continue
                }
                guard let json else {
                    failure("expected a JSON body, got \(Self.preview(scrub(text)))")
                    continue
                }
                // A stream's schema is each event's: every event's data is held to it.
                if streamed, case .array(let events) = json {
                    for (index, event) in events.enumerated() {
                        for error in schema.errors(in: event.value(atPath: ["data"]) ?? .null) {
                            failure("event \(index): " + scrub(error.description))
                        }
                    }
                    continue
                }
                // Each violation is a line of its own, its instance path first.
                for error in schema.errors(in: json) { failure(scrub(error.description)) }
            case .events(let expectation):
                guard streamed, case .array(let events)? = json else {
                    failure("the target's response was not read as a stream; give the target stream:")
                    continue
                }
                if let message = Self.failure(
                    of: expectation, predicate: assertion.predicate, events: events, redactor: redactor)
                {
                    failure(message)
                }
            case .sampleShape:
                guard let sample else {
                    failure("the target has no JSON sample to compare with")
                    continue
                }
                guard let json else {
                    failure("expected a JSON body, got \(Self.preview(scrub(text)))")
                    continue
                }
                for difference in ShapeComparison.differences(expected: sample, actual: json) {
                    failure(scrub(difference))
                }
            }
        }
        return failures
    }

    /// Why a stream's `events` fail `expectation`, or nil when they meet it: the event's index
    /// and the path, as `event 3: $.data.delta: expected string, got null`.
    static func failure(
        of expectation: EventExpectation, predicate: Predicate, events: [JSONValue], redactor: Redactor
    ) -> String? {
        func mismatch(_ matches: [EventMatch], _ event: JSONValue) -> String? {
            for match in matches {
                let values = match.path.values(in: event)
                let reached: [JSONValue?] = match.path.isSingular || values.isEmpty ? [values.first] : values
                for value in reached {
                    if let message = failure(of: match.predicate, for: value, textual: false, redactor: redactor) {
                        return "\(match.path): \(message)"
                    }
                }
            }
            return nil
        }
        func described(_ matches: [EventMatch]) -> String {
            matches.map { "\($0.path): \($0.predicate.description)" }.joined(separator: ", ")
        }
        let count = events.count == 1 ? "1 event" : "\(events.count) events"
        switch expectation {
        case .count:
            return failure(of: predicate, for: .integer(events.count), textual: false).map { "\($0) events" }
        case .any(let matches):
            return events.contains { mismatch(matches, $0) == nil }
                ? nil : "no event of \(count) has \(described(matches))"
        case .all(let matches):
            for (index, event) in events.enumerated() {
                if let message = mismatch(matches, event) { return "event \(index): \(message)" }
            }
            return nil
        case .last(let matches):
            guard let last = events.last else { return "no event came, so there is no last one" }
            return mismatch(matches, last).map { "event \(events.count - 1), the last: \($0)" }
        case .sequence(let steps):
            var step = 0
            var after: Int?
            for (index, event) in events.enumerated() where step < steps.count {
                if mismatch(steps[step], event) == nil {
                    step += 1
                    after = index
                }
            }
            guard step < steps.count else { return nil }
            let place = after.map { "after event \($0)" } ?? "in \(count)"
            return "step \(step) of the sequence (\(described(steps[step]))) did not come \(place)"
        }
    }

    /// Why `value` fails `predicate`, or nil when it holds. The value is the server's, and
    /// scrubbed; the expected side is the spec's, printed as written unless it is a secret.
    static func failure(
        of predicate: Predicate, for value: JSONValue?, textual: Bool, unit: String = "",
        redactor: Redactor = Redactor(isEnabled: false), secretExpected: Bool = false
    ) -> String? {
        do {
            return try predicate.holds(for: value, textual: textual)
                ? nil
                : mismatch(predicate, value.map(redactor.scrubbing), unit: unit, secretExpected: secretExpected)
        } catch {
            return "\(error)"
        }
    }

    static func mismatch(
        _ predicate: Predicate, _ value: JSONValue?, unit: String = "", secretExpected: Bool = false
    ) -> String {
        let actual: String
        switch value {
        case nil: actual = "nothing"
        case .number(let seconds)? where unit == "s": actual = JSONValue.format((seconds * 1000).rounded() / 1000) + "s"
        case let value?: actual = preview(value.serialized(escapeSlashes: false))
        }
        let expected =
            secretExpected ? Redactor.mask : unit == "s" ? predicate.description + unit : predicate.description
        guard let value, actual == expected || (predicate.isCount && !value.isCountable) else {
            return "expected \(expected), got \(actual)"
        }
        // Two texts that read the same differ in type, as 1 and 1.0 do: say which.
        if case .equals(let wanted) = predicate {
            return
                "expected \(expected) (\(JSONType.of(wanted).rawValue)), got \(actual) (\(JSONType.of(value).rawValue))"
        }
        let type = JSONType.of(value).rawValue
        if predicate.isCount {
            return "expected \(expected), got \(actual), \(type == "integer" ? "an" : "a") \(type) with no count"
        }
        return "expected \(expected), got \(actual) (\(type))"
    }

    /// Text shortened to one line of at most 80 characters.
    static func preview(_ text: String) -> String {
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let short = line.count > 80 ? String(line.prefix(77)) + "..." : line
        return short.isEmpty ? "an empty body" : short
    }
}

/// Compares a live JSON document's structure with a sample's, to catch API drift: every
/// member of the sample must be there with the same type; extra members are allowed. Arrays
/// are compared element by element against the sample's first element; a null or empty
/// array in the sample accepts anything.
public enum ShapeComparison {
    /// Each difference, by path: `$.user.id: expected integer, got string`, `$.user.email: missing`.
    public static func differences(expected: JSONValue, actual: JSONValue, path: String = "$") -> [String] {
        switch (expected, actual) {
        case (.null, _):
            return []
        case (.object(let members), .object(let actualMembers)):
            return members.flatMap { member -> [String] in
                let memberPath = path + Self.step(member.key)
                guard let value = actualMembers.first(where: { $0.key == member.key })?.value else {
                    return ["\(memberPath): missing"]
                }
                return differences(expected: member.value, actual: value, path: memberPath)
            }
        case (.array(let items), .array(let actualItems)):
            guard let first = items.first else { return [] }
            return actualItems.enumerated().flatMap { index, item in
                differences(expected: first, actual: item, path: "\(path)[\(index)]")
            }
        default:
            let expectedType = JSONType.of(expected)
            if expectedType.matches(actual) || (expectedType == .number && JSONType.of(actual) == .integer) {
                return []
            }
            return ["\(path): expected \(expectedType.rawValue), got \(JSONType.of(actual).rawValue)"]
        }
    }

    private static func step(_ key: String) -> String {
        let plain = !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
        return plain ? "." + key : "['\(key)']"
    }
}

extension Predicate {
    /// Whether it is `count`, which an array, object or string has.
    var isCount: Bool {
        if case .count = self { return true }
        return false
    }

    /// For a path that reaches several values: the part that counts the values reached, and the
    /// part that each value must pass. `count`, and `not` of one, count; `all` is split.
    func splitForNodeList() -> (counted: Predicate?, each: Predicate?) {
        switch self {
        case .count: return (self, nil)
        case .not(let inner) where inner.splitForNodeList().each == nil: return (self, nil)
        case .all(let predicates):
            let counted = predicates.filter { $0.splitForNodeList().each == nil }
            let each = predicates.filter { $0.splitForNodeList().each != nil }
            return (
                counted.isEmpty ? nil : counted.count == 1 ? counted[0] : .all(counted),
                each.isEmpty ? nil : each.count == 1 ? each[0] : .all(each)
            )
        default: return (nil, self)
        }
    }
}

extension JSONValue {
    /// Whether `count` applies: an array, an object or a string.
    var isCountable: Bool {
        switch self {
        case .array, .object, .string: true
        default: false
        }
    }
}

extension Exchange {
    /// What of `assertions` the response fails, none without one; a failed validation (as the
    /// delivery judged it) is placed at `mark`, the check or step. What the server sent is scrubbed of the exchange's secrets, and an
    /// expected value is masked when the assertion says it is a secret (`expectsSecret`), so
    /// the spec's own literals print as written.
    public func failures(of assertions: [Assertion], mark: Mark) -> [CheckFailure] {
        guard let target, let response else { return [] }
        let check = CheckSpec(name: "", assertions: assertions, mark: mark)
        let needsSample = assertions.contains { $0.subject == .sampleShape }
        let sample = needsSample ? try? JSONValue(parsing: target.sampleData) : nil
        return check.failures(
            of: response, seconds: seconds, validation: target.validationType,
            passed: passedValidation, sample: sample,
            schema: target.responseSchema, redactor: redactor, streamed: streamed)
    }
}
