import MoyaHTTP

/// Text in a flow with `{variable}` references: `{userId}`, `{user.address.city}`,
/// `{item.id}`, `{ids.0}`, and the built-ins `{$uuid}`, `{$now}` and `{$timestamp}`.
/// `{{` and `}}` stand for one literal brace.
public struct VariableTemplate: Sendable, Hashable, CustomStringConvertible {
    /// A run of text or one reference.
    public enum Segment: Sendable, Hashable {
        /// Literal text.
        case literal(String)
        /// A variable, or a member inside one.
        case reference(Reference)
        /// An environment variable's value, `${NAME}`: always a secret.
        case environment(name: String, value: String)
    }

    /// A reference to a variable and the path inside its value.
    public struct Reference: Sendable, Hashable, CustomStringConvertible {
        /// The variable's name; `$uuid`, `$now` and `$timestamp` are built in.
        public var name: String
        /// Member names or array indices inside the value.
        public var path: [String]

        /// Whether the name is a built-in.
        public var isBuiltIn: Bool { name.hasPrefix("$") }

        /// The built-in names.
        public static let builtIns = ["$uuid", "$now", "$timestamp"]

        public var description: String { ([name] + path).joined(separator: ".") }
    }

    /// The segments, in order.
    public var segments: [Segment]

    /// The references, in order.
    public var references: [Reference] {
        segments.compactMap {
            if case .reference(let reference) = $0 { return reference }
            return nil
        }
    }

    /// The reference when the template is exactly one, whose value keeps its JSON type.
    public var wholeReference: Reference? {
        if segments.count == 1, case .reference(let reference) = segments[0] { return reference }
        return nil
    }

    /// Parses spec text, keeping environment values apart.
    package init(pieces: [EnvironmentPiece]) {
        var segments: [Segment] = []
        for piece in pieces {
            switch piece {
            case .text(let text), .environmentDefault(_, let text): segments += Self.parse(text)
            case .environment(let name, let value): segments.append(.environment(name: name, value: value))
            }
        }
        self.segments = segments
    }

    /// Parses text with references.
    public init(_ text: String) {
        segments = Self.parse(text)
    }

    /// Whether `text` holds a reference, so that it needs to be a template.
    public static func hasReference(_ text: String) -> Bool {
        Self.parse(text).contains { if case .reference = $0 { true } else { false } }
    }

    public var description: String {
        segments.map { segment in
            switch segment {
            case .literal(let text): text.replacing("{", with: "{{").replacing("}", with: "}}")
            case .reference(let reference): "{\(reference)}"
            case .environment(let name, _): "${\(name)}"
            }
        }.joined()
    }

    private static func parse(_ text: String) -> [Segment] {
        guard BraceText.hasBrace(text) else {
            return text.isEmpty ? [] : [.literal(text)]
        }
        return BraceText.split(text, reference: reference).map { piece in
            switch piece {
            case .literal(let text): .literal(text)
            case .reference(let reference): .reference(reference)
            }
        }
    }

    /// The reference starting at `start` and the index of its closing `}`, if one is there.
    private static func reference(_ bytes: [UInt8], from start: Int) -> (Reference, Int)? {
        var index = start
        var parts: [String] = []
        var partStart = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "$") { index += 1 }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "}") || byte == UInt8(ascii: ".") {
                guard index > partStart else { return nil }
                let part = String(decoding: bytes[partStart..<index], as: UTF8.self)
                if parts.isEmpty {
                    let name = part.hasPrefix("$") ? String(part.dropFirst()) : part
                    guard ParamSpec.isValidParamName(name) else { return nil }
                } else {
                    guard part.utf8.allSatisfy({ ParamSpec.isNameByte($0, first: false) }) else { return nil }
                }
                parts.append(part)
                if byte == UInt8(ascii: "}") {
                    return (Reference(name: parts[0], path: Array(parts.dropFirst())), index)
                }
                index += 1
                partStart = index
                continue
            }
            guard ParamSpec.isNameByte(byte, first: false) else { return nil }
            index += 1
        }
        return nil
    }
}
