import MoyaYAML

/// A string with `{param}` references, parsed once when the spec is compiled.
///
/// Only `{name}` with a param-like name is a reference, so JSON text and other braces pass
/// through; `{{` and `}}` always stand for one literal brace.
public struct Template: Sendable, Hashable, CustomStringConvertible {
    /// A run of literal text or one param reference.
    public enum Segment: Sendable, Hashable {
        /// Literal text.
        case literal(String)
        /// The value of the named param.
        case param(String)
        /// The value of an environment variable, `${name}` in the spec. Where it stands in a
        /// header, `auth:`, a query or a body, the value is a secret.
        case environment(name: String, value: String)
        /// `${name:-value}` with the variable unset where the spec was compiled: the spec's
        /// own text, sent and printed as written and never a secret, kept as a reference so
        /// that generated code and exports read the variable instead.
        case environmentDefault(name: String, value: String)

        /// The variable and its value, compiled or the written default, for an environment
        /// reference of either kind.
        public var variable: (name: String, value: String)? {
            switch self {
            case .environment(let name, let value), .environmentDefault(let name, let value): (name, value)
            case .literal, .param: nil
            }
        }
    }

    // Most templates in a spec are plain text; keeping those as one string spares an array.
    private enum Storage: Sendable, Hashable {
        case text(String)
        case segments([Segment])
    }

    private var storage: Storage
    /// Where the template was written.
    public var mark: Mark
    /// Whether the value stays text where a whole `{param}` would take the param's type: the
    /// spec tagged it `!!str`, as a sample that echoes `"2"` for `--page 2` does.
    public var keepsText = false

    /// The segments in order.
    public var segments: [Segment] {
        switch storage {
        case .text(let text): text.isEmpty ? [] : [.literal(text)]
        case .segments(let segments): segments
        }
    }

    /// A template of pieces: spec text, parsed for references, and environment values, kept
    /// apart so that they stay marked as the environment's.
    /// With `references: false`, braces in the text are plain text.
    package init(pieces: [EnvironmentPiece], mark: Mark, references: Bool = true) {
        if pieces.count == 1, case .text(let text) = pieces[0] {
            if references { self.init(text, mark: mark) } else { self.init(literal: text, mark: mark) }
            return
        }
        var segments: [Segment] = []
        for piece in pieces {
            switch piece {
            case .text(let text): segments += references ? Template(text).segments : [.literal(text)]
            case .environment(let name, let value): segments.append(.environment(name: name, value: value))
            case .environmentDefault(let name, let value):
                segments.append(.environmentDefault(name: name, value: value))
            }
        }
        self.init(storage: .segments(segments), mark: mark)
    }

    private init(storage: Storage, mark: Mark) {
        self.storage = storage
        self.mark = mark
    }

    /// Parses a template.
    public init(_ text: String, mark: Mark = Mark(line: 0, column: 0)) {
        self.mark = mark
        if BraceText.hasBrace(text) {
            storage = .segments(Template.parse(text))
        } else {
            storage = .text(text)
        }
    }

    /// A template that is only literal text.
    public init(literal text: String, mark: Mark = Mark(line: 0, column: 0)) {
        self.mark = mark
        storage = .text(text)
    }

    /// Whether the template is only environment references that all came out empty, as an
    /// unset `${TOKEN:-}` does: a credential that is not there, which is left out rather than
    /// sent empty.
    /// `values` are those bound after compiling (`ServiceSpec.binding(_:)`).
    public func isEmptyEnvironment(binding values: [String: String]) -> Bool {
        isOnlyEnvironment
            && segments.allSatisfy {
                if case .environment(let name, let value) = $0 { (values[name] ?? value).isEmpty } else { false }
            }
    }

    /// Whether the template names an environment variable, set where the spec was compiled
    /// or standing at its default: what generated code and exports read when they run.
    public var namesVariables: Bool {
        segments.contains { $0.variable != nil }
    }

    /// Whether the template is only variable references, set or at their defaults.
    public var isOnlyVariables: Bool {
        !segments.isEmpty && segments.allSatisfy { $0.variable != nil }
    }

    /// Whether the template is only environment references, with no text or param of its own.
    public var isOnlyEnvironment: Bool {
        guard case .segments(let segments) = storage, !segments.isEmpty else { return false }
        return segments.allSatisfy { if case .environment = $0 { true } else { false } }
    }

    /// The param whose typed value is the value: `wholeParam`, unless the template keeps text.
    public var typedParam: String? { keepsText ? nil : wholeParam }

    /// The param's name when the whole template is one reference: left out when that param
    /// is, and its typed value is used unless the template keeps text.
    public var wholeParam: String? {
        if case .segments(let segments) = storage, segments.count == 1, case .param(let name) = segments[0] {
            return name
        }
        return nil
    }

    /// Every param the template refers to, in order.
    public var params: [String] {
        guard case .segments(let segments) = storage else { return [] }
        return segments.compactMap {
            if case .param(let name) = $0 { return name }
            return nil
        }
    }

    /// The template as written, with literal braces doubled again.
    public var description: String {
        writtenWithTextBraces(keeping: Set(params))
    }

    /// Whether the template's literal text has a brace.
    public var hasLiteralBraces: Bool {
        // Asked of every template a spec compiles: plain text is looked at without making segments.
        switch storage {
        case .text(let text): return BraceText.hasBrace(text)
        case .segments(let segments):
            return segments.contains { if case .literal(let text) = $0 { BraceText.hasBrace(text) } else { false } }
        }
    }

    /// Whether the literal text holds `{name}`, written `{{name}}`.
    public func writesLiterally(_ name: String) -> Bool {
        segments.contains { if case .literal(let text) = $0 { text.contains("{\(name)}") } else { false } }
    }

    /// The template as it should be written when only `declared` are params: each other
    /// reference and every literal brace doubled.
    public func writtenWithTextBraces(keeping declared: Set<String>) -> String {
        segments.map { segment in
            switch segment {
            case .literal(let text): text.replacing("{", with: "{{").replacing("}", with: "}}")
            case .param(let name): declared.contains(name) ? "{\(name)}" : "{{\(name)}}"
            case .environment(let name, _): "${\(name)}"
            case .environmentDefault(_, let value): value.replacing("{", with: "{{").replacing("}", with: "}}")
            }
        }.joined()
    }

    /// Whether any of the template's text came from the environment.
    public var readsEnvironment: Bool {
        segments.contains { if case .environment = $0 { true } else { false } }
    }

    /// The literal text when there are no references.
    public var literalText: String? {
        if case .text(let text) = storage { return text }
        guard params.isEmpty, !readsEnvironment else { return nil }
        return segments.map {
            switch $0 {
            case .literal(let text), .environmentDefault(_, let text): text
            case .param, .environment: ""
            }
        }.joined()
    }

    private static func parse(_ text: String) -> [Segment] {
        BraceText.split(text) { bytes, start in
            referenceEnd(bytes, from: start).map { (String(decoding: bytes[start..<$0], as: UTF8.self), $0) }
        }.map { piece in
            switch piece {
            case .literal(let text): .literal(text)
            case .reference(let name): .param(name)
            }
        }
    }

    /// The index of the `}` closing a reference whose name starts at `start`, if it is one.
    private static func referenceEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < bytes.count, ParamSpec.isNameByte(bytes[index], first: index == start) { index += 1 }
        guard index > start, index < bytes.count, bytes[index] == UInt8(ascii: "}") else { return nil }
        return index
    }
}

/// Text split at `{…}` references, with `{{` and `}}` each read as one literal brace: the
/// brace rule of params' templates and of flows' variable templates alike.
package enum BraceText {
    /// Whether `text` has a `{` or a `}`: whether it may hold a reference or a doubled brace.
    package static func hasBrace(_ text: some StringProtocol) -> Bool {
        text.utf8.contains { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }
    }

    /// A run of literal text or one reference.
    enum Piece<Reference> {
        case literal(String)
        case reference(Reference)
    }

    /// The pieces of `text`. `reference` reads the reference whose name starts at a byte
    /// offset, returning it with the offset of its closing `}`, or nil when the `{` is text.
    static func split<Reference>(
        _ text: String, reference: ([UInt8], Int) -> (Reference, Int)?
    ) -> [Piece<Reference>] {
        let bytes = Array(text.utf8)
        var pieces: [Piece<Reference>] = []
        var literal: [UInt8] = []
        var index = 0
        func flush() {
            if !literal.isEmpty {
                pieces.append(.literal(String(decoding: literal, as: UTF8.self)))
                literal.removeAll()
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            if (byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}")) && next == byte {
                literal.append(byte)
                index += 2
            } else if byte == UInt8(ascii: "{"), let (found, end) = reference(bytes, index + 1) {
                flush()
                pieces.append(.reference(found))
                index = end + 1
            } else {
                literal.append(byte)
                index += 1
            }
        }
        flush()
        return pieces
    }
}

/// A stretch of a scalar after `${VAR}` interpolation.
package enum EnvironmentPiece: Equatable {
    /// Text written in the spec.
    case text(String)
    /// A variable's value.
    case environment(name: String, value: String)
    /// The default of `${VAR:-default}`, the variable unset: spec text that remembers the
    /// variable. A default with a brace is text, so that its `{param}`s stay references.
    case environmentDefault(name: String, value: String)

    /// The text the spec wrote here: a default's, and nothing for a variable's value.
    package var specText: String {
        switch self {
        case .text(let text), .environmentDefault(_, let text): text
        case .environment: ""
        }
    }
}
