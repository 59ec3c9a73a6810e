import MoyaJSON

/// Reads RFC 9535's grammar into a `JSONPath`, checking that filter expressions are well-typed.
struct JSONPathParser {
    typealias Segment = JSONPath.Segment
    typealias Selector = JSONPath.Selector
    typealias Expression = JSONPath.FilterExpression

    /// How deeply filters, parentheses and function calls may nest.
    static let maximumDepth = 64
    /// The largest integer I-JSON allows, and so the largest index or slice bound.
    static let largestInteger = 9_007_199_254_740_991

    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var depth = 0
    /// Where the last `.name` shorthand began and ended, for the hint about names that need
    /// brackets.
    private var lastShorthand: Range<Int>?

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// The whole text as a query from `$`.
    mutating func parseQuery() throws(JSONPathError) -> [Segment] {
        guard peek == "$" else { throw JSONPathError("a JSON path starts with $") }
        position += 1
        let segments = try parseSegments()
        guard position == scalars.count else { throw failure("unexpected '\(rest)'" + bracketHint()) }
        return segments
    }

    /// When a `.name` stops at a character a shorthand name cannot hold, as `-` in
    /// `$.headers.Content-Type`, the path with that name in brackets.
    private func bracketHint() -> String {
        guard let shorthand = lastShorthand, shorthand.upperBound == position, shorthand.lowerBound > 0,
            scalars[shorthand.lowerBound - 1] == ".",
            shorthand.lowerBound < 2 || scalars[shorthand.lowerBound - 2] != "."
        else { return "" }
        var end = position
        while end < scalars.count, scalars[end] != ".", scalars[end] != "[" { end += 1 }
        let name = String(String.UnicodeScalarView(scalars[shorthand.lowerBound..<end]))
        guard !name.contains("'"), !name.contains("\\"), !name.contains(where: { $0.isWhitespace }) else { return "" }
        let before = String(String.UnicodeScalarView(scalars[..<(shorthand.lowerBound - 1)]))
        let after = String(String.UnicodeScalarView(scalars[end...]))
        return "; a name with '\(scalars[position])' needs brackets: write \(before)['\(name)']\(after)"
    }

    // MARK: - Segments and selectors

    private var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private func peek(_ offset: Int) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    private var rest: String {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars[min(position, scalars.count)...].prefix(20))
        return String(text)
    }

    private func failure(_ message: String, at index: Int? = nil) -> JSONPathError {
        JSONPathError("at character \((index ?? position) + 1): \(message)")
    }

    private mutating func skipBlanks() {
        while let scalar = peek, scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
            position += 1
        }
    }

    /// Segments, each optionally preceded by blanks; blanks not followed by a segment are left.
    private mutating func parseSegments() throws(JSONPathError) -> [Segment] {
        var segments: [Segment] = []
        while true {
            let start = position
            skipBlanks()
            guard let scalar = peek, scalar == "." || scalar == "[" else {
                position = start
                return segments
            }
            segments.append(try parseSegment())
        }
    }

    private mutating func parseSegment() throws(JSONPathError) -> Segment {
        if peek == "[" {
            return Segment(selectors: try parseBracketed(), isDescendant: false)
        }
        position += 1  // "."
        let isDescendant = peek == "."
        if isDescendant {
            position += 1
            if peek == "[" { return Segment(selectors: try parseBracketed(), isDescendant: true) }
        }
        if peek == "*" {
            position += 1
            return Segment(selectors: [.wildcard], isDescendant: isDescendant)
        }
        let nameStart = position
        guard let name = parseShorthand() else {
            throw failure(
                isDescendant ? "expected a name, * or [ after '..'" : "expected a name or * after '.'")
        }
        lastShorthand = nameStart..<position
        return Segment(selectors: [.name(name)], isDescendant: isDescendant)
    }

    private mutating func parseShorthand() -> String? {
        func isFirst(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || scalar.value >= 0x80
        }
        guard let first = peek, isFirst(first) else { return nil }
        var name = String.UnicodeScalarView()
        while let scalar = peek, isFirst(scalar) || ("0"..."9").contains(scalar) {
            name.append(scalar)
            position += 1
        }
        return String(name)
    }

    private mutating func parseBracketed() throws(JSONPathError) -> [Selector] {
        position += 1  // "["
        var selectors: [Selector] = []
        while true {
            skipBlanks()
            guard peek != nil else { throw failure("an unclosed '['") }
            selectors.append(try parseSelector())
            skipBlanks()
            switch peek {
            case ",": position += 1
            case "]":
                position += 1
                return selectors
            case nil: throw failure("an unclosed '['")
            default: throw failure("expected ',' or ']' at '\(rest)'")
            }
        }
    }

    private mutating func parseSelector() throws(JSONPathError) -> Selector {
        switch peek {
        case "'", "\"": return .name(try parseString())
        case "*":
            position += 1
            return .wildcard
        case "?":
            position += 1
            skipBlanks()
            let expression = try nested { (parser: inout Self) throws(JSONPathError) in try parser.parseLogical() }
            try requireTest(expression)
            return .filter(expression)
        default:
            let start = position
            let first = try parseSliceBound()
            skipBlanks()
            guard peek == ":" else {
                guard let first else { throw failure("expected a quoted name, *, an index, a slice or a filter") }
                return .index(first)
            }
            position = start
            return try parseSlice()
        }
    }

    private mutating func parseSlice() throws(JSONPathError) -> Selector {
        let start = try parseSliceBound()
        skipBlanks()
        position += 1  // ":"
        skipBlanks()
        let end = try parseSliceBound()
        skipBlanks()
        var step: Int?
        if peek == ":" {
            position += 1
            skipBlanks()
            step = try parseSliceBound()
        }
        return .slice(start: start, end: end, step: step)
    }

    /// An integer as RFC 9535 writes it (no leading zeros, no `-0`, within I-JSON's range),
    /// or nil when none starts here.
    private mutating func parseSliceBound() throws(JSONPathError) -> Int? {
        guard let first = peek, first == "-" || ("0"..."9").contains(first) else { return nil }
        let start = position
        if first == "-" { position += 1 }
        let digitsStart = position
        while let scalar = peek, ("0"..."9").contains(scalar) { position += 1 }
        let digits = scalars[digitsStart..<position]
        guard let leading = digits.first else { throw failure("expected digits after '-'") }
        guard leading != "0" || digits.count == 1 else { throw failure("an integer has no leading zeros", at: start) }
        guard !(first == "-" && leading == "0") else { throw failure("-0 is not an index", at: start) }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars[start..<position])
        guard let value = Int(String(text)), abs(value) <= Self.largestInteger else {
            throw failure("\(String(text)) is outside ±(2^53 − 1)", at: start)
        }
        return value
    }

    // MARK: - Literals

    /// A single- or double-quoted string with JSON's escapes; `\'` is allowed in single quotes.
    private mutating func parseString() throws(JSONPathError) -> String {
        guard let quote = peek else { throw failure("expected a string") }
        position += 1
        var text = String.UnicodeScalarView()
        while true {
            guard let scalar = peek else { throw failure("an unclosed string") }
            position += 1
            if scalar == quote { return String(text) }
            if scalar.value < 0x20 { throw failure("a control character must be escaped in a string") }
            guard scalar == "\\" else {
                text.append(scalar)
                continue
            }
            guard let escaped = peek else { throw failure("an unfinished escape") }
            position += 1
            switch escaped {
            case "b": text.append("\u{8}")
            case "f": text.append("\u{C}")
            case "n": text.append("\n")
            case "r": text.append("\r")
            case "t": text.append("\t")
            case "/", "\\": text.append(escaped)
            case "u": text.append(try parseUnicodeEscape())
            case _ where escaped == quote: text.append(escaped)
            default: throw failure("'\\\(escaped)' is not an escape")
            }
        }
    }

    private mutating func parseHex4() throws(JSONPathError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let scalar = peek, scalar.isASCII, let digit = UInt32(String(scalar), radix: 16) else {
                throw failure("\\u needs four hexadecimal digits")
            }
            value = value * 16 + digit
            position += 1
        }
        return value
    }

    private mutating func parseUnicodeEscape() throws(JSONPathError) -> Unicode.Scalar {
        let first = try parseHex4()
        if (0xDC00...0xDFFF).contains(first) { throw failure("a lone low surrogate") }
        guard (0xD800...0xDBFF).contains(first) else {
            guard let scalar = Unicode.Scalar(first) else { throw failure("not a Unicode scalar") }
            return scalar
        }
        guard peek == "\\", peek(1) == "u" else { throw failure("a high surrogate needs a low surrogate") }
        position += 2
        let second = try parseHex4()
        guard (0xDC00...0xDFFF).contains(second),
            let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
        else { throw failure("a high surrogate needs a low surrogate") }
        return scalar
    }

    /// A number literal: an integer or `-0`, with an optional fraction and exponent.
    private mutating func parseNumber() throws(JSONPathError) -> JSONValue {
        let start = position
        if peek == "-" { position += 1 }
        let digitsStart = position
        while let scalar = peek, ("0"..."9").contains(scalar) { position += 1 }
        let digits = position - digitsStart
        guard digits > 0 else { throw failure("expected digits in a number") }
        if digits > 1, scalars[digitsStart] == "0" { throw failure("a number has no leading zeros") }
        var isInteger = true
        if peek == "." {
            isInteger = false
            position += 1
            let fractionStart = position
            while let scalar = peek, ("0"..."9").contains(scalar) { position += 1 }
            guard position > fractionStart else { throw failure("expected digits after '.'") }
        }
        if peek == "e" || peek == "E" {
            isInteger = false
            position += 1
            if peek == "+" || peek == "-" { position += 1 }
            let exponentStart = position
            while let scalar = peek, ("0"..."9").contains(scalar) { position += 1 }
            guard position > exponentStart else { throw failure("expected digits in the exponent") }
        }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars[start..<position])
        let string = String(text)
        if isInteger, let integer = Int(string) { return .integer(integer) }
        guard let double = Double(string), double.isFinite else { throw failure("\(string) is out of range") }
        return .number(double)
    }

    // MARK: - Filter expressions

    private mutating func nested<T>(
        _ body: (inout Self) throws(JSONPathError) -> T
    ) throws(JSONPathError) -> T {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw failure("filters nest more than \(Self.maximumDepth) deep") }
        return try body(&self)
    }

    /// `a || b || …`, each operand a test; `&&` binds tighter.
    private mutating func parseLogical() throws(JSONPathError) -> Expression {
        try parseChain("|", combine: { .or($0, $1) }) { (parser: inout Self) throws(JSONPathError) in
            try parser.parseChain("&", combine: { .and($0, $1) }) { (parser: inout Self) throws(JSONPathError) in
                try parser.parseBasic()
            }
        }
    }

    /// Operands joined by a doubled `symbol` (`||` or `&&`), left to right.
    private mutating func parseChain(
        _ symbol: Unicode.Scalar, combine: (Expression, Expression) -> Expression,
        operand: (inout Self) throws(JSONPathError) -> Expression
    ) throws(JSONPathError) -> Expression {
        var expression = try operand(&self)
        while true {
            let start = position
            skipBlanks()
            guard peek == symbol, peek(1) == symbol else {
                position = start
                return expression
            }
            position += 2
            skipBlanks()
            try requireTest(expression)
            let right = try operand(&self)
            try requireTest(right)
            expression = combine(expression, right)
        }
    }

    /// A parenthesised expression, a negation, a comparison, or a bare operand whose use the
    /// caller checks.
    private mutating func parseBasic() throws(JSONPathError) -> Expression {
        switch peek {
        case "!":
            position += 1
            skipBlanks()
            if peek == "(" { return .not(try parseParenthesised()) }
            let operand = try parseOperand()
            try requireTest(operand)
            return .not(operand)
        case "(":
            return try parseParenthesised()
        default:
            let left = try parseOperand()
            let start = position
            skipBlanks()
            guard let comparison = parseComparisonOperator() else {
                position = start
                return left
            }
            skipBlanks()
            let right = try parseOperand()
            try requireComparable(left)
            try requireComparable(right)
            return .compare(comparison, left, right)
        }
    }

    private mutating func parseParenthesised() throws(JSONPathError) -> Expression {
        position += 1  // "("
        return try nested { (parser: inout Self) throws(JSONPathError) in
            parser.skipBlanks()
            let inner = try parser.parseLogical()
            try parser.requireTest(inner)
            parser.skipBlanks()
            guard parser.peek == ")" else { throw parser.failure("expected ')' at '\(parser.rest)'") }
            parser.position += 1
            return inner
        }
    }

    private mutating func parseComparisonOperator() -> JSONPath.ComparisonOperator? {
        for candidate in JSONPath.ComparisonOperator.allCases {
            let symbol = Array(candidate.rawValue.unicodeScalars)
            if symbol.indices.allSatisfy({ peek($0) == symbol[$0] }) {
                position += symbol.count
                return candidate
            }
        }
        return nil
    }

    /// A literal, a query or a function call.
    private mutating func parseOperand() throws(JSONPathError) -> Expression {
        guard let scalar = peek else { throw failure("the filter ends too early") }
        switch scalar {
        case "@", "$":
            position += 1
            let segments = try nested { (parser: inout Self) throws(JSONPathError) in try parser.parseSegments() }
            return .query(JSONPath.Query(isRelative: scalar == "@", segments: segments))
        case "'", "\"":
            return .literal(.string(try parseString()))
        case "-", "0"..."9":
            return .literal(try parseNumber())
        case "a"..."z":
            let start = position
            while let next = peek, ("a"..."z").contains(next) || next == "_" || ("0"..."9").contains(next) {
                position += 1
            }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars[start..<position])
            let name = String(text)
            if peek == "(" { return try parseFunction(name) }
            switch name {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null": return .literal(.null)
            default:
                position = start
                throw failure("'\(name)' is not a literal or a function call")
            }
        default:
            throw failure("expected a query, a literal or a function at '\(rest)'")
        }
    }

    private mutating func parseFunction(_ name: String) throws(JSONPathError) -> Expression {
        let start = position - name.unicodeScalars.count
        guard let function = JSONPath.FilterFunction(rawValue: name) else {
            throw failure(
                "unknown function '\(name)'; the functions are length, count, match, search and value", at: start)
        }
        position += 1  // "("
        let arguments = try nested { (parser: inout Self) throws(JSONPathError) -> [Expression] in
            var arguments: [Expression] = []
            parser.skipBlanks()
            if parser.peek == ")" {
                parser.position += 1
                return arguments
            }
            while true {
                parser.skipBlanks()
                arguments.append(try parser.parseLogical())
                parser.skipBlanks()
                switch parser.peek {
                case ",": parser.position += 1
                case ")":
                    parser.position += 1
                    return arguments
                default: throw parser.failure("expected ',' or ')' in \(name)() at '\(parser.rest)'")
                }
            }
        }
        let parameters = function.parameters
        guard arguments.count == parameters.count else {
            throw failure("\(name)() takes \(parameters.count) argument\(parameters.count == 1 ? "" : "s")", at: start)
        }
        for (argument, kind) in zip(arguments, parameters) {
            switch kind {
            case .value:
                guard Self.isValue(argument) else {
                    throw failure(
                        "\(name)() needs a value: a literal, a singular query or length/count/value()", at: start)
                }
            case .nodes:
                guard case .query = argument else { throw failure("\(name)() needs a query", at: start) }
            case .logical:
                try requireTest(argument)
            }
        }
        return .function(function, arguments)
    }

    // MARK: - Well-typedness

    private static func isValue(_ expression: Expression) -> Bool {
        switch expression {
        case .literal: true
        case .query(let query): query.isSingular
        case .function(let function, _): function.result == .value
        default: false
        }
    }

    private func requireComparable(_ expression: Expression) throws(JSONPathError) {
        guard Self.isValue(expression) else {
            throw failure("a comparison needs literals, singular queries or length/count/value() on both sides")
        }
    }

    private func requireTest(_ expression: Expression) throws(JSONPathError) {
        switch expression {
        case .literal: throw failure("a literal alone is not a test; compare it with something")
        case .function(let function, _) where function.result == .value:
            throw failure("\(function.rawValue)() gives a value, not a test; compare it with something")
        default: return
        }
    }
}
