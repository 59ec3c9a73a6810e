import MoyaHTTP
import MoyaSpec

/// An Arazzo runtime expression: `$statusCode`, `$response.body#/0/id`,
/// `$steps.find-pet.outputs.petId`, `$inputs.customer#/firstName`.
///
/// The grammar is the specification's ABNF: a `$` name, then for a request or a response a
/// source (`header.NAME`, `query.NAME`, `path.NAME`, or `body` with an optional JSON pointer),
/// and for the others a name with, where the value is structured, an optional JSON pointer.
public enum RuntimeExpression: Sendable, Hashable, CustomStringConvertible {
    /// `$url`, `$method`, `$statusCode`, `$self` and (AsyncAPI) `$message`'s whole.
    case plain(String)
    /// `$request.…` or `$response.…`: the exchange's part.
    case exchange(isResponse: Bool, Source)
    /// `$inputs.NAME#/pointer`.
    case inputs(String, pointer: String?)
    /// `$outputs.NAME#/pointer`: the workflow's own outputs.
    case outputs(String, pointer: String?)
    /// `$steps.STEP.outputs.NAME#/pointer`, or `$steps.STEP` alone.
    case step(String, output: String?, pointer: String?)
    /// `$workflows.ID.…`: another workflow's inputs or outputs.
    case workflow(String, rest: String)
    /// `$sourceDescriptions.NAME.…`: a source description, its `url` or an operation in it.
    case source(String, rest: String)
    /// `$components.KIND.NAME`.
    case component(kind: String, name: String)

    /// Where in a request or response.
    public enum Source: Sendable, Hashable {
        case header(String)
        case query(String)
        case path(String)
        case body(pointer: String?)
    }

    /// The expression's text.
    public var description: String {
        func pointed(_ text: String, _ pointer: String?) -> String { text + (pointer.map { "#" + $0 } ?? "") }
        switch self {
        case .plain(let name): return "$" + name
        case .exchange(let isResponse, let source):
            let head = isResponse ? "$response." : "$request."
            switch source {
            case .header(let name): return head + "header." + name
            case .query(let name): return head + "query." + name
            case .path(let name): return head + "path." + name
            case .body(let pointer): return pointed(head + "body", pointer)
            }
        case .inputs(let name, let pointer): return pointed("$inputs." + name, pointer)
        case .outputs(let name, let pointer): return pointed("$outputs." + name, pointer)
        case .step(let id, let output, let pointer):
            return pointed("$steps." + id + (output.map { ".outputs." + $0 } ?? ""), pointer)
        case .workflow(let id, let rest): return "$workflows." + id + (rest.isEmpty ? "" : "." + rest)
        case .source(let name, let rest): return "$sourceDescriptions." + name + (rest.isEmpty ? "" : "." + rest)
        case .component(let kind, let name): return "$components." + kind + "." + name
        }
    }

    /// Reads an expression; the error says what is wrong.
    public init(parsing text: String) throws(RuntimeExpressionError) {
        guard text.hasPrefix("$") else { throw RuntimeExpressionError("a runtime expression starts with '$'") }
        let (body, pointer) = Self.splitPointer(text)
        if let pointer { try Self.checkPointer(pointer) }
        let parts = body.dropFirst().split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let head = String(parts[0])
        let rest = parts.count > 1 ? String(parts[1]) : nil
        func named(_ what: String) throws(RuntimeExpressionError) -> String {
            guard let rest, !rest.isEmpty else { throw RuntimeExpressionError("'$\(head).' needs \(what) after it") }
            return rest
        }
        switch head {
        case "message":
            // AsyncAPI's message: `$message.payload#/status`, `$message.header.X`.
            self = .plain(String(text.dropFirst()))
        case "url", "method", "statusCode", "self":
            guard rest == nil, pointer == nil else {
                throw RuntimeExpressionError("'$\(head)' takes nothing after it")
            }
            self = .plain(head)
        case "request", "response":
            guard let rest else {
                throw RuntimeExpressionError("'$\(head)' needs a source: header, query, path or body")
            }
            let source = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            let name = source.count > 1 ? String(source[1]) : ""
            switch (source[0], name.isEmpty) {
            case ("body", true): self = .exchange(isResponse: head == "response", .body(pointer: pointer))
            case ("header", false):
                guard HTTPHeaders.isValidName(name) else {
                    throw RuntimeExpressionError("'\(name)' cannot be a header's name")
                }
                self = .exchange(isResponse: head == "response", .header(name))
            case ("query", false): self = .exchange(isResponse: head == "response", .query(name))
            case ("path", false): self = .exchange(isResponse: head == "response", .path(name))
            default:
                throw RuntimeExpressionError(
                    "'$\(head).\(rest)' is not a source; expected header.NAME, query.NAME, path.NAME or body")
            }
            if pointer != nil, case .exchange(_, let kind) = self, kind != .body(pointer: pointer) {
                throw RuntimeExpressionError("only a body takes a JSON pointer (#/…)")
            }
        case "inputs": self = .inputs(try named("an input's name"), pointer: pointer)
        case "outputs": self = .outputs(try named("an output's name"), pointer: pointer)
        case "steps":
            let path = try named("a step's id")
            if let range = path.firstRange(of: ".outputs.") {
                let output = String(path[range.upperBound...])
                guard !output.isEmpty else { throw RuntimeExpressionError("'.outputs.' needs an output's name") }
                self = .step(String(path[..<range.lowerBound]), output: output, pointer: pointer)
            } else if path.hasSuffix(".outputs") {
                self = .step(String(path.dropLast(".outputs".count)), output: nil, pointer: pointer)
            } else {
                guard !path.contains(".") else {
                    throw RuntimeExpressionError("after '$steps.ID' comes '.outputs.NAME'")
                }
                self = .step(path, output: nil, pointer: pointer)
            }
        case "workflows":
            let path = try named("a workflow's id")
            let pieces = path.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            self = .workflow(String(pieces[0]), rest: pieces.count > 1 ? String(pieces[1]) : "")
        case "sourceDescriptions":
            let path = try named("a source description's name")
            let pieces = path.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            self = .source(String(pieces[0]), rest: pieces.count > 1 ? String(pieces[1]) : "")
        case "components":
            let path = try named("a component's kind and name")
            let pieces = path.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard pieces.count == 2, !pieces[1].isEmpty else {
                throw RuntimeExpressionError("'$components.' takes KIND.NAME, such as parameters.page")
            }
            self = .component(kind: String(pieces[0]), name: String(pieces[1]))
        default:
            throw RuntimeExpressionError(
                "'$\(head)' is not a runtime expression; expected $url, $method, $statusCode, $request, $response, "
                    + "$inputs, $outputs, $steps, $workflows, $sourceDescriptions or $components")
        }
    }

    /// Reads an expression as `init(parsing:)` does, and three slips documents make, saying so
    /// in `correction`: `$steps.ID.NAME`, which leaves out `.outputs`; `$response.body.a.b` for
    /// `$response.body#/a/b`; `$response.headers.X` for `$response.header.X`.
    public static func lenient(_ text: String) throws(RuntimeExpressionError) -> (
        expression: RuntimeExpression, correction: String?
    ) {
        do {
            return (try RuntimeExpression(parsing: text), nil)
        } catch {
            let (body, pointer) = splitPointer(text)
            let parts = body.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, !parts[1].isEmpty, !parts[2].isEmpty else { throw error }
            let corrected: String
            let what: String
            switch (parts[0], parts[1]) {
            case ("$response", "body"),
                ("$request", "body") where pointer == nil:
                // `$response.body.links.self` for `$response.body#/links/self`.
                let tokens = parts[2].split(separator: ".").map {
                    String($0).replacing("~", with: "~0").replacing("/", with: "~1")
                }
                corrected = "\(parts[0]).body#/" + tokens.joined(separator: "/")
                what = "a member of the body"
            case ("$response", "headers"), ("$request", "headers"):
                corrected = "\(parts[0]).header.\(parts[2])"
                what = "a header"
            case ("$steps", _):
                corrected = "$steps.\(parts[1]).outputs.\(parts[2])" + (pointer.map { "#" + $0 } ?? "")
                what = "a step's output"
            default:
                throw error
            }
            return (try RuntimeExpression(parsing: corrected), "read as \(corrected), which names \(what)")
        }
    }

    /// The text before `#` and the JSON pointer after it.
    static func splitPointer(_ text: String) -> (String, String?) {
        guard let hash = text.firstIndex(of: "#") else { return (text, nil) }
        return (String(text[..<hash]), String(text[text.index(after: hash)...]))
    }

    /// A JSON pointer is empty or starts with `/`, and `~` only escapes `0` or `1`.
    static func checkPointer(_ pointer: String) throws(RuntimeExpressionError) {
        guard pointer.isEmpty || pointer.hasPrefix("/") else {
            throw RuntimeExpressionError("a JSON pointer after '#' starts with '/'")
        }
        var rest = Substring(pointer)
        while let tilde = rest.firstIndex(of: "~") {
            let next = rest.index(after: tilde)
            guard next < rest.endIndex, rest[next] == "0" || rest[next] == "1" else {
                throw RuntimeExpressionError("in a JSON pointer, '~' is followed by 0 or 1")
            }
            rest = rest[next...]
        }
    }

    /// The JSON pointer's tokens, unescaped: `/0/id` is `["0", "id"]`.
    public static func tokens(ofPointer pointer: String) -> [String] {
        pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            String($0).replacing("~1", with: "/").replacing("~0", with: "~")
        }
    }

    /// The expressions a text embeds as `{$…}`, with the literal text between them.
    public static func embedded(in text: String) throws(RuntimeExpressionError) -> [Piece] {
        var pieces: [Piece] = []
        var literal = ""
        var rest = Substring(text)
        while let open = rest.firstRange(of: "{$") {
            literal += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else {
                throw RuntimeExpressionError("the '{$' is never closed with '}'")
            }
            if !literal.isEmpty { pieces.append(.text(literal)) }
            literal = ""
            pieces.append(.expression(try RuntimeExpression(parsing: "$" + rest[open.upperBound..<close])))
            rest = rest[rest.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty { pieces.append(.text(literal)) }
        return pieces
    }

    /// Literal text, or an embedded expression.
    public enum Piece: Sendable, Hashable {
        case text(String)
        case expression(RuntimeExpression)
    }
}

/// Why a runtime expression, a condition or an option naming a source could not be read.
public struct RuntimeExpressionError: Error, Sendable, CustomStringConvertible {
    public var description: String

    init(_ description: String) { self.description = description }
}
