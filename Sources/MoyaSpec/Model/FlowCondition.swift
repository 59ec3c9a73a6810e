import MoyaHTTP

/// A step's `skip:` condition: comparisons of variables and literals joined by `and`, `or`,
/// `not` and parentheses.
///
/// ```
/// {env} == prod
/// not exists {userId} or {item.kind} != user
/// ({role} == admin and {count} != 0) or {force}
/// ```
/// An operand is a reference (`{name.path}`), a quoted string, or a bare word, which reads as a
/// number, `true`, `false` or `null` when it is one and as text otherwise. `==` compares JSON
/// values, and text with text when the types differ. A bare operand holds when it is `true`.
public indirect enum FlowCondition: Sendable, Hashable, CustomStringConvertible {
    /// An operand on its own: holds when it is `true`.
    case truthy(Operand)
    /// `exists {name}`: the variable is set, and the path inside it is there.
    case exists(VariableTemplate.Reference)
    /// `a == b`, or with `negated`, `a != b`.
    case equal(Operand, Operand, negated: Bool)
    /// `not c`.
    case not(FlowCondition)
    /// `a and b`.
    case and(FlowCondition, FlowCondition)
    /// `a or b`.
    case or(FlowCondition, FlowCondition)

    /// One side of a comparison.
    public enum Operand: Sendable, Hashable {
        /// A variable reference.
        case reference(VariableTemplate.Reference)
        /// A literal.
        case literal(JSONValue)
    }

    /// Every reference in the condition.
    public var references: [VariableTemplate.Reference] {
        func of(_ operand: Operand) -> [VariableTemplate.Reference] {
            if case .reference(let reference) = operand { return [reference] }
            return []
        }
        switch self {
        case .truthy(let operand): return of(operand)
        case .exists(let reference): return [reference]
        case .equal(let left, let right, _): return of(left) + of(right)
        case .not(let inner): return inner.references
        case .and(let left, let right), .or(let left, let right): return left.references + right.references
        }
    }

    /// The condition written out again, with parentheses around each `and` and `or`.
    public var description: String {
        func text(_ operand: Operand) -> String {
            switch operand {
            case .reference(let reference): "{\(reference)}"
            case .literal(.string(let string)): "'\(string)'"
            case .literal(let value): value.serialized(escapeSlashes: false)
            }
        }
        switch self {
        case .truthy(let operand): return text(operand)
        case .exists(let reference): return "exists {\(reference)}"
        case .equal(let left, let right, let negated): return "\(text(left)) \(negated ? "!=" : "==") \(text(right))"
        case .not(let inner): return "not \(inner)"
        case .and(let left, let right): return "(\(left) and \(right))"
        case .or(let left, let right): return "(\(left) or \(right))"
        }
    }

    /// Parses a condition; the error says what is wrong.
    public init(parsing text: String) throws(FlowConditionError) {
        var parser = Parser(tokens: try Self.tokens(text))
        self = try parser.parseOr()
        guard parser.position == parser.tokens.count else {
            throw FlowConditionError("unexpected '\(parser.tokens[parser.position].text)'")
        }
    }

    // MARK: - Reading

    private struct Token {
        var text: String
        var isQuoted = false
    }

    /// How deeply parentheses and `not` may nest.
    static let maximumDepth = 32

    private static func tokens(_ text: String) throws(FlowConditionError) -> [Token] {
        var tokens: [Token] = []
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func string(_ range: Range<Int>) -> String {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[range])
            return String(view)
        }
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case " ", "\t":
                index += 1
            case "(", ")":
                tokens.append(Token(text: String(scalar)))
                index += 1
            case "=", "!":
                guard index + 1 < scalars.count, scalars[index + 1] == "=" else {
                    throw FlowConditionError("'\(scalar)' must be '\(scalar)='")
                }
                tokens.append(Token(text: "\(scalar)="))
                index += 2
            case "'", "\"":
                guard let end = scalars[(index + 1)...].firstIndex(of: scalar) else {
                    throw FlowConditionError("an unclosed quote")
                }
                tokens.append(Token(text: string((index + 1)..<end), isQuoted: true))
                index = end + 1
            case "{":
                guard let end = scalars[index...].firstIndex(of: "}") else {
                    throw FlowConditionError("an unclosed '{'")
                }
                tokens.append(Token(text: string(index..<(end + 1))))
                index = end + 1
            default:
                let start = index
                while index < scalars.count, !" \t()=!'\"{".unicodeScalars.contains(scalars[index]) {
                    index += 1
                }
                tokens.append(Token(text: string(start..<index)))
            }
        }
        return tokens
    }

    private struct Parser {
        let tokens: [Token]
        var position = 0
        var depth = 0

        var peek: Token? { position < tokens.count ? tokens[position] : nil }

        func isWord(_ word: String) -> Bool {
            guard let peek, !peek.isQuoted else { return false }
            return peek.text == word
        }

        mutating func parseOr() throws(FlowConditionError) -> FlowCondition {
            var condition = try parseAnd()
            while isWord("or") {
                position += 1
                condition = .or(condition, try parseAnd())
            }
            return condition
        }

        mutating func parseAnd() throws(FlowConditionError) -> FlowCondition {
            var condition = try parseUnary()
            while isWord("and") {
                position += 1
                condition = .and(condition, try parseUnary())
            }
            return condition
        }

        mutating func parseUnary() throws(FlowConditionError) -> FlowCondition {
            depth += 1
            defer { depth -= 1 }
            guard depth <= FlowCondition.maximumDepth else { throw FlowConditionError("nested too deeply") }
            if isWord("not") {
                position += 1
                return .not(try parseUnary())
            }
            if isWord("(") {
                position += 1
                let inner = try parseOr()
                guard isWord(")") else { throw FlowConditionError("expected ')'") }
                position += 1
                return inner
            }
            if isWord("exists") {
                position += 1
                guard case .reference(let reference) = try parseOperand() else {
                    throw FlowConditionError("'exists' takes a reference such as {userId}")
                }
                return .exists(reference)
            }
            let left = try parseOperand()
            guard isWord("==") || isWord("!=") else { return .truthy(left) }
            let negated = isWord("!=")
            position += 1
            return .equal(left, try parseOperand(), negated: negated)
        }

        mutating func parseOperand() throws(FlowConditionError) -> Operand {
            guard let token = peek else { throw FlowConditionError("the condition ends too early") }
            position += 1
            if token.isQuoted { return .literal(.string(token.text)) }
            if ["(", ")", "==", "!=", "and", "or", "not", "exists"].contains(token.text) {
                throw FlowConditionError("expected a value, got '\(token.text)'")
            }
            if token.text.hasPrefix("{") {
                guard let reference = VariableTemplate(token.text).wholeReference else {
                    throw FlowConditionError("'\(token.text)' is not a reference such as {name} or {user.id}")
                }
                return .reference(reference)
            }
            switch token.text {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null": return .literal(.null)
            default:
                if let integer = Int(token.text) { return .literal(.integer(integer)) }
                if let number = Double(token.text), number.isFinite { return .literal(.number(number)) }
                return .literal(.string(token.text))
            }
        }
    }
}

/// Why a `skip:` condition could not be read.
public struct FlowConditionError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
