import MoyaHTTP
import MoyaSchema

/// What a param's values must meet beyond their type: JSON Schema's bounds, lengths, pattern
/// and format, as a param's long form writes them (`{ type: int, minimum: 1, maximum: 100 }`).
/// One value's rules apply to each item of an array param, whose own are `minItems` and
/// `maxItems`. `call` holds the caller's arguments to them before sending (exit 64), unless
/// `--no-validate-args`; `serve` holds requests to them (400); MCP tools declare them.
public struct ParamRules: Sendable, Hashable {
    /// The keys a param's long form may give, each JSON Schema's keyword of the same name.
    public static let valueKeys = [
        "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength",
        "pattern", "format",
    ]
    public static let arrayKeys = ["minItems", "maxItems", "uniqueItems"]

    /// The rules: keyword and value, bounds first, then lengths, pattern, format and counts.
    public let keywords: [(key: String, value: JSONValue)]
    /// The JSON Schema of a whole value: the rules, an array's value rules under `items`.
    public let schema: JSONValue
    /// The keywords whose values the environment gave (`pattern: "^${PREFIX}"`): held to as
    /// any other, but never shown, since an environment value may be a secret. A violation
    /// names the rule, not its value, and what is declared to others (an MCP tool's schema,
    /// an export) leaves them out.
    public let hiddenKeys: Set<String>
    private let compiled: CompiledSchema

    /// Rules from `keywords` for a param that is an array or not; `hiddenKeys` are those the
    /// environment gave.
    public init(keywords: [(key: String, value: JSONValue)], isArray: Bool, hiddenKeys: Set<String> = []) {
        self.keywords = keywords
        self.hiddenKeys = hiddenKeys
        let value = keywords.filter { Self.valueKeys.contains($0.key) }
        let array = keywords.filter { Self.arrayKeys.contains($0.key) }
        schema =
            isArray ? .object(array + (value.isEmpty ? [] : [(key: "items", value: .object(value))])) : .object(value)
        compiled = CompiledSchema(schema: schema, assertsFormat: true)
    }

    /// Each rule `value` breaks, as one phrase (`expected <= 100, got 500`, `[1]: expected >= 1,
    /// got 0`); empty when it meets them all.
    /// With `showing` false (a secret's value), each names the rule and not the value.
    public func violations(_ value: ParamValue, showing: Bool = true) -> [String] {
        violations(json: value.jsonValue, showing: showing)
    }

    /// Each rule a JSON value breaks, phrased as `violations(_:showing:)` phrases them.
    public func violations(json value: JSONValue, showing: Bool = true) -> [String] {
        compiled.errors(in: value).map { error in
            // An array's item by its index: `item 0: expected >= 0, got -1`.
            let path =
                error.instancePath == "$"
                ? "" : "item " + error.instancePath.dropFirst(2).prefix { $0 != "]" } + ": "
            return path
                + (showing && !hiddenKeys.contains(error.keyword) ? error.message : "breaks its \(error.keyword) rule")
        } + integerViolations(value, showing: showing) + boundViolations(value, showing: showing)
    }

    /// Where an integer past `Int`, which `serve` reads as its digits, is past a bound: a
    /// negative one is below any minimum, a positive one above any maximum. (Only a number
    /// param has bounds, so digits here are an integer's.)
    private func boundViolations(_ value: JSONValue, showing: Bool) -> [String] {
        return Self.items(of: value).compactMap { item in
            let isDigit: (Character) -> Bool = { $0.isASCII && $0.isNumber }
            guard case .string(let digits) = item.value, Int(digits) == nil,
                digits.drop(while: { $0 == "-" || $0 == "+" }).allSatisfy(isDigit), digits.contains(where: isDigit)
            else { return nil }
            let negative = digits.hasPrefix("-")
            let keys = negative ? ["minimum", "exclusiveMinimum"] : ["maximum", "exclusiveMaximum"]
            guard let bound = keywords.first(where: { keys.contains($0.key) }) else { return nil }
            let relation = negative ? (bound.key == "minimum" ? ">=" : ">") : (bound.key == "maximum" ? "<=" : "<")
            return item.prefix
                + (showing
                    ? "expected \(relation) \(bound.value.serialized()), got \(digits)"
                    : "breaks its \(bound.key) rule")
        }
    }

    /// A value's items, each with how a violation names it (`item 0: `), or the value itself.
    private static func items(of value: JSONValue) -> [(prefix: String, value: JSONValue)] {
        guard case .array(let elements) = value else { return [("", value)] }
        return elements.enumerated().map { ("item \($0.offset): ", $0.element) }
    }

    /// OpenAPI's integer formats and the range of each, which an int param's `format` names.
    public static let integerFormats: [String: ClosedRange<Int>] = [
        "int32": Int(Int32.min)...Int(Int32.max), "int64": Int.min...Int.max,
    ]

    /// Where an int's values fall outside its `format`'s range; an integer past `Int` (which
    /// `serve` reads as its digits) is outside both.
    private func integerViolations(_ value: JSONValue, showing: Bool) -> [String] {
        guard case .string(let format)? = keywords.first(where: { $0.key == "format" })?.value,
            let range = Self.integerFormats[format]
        else { return [] }
        func fits(_ item: JSONValue) -> Bool {
            switch item {
            case .integer(let int): range.contains(int)
            case .string(let digits): Int(digits).map(range.contains) ?? false
            default: true
            }
        }
        return Self.items(of: value).filter { !fits($0.value) }.map { item in
            let shown: String = if case .string(let digits) = item.value { digits } else { item.value.serialized() }
            return item.prefix + (showing ? "expected an \(format), got \(shown)" : "breaks its format rule")
        }
    }

    /// A param's type schema (`type`, `items`, …) with these rules added: an array's value
    /// rules in its items' schema. What export and MCP tools declare; never a hidden rule.
    public func adding(to members: [(key: String, value: JSONValue)]) -> [(key: String, value: JSONValue)] {
        var members = members
        guard case .object(let ruled) = schema else { return members }
        for (key, value) in ruled where !hiddenKeys.contains(key) {
            if key == "items", case .object(var itemRules) = value,
                let index = members.firstIndex(where: { $0.key == "items" }),
                case .object(let items) = members[index].value
            {
                itemRules.removeAll { hiddenKeys.contains($0.key) }
                members[index].value = .object(items + itemRules)
            } else {
                members.append((key, value))
            }
        }
        return members
    }

    public static func == (lhs: ParamRules, rhs: ParamRules) -> Bool { lhs.schema == rhs.schema }
    public func hash(into hasher: inout Hasher) { hasher.combine(schema.serialized()) }
}
