import MoyaHTTP
import MoyaYAML

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
    /// A flat object (OpenAPI's object parameter): given as JSON text, its members scalars,
    /// and written by the param's style (`R,100,G,200`, `R=100,G=200`, `;R=100;G=200`).
    case object

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
        case .object: "object"
        }
    }

    /// Whether values of this type repeat.
    public var isArray: Bool {
        if case .array = self { return true }
        return false
    }

    /// The scalar type names a spec may use.
    package static let scalarNames = ["string", "int", "number", "bool", "file", "object"]

    /// Reads a scalar type name, `[T]` included.
    public static func named(_ name: String) -> ParamType? {
        if name.utf8.first == UInt8(ascii: "["), name.utf8.last == UInt8(ascii: "]") {
            let inner = String(name.dropFirst().dropLast()).trimmingSpaces()
            guard let element = named(inner), !element.isArray, element != .object else { return nil }
            return .array(element)
        }
        switch name {
        case "string": return .string
        case "int": return .int
        case "number": return .number
        case "bool": return .bool
        case "file": return .file
        case "object": return .object
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
    /// An object param's members, in order, each a scalar.
    case object([Member])

    /// One member of an object value.
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: ParamValue

        public init(key: String, value: ParamValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value as JSON: typed, as it goes into a JSON body or sample.
    public var jsonValue: JSONValue {
        switch self {
        case .string(let text): .string(text)
        case .int(let int): .integer(int)
        case .number(let double): .number(double)
        case .bool(let bool): .bool(bool)
        case .array(let items): .array(items.map(\.jsonValue))
        case .object(let members): .object(members.map { ($0.key, $0.value.jsonValue) })
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
        case .object(let members): members.map { "\($0.key),\($0.value.description)" }.joined(separator: ",")
        }
    }
}

/// OpenAPI's `style` and `explode`: how an array or object param's value is written where
/// it stands, and how `serve` reads it back. The one place each style's text is made, in RFC
/// 6570's terms (which OpenAPI 3.1.1's style table follows):
///
/// | style | explode | array | object |
/// | --- | --- | --- | --- |
/// | `simple` (path, header) | either | `a,b` | `R,1,G,2`, exploded `R=1,G=2` |
/// | `label` (path) | false / true | `.a,b` / `.a.b` | `.R,1,G,2` / `.R=1.G=2` |
/// | `matrix` (path) | false / true | `;c=a,b` / `;c=a;c=b` | `;c=R,1,G,2` / `;R=1;G=2` |
/// | `form` (query, cookie) | false / true | `c=a,b` / `c=a&c=b` | `c=R,1,G,2` / `R=1&G=2` |
/// | `spaceDelimited`, `pipeDelimited` (query) | false | `c=a b`, `c=a|b` | `c=R 1 G 2` |
/// | `deepObject` (query) | true | | `c[R]=1&c[G]=2` |
///
/// A cookie exploded is pairs of their own: `c=a; c=b`, `R=1; G=2`.
public struct ParamStyle: Sendable, Hashable {
    /// The style.
    public enum Style: String, Sendable, Hashable, CaseIterable {
        /// `tags=a&tags=b` exploded, `tags=a,b` not.
        case form
        /// `tags=a%20b`.
        case spaceDelimited
        /// `tags=a|b`.
        case pipeDelimited
        /// A path's or a header's `a,b`.
        case simple
        /// A path's `.a`.
        case label
        /// A path's `;name=a`.
        case matrix
        /// A query's `name[key]=value`.
        case deepObject

        /// Whether a path takes the style.
        public var isPathStyle: Bool { self == .simple || self == .label || self == .matrix }
    }

    public var style: Style
    /// Whether each item (or member) is its own pair; else the items are one value.
    public var explode: Bool

    public init(style: Style, explode: Bool) {
        self.style = style
        self.explode = explode
    }

    /// A query's, a form's and a cookie's own way: `form`, exploded.
    public static let form = ParamStyle(style: .form, explode: true)
    /// A path's and a header's own way: `simple`.
    public static let simple = ParamStyle(style: .simple, explode: false)

    /// OpenAPI's default explode: true for `form` and `deepObject`.
    public static func defaultExplode(_ style: Style) -> Bool { style == .form || style == .deepObject }

    /// What stands between the items of a value that is not exploded.
    public var separator: String {
        switch style {
        case .spaceDelimited: " "
        case .pipeDelimited: "|"
        default: ","
        }
    }

    /// The items of an array as one value: each as text (a string as itself, anything else as
    /// its JSON, so booleans are `true` and `false`), joined by the separator.
    public func joined(_ items: [JSONValue]) -> String {
        items.map(\.text).joined(separator: separator)
    }

    /// An object's members as one value, not exploded: `R,1,G,2` (by the separator), each
    /// text encoded by `encode`.
    public func joined(_ members: [ParamValue.Member], encode: (String) -> String = { $0 }) -> String {
        members.map { encode($0.key) + separator + encode($0.value.description) }.joined(separator: separator)
    }

    /// The entries a query, form or multipart body gets for `value` under `key`, as this
    /// style writes them: an array not exploded one entry of its items joined; an object its
    /// members under keys of their own (`form` exploded), under `key[member]` (`deepObject`),
    /// or one entry joined (`R,100,G,200`). Nil for a scalar or an exploded array, which are
    /// the entry as it is.
    public func formEntries(_ value: ParamValue, key: String) -> [(key: String, text: String)]? {
        switch value {
        case .array(let items) where !explode: [(key, joined(items.map(\.jsonValue)))]
        case .object(let members) where style == .deepObject:
            members.map { ("\(key)[\($0.key)]", $0.value.description) }
        case .object(let members) where explode: members.map { ($0.key, $0.value.description) }
        case .object(let members): [(key, joined(members))]
        default: nil
        }
    }

    /// `value` as a path writes it for the param `name`: its prefix (`label`'s `.`,
    /// `matrix`'s `;name=`), then the value, each item, key and value encoded by `encode`
    /// and the separators literal.
    public func pathText(_ value: ParamValue, name: String, encode: (String) -> String) -> String {
        switch style {
        case .label:
            switch value {
            case .array(let items):
                return "." + items.map { encode($0.description) }.joined(separator: explode ? "." : ",")
            case .object(let members):
                return "." + (explode ? pairs(members, "=", ".", encode) : joined(members, encode: encode))
            default: return "." + encode(value.description)
            }
        case .matrix:
            let key = encode(name)
            switch value {
            case .array(let items) where explode:
                return items.map { ";\(key)=" + encode($0.description) }.joined()
            case .array(let items):
                return ";\(key)=" + items.map { encode($0.description) }.joined(separator: ",")
            case .object(let members) where explode:
                return ";" + pairs(members, "=", ";", encode)
            case .object(let members):
                return ";\(key)=" + joined(members, encode: encode)
            default:
                let text = value.description
                return text.isEmpty ? ";\(key)" : ";\(key)=" + encode(text)
            }
        default:
            return simpleText(value, encode: encode)
        }
    }

    /// `value` in the simple style, as a path or a header writes it: `a,b`, `R,1,G,2`, or
    /// exploded `R=1,G=2`.
    public func simpleText(_ value: ParamValue, encode: (String) -> String) -> String {
        switch value {
        case .array(let items): items.map { encode($0.description) }.joined(separator: ",")
        case .object(let members): explode ? pairs(members, "=", ",", encode) : joined(members, encode: encode)
        default: encode(value.description)
        }
    }

    /// The pairs a cookie sends for the param `name`: one `name=value` (items or members
    /// joined by commas), or exploded one pair per item (`name=a; name=b`) or member
    /// (`R=1; G=2`). Names and values raw: the cookie's encoding is the caller's.
    public func cookiePairs(_ value: ParamValue, name: String) -> [(name: String, value: [String])] {
        switch value {
        case .array(let items) where explode: items.map { (name, [$0.description]) }
        case .array(let items): [(name, items.map(\.description))]
        case .object(let members) where explode: members.map { ($0.key, [$0.value.description]) }
        case .object(let members): [(name, members.flatMap { [$0.key, $0.value.description] })]
        default: [(name, [value.description])]
        }
    }

    private func pairs(
        _ members: [ParamValue.Member], _ equals: String, _ between: String, _ encode: (String) -> String
    ) -> String {
        members.map { encode($0.key) + equals + encode($0.value.description) }.joined(separator: between)
    }

    // MARK: - Reading

    /// The texts a path segment's capture holds for the param `name`, as `pathText` wrote
    /// them: its prefix taken off and split at the separators, for an array its items, for an
    /// object its keys and values in turn (`R`, `1`, `G`, `2`); still percent-encoded. Nil when
    /// the prefix is not there.
    public func pathTexts(_ text: Substring, name: String, type: ParamType) -> [Substring]? {
        var rest = text
        switch style {
        case .label:
            guard rest.first == "." else { return nil }
            rest = rest.dropFirst()
            return split(rest, type: type, between: explode ? "." : ",", equals: explode)
        case .matrix:
            if case .object = type, explode {
                guard rest.first == ";" else { return nil }
                return split(rest.dropFirst(), type: type, between: ";", equals: true)
            }
            let encodedName = name
            if case .array = type, explode {
                var items: [Substring] = []
                for piece in rest.split(separator: ";", omittingEmptySubsequences: true) {
                    guard piece.hasPrefix(encodedName + "=") else { return nil }
                    items.append(piece.dropFirst(encodedName.count + 1))
                }
                return rest.first == ";" ? items : nil
            }
            if rest == ";" + encodedName { return [""] }
            guard rest.hasPrefix(";" + encodedName + "=") else { return nil }
            rest = rest.dropFirst(encodedName.count + 2)
            return split(rest, type: type, between: ",", equals: false)
        default:
            return split(rest, type: type, between: ",", equals: explode)
        }
    }

    /// A value's texts split as `pathTexts` gives them: a scalar whole; an array's items at
    /// `between`; an object's members at `between`, each `key=value` when `equals`, else keys
    /// and values in turn.
    public func split(_ text: Substring, type: ParamType, between: Character, equals: Bool) -> [Substring]? {
        switch type {
        case .array:
            return text.split(separator: between, omittingEmptySubsequences: false)
        case .object:
            guard !text.isEmpty else { return [] }
            let pieces = text.split(separator: between, omittingEmptySubsequences: false)
            guard equals else { return pieces.count % 2 == 0 ? pieces : nil }
            var texts: [Substring] = []
            for piece in pieces {
                guard let sign = piece.firstIndex(of: "=") else { return nil }
                texts += [piece[..<sign], piece[piece.index(after: sign)...]]
            }
            return texts
        default:
            return [text]
        }
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
    /// references: what a value bound after compiling is written into
    /// (`ServiceSpec.binding(_:)`), and what `generate swift` reads when the generated code runs.
    public var defaultTemplate: Template? = nil
    /// How an array or object param is written where it stands, as OpenAPI's `style` and
    /// `explode` say (a scalar's `label` and `matrix` prefix too); nil for the place's own
    /// way: the task's `arrays` in a query or form, `simple` in a path or header, exploded
    /// `form` in a cookie.
    public var style: ParamStyle? = nil
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
        case (.object, .object): return try Self.object(from: json, param: name)
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

    package static func parse(_ text: String, as type: ParamType, param: String, shown: String) throws(ParamValueError)
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
        case .object:
            guard let json = try? JSONValue(parsing: text), case .object = json else {
                throw ParamValueError(
                    param: param, message: #"expects a JSON object, such as {"name":"n"}, got \#(shown)"#)
            }
            return try object(from: json, param: param)
        }
    }

    /// An object param's value from a JSON object: each member a scalar, as OpenAPI's styles
    /// write only flat objects (null as empty text).
    package static func object(from json: JSONValue, param: String) throws(ParamValueError) -> ParamValue {
        guard case .object(let members) = json else {
            throw ParamValueError(param: param, message: "expects a JSON object")
        }
        var values: [ParamValue.Member] = []
        for (key, member) in members {
            let value: ParamValue
            switch member {
            case .string(let text): value = .string(text)
            case .integer(let int): value = .int(int)
            case .number(let double): value = .number(double)
            case .bool(let bool): value = .bool(bool)
            case .null: value = .string("")
            default:
                throw ParamValueError(
                    param: param,
                    message:
                        "member '\(key)' is not a string, number or boolean; OpenAPI's styles write only flat objects")
            }
            values.append(.init(key: key, value: value))
        }
        return .object(values)
    }

    /// An object param's value from the texts a request sent, keys and values in turn (as
    /// `ParamStyle.pathTexts` splits them), each already decoded: every value text.
    public static func object(keysAndValues texts: [String]) -> ParamValue {
        var members: [ParamValue.Member] = []
        var index = 0
        while index + 1 < texts.count {
            members.append(.init(key: texts[index], value: .string(texts[index + 1])))
            index += 2
        }
        return .object(members)
    }

    /// Whether `byte` may stand in a param name: a letter, or after the first a digit, `_` or `-`.
    package static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        YAMLLoader.isNameByte(byte, first: first)
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
