import MoyaJSON

/// A position in a YAML file, 1-based, as editors count.
public struct Mark: Sendable, Hashable, Comparable {
    // Stored narrow: a spec holds a mark for nearly every value it compiles.
    private var storedLine: UInt32
    private var storedColumn: UInt32

    /// The line, from 1.
    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = UInt32(clamping: newValue) }
    }

    /// The column, from 1.
    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = UInt32(clamping: newValue) }
    }

    /// Creates a mark.
    public init(line: Int, column: Int) {
        storedLine = UInt32(clamping: line)
        storedColumn = UInt32(clamping: column)
    }

    public static func < (lhs: Mark, rhs: Mark) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

/// One node of a loaded YAML document, with the place it starts.
public struct YAMLNode: Sendable {
    /// How a scalar was written, which decides how it is typed.
    public enum ScalarStyle: Sendable, Hashable {
        /// Unquoted: `true`, `1` and `null` take their YAML types.
        case plain
        /// Quoted or a block scalar: always a string.
        case quoted
        /// Tagged `!!str` in the spec: always a string, and a `{param}` that is the whole of it
        /// stays text rather than taking the param's type (`!!str "{page}"` is `"2"`).
        case tagged
    }

    /// What the node holds.
    public enum Content: Sendable {
        /// A scalar's text and style.
        case scalar(String, ScalarStyle)
        /// A sequence's items.
        case sequence([YAMLNode])
        /// A mapping's pairs in document order.
        case mapping([(key: YAMLNode, value: YAMLNode)])
    }

    /// The node's content.
    public var content: Content
    /// Where the node starts.
    public var mark: Mark
    /// Whether the node is a mapping written in braces, `{ a: 1 }`.
    public var isFlowMapping = false

    /// Creates a node.
    public init(_ content: Content, mark: Mark) {
        self.content = content
        self.mark = mark
    }

    /// The scalar text, or nil for a collection.
    public var scalar: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    /// Whether this is a plain scalar that YAML reads as null (`null`, `~` or nothing).
    public var isNull: Bool {
        guard case .scalar(let text, .plain) = content else { return false }
        return Self.isNull(plain: text)
    }

    /// Whether a plain scalar's text is one YAML reads as null: nothing, `~` or `null`.
    package static func isNull(plain text: String) -> Bool {
        switch text.utf8.count {
        case 0: return true
        case 1: return text == "~"
        case 4: return text == "null" || text == "Null" || text == "NULL"
        default: return false
        }
    }

    /// A word for the node's kind, for error messages.
    public var kindDescription: String {
        switch content {
        case .scalar: isNull ? "null" : "a scalar"
        case .sequence: "a sequence"
        case .mapping: "a mapping"
        }
    }
}

extension YAMLNode {
    /// The node as JSON, its plain scalars typed as a spec's are (`7` an integer, `true` a
    /// boolean, `~` null) and its quoted ones strings. The loader bounds the depth.
    public var jsonValue: JSONValue {
        switch content {
        case .scalar(let text, _):
            return YAMLScalar.plainValue(self) ?? .string(text)
        case .sequence(let items):
            return .array(items.map(\.jsonValue))
        case .mapping(let pairs):
            return .object(pairs.map { (key: $0.key.scalar ?? "", value: $0.value.jsonValue) })
        }
    }
}
