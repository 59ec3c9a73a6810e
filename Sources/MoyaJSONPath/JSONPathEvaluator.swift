import MoyaJSON

/// Applies a parsed `JSONPath` to a document, with RFC 9535's semantics for each selector,
/// comparison and function.
final class JSONPathEvaluator {
    typealias Segment = JSONPath.Segment
    typealias Expression = JSONPath.FilterExpression

    private let root: JSONValue
    /// Patterns compiled, by their text: the path's literal ones, then those read from the
    /// document during this evaluation; nil for one that is not an I-Regexp.
    private var patterns: [String: IRegexp?]

    /// The most steps of work this evaluation may take (see `JSONPath.values(in:budget:)`).
    private let budget: Int
    /// The steps taken so far.
    private var work = 0

    init(root: JSONValue, patterns: [String: IRegexp?] = [:], budget: Int = .max) {
        self.root = root
        self.patterns = patterns
        self.budget = budget
    }

    /// Whether the evaluation stopped at its budget; what it selected is then incomplete.
    var isOverBudget: Bool { work > budget }

    /// Counts `steps` of work; false once the budget is spent.
    private func spend(_ steps: Int) -> Bool {
        work = work > budget - steps ? budget &+ 1 : work + steps
        return work <= budget
    }

    /// The nodes `segments` reach from `nodes`.
    func select(_ segments: [Segment], from nodes: [JSONValue]) -> [JSONValue] {
        var current = nodes
        for segment in segments {
            var next: [JSONValue] = []
            for node in current {
                guard spend(1) else { return [] }
                if segment.isDescendant {
                    for descendant in descendants(of: node) {
                        apply(segment.selectors, to: descendant, into: &next)
                        guard !isOverBudget else { return [] }
                    }
                } else {
                    apply(segment.selectors, to: node, into: &next)
                }
            }
            guard spend(next.count) else { return [] }
            current = next
        }
        return current
    }

    /// The node and every node under it, parents before children, in document order; built
    /// with a stack, so a deep document cannot exhaust the call stack. Each node is a step.
    func descendants(of node: JSONValue) -> [JSONValue] {
        var result: [JSONValue] = []
        var stack = [node]
        while let next = stack.popLast() {
            guard spend(1) else { return [] }
            result.append(next)
            stack += Self.children(of: next).reversed()
        }
        return result
    }

    static func children(of node: JSONValue) -> [JSONValue] {
        switch node {
        case .array(let items): items
        case .object(let members): members.map(\.value)
        default: []
        }
    }

    private func apply(_ selectors: [JSONPath.Selector], to node: JSONValue, into result: inout [JSONValue]) {
        for selector in selectors {
            switch (selector, node) {
            case (.name(let name), .object(let members)):
                if let member = members.first(where: { $0.key == name }) { result.append(member.value) }
            case (.wildcard, _):
                result += Self.children(of: node)
            case (.index(let index), .array(let items)):
                let resolved = index < 0 ? items.count + index : index
                if items.indices.contains(resolved) { result.append(items[resolved]) }
            case (.slice(let start, let end, let step), .array(let items)):
                for index in Self.sliceIndices(start: start, end: end, step: step, count: items.count) {
                    result.append(items[index])
                }
            case (.filter(let expression), _):
                for child in Self.children(of: node) {
                    guard spend(1) else { return }
                    if test(expression, current: child) { result.append(child) }
                }
            default:
                break
            }
        }
    }

    /// The indices `start:end:step` selects from an array of `count` elements (RFC 9535 2.3.4.2).
    static func sliceIndices(start: Int?, end: Int?, step: Int?, count: Int) -> [Int] {
        let step = step ?? 1
        guard step != 0 else { return [] }
        func normalized(_ index: Int) -> Int { index >= 0 ? index : count + index }
        var indices: [Int] = []
        if step > 0 {
            let lower = min(max(normalized(start ?? 0), 0), count)
            let upper = min(max(normalized(end ?? count), 0), count)
            var index = lower
            while index < upper {
                indices.append(index)
                index += step
            }
        } else {
            let upper = min(max(start.map(normalized) ?? count - 1, -1), count - 1)
            let lower = min(max(end.map(normalized) ?? -count - 1, -1), count - 1)
            var index = upper
            while lower < index {
                indices.append(index)
                index += step
            }
        }
        return indices
    }

    // MARK: - Filters

    private func test(_ expression: Expression, current: JSONValue) -> Bool {
        switch expression {
        case .literal: false
        case .query(let query): !nodes(query, current: current).isEmpty
        case .function(let function, let arguments):
            switch function {
            case .match, .search: matches(function, arguments, current: current)
            case .length, .count, .value: false
            }
        case .not(let inner): !test(inner, current: current)
        case .and(let left, let right): test(left, current: current) && test(right, current: current)
        case .or(let left, let right): test(left, current: current) || test(right, current: current)
        case .compare(let comparison, let left, let right):
            Self.compare(comparison, value(left, current: current), value(right, current: current))
        }
    }

    private func nodes(_ query: JSONPath.Query, current: JSONValue) -> [JSONValue] {
        select(query.segments, from: [query.isRelative ? current : root])
    }

    /// The value an expression gives, or nil for RFC 9535's "Nothing".
    private func value(_ expression: Expression, current: JSONValue) -> JSONValue? {
        switch expression {
        case .literal(let literal):
            return literal
        case .query(let query):
            let found = nodes(query, current: current)
            return found.count == 1 ? found[0] : nil
        case .function(.length, let arguments):
            switch arguments.first.flatMap({ value($0, current: current) }) {
            case .string(let string): return .integer(string.unicodeScalars.count)
            case .array(let items): return .integer(items.count)
            case .object(let members): return .integer(members.count)
            default: return nil
            }
        case .function(.count, let arguments):
            guard case .query(let query) = arguments.first else { return nil }
            return .integer(nodes(query, current: current).count)
        case .function(.value, let arguments):
            guard case .query(let query) = arguments.first else { return nil }
            let found = nodes(query, current: current)
            return found.count == 1 ? found[0] : nil
        default:
            return nil
        }
    }

    private func matches(_ function: JSONPath.FilterFunction, _ arguments: [Expression], current: JSONValue) -> Bool {
        guard arguments.count == 2,
            case .string(let subject) = value(arguments[0], current: current),
            case .string(let pattern) = value(arguments[1], current: current)
        else { return false }
        let regexp: IRegexp?
        if let cached = patterns[pattern] {
            regexp = cached
        } else {
            regexp = try? IRegexp(pattern)
            patterns[pattern] = regexp
        }
        guard let regexp, spend(1) else { return false }
        // The match spends the selection's own budget, step for step.
        var left = budget - work
        let found = regexp.matches(subject, whole: function == .match, spending: &left)
        work = found == nil ? budget &+ 1 : budget - left
        return found ?? false
    }

    // MARK: - Comparisons

    /// RFC 9535 2.3.5.2.2: Nothing equals only Nothing; `<` holds only between two numbers or two
    /// strings; the other operators derive from `==` and `<`.
    static func compare(_ comparison: JSONPath.ComparisonOperator, _ left: JSONValue?, _ right: JSONValue?) -> Bool {
        switch comparison {
        case .equal: equal(left, right)
        case .notEqual: !equal(left, right)
        case .less: less(left, right)
        case .greater: less(right, left)
        case .lessOrEqual: less(left, right) || equal(left, right)
        case .greaterOrEqual: less(right, left) || equal(left, right)
        }
    }

    private static func equal(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
        switch (left, right) {
        case (nil, nil): return true
        case (let left?, let right?): return equal(left, right)
        default: return false
        }
    }

    /// Deep equality in which object members compare regardless of order. Documents come from the
    /// depth-limited parser, so the recursion is bounded.
    static func equal(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { member in
                b.first(where: { $0.key == member.key }).map { equal(member.value, $0.value) } ?? false
            }
        case (.integer(let a), .integer(let b)): return a == b
        case (.integer, .number), (.number, .integer), (.number, .number):
            return number(left) == number(right)
        default:
            return left == right
        }
    }

    private static func less(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
        switch (left, right) {
        case (.integer(let a)?, .integer(let b)?): a < b
        case (.string(let a)?, .string(let b)?): a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
        case (let a?, let b?): number(a).flatMap { a in number(b).map { a < $0 } } ?? false
        default: false
        }
    }

    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .integer(let integer): Double(integer)
        case .number(let number): number
        default: nil
        }
    }
}
