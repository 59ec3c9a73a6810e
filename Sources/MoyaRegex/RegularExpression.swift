/// A regular expression in ECMA-262's syntax (JSON Schema's `pattern` dialect), compiled once
/// and matched without a clock: the one regex service of checks' `matches:`, flow captures,
/// JSON Schema's `pattern` and `patternProperties`, JSONPath's `match` and `search`, and
/// import's pattern examples.
///
/// A pattern without back-references or lookaround runs as a Pike VM (`PikeVM`), in time
/// linear in the text: `^(a+)+$` cannot backtrack, so it needs no budget and never fails because
/// the machine is busy. Only a pattern with back-references or lookaround backtracks, under a
/// budget of steps (`stepLimit(forLength:)`) that gives the same answer idle or loaded. Matching
/// runs on the caller's thread, which it never leaves.
public struct RegularExpression: Sendable, Hashable, CustomStringConvertible {
    /// The most instructions a program may have, counted repetitions expanded.
    public static let maximumProgram = 20_000
    /// The most a counted repetition may say: `{0,1000}`.
    public static let maximumCount = 1_000
    /// How deeply groups may nest.
    public static let maximumDepth = 64

    /// The pattern as written.
    public let source: String
    let program: PatternProgram

    /// Why a pattern could not be compiled.
    public struct SyntaxError: Error, Sendable, CustomStringConvertible {
        /// What is wrong, and where: "an unclosed '(' at offset 3".
        public var description: String
    }

    /// A backtracking match that ran out of steps.
    public struct BudgetExceeded: Error, Sendable, CustomStringConvertible {
        /// The pattern as written.
        public var pattern: String
        /// The budget it ran out of.
        public var steps: Int
        public var description: String {
            "the pattern /\(pattern)/ backtracks past \(steps) steps on this value; simplify it"
        }
    }

    /// One match's groups: the whole match first, then each group, nil for one that took no
    /// part.
    public struct Match: Sendable, Hashable {
        public var groups: [Substring?]
    }

    public init(_ source: String) throws(SyntaxError) {
        var parser = PatternParser(source)
        let tree = try parser.parse()
        var compiler = PatternCompiler(parser: parser)
        program = try compiler.compile(tree)
        self.source = source
    }

    /// Whether matching may backtrack, and so spend its budget: the pattern has
    /// back-references or lookaround.
    public var backtracks: Bool { program.backtracks }

    public var description: String { source }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.source == rhs.source }
    public func hash(into hasher: inout Hasher) { hasher.combine(source) }

    /// The steps a backtracking match may take on a text of `length` scalars: a million, and a
    /// hundred more per scalar, so that a long text can be searched at every start.
    public static func stepLimit(forLength length: Int) -> Int {
        1_000_000 + 100 * length
    }

    /// Whether the pattern matches somewhere in `text`.
    public func matches(in text: String) throws(BudgetExceeded) -> Bool {
        try slots(in: text, mode: .search, captures: false) != nil
    }

    /// Whether the pattern matches the whole of `text`.
    public func matchesWhole(_ text: String) throws(BudgetExceeded) -> Bool {
        try slots(in: text, mode: .whole, captures: false) != nil
    }

    /// The first match in `text`, as a backtracking engine would choose it; nil when none.
    public func firstMatch(in text: String) throws(BudgetExceeded) -> Match? {
        guard let slots = try slots(in: text, mode: .search, captures: true) else { return nil }
        let scalars = text.unicodeScalars
        var groups: [Substring?] = []
        for group in 0..<(slots.count / 2) {
            let from = slots[2 * group]
            let to = slots[2 * group + 1]
            guard from >= 0, to >= from,
                let start = scalars.index(scalars.startIndex, offsetBy: from, limitedBy: scalars.endIndex),
                let end = scalars.index(start, offsetBy: to - from, limitedBy: scalars.endIndex)
            else {
                groups.append(nil)
                continue
            }
            groups.append(Substring(scalars[start..<end]))
        }
        return Match(groups: groups)
    }

    /// Whether the pattern matches somewhere in `text` (or, with `whole`, all of it) within
    /// `budget` steps of work, which it spends: a caller's budget for a larger piece of work
    /// (a JSONPath selection) counts the match's steps too. Nil once the budget is spent.
    public func matches(in text: String, whole: Bool = false, spending budget: inout Int) -> Bool? {
        let mode: PikeVM.Mode = whole ? .whole : .search
        guard program.backtracks else {
            let found = PikeVM(program: program).run(text.unicodeScalars, mode: mode, captures: false, budget: &budget)
            return budget < 0 ? nil : found != nil
        }
        let scalars = Array(text.unicodeScalars)
        var backtracker = Backtracker(
            program: program, text: scalars, limit: min(max(budget, 0), Self.stepLimit(forLength: scalars.count)))
        do throws(BudgetExceeded) {
            let found = try backtracker.run(mode: mode)
            budget -= backtracker.steps
            return found != nil
        } catch {
            budget = -1
            return nil
        }
    }

    private func slots(in text: String, mode: PikeVM.Mode, captures: Bool) throws(BudgetExceeded) -> [Int]? {
        guard program.backtracks else {
            return PikeVM(program: program).run(text.unicodeScalars, mode: mode, captures: captures)
        }
        let scalars = Array(text.unicodeScalars)
        var backtracker = Backtracker(
            program: program, text: scalars, limit: Self.stepLimit(forLength: scalars.count))
        do throws(BudgetExceeded) {
            return try backtracker.run(mode: mode)
        } catch {
            throw BudgetExceeded(pattern: source, steps: error.steps)
        }
    }
}
