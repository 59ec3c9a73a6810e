import MoyaHTTP
import MoyaJSONPath
import MoyaSpec

/// A criterion's `simple` condition: runtime expressions and literals compared with `==`,
/// `!=`, `<`, `<=`, `>`, `>=`, joined by `&&`, `||`, `!` and parentheses.
///
/// ```
/// $statusCode == 200
/// $statusCode == 200 || $statusCode == 201
/// $response.body#/redirectAuthToken != null
/// ```
/// A literal is a number, `true`, `false`, `null`, a quoted string (`'…'` or `"…"`), or a bare
/// word, which reads as text.
public indirect enum ArazzoCondition: Sendable, Hashable {
    case operand(Operand)
    case compare(Comparison, Operand, Operand)
    case not(ArazzoCondition)
    case and(ArazzoCondition, ArazzoCondition)
    case or(ArazzoCondition, ArazzoCondition)

    /// One side of a comparison.
    public enum Operand: Sendable, Hashable {
        case expression(RuntimeExpression)
        case literal(JSONValue)
    }

    /// The comparison operators.
    public enum Comparison: String, Sendable, Hashable, CaseIterable {
        case equal = "=="
        case notEqual = "!="
        case lessOrEqual = "<="
        case greaterOrEqual = ">="
        case less = "<"
        case greater = ">"
    }

    /// Every expression the condition reads, in order.
    public var expressions: [RuntimeExpression] {
        func of(_ operand: Operand) -> [RuntimeExpression] {
            if case .expression(let expression) = operand { return [expression] }
            return []
        }
        switch self {
        case .operand(let operand): return of(operand)
        case .compare(_, let left, let right): return of(left) + of(right)
        case .not(let inner): return inner.expressions
        case .and(let left, let right), .or(let left, let right): return left.expressions + right.expressions
        }
    }

    /// How deeply parentheses and `!` may nest.
    static let maximumDepth = 32

    /// Reads a condition; the error says what is wrong.
    public init(parsing text: String) throws(RuntimeExpressionError) {
        var parser = Parser(tokens: try Self.tokens(text))
        self = try parser.parseOr()
        guard parser.position == parser.tokens.count else {
            throw RuntimeExpressionError("unexpected '\(parser.tokens[parser.position].text)'")
        }
    }

    private struct Token {
        var text: String
        var isQuoted = false
    }

    private static let operatorScalars: Set<Unicode.Scalar> = ["=", "!", "<", ">", "&", "|", "(", ")"]

    private static func tokens(_ text: String) throws(RuntimeExpressionError) -> [Token] {
        let scalars = Array(text.unicodeScalars)
        var tokens: [Token] = []
        var index = 0
        func string(_ range: Range<Int>) -> String {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[range])
            return String(view)
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                index += 1
                continue
            }
            if scalar == "'" || scalar == "\"" {
                guard let end = scalars[(index + 1)...].firstIndex(of: scalar) else {
                    throw RuntimeExpressionError("an unclosed quote")
                }
                tokens.append(Token(text: string((index + 1)..<end), isQuoted: true))
                index = end + 1
                continue
            }
            if operatorScalars.contains(scalar) {
                let pair = index + 1 < scalars.count ? string(index..<(index + 2)) : ""
                if ["==", "!=", "<=", ">=", "&&", "||"].contains(pair) {
                    tokens.append(Token(text: pair))
                    index += 2
                } else if ["!", "<", ">", "(", ")"].contains(String(scalar)) {
                    tokens.append(Token(text: String(scalar)))
                    index += 1
                } else {
                    throw RuntimeExpressionError("'\(scalar)' must be '\(scalar)\(scalar == "=" ? "=" : scalar)'")
                }
                continue
            }
            let start = index
            while index < scalars.count, !operatorScalars.contains(scalars[index]),
                !" \t\n\r'\"".unicodeScalars.contains(scalars[index])
            {
                index += 1
            }
            tokens.append(Token(text: string(start..<index)))
        }
        return tokens
    }

    private struct Parser {
        let tokens: [Token]
        var position = 0
        var depth = 0

        func isOperator(_ text: String) -> Bool {
            guard position < tokens.count, !tokens[position].isQuoted else { return false }
            return tokens[position].text == text
        }

        mutating func parseOr() throws(RuntimeExpressionError) -> ArazzoCondition {
            var condition = try parseAnd()
            while isOperator("||") {
                position += 1
                condition = .or(condition, try parseAnd())
            }
            return condition
        }

        mutating func parseAnd() throws(RuntimeExpressionError) -> ArazzoCondition {
            var condition = try parseUnary()
            while isOperator("&&") {
                position += 1
                condition = .and(condition, try parseUnary())
            }
            return condition
        }

        mutating func parseUnary() throws(RuntimeExpressionError) -> ArazzoCondition {
            depth += 1
            defer { depth -= 1 }
            guard depth <= ArazzoCondition.maximumDepth else { throw RuntimeExpressionError("nested too deeply") }
            if isOperator("!") {
                position += 1
                return .not(try parseUnary())
            }
            if isOperator("(") {
                position += 1
                let inner = try parseOr()
                guard isOperator(")") else { throw RuntimeExpressionError("expected ')'") }
                position += 1
                return inner
            }
            let left = try parseOperand()
            guard position < tokens.count, !tokens[position].isQuoted,
                let comparison = Comparison(rawValue: tokens[position].text)
            else { return .operand(left) }
            position += 1
            return .compare(comparison, left, try parseOperand())
        }

        mutating func parseOperand() throws(RuntimeExpressionError) -> Operand {
            guard position < tokens.count else { throw RuntimeExpressionError("the condition ends too early") }
            let token = tokens[position]
            position += 1
            if token.isQuoted { return .literal(.string(token.text)) }
            if ["==", "!=", "<=", ">=", "<", ">", "&&", "||", "!", "(", ")"].contains(token.text) {
                throw RuntimeExpressionError("expected a value, got '\(token.text)'")
            }
            if token.text.hasPrefix("$") { return .expression(try RuntimeExpression(parsing: token.text)) }
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

/// A `jsonpath` criterion's condition: an RFC 9535 query, which holds when it selects
/// something (`$[?count(@.products) > 0]`), or, as Arazzo's own examples write it, a query
/// compared with a literal (`$.access_token != null`).
public struct ArazzoPathCondition: Sendable {
    public var path: JSONPath
    public var comparison: (ArazzoCondition.Comparison, JSONValue)?

    /// Reads the condition; the error is the query's.
    public init(parsing text: String) throws(RuntimeExpressionError) {
        do throws(JSONPathError) {
            path = try JSONPath(parsing: text)
            comparison = nil
            return
        } catch {
            guard let (left, comparison, right) = Self.split(text) else {
                throw RuntimeExpressionError(error.description)
            }
            do throws(JSONPathError) {
                path = try JSONPath(parsing: left)
            } catch {
                throw RuntimeExpressionError(error.description)
            }
            guard case .operand(.literal(let value)) = try ArazzoCondition(parsing: right) else {
                throw RuntimeExpressionError("'\(right)' is not a literal to compare the query with")
            }
            self.comparison = (comparison, value)
        }
    }

    /// The query, the operator and the literal, split at the last comparison outside brackets,
    /// parentheses and quotes.
    private static func split(_ text: String) -> (String, ArazzoCondition.Comparison, String)? {
        let scalars = Array(text.unicodeScalars)
        var depth = 0
        var quote: Unicode.Scalar?
        var found: (Int, ArazzoCondition.Comparison)?
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if let open = quote {
                if scalar == open { quote = nil }
            } else if scalar == "'" || scalar == "\"" {
                quote = scalar
            } else if scalar == "[" || scalar == "(" {
                depth += 1
            } else if scalar == "]" || scalar == ")" {
                depth -= 1
            } else if depth == 0, "=!<>".unicodeScalars.contains(scalar) {
                let pair = index + 1 < scalars.count ? String(scalar) + String(scalars[index + 1]) : String(scalar)
                if let comparison = ArazzoCondition.Comparison(rawValue: pair), pair.count == 2 {
                    found = (index, comparison)
                    index += 1
                } else if let comparison = ArazzoCondition.Comparison(rawValue: String(scalar)) {
                    found = (index, comparison)
                }
            }
            index += 1
        }
        guard let (at, comparison) = found else { return nil }
        var left = String.UnicodeScalarView()
        left.append(contentsOf: scalars[..<at])
        var right = String.UnicodeScalarView()
        right.append(contentsOf: scalars[(at + comparison.rawValue.count)...])
        return (String(left).trimmingSpaces, comparison, String(right).trimmingSpaces)
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        let scalars = unicodeScalars.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}
