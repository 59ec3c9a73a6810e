/// A pattern compiled to instructions, which both matchers run: the Pike VM (`PikeVM`) when no
/// instruction needs backtracking, the budgeted backtracker (`Backtracker`) otherwise.
struct PatternProgram: Sendable {
    enum Instruction: Sendable {
        /// Reads one scalar of the set.
        case scalar(ScalarSet)
        /// Goes on at both, the first preferred.
        case split(Int, Int)
        case jump(Int)
        /// The text's start and end.
        case start
        case end
        case wordBoundary(negated: Bool)
        /// Records the position in a capture slot: `2n` opens group n, `2n + 1` closes it.
        case save(Int)
        /// Reads what group n captured again.
        case backReference(Int)
        /// Lookaround: whether the sub-program `index` matches here (ahead) or up to here
        /// (behind).
        case look(index: Int, behind: Bool, negated: Bool)
        /// Records where an iteration of a loop that can match nothing starts, in a register.
        case loopStart(register: Int)
        /// Fails an iteration that read nothing since its `loopStart`, so that it cannot loop
        /// forever.
        case loopProgress(register: Int)
        case match
    }

    var instructions: [Instruction] = []
    /// The bodies of lookaround, each ending in `match`.
    var lookarounds: [[Instruction]] = []
    /// Capture slots: two per group, group 0 the whole match.
    var slotCount = 2
    var registerCount = 0
    /// Whether a back-reference or lookaround needs the backtracker.
    var backtracks = false
    var caseless = false

    /// Whether the program starts at the text's start only.
    var isAnchored: Bool {
        if case .start? = instructions.dropFirst().first { return true }
        return false
    }
}

/// Turns a tree into a program, counting instructions with repetitions expanded.
struct PatternCompiler {
    let parser: PatternParser
    var program = PatternProgram()
    /// Instructions in lookaround bodies already emitted.
    var lookaroundSize = 0

    init(parser: PatternParser) {
        self.parser = parser
        program.slotCount = 2 * (parser.groupCount + 1)
        program.caseless = parser.caseless
    }

    /// The whole program: group 0 around the tree.
    mutating func compile(_ node: PatternNode) throws(RegularExpression.SyntaxError) -> PatternProgram {
        var main: [PatternProgram.Instruction] = [.save(0)]
        try emit(node, into: &main)
        main.append(.save(1))
        main.append(.match)
        guard main.count + lookaroundSize <= RegularExpression.maximumProgram else {
            throw RegularExpression.SyntaxError(
                description: "the pattern is too large: over \(RegularExpression.maximumProgram) steps")
        }
        program.instructions = main
        return program
    }

    mutating func emit(
        _ node: PatternNode, into code: inout [PatternProgram.Instruction]
    ) throws(RegularExpression.SyntaxError) {
        guard code.count + lookaroundSize <= RegularExpression.maximumProgram else {
            throw RegularExpression.SyntaxError(
                description: "the pattern is too large: over \(RegularExpression.maximumProgram) steps")
        }
        switch node {
        case .empty: break
        case .scalars(let set): code.append(.scalar(set))
        case .start: code.append(.start)
        case .end: code.append(.end)
        case .wordBoundary(let negated): code.append(.wordBoundary(negated: negated))
        case .sequence(let items): for item in items { try emit(item, into: &code) }
        case .group(let inner, let number):
            code.append(.save(2 * number))
            try emit(inner, into: &code)
            code.append(.save(2 * number + 1))
        case .backReference(let group):
            program.backtracks = true
            code.append(.backReference(group))
        case .namedReference(let name):
            program.backtracks = true
            code.append(.backReference(parser.groupNames[name] ?? 0))
        case .look(let inner, let behind, let negated):
            program.backtracks = true
            var body: [PatternProgram.Instruction] = []
            try emit(inner, into: &body)
            body.append(.match)
            lookaroundSize += body.count
            program.lookarounds.append(body)
            code.append(.look(index: program.lookarounds.count - 1, behind: behind, negated: negated))
        case .choice(let branches):
            // split L1, next; L1: branch; jump end; next: split L2, … ; last branch.
            var jumps: [Int] = []
            for (index, branch) in branches.enumerated() {
                if index < branches.count - 1 {
                    let split = code.count
                    code.append(.split(split + 1, 0))
                    try emit(branch, into: &code)
                    jumps.append(code.count)
                    code.append(.jump(0))
                    code[split] = .split(split + 1, code.count)
                } else {
                    try emit(branch, into: &code)
                }
            }
            for jump in jumps { code[jump] = .jump(code.count) }
        case .repeated(let inner, let minimum, let maximum, let lazy):
            for _ in 0..<minimum { try emit(inner, into: &code) }
            if let maximum {
                // Each optional copy: split into it, or past all that follow.
                var splits: [Int] = []
                for _ in minimum..<maximum {
                    splits.append(code.count)
                    code.append(.split(0, 0))
                    try emit(inner, into: &code)
                }
                for split in splits { code[split] = Self.split(into: split + 1, past: code.count, lazy: lazy) }
            } else {
                // loop: split body, out; body; jump loop. A body that can read nothing is
                // stopped from looping on nothing.
                let guarded = inner.matchesEmpty
                let register = program.registerCount
                if guarded { program.registerCount += 1 }
                let loop = code.count
                code.append(.split(0, 0))
                if guarded { code.append(.loopStart(register: register)) }
                try emit(inner, into: &code)
                if guarded { code.append(.loopProgress(register: register)) }
                code.append(.jump(loop))
                code[loop] = Self.split(into: loop + 1, past: code.count, lazy: lazy)
            }
        }
    }

    /// A greedy split prefers another iteration; a lazy one prefers to go on.
    static func split(into body: Int, past end: Int, lazy: Bool) -> PatternProgram.Instruction {
        lazy ? .split(end, body) : .split(body, end)
    }
}
