/// A pattern's tree.
indirect enum PatternNode: Sendable {
    case empty
    case scalars(ScalarSet)
    case start
    case end
    /// `\b`, or `\B` when negated.
    case wordBoundary(negated: Bool)
    case sequence([PatternNode])
    case choice([PatternNode])
    case repeated(PatternNode, minimum: Int, maximum: Int?, lazy: Bool)
    /// A capturing group, numbered from 1 in the order the groups open.
    case group(PatternNode, number: Int)
    /// `\1`: the text a group captured.
    case backReference(Int)
    /// `\k<name>`: the text a named group captured; the name is checked once every group is
    /// known.
    case namedReference(String)
    /// `(?=…)`, `(?!…)`, `(?<=…)` or `(?<!…)`.
    case look(PatternNode, behind: Bool, negated: Bool)

    /// Whether the node can match without reading a scalar.
    var matchesEmpty: Bool {
        switch self {
        case .empty, .start, .end, .wordBoundary, .backReference, .namedReference, .look: true
        case .scalars: false
        case .sequence(let items): items.allSatisfy(\.matchesEmpty)
        case .choice(let branches): branches.contains(where: \.matchesEmpty)
        case .repeated(let inner, let minimum, _, _): minimum == 0 || inner.matchesEmpty
        case .group(let inner, _): inner.matchesEmpty
        }
    }
}

/// Reads ECMA-262's pattern syntax (as JSON Schema's `pattern` uses it, with Unicode escapes)
/// into a tree: literals and escapes (`\t`, `\n`, `\cX`, `\uXXXX`, `\u{…}`, `\xHH`, escaped
/// punctuation), `.`, classes with ranges and negation, `\d \D \w \W \s \S`, `\p{…}` and `\P{…}`
/// for general categories, `^` and `$` (the text's start and end, as without the `m` flag),
/// `\b` and `\B`, groups (`( )`, `(?: )`, `(?<name> )`), back-references (`\1`, `\k<name>`),
/// lookaround, `|`, and `* + ? {n} {n,} {n,m}`, greedy or lazy. A leading `(?i)` matches
/// without regard to case.
struct PatternParser {
    let scalars: [Unicode.Scalar]
    var position = 0
    var depth = 0
    var caseless = false
    /// Groups opened so far.
    var groupCount = 0
    var groupNames: [String: Int] = [:]
    /// Back-references by name, checked once every group is known.
    var namedReferences: [String] = []
    var highestReference = 0

    init(_ pattern: String) {
        scalars = Array(pattern.unicodeScalars)
    }

    var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    func failure(_ what: String) -> RegularExpression.SyntaxError {
        RegularExpression.SyntaxError(description: "\(what) at offset \(position)")
    }

    mutating func parse() throws(RegularExpression.SyntaxError) -> PatternNode {
        if scalars.starts(with: Array("(?i)".unicodeScalars)) {
            caseless = true
            position = 4
        }
        let node = try choice()
        guard position == scalars.count else { throw failure("an unmatched ')'") }
        guard highestReference <= groupCount else {
            throw RegularExpression.SyntaxError(
                description: "\\\(highestReference) refers to a group that does not exist")
        }
        for name in namedReferences where groupNames[name] == nil {
            throw RegularExpression.SyntaxError(description: "\\k<\(name)> names no group")
        }
        return node
    }

    mutating func choice() throws(RegularExpression.SyntaxError) -> PatternNode {
        var branches = [try sequence()]
        while peek == "|" {
            position += 1
            branches.append(try sequence())
        }
        return branches.count == 1 ? branches[0] : .choice(branches)
    }

    mutating func sequence() throws(RegularExpression.SyntaxError) -> PatternNode {
        var items: [PatternNode] = []
        while let scalar = peek, scalar != "|", scalar != ")" {
            let atom = try self.atom()
            items.append(try quantified(atom))
        }
        switch items.count {
        case 0: return .empty
        case 1: return items[0]
        default: return .sequence(items)
        }
    }

    mutating func quantified(_ atom: PatternNode) throws(RegularExpression.SyntaxError) -> PatternNode {
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
            switch node {
            case .start, .end, .wordBoundary, .look(_, behind: true, _):
                throw failure("'\(scalar)' has nothing to repeat")
            case .repeated:
                throw failure("'\(scalar)' follows another quantifier")
            default: break
            }
            var lazy = false
            if peek == "?" {
                position += 1
                lazy = true
            }
            node = .repeated(node, minimum: bounds.0, maximum: bounds.1, lazy: lazy)
        }
        return node
    }

    /// `{n}`, `{n,}` or `{n,m}`; nil, with nothing read, when the brace is a literal.
    mutating func counted() throws(RegularExpression.SyntaxError) -> (Int, Int?)? {
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
        if let maximum, maximum < minimum { throw failure("{\(minimum),\(maximum)} is backwards") }
        guard minimum <= RegularExpression.maximumCount, (maximum ?? 0) <= RegularExpression.maximumCount else {
            throw failure("a count over \(RegularExpression.maximumCount)")
        }
        return (minimum, maximum)
    }

    mutating func number() -> Int? {
        var value = 0
        var digits = 0
        while let scalar = peek, ("0"..."9").contains(scalar) {
            value = min(value * 10 + Int(scalar.value - 0x30), RegularExpression.maximumCount + 1)
            digits += 1
            position += 1
        }
        return digits == 0 ? nil : value
    }

    mutating func atom() throws(RegularExpression.SyntaxError) -> PatternNode {
        guard let scalar = peek else { throw failure("a missing atom") }
        position += 1
        switch scalar {
        case "(": return try group()
        case "[":
            let set = try characterClass()
            return .scalars(caseless ? set.caseless() : set)
        case ".": return .scalars(.dot)
        case "^": return .start
        case "$": return .end
        case "\\": return try atomEscape()
        case "*", "+", "?": throw failure("'\(scalar)' has nothing to repeat")
        default:
            let set = ScalarSet.single(scalar.value)
            return .scalars(caseless ? set.caseless() : set)
        }
    }

    /// After `(`: a group, a non-capturing group, a named group or lookaround.
    mutating func group() throws(RegularExpression.SyntaxError) -> PatternNode {
        depth += 1
        guard depth <= RegularExpression.maximumDepth else { throw failure("groups nest too deeply") }
        defer { depth -= 1 }
        enum Kind { case capture, plain, look(behind: Bool, negated: Bool) }
        var kind = Kind.capture
        if peek == "?" {
            position += 1
            let next = peek
            position += 1
            switch next {
            case ":": kind = .plain
            case "=": kind = .look(behind: false, negated: false)
            case "!": kind = .look(behind: false, negated: true)
            case "<" where peek == "=":
                position += 1
                kind = .look(behind: true, negated: false)
            case "<" where peek == "!":
                position += 1
                kind = .look(behind: true, negated: true)
            case "<":
                let name = try groupName()
                guard groupNames[name] == nil else { throw failure("a second group named '\(name)'") }
                groupNames[name] = groupCount + 1
            default:
                throw failure("an unknown group '(?\(next.map(String.init) ?? "")'")
            }
        }
        var number = 0
        if case .capture = kind {
            groupCount += 1
            number = groupCount
        }
        let inner = try choice()
        guard peek == ")" else { throw failure("an unclosed '('") }
        position += 1
        switch kind {
        case .capture: return .group(inner, number: number)
        case .plain: return inner
        case .look(let behind, let negated): return .look(inner, behind: behind, negated: negated)
        }
    }

    /// A group's name, up to and past its `>`.
    mutating func groupName() throws(RegularExpression.SyntaxError) -> String {
        var name = ""
        while let next = peek, next != ">" {
            guard next.properties.isAlphabetic || ("0"..."9").contains(next) || next == "_" || next == "$" else {
                throw failure("'\(next)' in a group name")
            }
            name.unicodeScalars.append(next)
            position += 1
        }
        guard peek == ">", !name.isEmpty else { throw failure("an unclosed group name") }
        position += 1
        return name
    }

    /// After a `\` outside a class: a back-reference, a word boundary or a class escape.
    mutating func atomEscape() throws(RegularExpression.SyntaxError) -> PatternNode {
        switch peek {
        case "b":
            position += 1
            return .wordBoundary(negated: false)
        case "B":
            position += 1
            return .wordBoundary(negated: true)
        case "k" where position + 1 < scalars.count && scalars[position + 1] == "<":
            position += 2
            let name = try groupName()
            namedReferences.append(name)
            return .namedReference(name)
        case let digit? where ("1"..."9").contains(digit):
            guard let number = number() else { throw failure("a bad back-reference") }
            highestReference = max(highestReference, number)
            return .backReference(number)
        default:
            let set = try escape(inClass: false)
            return .scalars(caseless ? set.caseless() : set)
        }
    }

    mutating func characterClass() throws(RegularExpression.SyntaxError) -> ScalarSet {
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
                guard let next = peek else { throw failure("an unclosed '['") }
                position += 1
                let high = next == "\\" ? try escape(inClass: true) : .single(next.value)
                guard case .range(let end, let same)? = high.items.first, end == same, high.items.count == 1,
                    !high.negated
                else { throw failure("a range whose end is a class") }
                guard from <= end else { throw failure("a backwards range") }
                low = ScalarSet(items: [.range(from, end)])
            }
            set.items.append(low.items.count == 1 && !low.negated ? low.items[0] : .set(low))
        }
        guard peek == "]" else { throw failure("an unclosed '['") }
        position += 1
        return set
    }

    mutating func escape(inClass: Bool) throws(RegularExpression.SyntaxError) -> ScalarSet {
        guard let scalar = peek else { throw failure("a trailing '\\'") }
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
        case "c":
            guard let letter = peek, ("a"..."z").contains(letter) || ("A"..."Z").contains(letter) else {
                throw failure("\\c needs a letter")
            }
            position += 1
            return .single(letter.value % 32)
        case "x":
            guard let value = hex(count: 2) else { throw failure("\\x needs two hex digits") }
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
                    guard digits <= 6 else { throw failure("\\u{…} is too long") }
                }
                guard peek == "}", digits > 0, Unicode.Scalar(value) != nil else {
                    throw failure("\\u{…} is not a scalar")
                }
                position += 1
                return .single(value)
            }
            guard let value = hex(count: 4) else { throw failure("\\u needs four hex digits") }
            return .single(value)
        case "p", "P":
            guard peek == "{" else { throw failure("\\\(scalar) needs {category}") }
            position += 1
            var name = ""
            while let next = peek, next != "}" {
                name.unicodeScalars.append(next)
                position += 1
            }
            guard peek == "}", let categories = Self.categories[name] else {
                throw failure("'\(name)' is not a Unicode general category")
            }
            position += 1
            return ScalarSet(items: [.category(categories, negated: scalar == "P")])
        default:
            // An escaped mark stands for itself; an escaped letter or digit means something
            // else, which this engine does not know.
            guard scalar.isASCII, !scalar.properties.isAlphabetic, !("0"..."9").contains(scalar) else {
                throw failure("'\\\(scalar)' is not an escape this engine knows")
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
        // The third names Unicode's PropertyValueAliases gives.
        table["digit"] = table["Nd"]
        table["cntrl"] = table["Cc"]
        table["punct"] = table["P"]
        table["Combining_Mark"] = table["M"]
        return table
    }()
}
