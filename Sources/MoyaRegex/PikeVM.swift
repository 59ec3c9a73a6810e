/// Runs a program that needs no backtracking as a Pike VM: every thread of the program advances
/// together, one scalar at a time, each instruction at most once per position. The work is the
/// text's length times the program's, whatever the pattern and the text, and the text is read
/// once, front to back. Threads are kept in priority order, so the match it reports, and its
/// groups, are the ones a backtracking engine would report.
struct PikeVM {
    let program: PatternProgram

    /// Whether a match must start at the text's start and end at its end.
    enum Mode {
        case search
        case whole
    }

    /// The capture slots of the preferred match; an empty array when `captures` is false and
    /// some match exists; nil when none does.
    func run(_ text: String.UnicodeScalarView, mode: Mode, captures: Bool) -> [Int]? {
        var unlimited = Int.max
        return run(text, mode: mode, captures: captures, budget: &unlimited)
    }

    /// As `run(_:mode:captures:)`, spending a step of `budget` for each thread added and each
    /// run at a position; stops with nil once it is spent (below zero).
    func run(_ text: String.UnicodeScalarView, mode: Mode, captures: Bool, budget: inout Int) -> [Int]? {
        let code = program.instructions
        var current = ThreadList(capacity: code.count, captures: captures)
        var next = ThreadList(capacity: code.count, captures: captures)
        var stack: [(pc: Int, slots: [Int])] = []
        let initial = captures ? [Int](repeating: -1, count: program.slotCount) : []
        let startsOnce = mode == .whole || program.isAnchored
        var matched: [Int]?
        var previous: Unicode.Scalar?
        var index = text.startIndex
        var position = 0
        var scalar: Unicode.Scalar? = index < text.endIndex ? text[index] : nil
        while true {
            if matched == nil, position == 0 || !startsOnce {
                let here = Context(position: position, before: previous, after: scalar)
                add(0, initial, here, to: &current, stack: &stack, budget: &budget)
            }
            budget = budget > Int.min + current.count ? budget - current.count : Int.min
            if budget < 0 { return nil }
            if current.count == 0, matched != nil || startsOnce { break }
            let nextIndex = scalar == nil ? index : text.index(after: index)
            let following: Unicode.Scalar? = nextIndex < text.endIndex ? text[nextIndex] : nil
            let there = Context(position: position + 1, before: scalar, after: following)
            next.clear()
            states: for state in 0..<current.count {
                let pc = current.pcs[state]
                switch code[pc] {
                case .match:
                    if mode == .whole, scalar != nil { continue }
                    guard captures else { return [] }
                    matched = current.slots[state]
                    // Threads after this one are less preferred than its match.
                    break states
                case .scalar(let set):
                    guard let scalar, set.contains(scalar) else { continue }
                    add(
                        pc + 1, captures ? current.slots[state] : initial, there, to: &next, stack: &stack,
                        budget: &budget)
                default:
                    continue
                }
            }
            guard scalar != nil else { break }
            swap(&current, &next)
            previous = scalar
            scalar = following
            index = nextIndex
            position += 1
        }
        return matched
    }

    /// Where the zero-width instructions are asked: a position and the scalars around it.
    struct Context {
        let position: Int
        let before: Unicode.Scalar?
        let after: Unicode.Scalar?
    }

    /// Adds the thread at `pc`, and the threads its jumps, splits, saves and assertions lead
    /// to, in priority order, without recursion.
    private func add(
        _ pc: Int, _ slots: [Int], _ context: Context, to list: inout ThreadList,
        stack: inout [(pc: Int, slots: [Int])], budget: inout Int
    ) {
        let code = program.instructions
        stack.append((pc, slots))
        while let (pc, slots) = stack.popLast() {
            guard list.insert(pc, slots: slots) else { continue }
            if budget > Int.min { budget -= 1 }
            switch code[pc] {
            case .jump(let target): stack.append((target, slots))
            case .split(let first, let second):
                stack.append((second, slots))
                stack.append((first, slots))
            case .start: if context.position == 0 { stack.append((pc + 1, slots)) }
            case .end: if context.after == nil { stack.append((pc + 1, slots)) }
            case .wordBoundary(let negated):
                let before = context.before.map(ScalarSet.isWord) ?? false
                let after = context.after.map(ScalarSet.isWord) ?? false
                if (before != after) != negated { stack.append((pc + 1, slots)) }
            case .save(let slot):
                var saved = slots
                if saved.indices.contains(slot) { saved[slot] = context.position }
                stack.append((pc + 1, saved))
            case .loopStart, .loopProgress:
                // The visited set already stops a loop on nothing.
                stack.append((pc + 1, slots))
            case .scalar, .match, .backReference, .look:
                break
            }
        }
    }
}

/// The threads of one position, each instruction once, in a sparse set: clearing is constant
/// time. With captures, each thread keeps its slots.
private struct ThreadList {
    private(set) var pcs: [Int]
    private var sparse: [Int]
    private(set) var slots: [[Int]]
    private(set) var count = 0
    let captures: Bool

    init(capacity: Int, captures: Bool) {
        pcs = [Int](repeating: 0, count: capacity)
        sparse = [Int](repeating: 0, count: capacity)
        slots = captures ? [[Int]](repeating: [], count: capacity) : []
        self.captures = captures
    }

    /// Whether `pc` was new.
    mutating func insert(_ pc: Int, slots threadSlots: [Int]) -> Bool {
        let index = sparse[pc]
        if index < count, pcs[index] == pc { return false }
        sparse[pc] = count
        pcs[count] = pc
        if captures { slots[count] = threadSlots }
        count += 1
        return true
    }

    mutating func clear() {
        count = 0
    }
}
