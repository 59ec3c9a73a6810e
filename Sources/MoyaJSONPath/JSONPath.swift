import MoyaJSON

/// A JSON path as RFC 9535 defines it: name, wildcard, index, slice and filter selectors,
/// descendant segments, and filter expressions with the functions `length`, `count`, `match`,
/// `search` and `value`.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// The segments after `$`.
    /// The literal patterns of its `match` and `search` calls, compiled once, when the path is
    /// read: an evaluation compiles only a pattern it reads from the document.
    let patterns: CompiledPatterns
    var segments: [Segment]
    /// The path as written.
    public var description: String

    /// Whether the path reaches at most one value: it has only name and index selectors, one
    /// per segment, and no descendant segment.
    public var isSingular: Bool { segments.allSatisfy(\.isSingular) }

    /// One step of a path of names and indices.
    public enum Step: Sendable, Hashable {
        case name(String)
        case index(Int)
    }

    /// The steps of a path that is only child names and indices (`$.items[0].id`), nil for
    /// any other.
    public var singularSteps: [Step]? {
        var steps: [Step] = []
        for segment in segments {
            guard !segment.isDescendant, segment.selectors.count == 1 else { return nil }
            switch segment.selectors[0] {
            case .name(let name): steps.append(.name(name))
            case .index(let index): steps.append(.index(index))
            default: return nil
            }
        }
        return steps
    }

    /// Parses a path; the error says what is wrong and where.
    public init(parsing text: String) throws(JSONPathError) {
        var parser = JSONPathParser(text)
        segments = try parser.parseQuery()
        description = text
        patterns = CompiledPatterns(segments)
    }

    /// Every value the path reaches in `root`, in document order; empty when it reaches none.
    /// `match` and `search` run I-Regexp patterns, which cannot backtrack (see `IRegexp`), so
    /// an evaluation is bounded by the document and the path, and needs no budget.
    public func values(in root: JSONValue) -> [JSONValue] {
        JSONPathEvaluator(root: root, patterns: patterns.byText).select(segments, from: [root])
    }

    /// Every value the path reaches in `root`, as `values(in:)` gives them, or nil when that
    /// takes more than `budget` steps of work: a node visited or selected, a filter tested, and
    /// each step of a pattern's match (a thread of the Pike VM at a position: a pattern of many
    /// repetitions over a long string is many steps), one budget for all of it. For a path
    /// from a stranger (an MCP client's `moya.select`), since
    /// nested descendant segments (`$..*..*`) select each node once per ancestor, and each
    /// selected node is printed whole.
    public func values(in root: JSONValue, budget: Int) -> [JSONValue]? {
        let evaluator = JSONPathEvaluator(root: root, patterns: patterns.byText, budget: budget)
        let values = evaluator.select(segments, from: [root])
        return evaluator.isOverBudget ? nil : values
    }
}

extension JSONPath {
    /// One step of a path: selectors applied to each input node, or to each node and all its
    /// descendants.
    struct Segment: Sendable, Hashable {
        /// The selectors, applied in order.
        var selectors: [Selector]
        /// Whether this is a `..` segment.
        var isDescendant: Bool

        /// Whether the segment selects at most one node from each input.
        var isSingular: Bool {
            guard !isDescendant, selectors.count == 1 else { return false }
            switch selectors[0] {
            case .name, .index: return true
            case .wildcard, .slice, .filter: return false
            }
        }
    }

    /// What one selector picks from a node.
    enum Selector: Sendable, Hashable {
        /// An object member by name.
        case name(String)
        /// Every element of an array or member value of an object.
        case wildcard
        /// An array element; negative counts from the end.
        case index(Int)
        /// The array elements `start:end:step`.
        case slice(start: Int?, end: Int?, step: Int?)
        /// The children for which the expression holds.
        case filter(FilterExpression)
    }

    /// A query inside a filter: `@…` from the current node, `$…` from the root.
    struct Query: Sendable, Hashable {
        /// Whether the query starts at `@`.
        var isRelative: Bool
        /// Its segments.
        var segments: [Segment]

        /// Whether it reaches at most one node.
        var isSingular: Bool { segments.allSatisfy(\.isSingular) }
    }

    /// A filter expression, already checked for RFC 9535's well-typedness.
    indirect enum FilterExpression: Sendable, Hashable {
        /// A literal: a number, string, `true`, `false` or `null`.
        case literal(JSONValue)
        /// A query; as a test, it holds when it reaches any node.
        case query(Query)
        /// A function call.
        case function(FilterFunction, [FilterExpression])
        /// `!` applied to a test.
        case not(FilterExpression)
        /// `&&`.
        case and(FilterExpression, FilterExpression)
        /// `||`.
        case or(FilterExpression, FilterExpression)
        /// A comparison of two values.
        case compare(ComparisonOperator, FilterExpression, FilterExpression)
    }

    /// The comparison operators of a filter.
    enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
        /// `==`.
        case equal = "=="
        /// `!=`.
        case notEqual = "!="
        /// `<=`.
        case lessOrEqual = "<="
        /// `>=`.
        case greaterOrEqual = ">="
        /// `<`.
        case less = "<"
        /// `>`.
        case greater = ">"
    }

    /// The function extensions RFC 9535 defines.
    enum FilterFunction: String, Sendable, Hashable {
        /// `length(value)`: characters of a string, elements of an array, members of an object.
        case length
        /// `count(nodes)`: how many nodes a query reaches.
        case count
        /// `match(value, regex)`: the whole string matches an I-Regexp.
        case match
        /// `search(value, regex)`: some substring matches an I-Regexp.
        case search
        /// `value(nodes)`: the value of the only node, or nothing.
        case value

        /// The kinds of the parameters, in order.
        var parameters: [ExpressionKind] {
            switch self {
            case .length: [.value]
            case .count, .value: [.nodes]
            case .match, .search: [.value, .value]
            }
        }

        /// The kind of the result.
        var result: ExpressionKind {
            switch self {
            case .length, .count, .value: .value
            case .match, .search: .logical
            }
        }
    }

    /// RFC 9535's three types of filter expressions.
    enum ExpressionKind: Sendable, Hashable {
        /// A JSON value or nothing.
        case value
        /// A list of nodes.
        case nodes
        /// True or false.
        case logical
    }
}

/// Why a JSON path could not be read.
public struct JSONPathError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}

extension JSONPath {
    /// Each literal pattern of a path's `match` and `search` calls, compiled; nil for one that
    /// is not an I-Regexp. Not part of the path's identity: equal paths compile the same.
    struct CompiledPatterns: Sendable, Hashable {
        let byText: [String: IRegexp?]

        init(_ segments: [Segment]) {
            var found: [String: IRegexp?] = [:]
            var pending = segments.flatMap(\.selectors).compactMap { selector -> FilterExpression? in
                if case .filter(let expression) = selector { return expression }
                return nil
            }
            // A work list, not recursion: the parser bounds how deep expressions nest, but this
            // needs no bound of its own.
            while let expression = pending.popLast() {
                switch expression {
                case .literal: break
                case .query(let query):
                    for case .filter(let inner) in query.segments.flatMap(\.selectors) { pending.append(inner) }
                case .function(let function, let arguments):
                    if function == .match || function == .search, arguments.count == 2,
                        case .literal(.string(let pattern)) = arguments[1], found[pattern] == nil
                    {
                        found[pattern] = .some(try? IRegexp(pattern))
                    }
                    pending += arguments
                case .not(let inner): pending.append(inner)
                case .and(let lhs, let rhs), .or(let lhs, let rhs), .compare(_, let lhs, let rhs):
                    pending += [lhs, rhs]
                }
            }
            byText = found
        }

        static func == (_: CompiledPatterns, _: CompiledPatterns) -> Bool { true }
        func hash(into _: inout Hasher) {}
    }
}
