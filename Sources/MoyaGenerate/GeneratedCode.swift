/// A Swift expression, laid out as swift-format lays it out: on one line when it fits in
/// 120 columns, else broken after each opening bracket, one argument or element per line.
indirect enum Code {
    /// Text that is never broken.
    case raw(String)
    /// `name(label: value, …)`; an empty name is a tuple.
    case call(String, [(label: String?, value: Code)])
    /// `[a, b]`.
    case list([Code])
    /// `Data(…utf8)` of text with line breaks, as a multi-line string literal.
    case textData(String)

    static let width = 120

    /// `name(value)`, unlabelled.
    static func call(_ name: String, _ values: Code...) -> Code {
        .call(name, values.map { (label: nil, value: $0) })
    }

    /// The expression on one line.
    var flat: String {
        switch self {
        case .raw(let text): text
        case .call(let name, let arguments):
            name + "(" + arguments.map { ($0.label.map { "\($0): " } ?? "") + $0.value.flat }.joined(separator: ", ")
                + ")"
        case .list(let items): "[" + items.map(\.flat).joined(separator: ", ") + "]"
        case .textData(let text): "Data(\(SwiftName.literal(text)).utf8)"
        }
    }

    /// The expression's lines at `indent`, after `lead` and before `trail`.
    func lines(indent: String, lead: String = "", trail: String = "") -> [String] {
        let inner = indent + "    "
        if case .textData(let text) = self {
            // Of each run of three quotes the third is escaped, so that none closes the literal.
            let body = text.replacing("\\", with: "\\\\").replacing("\"\"\"", with: "\"\"\\\"")
            let content = body.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.isEmpty ? "" : inner + $0
            }
            return [indent + lead + "Data(", inner + "\"\"\""] + content + [inner + "\"\"\".utf8)" + trail]
        }
        let single = indent + lead + flat + trail
        if single.count <= Self.width { return [single] }
        switch self {
        case .raw, .textData:
            return [single]
        case .call(let name, let arguments):
            if arguments.count == 1, arguments[0].label == nil, case .list(let items) = arguments[0].value {
                return [indent + lead + name + "(["] + Self.elements(items, inner) + [indent + "])" + trail]
            }
            // A call keeps its closing parenthesis on its last argument's line; a tuple puts
            // it on a line of its own.
            let isTuple = name.isEmpty
            var lines = [indent + lead + name + "("]
            for (index, argument) in arguments.enumerated() {
                let isLast = index == arguments.count - 1
                let end = isLast ? (isTuple ? "" : ")" + trail) : ","
                lines += argument.value.lines(indent: inner, lead: argument.label.map { "\($0): " } ?? "", trail: end)
            }
            if isTuple { lines.append(indent + ")" + trail) }
            return lines
        case .list(let items):
            return [indent + lead + "["] + Self.elements(items, inner) + [indent + "]" + trail]
        }
    }

    /// A broken collection's elements, each followed by a comma unless it is the only one.
    private static func elements(_ items: [Code], _ indent: String) -> [String] {
        items.flatMap { $0.lines(indent: indent, trail: items.count == 1 ? "" : ",") }
    }
}
