import MoyaHTTP
import MoyaJSONPath
import MoyaRegex
import MoyaYAML

/// One check of a target: params to call it with, the sample it answers with when stubbed,
/// and what the response must satisfy.
public struct CheckSpec: Sendable {
    /// The check's name, unique within its target.
    public var name: String
    /// Param values, typed as the target declares them.
    public var arguments: [String: ParamValue]
    /// The named sample used when stubbed; nil for the default sample.
    public var sample: String?
    /// What the response must satisfy, in spec order.
    public var assertions: [Assertion]
    /// Where the check was declared.
    public var mark: Mark
    /// The pages it reads, for a paginated target; nil reads the response as it is.
    public var pages: PageCount? = nil
    /// `live: false`: sent only when stubbed, on the samples; a live run skips it unless the
    /// run allows its method (`liveRefusal(method:allowsWrites:allowsDeletes:)`). What
    /// `import openapi` writes on the checks of writes, so that `check` with a real token
    /// changes no data the user did not ask it to.
    public var isLive = true

    /// Why a live run does not send this check of a target sending `method`: it is
    /// `live: false`, and neither the run's flags (`check --allow-writes`, `--allow-deletes`,
    /// as `mcp` names them) nor a read method allows it. Nil when it is sent.
    public func liveRefusal(method: Method, allowsWrites: Bool, allowsDeletes: Bool) -> String? {
        guard !isLive else { return nil }
        if method.isReadOnly { return "live: false: it runs on samples only; --stub runs it" }
        let flag: String
        switch method {
        case .delete:
            if allowsDeletes { return nil }
            flag = "--allow-deletes"
        default:
            if allowsWrites { return nil }
            flag = "--allow-writes"
        }
        return "live: false: it sends \(method.rawValue), which changes data, so it runs on samples only; "
            + "\(flag) sends it live"
    }

    /// Whether an assertion decides the status; otherwise the target's validation does.
    public var assertsStatus: Bool {
        assertions.contains { $0.subject == .status }
    }

    /// Creates a check.
    public init(
        name: String, arguments: [String: ParamValue] = [:], sample: String? = nil, assertions: [Assertion] = [],
        mark: Mark
    ) {
        self.name = name
        self.arguments = arguments
        self.sample = sample
        self.assertions = assertions
        self.mark = mark
    }
}

/// One line of a check's `expect`: a part of the response and what it must satisfy.
public struct Assertion: Sendable {
    /// The part of the response an assertion looks at.
    public enum Subject: Sendable, Hashable {
        /// The status code, as an integer.
        case status
        /// A header's value, or missing.
        case header(String)
        /// The values a JSON path reaches in the body.
        case json(JSONPath)
        /// The body as text.
        case body
        /// The time the request took, in seconds.
        case time
        /// The body's structure against the target's JSON sample.
        case sampleShape
        /// The JSON body against a schema: one written in the expectation, or nil for the
        /// target's (`schema: true`). A stream's events are each held to it.
        case schema(SchemaSpec?)
        /// A stream's events (`expect.events`).
        case events(EventExpectation)
    }

    /// What is looked at.
    public var subject: Subject
    /// What it must satisfy.
    public var predicate: Predicate
    /// The spec's key path to the assertion, such as `expect.json.$.id`.
    public var keyPath: String
    /// Where the assertion is written.
    public var mark: Mark
    /// Whether the expected value holds a secret: it reads the environment, or, in a flow, a
    /// secret variable. A failure prints it as `••••`; the spec's other literals print as
    /// written, even where a secret's value happens to equal them.
    public var expectsSecret = false

    /// Creates an assertion.
    public init(subject: Subject, predicate: Predicate, keyPath: String, mark: Mark) {
        self.subject = subject
        self.predicate = predicate
        self.keyPath = keyPath
        self.mark = mark
    }
}

/// The JSON types a `type:` predicate names.
public enum JSONType: String, Sendable, Hashable, CaseIterable {
    case string, number, integer, bool, array, object, null

    /// Whether `value` has this type; an integer is also a number.
    public func matches(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (.string, .string), (.bool, .bool), (.array, .array), (.object, .object), (.null, .null): true
        case (.integer, .integer), (.number, .integer), (.number, .number): true
        case (.integer, .number(let number)): number.rounded() == number && abs(number) < 9e15
        default: false
        }
    }

    /// The type of `value`, as messages name it.
    public static func of(_ value: JSONValue) -> JSONType {
        switch value {
        case .string: .string
        case .integer: .integer
        case .number: .number
        case .bool: .bool
        case .array: .array
        case .object: .object
        case .null: .null
        }
    }
}

/// A condition on one value: equality, or one of the named predicates.
public indirect enum Predicate: Sendable, Hashable, CustomStringConvertible {
    /// Equal to the value; a string subject compares text.
    case equals(JSONValue)
    /// Present (or, with false, absent).
    case exists(Bool)
    /// Of the type.
    case type(JSONType)
    /// A string containing the text, an array holding the value, or an object with the key.
    case contains(JSONValue)
    /// Text matching the regular expression.
    case matches(RegularExpression)
    /// A number in relation to the bound.
    case compare(Comparison, Double)
    /// An array, object or string with this many elements, members or characters.
    case count(Int)
    /// Equal to one of the values.
    case oneOf([JSONValue])
    /// A status code in the class, such as 2 for `2xx`.
    case statusClass(Int)
    /// The opposite.
    case not(Predicate)
    /// Every one of them.
    case all([Predicate])

    /// `lt`, `le`, `gt` and `ge`.
    public enum Comparison: String, Sendable, Hashable, CaseIterable {
        case lt, le, gt, ge

        var symbol: String {
            switch self {
            case .lt: "<"
            case .le: "<="
            case .gt: ">"
            case .ge: ">="
            }
        }

        func holds(_ value: Double, _ bound: Double) -> Bool {
            switch self {
            case .lt: value < bound
            case .le: value <= bound
            case .gt: value > bound
            case .ge: value >= bound
            }
        }
    }

    /// The predicate as failure messages state it.
    public var description: String {
        switch self {
        case .equals(let value): value.serialized(escapeSlashes: false)
        case .exists(let present): present ? "to exist" : "to be absent"
        case .type(let type): "type \(type.rawValue)"
        case .contains(let value): "to contain \(value.serialized(escapeSlashes: false))"
        case .matches(let pattern): "to match /\(pattern.source)/"
        case .compare(let comparison, let bound): "\(comparison.symbol) \(JSONValue.format(bound))"
        case .count(let count): "count \(count)"
        case .oneOf(let values):
            "one of [\(values.map { $0.serialized(escapeSlashes: false) }.joined(separator: ", "))]"
        case .statusClass(let hundreds): "\(hundreds)xx"
        case .not(let inner): "not \(inner.description)"
        case .all(let predicates): predicates.map(\.description).joined(separator: " and ")
        }
    }

    /// Whether `value` (nil when missing) satisfies the predicate. `textual` subjects, headers
    /// and bodies, compare by text. A backtracking regular expression that runs out of steps
    /// throws.
    public func holds(for value: JSONValue?, textual: Bool = false) throws(RegularExpression.BudgetExceeded) -> Bool {
        switch self {
        case .exists(let present):
            return (value != nil) == present
        case .not(let inner):
            return try !inner.holds(for: value, textual: textual)
        case .all(let predicates):
            for predicate in predicates where try !predicate.holds(for: value, textual: textual) { return false }
            return true
        default:
            break
        }
        guard let value else { return false }
        switch self {
        case .equals(let expected):
            return textual ? value.text == expected.text : value == expected
        case .type(let type):
            return type.matches(value)
        case .contains(let needle):
            switch value {
            case .string(let text): return text.contains(needle.text)
            case .array(let items): return items.contains(needle)
            case .object(let members): return members.contains { $0.key == needle.text }
            default: return false
            }
        case .matches(let pattern):
            return try pattern.matches(in: value.text)
        case .compare(let comparison, let bound):
            guard let number = Self.number(value, textual: textual) else { return false }
            return comparison.holds(number, bound)
        case .count(let expected):
            switch value {
            case .array(let items): return items.count == expected
            case .object(let members): return members.count == expected
            case .string(let text): return text.count == expected
            default: return false
            }
        case .oneOf(let values):
            for candidate in values where try Predicate.equals(candidate).holds(for: value, textual: textual) {
                return true
            }
            return false
        case .statusClass(let hundreds):
            guard case .integer(let code) = value else { return false }
            return code / 100 == hundreds
        case .exists, .not, .all:
            return false
        }
    }

    static func number(_ value: JSONValue, textual: Bool) -> Double? {
        switch value {
        case .integer(let int): Double(int)
        case .number(let number): number
        case .string(let text) where textual: Double(text)
        default: nil
        }
    }
}

extension Predicate {
    /// The strings among the expected values, which in a flow may hold variable references.
    public var expectedStrings: [String] {
        func strings(_ value: JSONValue) -> [String] {
            switch value {
            case .string(let text): [text]
            case .array(let items): items.flatMap(strings)
            case .object(let members): members.flatMap { strings($0.value) }
            default: []
            }
        }
        switch self {
        case .equals(let value), .contains(let value): return strings(value)
        case .oneOf(let values): return values.flatMap(strings)
        case .not(let inner): return inner.expectedStrings
        case .all(let predicates): return predicates.flatMap(\.expectedStrings)
        case .exists, .type, .matches, .compare, .count, .statusClass: return []
        }
    }
}

/// What a stream's events must hold (`expect.events`), each event read as
/// `{"event":…,"id":…,"data":…}` with its data parsed when it is JSON.
public enum EventExpectation: Sendable, Hashable {
    /// How many events came.
    case count
    /// Some event meets every match.
    case any([EventMatch])
    /// Every event meets every match.
    case all([EventMatch])
    /// The last event meets every match.
    case last([EventMatch])
    /// Events meeting each step's matches come in this order, others between them allowed.
    case sequence([[EventMatch]])
}

/// One JSON path of an event and what it must satisfy.
public struct EventMatch: Sendable, Hashable {
    /// The path in the event, such as `$.data.type`.
    public var path: JSONPath
    /// What the values there must satisfy.
    public var predicate: Predicate

    /// A match.
    public init(path: JSONPath, predicate: Predicate) {
        self.path = path
        self.predicate = predicate
    }
}
