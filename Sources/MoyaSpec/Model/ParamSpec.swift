import MoyaHTTP

/// The type of a target's param.
public indirect enum ParamType: Sendable, Hashable, CustomStringConvertible {
    /// Any text.
    case string
    /// A whole number.
    case int
    /// Any number.
    case number
    /// `true` or `false`.
    case bool
    /// A local file's path; the file must exist when the target is called.
    case file
    /// A repeatable param; each value has the element type.
    case array(ParamType)
    /// One of a fixed set of keys; the CLI takes a key and sends its value.
    case enumeration([EnumCase])

    /// One choice of an enum param.
    public struct EnumCase: Sendable, Hashable {
        /// What the user types.
        public var key: String
        /// What is sent.
        public var value: String
        /// Whether the value reads the environment, and so is a secret.
        public var isFromEnvironment = false

        public init(key: String, value: String, isFromEnvironment: Bool = false) {
            self.key = key
            self.value = value
            self.isFromEnvironment = isFromEnvironment
        }
    }

    /// The type's name as the spec writes it.
    public var description: String {
        switch self {
        case .string: "string"
        case .int: "int"
        case .number: "number"
        case .bool: "bool"
        case .file: "file"
        case .array(let element): "[\(element)]"
        case .enumeration(let cases): "enum(\(cases.map(\.key).joined(separator: "|")))"
        }
    }

    /// Whether values of this type repeat.
    public var isArray: Bool {
        if case .array = self { return true }
        return false
    }

    /// The scalar type names a spec may use.
    static let scalarNames = ["string", "int", "number", "bool", "file"]

    /// Reads a scalar type name, `[T]` included.
    public static func named(_ name: String) -> ParamType? {
        if name.utf8.first == UInt8(ascii: "["), name.utf8.last == UInt8(ascii: "]") {
            let inner = String(name.dropFirst().dropLast()).trimmingSpaces()
            guard let element = named(inner), !element.isArray else { return nil }
            return .array(element)
        }
        switch name {
        case "string": return .string
        case "int": return .int
        case "number": return .number
        case "bool": return .bool
        case "file": return .file
        default: return nil
        }
    }
}

/// A typed value for a param.
public indirect enum ParamValue: Sendable, Hashable, CustomStringConvertible {
    /// Text, a file path or an enum's sent value.
    case string(String)
    /// A whole number.
    case int(Int)
    /// A number.
    case number(Double)
    /// A boolean.
    case bool(Bool)
    /// The values of a repeated param.
    case array([ParamValue])

    /// The value as JSON: typed, as it goes into a JSON body or sample.
    public var jsonValue: JSONValue {
        switch self {
        case .string(let text): .string(text)
        case .int(let int): .integer(int)
        case .number(let double): .number(double)
        case .bool(let bool): .bool(bool)
        case .array(let items): .array(items.map(\.jsonValue))
        }
    }

    /// The value as text, as it goes into a path, a header or a query.
    public var description: String {
        switch self {
        case .string(let text): text
        case .int(let value): String(value)
        case .number(let value): JSONValue.format(value)
        case .bool(let value): value ? "true" : "false"
        case .array(let values): values.map(\.description).joined(separator: ",")
        }
    }
}

/// OpenAPI's `style` and `explode` for an array in a query or a form body.
public struct ArrayStyle: Sendable, Hashable {
    /// The style.
    public enum Style: String, Sendable, Hashable, CaseIterable {
        /// `tags=a&tags=b` exploded, `tags=a,b` not.
        case form
        /// `tags=a%20b`.
        case spaceDelimited
        /// `tags=a|b`.
        case pipeDelimited
    }

    public var style: Style
    /// Whether each item is its own `key=value` pair; else the items are one value.
    public var explode: Bool

    public init(style: Style, explode: Bool) {
        self.style = style
        self.explode = explode
    }

    /// What stands between the items of a value that is not exploded.
    public var separator: String {
        switch style {
        case .form: ","
        case .spaceDelimited: " "
        case .pipeDelimited: "|"
        }
    }

    /// The items of an array as one value: each as text (a string as itself, anything else as
    /// its JSON, so booleans are `true` and `false`), joined by the separator.
    public func joined(_ items: [JSONValue]) -> String {
        items.map(\.text).joined(separator: separator)
    }
}

/// A target's declared param.
public struct ParamSpec: Sendable, Hashable {
    /// The name, used as `--name` and in `{name}`.
    public var name: String
    /// The type.
    public var type: ParamType
    /// The value used when none is given.
    public var defaultValue: ParamValue?
    /// What the param means, for help.
    public var description: String?
    /// Whether it may be left out with no default.
    public var isOptional: Bool
    /// Whether its value is redacted in logs.
    public var isSecret: Bool
    /// Where it was declared.
    public var mark: Mark
    /// The default as the spec wrote it, when it reads the environment (`${VAR}`): printed in
    /// place of the value, which is a secret wherever it is sent.
    public var writtenDefault: String? = nil
    /// A scalar default that reads the environment, as a template of its text and `${VAR}`
    /// references, when the spec is compiled keeping them (`keepsEnvironmentReferences`):
    /// what `generate swift` reads when the generated code runs.
    public var defaultTemplate: Template? = nil
    /// How an array param is written where it stands alone as a query or form entry's value,
    /// as OpenAPI's `style` and `explode` say; nil leaves it to the task's `arrays`.
    public var arrayStyle: ArrayStyle? = nil
    /// What its values must meet beyond their type (`minimum`, `pattern`, …); nil for none.
    public var rules: ParamRules? = nil
    /// Whether a request may send it empty (`?pretty=`) to leave it out, as OpenAPI's
    /// `allowEmptyValue` says; serve otherwise reads an empty value as a value of its type.
    public var allowsEmptyValue = false

    /// A param as a spec declares it; what is not given is as a spec that leaves it out.
    public init(
        name: String, type: ParamType, defaultValue: ParamValue? = nil, description: String? = nil,
        isOptional: Bool = false, isSecret: Bool = false, mark: Mark = Mark(line: 1, column: 1)
    ) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.description = description
        self.isOptional = isOptional
        self.isSecret = isSecret
        self.mark = mark
    }

    /// Whether `value`, bound to this param, is a secret: a secret param's, an environment
    /// default's, or an enum case's that reads the environment.
    public func holdsSecret(_ value: ParamValue, given: Bool) -> Bool {
        if isSecret || (!given && writtenDefault != nil) { return true }
        guard case .enumeration(let cases) = elementType, cases.contains(where: \.isFromEnvironment) else {
            return false
        }
        let sent: [ParamValue]
        if case .array(let items) = value { sent = items } else { sent = [value] }
        return sent.contains { item in cases.contains { $0.isFromEnvironment && .string($0.value) == item } }
    }

    /// A param with no default that is not optional must be given.
    public var isRequired: Bool { defaultValue == nil && !isOptional }

    /// Whether a request must carry it, as `serve` holds a request: unless it is optional. A
    /// default is what a client sends when its caller gives no value, not what a server may
    /// assume (OpenAPI's required parameter with a schema `default`).
    public var mustBeSent: Bool { !isOptional }

    /// Reads one command-line value of this param's element type.
    public func parse(_ text: String) throws(ParamValueError) -> ParamValue {
        // A secret's value is never repeated back, not even when it is wrong.
        try Self.parse(
            text, as: type.isArray ? elementType : type, param: name, shown: isSecret ? "a secret value" : "\"\(text)\""
        )
    }

    /// The type of one value: the element type for arrays.
    public var elementType: ParamType {
        if case .array(let element) = type { return element }
        return type
    }

    /// Reads every command-line value given for this param into one typed value.
    public func value(from texts: [String]) throws(ParamValueError) -> ParamValue {
        if type.isArray {
            var values: [ParamValue] = []
            for text in texts { values.append(try parse(text)) }
            return .array(values)
        }
        guard texts.count <= 1 else {
            throw ParamValueError(param: name, message: "takes one value but was given \(texts.count)")
        }
        return try parse(texts.first ?? "")
    }

    /// The typed value of a JSON value, as a flow's variable gives it: numbers and booleans
    /// stay what they are, an array fills an array param element by element, and only a
    /// string, or a value a param of its type cannot take as it is, is read as text.
    public func value(from json: JSONValue) throws(ParamValueError) -> ParamValue {
        if type.isArray {
            let items: [JSONValue]
            if case .array(let elements) = json { items = elements } else { items = [json] }
            var values: [ParamValue] = []
            for item in items { values.append(try element(from: item)) }
            return .array(values)
        }
        if case .array(let items) = json, items.count != 1 {
            throw ParamValueError(param: name, message: "takes one value but was given \(items.count)")
        }
        if case .array(let items) = json, let only = items.first { return try element(from: only) }
        return try element(from: json)
    }

    /// One value of the element type from JSON.
    private func element(from json: JSONValue) throws(ParamValueError) -> ParamValue {
        switch (elementType, json) {
        case (.int, .integer(let value)): return .int(value)
        case (.number, .integer(let value)): return .number(Double(value))
        case (.number, .number(let value)) where value.isFinite: return .number(value)
        case (.bool, .bool(let value)): return .bool(value)
        case (.string, .string(let text)), (.file, .string(let text)): return .string(text)
        case (_, .string(let text)): return try parse(text)
        default:
            // Another shape: its JSON text, as a string param has always received it.
            return try parse(json.serialized(escapeSlashes: false))
        }
    }

    static func parse(_ text: String, as type: ParamType, param: String, shown: String) throws(ParamValueError)
        -> ParamValue
    {
        switch type {
        case .string, .file:
            return .string(text)
        case .int:
            guard let value = Int(text) else {
                throw ParamValueError(param: param, message: "expects an int, got \(shown)")
            }
            return .int(value)
        case .number:
            guard let value = Double(text), value.isFinite else {
                throw ParamValueError(param: param, message: "expects a number, got \(shown)")
            }
            return .number(value)
        case .bool:
            switch text.lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            default: throw ParamValueError(param: param, message: "expects a bool (true or false), got \(shown)")
            }
        case .enumeration(let cases):
            guard let match = cases.first(where: { $0.key == text }) else {
                let keys = cases.map(\.key).joined(separator: ", ")
                throw ParamValueError(param: param, message: "expects one of \(keys), got \(shown)")
            }
            return .string(match.value)
        case .array(let element):
            return try parse(text, as: element, param: param, shown: shown)
        }
    }

    /// Whether `byte` may stand in a param name: a letter, or after the first a digit, `_` or `-`.
    static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
            true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
            !first
        default:
            false
        }
    }

    /// Whether `name` is a valid target or service name: a letter first.
    public static func isValidName(_ name: String) -> Bool {
        name.utf8.first != UInt8(ascii: "_") && isValidParamName(name)
    }

    /// Whether `name` is a valid param name, which `{name}` can refer to: a letter or `_` first.
    public static func isValidParamName(_ name: String) -> Bool {
        guard let first = name.utf8.first, isNameByte(first, first: true) else { return false }
        return name.utf8.allSatisfy { isNameByte($0, first: false) }
    }
}

/// A value given for a param that does not fit its type.
public struct ParamValueError: Error, Sendable, CustomStringConvertible {
    /// The param's name.
    public var param: String
    /// What is wrong with the value.
    public var message: String

    /// An error for `param`'s value, saying `message`.
    public init(param: String, message: String) {
        self.param = param
        self.message = message
    }

    public var description: String { "param '\(param)' \(message)" }
}
