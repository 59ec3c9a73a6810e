/// Runs a program with back-references or lookaround, which only backtracking can match, under
/// a budget of steps: one step per instruction run. The budget is a count, not a time, so a
/// pattern gives the same answer on an idle machine and a loaded one, and nothing is left
/// running when it is spent. Backtracking is an explicit stack, not recursion; only lookaround
/// nests, as deeply as the pattern's groups.
struct Backtracker {
    let program: PatternProgram
    let text: [Unicode.Scalar]
    let limit: Int
    private(set) var steps = 0

    init(program: PatternProgram, text: [Unicode.Scalar], limit: Int) {
        self.program = program
        self.text = text
        self.limit = limit
    }

    /// The slots of the first match, trying each start in turn (only the first for `whole`).
    mutating func run(mode: PikeVM.Mode) throws(RegularExpression.BudgetExceeded) -> [Int]? {
        let starts = mode == .whole || program.isAnchored ? 0...0 : 0...text.count
        for start in starts {
            var slots = [Int](repeating: -1, count: program.slotCount)
            var registers = [Int](repeating: -1, count: program.registerCount)
            let end = mode == .whole ? text.count : nil
            if try run(program.instructions, from: start, endingAt: end, slots: &slots, registers: &registers) {
                return slots
            }
        }
        return nil
    }

    private enum Entry {
        case attempt(pc: Int, position: Int)
        case restoreSlot(Int, Int)
        case restoreRegister(Int, Int)
    }

    /// Whether `code` matches from `start` (ending at `end`, when given); on a match, `slots`
    /// hold its groups.
    private mutating func run(
        _ code: [PatternProgram.Instruction], from start: Int, endingAt end: Int?, slots: inout [Int],
        registers: inout [Int]
    ) throws(RegularExpression.BudgetExceeded) -> Bool {
        var stack: [Entry] = [.attempt(pc: 0, position: start)]
        while let entry = stack.popLast() {
            var pc: Int
            var position: Int
            switch entry {
            case .restoreSlot(let slot, let value):
                slots[slot] = value
                continue
            case .restoreRegister(let register, let value):
                registers[register] = value
                continue
            case .attempt(let at, let from):
                pc = at
                position = from
            }
            thread: while true {
                steps += 1
                guard steps <= limit else { throw RegularExpression.BudgetExceeded(pattern: "", steps: limit) }
                switch code[pc] {
                case .scalar(let set):
                    guard position < text.count, set.contains(text[position]) else { break thread }
                    position += 1
                    pc += 1
                case .split(let first, let second):
                    stack.append(.attempt(pc: second, position: position))
                    pc = first
                case .jump(let target):
                    pc = target
                case .start:
                    guard position == 0 else { break thread }
                    pc += 1
                case .end:
                    guard position == text.count else { break thread }
                    pc += 1
                case .wordBoundary(let negated):
                    let before = position > 0 && ScalarSet.isWord(text[position - 1])
                    let after = position < text.count && ScalarSet.isWord(text[position])
                    guard (before != after) != negated else { break thread }
                    pc += 1
                case .save(let slot):
                    stack.append(.restoreSlot(slot, slots[slot]))
                    slots[slot] = position
                    pc += 1
                case .backReference(let group):
                    guard let length = try reads(group: group, at: position, slots: slots) else { break thread }
                    position += length
                    pc += 1
                case .look(let index, let behind, let negated):
                    var inner = slots
                    let found = try look(index, behind: behind, at: position, slots: &inner)
                    guard found != negated else { break thread }
                    // A positive lookaround's groups are kept, and undone on backtracking.
                    if found {
                        for slot in slots.indices where inner[slot] != slots[slot] {
                            stack.append(.restoreSlot(slot, slots[slot]))
                            slots[slot] = inner[slot]
                        }
                    }
                    pc += 1
                case .loopStart(let register):
                    stack.append(.restoreRegister(register, registers[register]))
                    registers[register] = position
                    pc += 1
                case .loopProgress(let register):
                    guard position != registers[register] else { break thread }
                    pc += 1
                case .match:
                    if let end, position != end { break thread }
                    return true
                }
            }
        }
        return false
    }

    /// How many scalars group `group`'s text takes at `position`, when it is there; an unset
    /// group reads nothing.
    private mutating func reads(
        group: Int, at position: Int, slots: [Int]
    ) throws(RegularExpression.BudgetExceeded) -> Int? {
        guard slots.indices.contains(2 * group + 1) else { return 0 }
        let from = slots[2 * group]
        let to = slots[2 * group + 1]
        guard from >= 0, to >= from else { return 0 }
        let length = to - from
        guard position + length <= text.count else { return nil }
        for offset in 0..<length {
            // A long back-reference is as much work as reading its text.
            steps += 1
            guard steps <= limit else { throw RegularExpression.BudgetExceeded(pattern: "", steps: limit) }
            let expected = text[from + offset]
            let actual = text[position + offset]
            guard expected == actual || program.caseless && ScalarSet.simpleForms(of: actual).contains(expected)
            else { return nil }
        }
        return length
    }

    /// Whether lookaround `index` matches from `position` (ahead), or from some start up to it
    /// (behind).
    private mutating func look(
        _ index: Int, behind: Bool, at position: Int, slots: inout [Int]
    ) throws(RegularExpression.BudgetExceeded) -> Bool {
        let code = program.lookarounds[index]
        var registers = [Int](repeating: -1, count: program.registerCount)
        guard behind else {
            return try run(code, from: position, endingAt: nil, slots: &slots, registers: &registers)
        }
        for start in stride(from: position, through: 0, by: -1) {
            var trial = slots
            if try run(code, from: start, endingAt: position, slots: &trial, registers: &registers) {
                slots = trial
                return true
            }
        }
        return false
    }
}
