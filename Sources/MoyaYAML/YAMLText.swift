import MoyaJSON

/// JSON values and text written as YAML that reads back the same: what `import openapi`
/// writes a spec with, and what recording writes a sample with. A string is plain where YAML
/// reads it back unchanged, else double-quoted; with `templates`, braces are doubled, as a
/// sample's text is read for `{param}` references; `${` is written `$${`, never expanded.
public enum YAMLText {
    /// The width a line is kept to where a value can be folded.
    public static let width = 100

    // MARK: - JSON as YAML

    /// A JSON value in flow style. With `templates`, braces in strings are doubled, as a
    /// sample's text is read for `{param}` references.
    public static func flow(_ value: JSONValue, templates: Bool) -> String {
        switch value {
        case .null: return "null"
        case .bool(let bool): return bool ? "true" : "false"
        case .integer(let int): return String(int)
        case .number(let double): return JSONValue.format(double)
        case .string(let text): return scalar(templates ? template(text) : text, inFlow: true)
        case .array(let items):
            return items.isEmpty
                ? "[]" : "[ " + items.map { flow($0, templates: templates) }.joined(separator: ", ") + " ]"
        case .object(let members):
            return members.isEmpty
                ? "{}"
                : "{ "
                    + members.map { "\(key($0.key, of: members)): \(flow($0.value, templates: templates))" }
                    .joined(separator: ", ")
                    + " }"
        }
    }

    /// A JSON value in block style under `name`; nested values that fit a line stay in flow
    /// style. The depth is the value's, which the JSON parser bounds.
    public static func block(_ name: String, _ value: JSONValue, indent: Int, templates: Bool = true) -> [String] {
        nested(name + ":", value, indent: indent, templates: templates)
    }

    /// One item of a sequence in block style: `- value`, or `-` over its block.
    static func item(_ value: JSONValue, indent: Int, templates: Bool = true) -> [String] {
        nested("-", value, indent: indent, templates: templates)
    }

    /// `head value` on one line where it fits, else `head` over the value's members or items.
    private static func nested(_ head: String, _ value: JSONValue, indent: Int, templates: Bool) -> [String] {
        let pad = String(repeating: " ", count: indent)
        // The flow form only as far as the line's width: a large value is not written whole
        // at each level it is nested in.
        var budget = width - indent - head.count - 1
        if let flow = flow(value, templates: templates, budget: &budget) { return ["\(pad)\(head) \(flow)"] }
        switch value {
        case .object(let members):
            return ["\(pad)\(head)"]
                + members.flatMap {
                    block(key($0.key, of: members), $0.value, indent: indent + 2, templates: templates)
                }
        case .array(let items):
            return ["\(pad)\(head)"] + items.flatMap { item($0, indent: indent + 2, templates: templates) }
        default:
            return ["\(pad)\(head) \(flow(value, templates: templates))"]
        }
    }

    /// `flow(value)` when it is at most `budget` characters long, which it takes from the
    /// budget; nil as soon as it is longer.
    private static func flow(_ value: JSONValue, templates: Bool, budget: inout Int) -> String? {
        func take(_ text: String) -> String? {
            budget -= text.count
            return budget >= 0 ? text : nil
        }
        switch value {
        case .array(let items) where !items.isEmpty:
            var parts: [String] = []
            guard take("[ ") != nil else { return nil }
            for (index, item) in items.enumerated() {
                if index > 0, take(", ") == nil { return nil }
                guard let part = flow(item, templates: templates, budget: &budget) else { return nil }
                parts.append(part)
            }
            guard take(" ]") != nil else { return nil }
            return "[ " + parts.joined(separator: ", ") + " ]"
        case .object(let members) where !members.isEmpty:
            var parts: [String] = []
            guard take("{ ") != nil else { return nil }
            for (index, member) in members.enumerated() {
                if index > 0, take(", ") == nil { return nil }
                guard let name = take(key(member.key, of: members) + ": "),
                    let part = flow(member.value, templates: templates, budget: &budget)
                else { return nil }
                parts.append(name + part)
            }
            guard take(" }") != nil else { return nil }
            return "{ " + parts.joined(separator: ", ") + " }"
        default:
            return take(flow(value, templates: templates))
        }
    }

    // MARK: - Scalars

    /// Text with `{` and `}` doubled, so that no brace reads as a reference.
    public static func template(_ text: String) -> String {
        guard text.contains(where: { $0 == "{" || $0 == "}" }) else { return text }
        return text.replacing("{", with: "{{").replacing("}", with: "}}")
    }

    /// A key of a sample's object. The one key of an object whose value is null is quoted:
    /// plain, `{ name: null }` reads as `{name}` written without quotes, a mistake the
    /// compiler refuses.
    public static func key(_ text: String, of members: [(key: String, value: JSONValue)]) -> String {
        members.count == 1 && members[0].value == .null ? yamlQuoted(text) : key(text)
    }

    /// A mapping key: plain when it is a name, else quoted. Keys are never expanded.
    public static func key(_ text: String) -> String {
        isPlain(text, inFlow: true) ? text : yamlQuoted(text)
    }

    /// Document text as a scalar: plain when YAML reads it back as the same string, else
    /// double-quoted; never expanded.
    public static func scalar(_ text: String) -> String {
        scalar(text, inFlow: true)
    }

    public static func scalar(_ text: String, inFlow: Bool) -> String {
        isPlain(text, inFlow: inFlow) ? text : quoted(text)
    }

    /// Text that the spec reads as it is: every `${` written `$${`.
    public static func literal(_ text: String) -> String {
        text.contains("${") ? text.replacing("${", with: "$${") : text
    }

    /// Letters, digits and a few safe marks, starting with a letter or `/`, and not a word
    /// YAML reads as a boolean or null.
    public static func isPlain(_ text: String, inFlow: Bool) -> Bool {
        // ASCII letters, digits and ` _./()+-`, by byte; no two spaces in a row.
        var previous: UInt8 = 0
        for (index, byte) in text.utf8.enumerated() {
            let isLetter = (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            if index == 0, !(isLetter || byte == UInt8(ascii: "/")) { return false }
            switch byte {
            case _ where isLetter, 0x30...0x39, UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "/"),
                UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "+"), UInt8(ascii: "-"):
                break
            case UInt8(ascii: " ") where previous != UInt8(ascii: " "):
                break
            default:
                return false
            }
            previous = byte
        }
        guard !text.isEmpty, previous != UInt8(ascii: " ") else { return false }
        return text.utf8.count > 5 || !plainKeywords.contains(text.lowercased())
    }

    /// Words YAML reads as a boolean or null.
    private static let plainKeywords: Set<String> = ["true", "false", "yes", "no", "on", "off", "null", "y", "n"]

    /// Document text, double-quoted and never expanded.
    public static func quoted(_ text: String) -> String {
        yamlQuoted(literal(text))
    }

    /// A double-quoted scalar: JSON's escaping, which YAML reads the same way, and `\u`
    /// escapes for what YAML takes as a line break (NEL, U+2028, U+2029) or refuses raw
    /// (C1 controls, DEL, the byte order mark), and for bidirectional controls, which would
    /// reorder the text a reader sees.
    public static func yamlQuoted(_ text: String) -> String {
        let json = JSONValue.string(text).serialized(escapeSlashes: false)
        guard json.unicodeScalars.contains(where: needsEscape) else { return json }
        var output = ""
        for scalar in json.unicodeScalars {
            if needsEscape(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: false)
                output += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// Whether a double-quoted scalar writes `scalar` as a `\u` escape.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        TerminalText.isControl(scalar) || scalar.value == 0xFEFF
    }
}
