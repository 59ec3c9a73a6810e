import MoyaRegex

/// A regular expression in RFC 9485's I-Regexp, the interoperable subset JSONPath's `match` and
/// `search` use. It is checked against I-Regexp's grammar, then written in ECMA-262's syntax,
/// every literal as a `\u{…}` escape, and run by MoyaRegex. I-Regexp has no back-references or
/// lookaround, so it never backtracks: matching is linear in the text, and its steps are
/// counted against the evaluation's budget (see `matches(_:whole:spending:)`). `^`
/// and `$` are anchors, as the compliance suite expects.
struct IRegexp {
    /// How deeply groups may nest.
    static let maximumDepth = 64

    private let regex: RegularExpression

    /// Checks and compiles `pattern`; throws when it is not an I-Regexp.
    init(_ pattern: String) throws {
        var translator = Translator(scalars: Array(pattern.unicodeScalars))
        let translated = try translator.translate()
        regex = try RegularExpression(translated)
    }

    /// Whether `text` matches (all of it, with `whole`) within `budget` steps, which it
    /// spends; nil once they run out. The work is at most the text's length times the
    /// pattern's size, and a pattern of many repetitions is large.
    func matches(_ text: String, whole: Bool, spending budget: inout Int) -> Bool? {
        regex.matches(in: text, whole: whole, spending: &budget)
    }
}

/// Why a pattern is not an I-Regexp.
struct IRegexpError: Error, CustomStringConvertible {
    /// What is wrong.
    var description: String
}

/// Reads I-Regexp's grammar and writes the equivalent ECMA-262 syntax.
private struct Translator {
    let scalars: [Unicode.Scalar]
    var position = 0
    var depth = 0
    var output = ""

    var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    mutating func translate() throws(IRegexpError) -> String {
        try alternatives()
        guard position == scalars.count else { throw IRegexpError(description: "unbalanced ')'") }
        return output
    }

    mutating func alternatives() throws(IRegexpError) {
        try branch()
        while peek == "|" {
            position += 1
            output += "|"
            try branch()
        }
    }

    mutating func branch() throws(IRegexpError) {
        while let scalar = peek, scalar != "|", scalar != ")" {
            try atom()
            try quantifier()
        }
    }

    mutating func atom() throws(IRegexpError) {
        guard let scalar = peek else { return }
        position += 1
        switch scalar {
        case "(":
            depth += 1
            guard depth <= IRegexp.maximumDepth else { throw IRegexpError(description: "groups nest too deeply") }
            output += "(?:"
            try alternatives()
            guard peek == ")" else { throw IRegexpError(description: "an unclosed '('") }
            position += 1
            depth -= 1
            output += ")"
        case ".":
            output += "[^\\n\\r]"
        // RFC 9485 lists '^' and '$' as ordinary characters, but the JSONPath compliance suite
        // (and every regex engine JSONPath implementations use) reads them as anchors.
        case "^":
            output += "^"
        case "$":
            output += "$"
        case "[":
            try characterClass()
        case "\\":
            output += try escape()
        case "*", "+", "?", "{", "}", "]":
            throw IRegexpError(description: "'\(scalar)' has nothing to apply to or must be escaped")
        default:
            output += Self.literal(scalar)
        }
    }

    mutating func quantifier() throws(IRegexpError) {
        guard let scalar = peek else { return }
        switch scalar {
        case "*", "+", "?":
            position += 1
            output.unicodeScalars.append(scalar)
        case "{":
            position += 1
            let lower = try count()
            var upper: Int? = lower
            if peek == "," {
                position += 1
                upper = peek == "}" ? nil : try count()
            }
            guard peek == "}" else { throw IRegexpError(description: "an unclosed '{'") }
            position += 1
            if let upper, upper < lower { throw IRegexpError(description: "{\(lower),\(upper)} is backwards") }
            output += "{\(lower)" + (upper == lower ? "" : ",\(upper.map(String.init) ?? "")") + "}"
        default:
            return
        }
    }

    mutating func count() throws(IRegexpError) -> Int {
        let start = position
        while let scalar = peek, ("0"..."9").contains(scalar) { position += 1 }
        var digits = String.UnicodeScalarView()
        digits.append(contentsOf: scalars[start..<position])
        guard let value = Int(String(digits)), value <= 10_000 else {
            throw IRegexpError(description: "a repetition count must be a number up to 10000")
        }
        return value
    }

    /// After a `\`: a single-character escape or a `\p{…}`/`\P{…}` category.
    mutating func escape() throws(IRegexpError) -> String {
        guard let scalar = peek else { throw IRegexpError(description: "a trailing '\\'") }
        position += 1
        switch scalar {
        case "n": return "\\n"
        case "r": return "\\r"
        case "t": return "\\t"
        case _ where Self.escapable.contains(scalar):
            return Self.literal(scalar)
        case "p", "P":
            guard peek == "{" else { throw IRegexpError(description: "\\\(scalar) needs {category}") }
            position += 1
            var name = ""
            while let next = peek, next != "}" {
                name.unicodeScalars.append(next)
                position += 1
            }
            guard peek == "}", Self.categories.contains(name) else {
                throw IRegexpError(description: "'\(name)' is not a Unicode general category")
            }
            position += 1
            return "\\\(scalar){\(name)}"
        default:
            throw IRegexpError(description: "'\\\(scalar)' is not an I-Regexp escape")
        }
    }

    mutating func characterClass() throws(IRegexpError) {
        output += "["
        if peek == "^" {
            position += 1
            output += "^"
        }
        var first = true
        while true {
            guard let scalar = peek else { throw IRegexpError(description: "an unclosed '['") }
            if scalar == "]" {
                position += 1
                output += "]"
                return
            }
            if scalar == "-" {
                // A '-' is a literal only first or last.
                let isLast = position + 1 < scalars.count && scalars[position + 1] == "]"
                guard first || isLast else { throw IRegexpError(description: "'-' must be escaped inside []") }
                position += 1
                output += Self.literal("-")
                first = false
                continue
            }
            first = false
            if scalar == "\\", position + 1 < scalars.count,
                scalars[position + 1] == "p" || scalars[position + 1] == "P"
            {
                position += 1
                output += try escape()
                continue
            }
            let low = try classCharacter()
            if peek == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                position += 1
                let high = try classCharacter()
                guard low.value <= high.value else {
                    throw IRegexpError(description: "the range \(low)-\(high) is backwards")
                }
                output += Self.literal(low) + "-" + Self.literal(high)
            } else {
                output += Self.literal(low)
            }
        }
    }

    /// One character of a class, escaped or not.
    mutating func classCharacter() throws(IRegexpError) -> Unicode.Scalar {
        guard let scalar = peek else { throw IRegexpError(description: "an unclosed '['") }
        position += 1
        switch scalar {
        case "\\":
            guard let escaped = peek else { throw IRegexpError(description: "a trailing '\\'") }
            position += 1
            switch escaped {
            case "n": return "\n"
            case "r": return "\r"
            case "t": return "\t"
            case _ where Self.escapable.contains(escaped): return escaped
            default: throw IRegexpError(description: "'\\\(escaped)' is not an I-Regexp escape")
            }
        case "[", "]", "-":
            throw IRegexpError(description: "'\(scalar)' must be escaped inside []")
        default:
            return scalar
        }
    }

    /// A scalar written so that ECMA-262's syntax reads it as itself.
    static func literal(_ scalar: Unicode.Scalar) -> String {
        if ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) {
            return String(scalar)
        }
        return "\\u{\(String(scalar.value, radix: 16))}"
    }

    /// The characters a backslash makes literal (RFC 9485's SingleCharEsc, less n, r and t).
    static let escapable: Set<Unicode.Scalar> = [
        "(", ")", "*", "+", "-", ".", "?", "[", "\\", "]", "^", "{", "|", "}",
    ]

    /// The general categories I-Regexp allows in `\p{…}`.
    static let categories: Set<String> = [
        "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn", "N", "Nd", "Nl", "No",
        "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "Z", "Zl", "Zp", "Zs",
        "S", "Sc", "Sk", "Sm", "So", "C", "Cc", "Cf", "Cn", "Co",
    ]
}
