import MoyaYAML

/// A JSON-like value from the spec whose strings may hold `{param}` references: a JSON body,
/// a parameter set, a query or a JSON sample.
public indirect enum ValueTemplate: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer.
    case integer(Int)
    /// Any other number.
    case number(Double)
    /// A string, possibly with references.
    case string(Template)
    /// An array.
    case array([ValueTemplate])
    /// An object, its members in order.
    case object([Member])

    /// One member of an object.
    public struct Member: Sendable, Hashable {
        /// The key.
        public var key: String
        /// The value.
        public var value: ValueTemplate
        /// Where the member's key was written.
        public var mark: Mark

        /// Every stored property, as the memberwise initializer takes them, for the compiler's module.
        package init(key: String, value: ValueTemplate, mark: Mark) {
            self.key = key
            self.value = value
            self.mark = mark
        }
    }

    /// Every template inside, depth first.
    public var templates: [Template] {
        switch self {
        case .string(let template): [template]
        case .array(let values): values.flatMap(\.templates)
        case .object(let members): members.flatMap(\.value.templates)
        default: []
        }
    }
}

/// A query or parameter block: a mapping, encoded in Alamofire's order, or a sequence of
/// one-key mappings, encoded in the declared order with repeated keys for arrays.
public struct ParameterBlock: Sendable, Hashable {
    /// The entries as declared.
    public var entries: [ValueTemplate.Member]
    /// Whether the block was a sequence, so that its order and repetition are kept.
    public var isOrdered: Bool

    /// Every template inside.
    public var templates: [Template] { entries.flatMap(\.value.templates) }

    /// Every stored property, as the memberwise initializer takes them, for the compiler's module.
    package init(entries: [ValueTemplate.Member], isOrdered: Bool) {
        self.entries = entries
        self.isOrdered = isOrdered
    }
}
