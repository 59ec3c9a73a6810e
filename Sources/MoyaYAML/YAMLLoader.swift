import CLibYAML

/// Why a file could not be read as YAML: libyaml's problem, its context, and their marks.
public struct YAMLSyntaxError: Error, Sendable {
    /// What libyaml found wrong.
    public var problem: String
    /// Where the problem is.
    public var mark: Mark
    /// What libyaml was reading when it found it, if it says.
    public var context: String?
    /// Where that reading started.
    public var contextMark: Mark?
    /// What the problem usually means, in plain words, when it is one a spec often meets.
    public var explanation: String?

    /// Creates an error.
    public init(
        problem: String, mark: Mark, context: String? = nil, contextMark: Mark? = nil, explanation: String? = nil
    ) {
        self.problem = problem
        self.mark = mark
        self.context = context
        self.contextMark = contextMark
        self.explanation = explanation
    }

    /// The problem and its context as one phrase, then its explanation.
    public var message: String {
        var text = problem
        if let context, let contextMark {
            text += " (\(context) at \(contextMark.line):\(contextMark.column))"
        }
        if let explanation { text += ": " + explanation }
        return text
    }
}

/// Loads YAML text into a tree of `YAMLNode`s with libyaml's document API.
public enum YAMLLoader {
    /// How many nodes aliases may expand a document into before it is refused.
    public static let maximumNodes = 2_000_000
    /// How deeply sequences and mappings may nest; deeper is refused, so that nothing that
    /// walks the tree recurses without a bound.
    public static let maximumDepth = 512

    /// Loads the single document in `bytes`; an empty document gives nil.
    public static func load(_ bytes: [UInt8]) throws(YAMLSyntaxError) -> YAMLNode? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw YAMLSyntaxError(problem: "libyaml could not start", mark: Mark(line: 1, column: 1))
        }
        defer { yaml_parser_delete(&parser) }

        try checkFlowDepth(bytes)
        return try bytes.withUnsafeBufferPointer { buffer throws(YAMLSyntaxError) -> YAMLNode? in
            // A byte order mark is skipped here: with the encoding set, libyaml would read it
            // as text. The builder's offsets count it (`markLength`).
            let mark = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            yaml_parser_set_input_string(&parser, buffer.baseAddress.map { $0 + mark }, buffer.count - mark)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)

            var document = yaml_document_t()
            guard yaml_parser_load(&parser, &document) == 1 else { throw syntaxError(parser, bytes) }
            defer { yaml_document_delete(&document) }
            guard let root = yaml_document_get_root_node(&document) else { return nil }

            var builder = TreeBuilder(document: &document, source: buffer)
            let tree = try builder.build(root)

            var next = yaml_document_t()
            guard yaml_parser_load(&parser, &next) == 1 else { throw syntaxError(parser, bytes) }
            defer { yaml_document_delete(&next) }
            if let extra = yaml_document_get_root_node(&next) {
                throw YAMLSyntaxError(
                    problem: "a spec file holds one YAML document; found a second one",
                    mark: Mark(extra.pointee.start_mark))
            }
            return tree
        }
    }

    /// Refuses flow collections (`[` and `{`) nested past `maximumDepth` before libyaml sees
    /// them: its scanner looks at every open flow level for each token, so deep nesting costs
    /// it quadratic time (100,000 `[` take most of a minute). Quoted scalars and comments are
    /// skipped; a quote counts only where a scalar can start, so an apostrophe inside plain
    /// text cannot hide brackets.
    static func checkFlowDepth(_ bytes: [UInt8]) throws(YAMLSyntaxError) {
        let tooDeep: Int? = bytes.withUnsafeBufferPointer { buffer in
            var depth = 0
            var index = 0
            // The last byte on this line that was not a space or tab; 0 at a line's start.
            var previous: UInt8 = 0
            let count = buffer.count
            while index < count {
                let byte = buffer[index]
                switch byte {
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                    if depth > maximumDepth { return index }
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth = max(depth - 1, 0)
                case UInt8(ascii: "#") where previous == 0 || buffer[index - 1] == 0x20 || buffer[index - 1] == 0x09:
                    while index < count, buffer[index] != UInt8(ascii: "\n") { index += 1 }
                    previous = 0
                    index += 1
                    continue
                case UInt8(ascii: "'"), UInt8(ascii: "\""):
                    guard Self.startsScalar(previous) else { break }
                    index += 1
                    while index < count {
                        let current = buffer[index]
                        if byte == UInt8(ascii: "\""), current == UInt8(ascii: "\\") {
                            index += 2
                            continue
                        }
                        if current == byte {
                            // '' inside a single-quoted scalar is one quote.
                            guard byte == UInt8(ascii: "'"), index + 1 < count, buffer[index + 1] == byte else { break }
                            index += 1
                        }
                        index += 1
                    }
                case UInt8(ascii: "\n"):
                    previous = 0
                    index += 1
                    continue
                default:
                    break
                }
                if index < count, byte != 0x20, byte != 0x09 { previous = byte }
                index += 1
            }
            return nil
        }
        guard let tooDeep else { return }
        // Where it happened, counted only now that it is needed.
        var line = 1
        var lineStart = 0
        for index in 0..<tooDeep where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        throw YAMLSyntaxError(
            problem: "sequences and mappings nest more than \(maximumDepth) levels deep",
            mark: Mark(line: line, column: tooDeep - lineStart + 1))
    }

    /// Whether a quote after `previous` starts a quoted scalar: at a line's start, or after
    /// a flow indicator, a key's colon, or a sequence or mapping-key indicator.
    private static func startsScalar(_ previous: UInt8) -> Bool {
        switch previous {
        case 0, UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "-"),
            UInt8(ascii: "?"):
            true
        default:
            false
        }
    }

    private static func syntaxError(_ parser: yaml_parser_t, _ bytes: [UInt8]) -> YAMLSyntaxError {
        let problem = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
        let context = parser.context.map { String(cString: $0) }
        var mark = Mark(parser.problem_mark)
        if parser.error == YAML_READER_ERROR {
            // The reader reports a byte offset rather than a line and column.
            mark = Mark(line: 1, column: 1)
            return YAMLSyntaxError(
                problem: "\(problem) at byte \(parser.problem_offset)", mark: mark, context: nil,
                contextMark: nil)
        }
        return YAMLSyntaxError(
            problem: problem, mark: mark, context: context,
            contextMark: context == nil ? nil : Mark(parser.context_mark),
            explanation: explanation(
                of: problem, context: context, at: mark, contextMark: Mark(parser.context_mark), in: bytes))
    }

    /// The plain-language sentence for a problem at `mark`, from the text around it.
    static func explanation(
        of problem: String, context: String?, at mark: Mark, contextMark: Mark, in bytes: [UInt8]
    ) -> String? {
        switch (problem, context) {
        case ("did not find expected key", "while parsing a block mapping"?):
            let mapping = "the mapping at \(contextMark.line):\(contextMark.column)"
            if mark.column == contextMark.column {
                // In line with the keys, but no key: most often a list item.
                guard character(at: mark, in: bytes) == "-" else { return "a key of \(mapping) goes here" }
                return "this '- ' item stands among the keys of \(mapping); a list goes under a key, "
                    + "indented further than the key"
            }
            // The line lines up with no key of the mappings it could end or continue.
            return "this line is indented \(mark.column - 1) spaces, which lines up with no key above it "
                + "(the mapping at \(contextMark.line):\(contextMark.column) indents its keys "
                + "\(contextMark.column - 1)); indent it as far as the keys or items it belongs with"
        case ("found unexpected end of stream", "while scanning a quoted scalar"?):
            return "the quote at \(contextMark.line):\(contextMark.column) is never closed"
        case ("did not find expected ',' or '}'", "while parsing a flow mapping"?) where mark.line > contextMark.line,
            ("did not find expected ',' or ']'", "while parsing a flow sequence"?) where mark.line > contextMark.line:
            // The problem is lines after the bracket opened: most often the closing one is
            // missing, not a value without quotes.
            let (open, close) = context == "while parsing a flow mapping" ? ("{", "}") : ("[", "]")
            return "the '\(open)' at \(contextMark.line):\(contextMark.column) is never closed; end it with "
                + "'\(close)' on its line, or quote a value inside that holds '\(open)' or '\(close)'"
        default:
            return explanation(of: problem, at: character(at: mark, in: bytes), line: line(of: mark, in: bytes))
        }
    }

    /// A plain-language sentence for the libyaml problems a hand-written spec meets most;
    /// `line` is the text of the line the problem is on.
    static func explanation(of problem: String, at character: Unicode.Scalar?, line: Substring = "") -> String? {
        switch problem {
        case "did not find expected ',' or '}'", "did not find expected ',' or ']'":
            // In braces and brackets, `{`, `}`, `[`, `]` and `,` end a plain value: the usual
            // cause is a template written without quotes, `{ id: {id} x }`.
            if let name = reference(in: line) {
                return "inside { } or [ ], a value that holds {\(name)} needs quotes: write \"{\(name)}\", "
                    + "or quote the whole text around it"
            }
            return "inside { } or [ ], a value that holds '{', '}', '[', ']' or ',' needs quotes"
        case "found a tab character that violates indentation",
            "found a tab character where an indentation space is expected":
            return "YAML indents with spaces, and this line has a tab"
        case "found character that cannot start any token":
            if character == "\t" { return "YAML indents with spaces, and this line has a tab" }
            if let character, "@`%!&*|>".unicodeScalars.contains(character) {
                return "a plain value cannot start with '\(character)'; put the value in quotes"
            }
            return "this character cannot start a value here; put the value in quotes"
        case "mapping values are not allowed in this context":
            return "a key here is indented more than the key before it, or a plain value holds ': '; "
                + "check the indentation, or put the value in quotes"
        case "did not find expected key":
            return "a line here is indented less than the keys around it, or a quote is not closed"
        case "did not find expected '-' indicator":
            return "the items of a list start with '- ' at one indentation, and this line lines up with none"
        case "block sequence entries are not allowed in this context":
            return "a '- ' item starts a line of its own, indented under its key"
        case "could not find expected ':'":
            return "a key needs ':' after it, as in 'method: GET', and a value on more than one line needs quotes"
        default:
            return nil
        }
    }

    /// Whether `byte` may stand in a spec's name (a param's, a flow variable's): a letter or
    /// `_`, then digits and `-` too. The rule `ParamSpec` names are held to.
    package static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
            true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
            !first
        default:
            false
        }
    }

    /// The first `{name}` in a line, a param's or a flow variable's reference.
    static func reference(in line: Substring) -> String? {
        var rest = line
        while let open = rest.firstIndex(of: "{") {
            rest = rest[rest.index(after: open)...]
            let name = rest.prefix { $0 != "}" }
            if name.endIndex < rest.endIndex, !name.isEmpty,
                name.utf8.enumerated().allSatisfy({ isNameByte($1, first: $0 == 0) })
            {
                return String(name)
            }
        }
        return nil
    }

    /// The text of the line `mark` is on, empty past the end.
    static func line(of mark: Mark, in bytes: [UInt8]) -> Substring {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard mark.line >= 1, mark.line <= lines.count else { return "" }
        return Substring(decoding: lines[mark.line - 1], as: UTF8.self)
    }

    /// The character at `mark` (line and column from 1), if the text has one there.
    static func character(at mark: Mark, in bytes: [UInt8]) -> Unicode.Scalar? {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard mark.line >= 1, mark.line <= lines.count, mark.column >= 1 else { return nil }
        let scalars = lines[mark.line - 1].unicodeScalars
        return scalars.dropFirst(mark.column - 1).first
    }
}

extension Mark {
    package init(_ mark: yaml_mark_t) {
        self.init(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }
}

/// Turns libyaml's node table into a tree, refusing cycles and runaway alias expansion.
private struct TreeBuilder {
    let nodes: UnsafeMutablePointer<yaml_node_t>
    var inProgress: [Bool]
    var produced = 0
    var depth = 0
    /// How many nodes the document itself holds; a tree larger than that came from aliases.
    let written: Int

    /// The text the document was read from, to tell a tag the spec wrote from libyaml's default.
    let source: UnsafeBufferPointer<UInt8>

    /// Where the last lookup of a character's byte ended, to go on from.
    private var cursor: (character: Int, byte: Int)
    /// The bytes of a leading byte order mark, which libyaml's count leaves out.
    private let markLength: Int

    init(document: UnsafeMutablePointer<yaml_document_t>, source: UnsafeBufferPointer<UInt8>) {
        self.source = source
        nodes = document.pointee.nodes.start
        written = document.pointee.nodes.top - document.pointee.nodes.start
        inProgress = Array(repeating: false, count: written + 1)
        markLength = source.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        cursor = (0, markLength)
    }

    /// Whether a scalar is tagged `!!str` (or `!<tag:yaml.org,2002:str>`) in the text: libyaml
    /// gives every untagged scalar that tag too, but a node the spec tagged starts at its `!`.
    mutating func isWrittenStringTag(_ node: yaml_node_t) -> Bool {
        guard let tag = node.tag, String(cString: tag) == "tag:yaml.org,2002:str" else { return false }
        let index = byteOffset(ofCharacter: Int(node.start_mark.index))
        return index < source.count && source[index] == UInt8(ascii: "!")
    }

    /// The byte where libyaml's character `index` starts: its marks count characters, not
    /// bytes. Nodes come mostly in text order, so the walk goes on from the last lookup, and
    /// starts again only for one before it (an alias's).
    private mutating func byteOffset(ofCharacter index: Int) -> Int {
        if index < cursor.character { cursor = (0, markLength) }
        var (character, byte) = cursor
        while character < index, byte < source.count {
            byte += 1
            while byte < source.count, source[byte] & 0xC0 == 0x80 { byte += 1 }
            character += 1
        }
        cursor = (character, byte)
        return byte
    }

    mutating func build(_ node: UnsafeMutablePointer<yaml_node_t>) throws(YAMLSyntaxError) -> YAMLNode {
        try build(index: nodes.distance(to: node) + 1)
    }

    mutating func build(index: Int) throws(YAMLSyntaxError) -> YAMLNode {
        let node = nodes[index - 1]
        let mark = Mark(node.start_mark)
        produced += 1
        guard produced <= YAMLLoader.maximumNodes else {
            let problem =
                written > YAMLLoader.maximumNodes
                ? "the document has more than \(YAMLLoader.maximumNodes) nodes, more than a spec can hold"
                : "aliases expand to more than \(YAMLLoader.maximumNodes) nodes"
            throw YAMLSyntaxError(problem: problem, mark: mark)
        }
        switch node.type {
        case YAML_SCALAR_NODE:
            let scalar = node.data.scalar
            let text = String(
                decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            var style: YAMLNode.ScalarStyle = scalar.style == YAML_PLAIN_SCALAR_STYLE ? .plain : .quoted
            if isWrittenStringTag(node) { style = .tagged }
            return YAMLNode(.scalar(text, style), mark: mark)
        case YAML_SEQUENCE_NODE:
            try enter(index, mark)
            defer { leave(index) }
            var items: [YAMLNode] = []
            items.reserveCapacity(node.data.sequence.items.start.map { node.data.sequence.items.top - $0 } ?? 0)
            var item = node.data.sequence.items.start
            while let current = item, current != node.data.sequence.items.top {
                items.append(try build(index: Int(current.pointee)))
                item = current + 1
            }
            return YAMLNode(.sequence(items), mark: mark)
        case YAML_MAPPING_NODE:
            try enter(index, mark)
            defer { leave(index) }
            var pairs: [(key: YAMLNode, value: YAMLNode)] = []
            pairs.reserveCapacity(node.data.mapping.pairs.start.map { node.data.mapping.pairs.top - $0 } ?? 0)
            var pair = node.data.mapping.pairs.start
            while let current = pair, current != node.data.mapping.pairs.top {
                let key = try build(index: Int(current.pointee.key))
                let value = try build(index: Int(current.pointee.value))
                pairs.append((key: key, value: value))
                pair = current + 1
            }
            var mapping = YAMLNode(.mapping(pairs), mark: mark)
            mapping.isFlowMapping = node.data.mapping.style == YAML_FLOW_MAPPING_STYLE
            return mapping
        default:
            return YAMLNode(.scalar("", .plain), mark: mark)
        }
    }

    private mutating func enter(_ index: Int, _ mark: Mark) throws(YAMLSyntaxError) {
        guard !inProgress[index] else {
            throw YAMLSyntaxError(problem: "an alias refers to a node that contains it", mark: mark)
        }
        guard depth < YAMLLoader.maximumDepth else {
            throw YAMLSyntaxError(
                problem: "sequences and mappings nest more than \(YAMLLoader.maximumDepth) levels deep", mark: mark)
        }
        inProgress[index] = true
        depth += 1
    }

    private mutating func leave(_ index: Int) {
        inProgress[index] = false
        depth -= 1
    }
}
