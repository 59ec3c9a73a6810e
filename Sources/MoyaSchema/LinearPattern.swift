/// A schema `pattern` (ECMA-262 syntax) compiled to a Thompson NFA and run as a Pike VM: the
/// time to match is the text's length times the program's, whatever the pattern, so no body
/// can make it backtrack, and no thread is ever left running. Patterns that need backtracking
/// (back-references, lookaround, `\b`) are not compiled here: `init` throws, and the schema
/// runs them through Swift's `Regex` under a budget instead.
///
/// What is read: literals and escapes (`\t`, `\n`, `\uXXXX`, `\u{…}`, `\xHH`, escaped
/// punctuation), `.`, classes with ranges and negation, `\d \D \w \W \s \S`, `\p{…}` and `\P{…}`
/// for general categories, `^` and `$` (input start and end, as without ECMA's `m` flag),
/// groups (`( )`, `(?: )`, `(?<name> )`), `|`, and `* + ? {n} {n,} {n,m}`, greedy or lazy: for
/// whether a pattern matches, the two are the same.
struct LinearPattern: Sendable {
    /// Why a pattern is not compiled here.
    struct Unsupported: Error {}

    /// The most instructions a program may have, counted repetitions expanded.
    static let maximumProgram = 20_000
    /// The most a counted repetition may say: `{0,1000}`.
    static let maximumCount = 1_000
    /// How deeply groups may nest.
    static let maximumDepth = 64

    fileprivate enum Instruction: Sendable {
        case scalar(ScalarSet)
        case split(Int, Int)
        case jump(Int)
        case start
        case end
        case match
    }

    private let program: [Instruction]

    init(_ pattern: String) throws(Unsupported) {
        var parser = Parser(scalars: Array(pattern.unicodeScalars))
        let node = try parser.parse()
        var compiler = Compiler()
        try compiler.emit(node)
        compiler.program.append(.match)
        program = compiler.program
    }

    /// Whether the pattern matches somewhere in `text`.
    func matches(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        var current = ThreadList(capacity: program.count)
        var next = ThreadList(capacity: program.count)
        var stack: [Int] = []
        for position in 0...scalars.count {
            // A new attempt starts at every position: the search is unanchored.
            add(0, at: position, count: scalars.count, to: &current, stack: &stack)
            if current.containsMatch { return true }
            guard position < scalars.count else { break }
            let scalar = scalars[position]
            next.clear()
            for pc in current.states {
                if case .scalar(let set) = program[pc], set.contains(scalar) {
                    add(pc + 1, at: position + 1, count: scalars.count, to: &next, stack: &stack)
                }
            }
            swap(&current, &next)
        }
        return current.containsMatch
    }

    /// Adds the thread at `pc`, following jumps, splits and the anchors that hold at
    /// `position`, without recursion.
    private func add(_ pc: Int, at position: Int, count: Int, to list: inout ThreadList, stack: inout [Int]) {
        stack.append(pc)
        while let pc = stack.popLast() {
            guard list.insert(pc) else { continue }
            switch program[pc] {
            case .jump(let target): stack.append(target)
            case .split(let first, let second):
                stack.append(second)
                stack.append(first)
            case .start: if position == 0 { stack.append(pc + 1) }
            case .end: if position == count { stack.append(pc + 1) }
            case .match: list.containsMatch = true
            case .scalar: break
            }
        }
    }
}

/// The states of one step, each once, in a sparse set: clearing is constant time.
private struct ThreadList {
    private var dense: [Int]
    private var sparse: [Int]
    private(set) var count = 0
    var containsMatch = false

    init(capacity: Int) {
        dense = [Int](repeating: 0, count: capacity)
        sparse = [Int](repeating: 0, count: capacity)
    }

    /// Whether `pc` was new.
    mutating func insert(_ pc: Int) -> Bool {
        let index = sparse[pc]
        if index < count, dense[index] == pc { return false }
        sparse[pc] = count
        dense[count] = pc
        count += 1
        return true
    }

    var states: ArraySlice<Int> { dense[..<count] }

    mutating func clear() {
        count = 0
        containsMatch = false
    }
}

/// A set of scalars: ranges, general categories and the built-in classes, perhaps negated.
struct ScalarSet: Sendable {
    enum Item: Sendable {
        case range(UInt32, UInt32)
        case category(Set<Unicode.GeneralCategory>, negated: Bool)
        case set(ScalarSet)
    }

    var items: [Item] = []
    var negated = false

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        var found = false
        for item in items {
            switch item {
            case .range(let low, let high): found = low <= value && value <= high
            case .category(let categories, let negated):
                found = categories.contains(scalar.properties.generalCategory) != negated
            case .set(let set): found = set.contains(scalar)
            }
            if found { break }
        }
        return found != negated
    }

    static func single(_ value: UInt32) -> ScalarSet { ScalarSet(items: [.range(value, value)]) }

    static let digit = ScalarSet(items: [.range(0x30, 0x39)])
    static let word = ScalarSet(items: [.range(0x30, 0x39), .range(0x41, 0x5A), .range(0x61, 0x7A), .range(0x5F, 0x5F)])
    /// ECMA-262's white space and line terminators.
    static let space = ScalarSet(items: [
        .range(0x09, 0x0D), .range(0x20, 0x20), .range(0xA0, 0xA0), .range(0x1680, 0x1680), .range(0x2000, 0x200A),
        .range(0x2028, 0x2029), .range(0x202F, 0x202F), .range(0x205F, 0x205F), .range(0x3000, 0x3000),
        .range(0xFEFF, 0xFEFF),
    ])
    /// `.`: anything but a line terminator.
    static let dot = ScalarSet(
        items: [.range(0x0A, 0x0A), .range(0x0D, 0x0D), .range(0x2028, 0x2029)], negated: true)

    func inverted() -> ScalarSet { ScalarSet(items: [.set(self)], negated: true) }
}

/// A pattern's tree.
private indirect enum Node {
    case empty
    case scalars(ScalarSet)
    case start
    case end
    case sequence([Node])
    case choice([Node])
    case repeated(Node, minimum: Int, maximum: Int?)
}

private struct Parser {
    let scalars: [Unicode.Scalar]
    var position = 0
    var depth = 0

    var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    mutating func parse() throws(LinearPattern.Unsupported) -> Node {
        let node = try choice()
        guard position == scalars.count else { throw LinearPattern.Unsupported() }
        return node
    }

    mutating func choice() throws(LinearPattern.Unsupported) -> Node {
        var branches = [try sequence()]
        while peek == "|" {
            position += 1
            branches.append(try sequence())
        }
        return branches.count == 1 ? branches[0] : .choice(branches)
    }

    mutating func sequence() throws(LinearPattern.Unsupported) -> Node {
        var items: [Node] = []
        while let scalar = peek, scalar != "|", scalar != ")" {
            let atom = try self.atom()
            items.append(try quantified(atom))
        }
        return items.count == 1 ? items[0] : .sequence(items)
    }

    mutating func quantified(_ atom: Node) throws(LinearPattern.Unsupported) -> Node {
        var node = atom
        while let scalar = peek {
            let bounds: (Int, Int?)
            switch scalar {
            case "*": bounds = (0, nil); position += 1
            case "+": bounds = (1, nil); position += 1
            case "?": bounds = (0, 1); position += 1
            case "{":
                guard let counted = try counted() else { return node }
                bounds = counted
            default: return node
            }
            if case .start = node { throw LinearPattern.Unsupported() }
            if case .end = node { throw LinearPattern.Unsupported() }
            // A lazy quantifier matches the same texts.
            if peek == "?" { position += 1 }
            node = .repeated(node, minimum: bounds.0, maximum: bounds.1)
        }
        return node
    }

    /// `{n}`, `{n,}` or `{n,m}`; nil, with nothing read, when the brace is a literal.
    mutating func counted() throws(LinearPattern.Unsupported) -> (Int, Int?)? {
        let saved = position
        position += 1
        guard let minimum = number() else {
            position = saved
            return nil
        }
        var maximum: Int? = minimum
        if peek == "," {
            position += 1
            maximum = number()
        }
        guard peek == "}" else {
            position = saved
            return nil
        }
        position += 1
        if let maximum, maximum < minimum { throw LinearPattern.Unsupported() }
        guard minimum <= LinearPattern.maximumCount, (maximum ?? 0) <= LinearPattern.maximumCount else {
            throw LinearPattern.Unsupported()
        }
        return (minimum, maximum)
    }

    mutating func number() -> Int? {
        var value = 0
        var digits = 0
        while let scalar = peek, ("0"..."9").contains(scalar) {
            value = min(value * 10 + Int(scalar.value - 0x30), LinearPattern.maximumCount + 1)
            digits += 1
            position += 1
        }
        return digits == 0 ? nil : value
    }

    mutating func atom() throws(LinearPattern.Unsupported) -> Node {
        guard let scalar = peek else { throw LinearPattern.Unsupported() }
        position += 1
        switch scalar {
        case "(":
            if peek == "?" {
                // `(?:` and a named group `(?<name>` are groups; lookaround is not compiled.
                position += 1
                if peek == ":" {
                    position += 1
                } else if peek == "<", position + 1 < scalars.count, scalars[position + 1] != "=",
                    scalars[position + 1] != "!"
                {
                    while let next = peek, next != ">" { position += 1 }
                    guard peek == ">" else { throw LinearPattern.Unsupported() }
                    position += 1
                } else {
                    throw LinearPattern.Unsupported()
                }
            }
            depth += 1
            guard depth <= LinearPattern.maximumDepth else { throw LinearPattern.Unsupported() }
            let inner = try choice()
            depth -= 1
            guard peek == ")" else { throw LinearPattern.Unsupported() }
            position += 1
            return inner
        case ")": throw LinearPattern.Unsupported()
        case "[": return .scalars(try characterClass())
        case ".": return .scalars(.dot)
        case "^": return .start
        case "$": return .end
        case "\\": return .scalars(try escape(inClass: false))
        case "*", "+", "?": throw LinearPattern.Unsupported()
        default: return .scalars(.single(scalar.value))
        }
    }

    mutating func characterClass() throws(LinearPattern.Unsupported) -> ScalarSet {
        var set = ScalarSet()
        if peek == "^" {
            set.negated = true
            position += 1
        }
        while let scalar = peek, scalar != "]" {
            position += 1
            var low: ScalarSet
            if scalar == "\\" {
                low = try escape(inClass: true)
            } else {
                low = .single(scalar.value)
            }
            // A range: `a-z`, when both ends are single scalars.
            if peek == "-", position + 1 < scalars.count, scalars[position + 1] != "]",
                case .range(let from, let to)? = low.items.first, from == to, low.items.count == 1, !low.negated
            {
                position += 1
                guard let next = peek else { throw LinearPattern.Unsupported() }
                position += 1
                let high = next == "\\" ? try escape(inClass: true) : .single(next.value)
                guard case .range(let end, let same)? = high.items.first, end == same, high.items.count == 1,
                    !high.negated, from <= end
                else { throw LinearPattern.Unsupported() }
                low = ScalarSet(items: [.range(from, end)])
            }
            set.items.append(low.items.count == 1 && !low.negated ? low.items[0] : .set(low))
        }
        guard peek == "]" else { throw LinearPattern.Unsupported() }
        position += 1
        return set
    }

    mutating func escape(inClass: Bool) throws(LinearPattern.Unsupported) -> ScalarSet {
        guard let scalar = peek else { throw LinearPattern.Unsupported() }
        position += 1
        switch scalar {
        case "d": return .digit
        case "D": return ScalarSet.digit.inverted()
        case "w": return .word
        case "W": return ScalarSet.word.inverted()
        case "s": return .space
        case "S": return ScalarSet.space.inverted()
        case "t": return .single(0x09)
        case "n": return .single(0x0A)
        case "v": return .single(0x0B)
        case "f": return .single(0x0C)
        case "r": return .single(0x0D)
        case "0" where !(peek.map { ("0"..."9").contains($0) } ?? false): return .single(0)
        case "b" where inClass: return .single(0x08)
        case "-" where inClass: return .single(0x2D)
        case "x":
            guard let value = hex(count: 2) else { throw LinearPattern.Unsupported() }
            return .single(value)
        case "u":
            if peek == "{" {
                position += 1
                var value: UInt32 = 0
                var digits = 0
                while let next = peek, next != "}", let digit = Self.hexValue(next) {
                    value = value &* 16 &+ digit
                    digits += 1
                    position += 1
                    guard digits <= 6 else { throw LinearPattern.Unsupported() }
                }
                guard peek == "}", digits > 0, Unicode.Scalar(value) != nil else { throw LinearPattern.Unsupported() }
                position += 1
                return .single(value)
            }
            guard let value = hex(count: 4) else { throw LinearPattern.Unsupported() }
            return .single(value)
        case "p", "P":
            guard peek == "{" else { throw LinearPattern.Unsupported() }
            position += 1
            var name = ""
            while let next = peek, next != "}" {
                name.unicodeScalars.append(next)
                position += 1
            }
            guard peek == "}", let categories = Self.categories[name] else { throw LinearPattern.Unsupported() }
            position += 1
            return ScalarSet(items: [.category(categories, negated: scalar == "P")])
        default:
            // An escaped mark stands for itself; a letter or digit may be a back-reference, a
            // word boundary or a control escape, none of which is compiled here.
            guard scalar.isASCII, !scalar.properties.isAlphabetic, !("0"..."9").contains(scalar) else {
                throw LinearPattern.Unsupported()
            }
            return .single(scalar.value)
        }
    }

    mutating func hex(count: Int) -> UInt32? {
        guard position + count <= scalars.count else { return nil }
        var value: UInt32 = 0
        for scalar in scalars[position..<(position + count)] {
            guard let digit = Self.hexValue(scalar) else { return nil }
            value = value << 4 | digit
        }
        position += count
        return value
    }

    static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": scalar.value - 0x30
        case "a"..."f": scalar.value - 0x61 + 10
        case "A"..."F": scalar.value - 0x41 + 10
        default: nil
        }
    }

    /// General categories by their short and long names, and the groups of them.
    static let categories: [String: Set<Unicode.GeneralCategory>] = {
        let letters: [(String, String, Unicode.GeneralCategory)] = [
            ("Lu", "Uppercase_Letter", .uppercaseLetter), ("Ll", "Lowercase_Letter", .lowercaseLetter),
            ("Lt", "Titlecase_Letter", .titlecaseLetter), ("Lm", "Modifier_Letter", .modifierLetter),
            ("Lo", "Other_Letter", .otherLetter), ("Mn", "Nonspacing_Mark", .nonspacingMark),
            ("Mc", "Spacing_Mark", .spacingMark), ("Me", "Enclosing_Mark", .enclosingMark),
            ("Nd", "Decimal_Number", .decimalNumber), ("Nl", "Letter_Number", .letterNumber),
            ("No", "Other_Number", .otherNumber), ("Pc", "Connector_Punctuation", .connectorPunctuation),
            ("Pd", "Dash_Punctuation", .dashPunctuation), ("Ps", "Open_Punctuation", .openPunctuation),
            ("Pe", "Close_Punctuation", .closePunctuation), ("Pi", "Initial_Punctuation", .initialPunctuation),
            ("Pf", "Final_Punctuation", .finalPunctuation), ("Po", "Other_Punctuation", .otherPunctuation),
            ("Sm", "Math_Symbol", .mathSymbol), ("Sc", "Currency_Symbol", .currencySymbol),
            ("Sk", "Modifier_Symbol", .modifierSymbol), ("So", "Other_Symbol", .otherSymbol),
            ("Zs", "Space_Separator", .spaceSeparator), ("Zl", "Line_Separator", .lineSeparator),
            ("Zp", "Paragraph_Separator", .paragraphSeparator), ("Cc", "Control", .control),
            ("Cf", "Format", .format), ("Cs", "Surrogate", .surrogate), ("Co", "Private_Use", .privateUse),
            ("Cn", "Unassigned", .unassigned),
        ]
        var table: [String: Set<Unicode.GeneralCategory>] = [:]
        for (short, long, category) in letters {
            table[short] = [category]
            table[long] = [category]
            let group = String(short.prefix(1))
            table[group, default: []].insert(category)
        }
        for (group, long) in [
            ("L", "Letter"), ("M", "Mark"), ("N", "Number"), ("P", "Punctuation"), ("S", "Symbol"), ("Z", "Separator"),
            ("C", "Other"),
        ] {
            table[long] = table[group]
        }
        table["LC"] = [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter]
        table["Cased_Letter"] = table["LC"]
        return table
    }()
}

private struct Compiler {
    var program: [LinearPattern.Instruction] = []

    mutating func emit(_ node: Node) throws(LinearPattern.Unsupported) {
        guard program.count <= LinearPattern.maximumProgram else { throw LinearPattern.Unsupported() }
        switch node {
        case .empty: break
        case .scalars(let set): program.append(.scalar(set))
        case .start: program.append(.start)
        case .end: program.append(.end)
        case .sequence(let items): for item in items { try emit(item) }
        case .choice(let branches):
            // split L1, next; L1: branch; jump end; next: split L2, … ; last branch.
            var jumps: [Int] = []
            for (index, branch) in branches.enumerated() {
                if index < branches.count - 1 {
                    let split = program.count
                    program.append(.split(split + 1, 0))
                    try emit(branch)
                    jumps.append(program.count)
                    program.append(.jump(0))
                    program[split] = .split(split + 1, program.count)
                } else {
                    try emit(branch)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repeated(let inner, let minimum, let maximum):
            for _ in 0..<minimum { try emit(inner) }
            if let maximum {
                // Each optional copy: split into it, or past all that follow.
                var splits: [Int] = []
                for _ in minimum..<maximum {
                    splits.append(program.count)
                    program.append(.split(program.count + 1, 0))
                    try emit(inner)
                }
                for split in splits { program[split] = .split(split + 1, program.count) }
            } else {
                // loop: split body, out; body; jump loop.
                let loop = program.count
                program.append(.split(loop + 1, 0))
                try emit(inner)
                program.append(.jump(loop))
                program[loop] = .split(loop + 1, program.count)
            }
        }
        guard program.count <= LinearPattern.maximumProgram else { throw LinearPattern.Unsupported() }
    }
}
