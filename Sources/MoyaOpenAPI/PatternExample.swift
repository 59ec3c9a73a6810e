import MoyaRegex

/// A short string that a schema's `pattern` matches, for the common shapes real documents
/// use (`^AC[0-9a-fA-F]{32}$`, `^\d{4}-\d{2}$`, `^(draft|live)$`): literals, classes, `\d`,
/// `\w`, `.`, groups with alternatives, and quantifiers, each at its fewest. Anything else,
/// or a string the pattern then does not match, gives nil.
enum PatternExample {
    /// How long a pattern may be; longer ones are left to the caller's default.
    static let maximumLength = 512
    /// How deep groups may nest.
    static let maximumDepth = 16

    static func example(for pattern: String) -> String? {
        guard pattern.unicodeScalars.count <= maximumLength else { return nil }
        var scanner = Scanner(scalars: Array(pattern.unicodeScalars))
        guard let text = scanner.alternatives(depth: 0), scanner.position == scanner.scalars.count else { return nil }
        let matches = (try? RegularExpression(pattern).matches(in: text)) ?? false
        return matches ? text : nil
    }

    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var position = 0

        var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

        /// `a|b|c`: the first alternative's text; the others are read and dropped.
        mutating func alternatives(depth: Int) -> String? {
            guard depth < PatternExample.maximumDepth else { return nil }
            guard let first = sequence(depth: depth) else { return nil }
            while current == "|" {
                position += 1
                guard sequence(depth: depth) != nil else { return nil }
            }
            return first
        }

        /// Atoms, each with its quantifier, up to `|` or `)`.
        mutating func sequence(depth: Int) -> String? {
            var text = ""
            while let scalar = current, scalar != "|", scalar != ")" {
                guard let atom = atom(depth: depth) else { return nil }
                guard let count = quantifier() else { return nil }
                text += String(repeating: atom, count: count)
            }
            return text
        }

        /// One atom's text; anchors are empty.
        mutating func atom(depth: Int) -> String? {
            guard let scalar = current else { return nil }
            position += 1
            switch scalar {
            case "^", "$": return ""
            case ".": return "a"
            case "(":
                // A group: `(?:` is read as a plain group; other `(?` forms are not taken.
                if current == "?" {
                    guard position + 1 < scalars.count, scalars[position + 1] == ":" else { return nil }
                    position += 2
                }
                guard let inner = alternatives(depth: depth + 1), current == ")" else { return nil }
                position += 1
                return inner
            case "[": return characterClass()
            case "\\": return escape()
            case "*", "+", "?", "{", ")", "]", "|": return nil
            default: return String(scalar)
            }
        }

        /// `\d`, `\w`, `\s`, or an escaped literal.
        mutating func escape() -> String? {
            guard let scalar = current else { return nil }
            position += 1
            switch scalar {
            case "d": return "0"
            case "w": return "a"
            case "s": return " "
            case "D", "W", "S", "b", "B", "p", "P", "u", "x", "0"..."9": return nil
            case "n": return "\n"
            case "t": return "\t"
            default: return String(scalar)
            }
        }

        /// `[...]`: its first character (a range's start); a negated class is not taken.
        mutating func characterClass() -> String? {
            guard current != "^" else { return nil }
            var first: String?
            while let scalar = current, scalar != "]" {
                position += 1
                let text: String?
                if scalar == "\\" { text = escape() } else { text = String(scalar) }
                guard let text else { return nil }
                if first == nil { first = text }
                if current == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                    position += 2
                    if scalars[position - 1] == "\\" { position += 1 }
                }
            }
            guard current == "]", let first else { return nil }
            position += 1
            return first
        }

        /// How many times the last atom repeats: `*` and `?` none, `+` once, `{n}` and
        /// `{n,m}` n times (at most 1,000); 1 when there is no quantifier.
        mutating func quantifier() -> Int? {
            guard let scalar = current else { return 1 }
            var count = 1
            switch scalar {
            case "*", "?":
                position += 1
                count = 0
            case "+":
                position += 1
            case "{":
                position += 1
                var digits = ""
                while let digit = current, ("0"..."9").contains(digit) {
                    digits.unicodeScalars.append(digit)
                    position += 1
                }
                while let next = current, next != "}" { position += 1 }
                guard current == "}", let number = Int(digits), number <= 1_000 else { return nil }
                position += 1
                count = number
            default:
                return 1
            }
            // A lazy or possessive mark changes nothing for the fewest.
            if current == "?" || current == "+" { position += 1 }
            return count
        }
    }
}
