import MoyaHTTP
import MoyaRegex
import MoyaSpec
import MoyaYAML

extension CompileContext {
    static let paramKeys =
        ["type", "default", "description", "optional", "secret", "enum", "style", "explode", "allowEmptyValue"]
        + ParamRules.valueKeys + ParamRules.arrayKeys

    mutating func params(_ node: YAMLNode, _ path: @autoclosure () -> String) -> [ParamSpec] {
        guard let fields = reader.fields(node, path(), known: nil) else { return [] }
        var params: [ParamSpec] = []
        for entry in fields {
            let name = entry.key
            let value = entry.value
            let paramPath = SpecReader.join(path(), name)
            let mark = entry.mark
            if !ParamSpec.isValidParamName(name) {
                reader.error(
                    mark, paramPath,
                    "\"\(name)\" is not a valid param name; use letters, digits, '_' and '-', starting with a letter or '_'"
                )
                continue
            }
            if let param = param(name, value, paramPath, mark: mark) { params.append(param) }
        }
        return params
    }

    private mutating func param(_ name: String, _ node: YAMLNode, _ path: @autoclosure () -> String, mark: Mark)
        -> ParamSpec?
    {
        var spec = ParamSpec(
            name: name, type: .string, defaultValue: nil, description: nil, isOptional: false, isSecret: false,
            mark: mark)
        switch node.content {
        case .scalar, .sequence:
            // A param whose type is wrong is still declared, so that its one error is the only
            // one: the templates that name it do not report it missing too.
            spec.type = paramType(node, path()) ?? .string
            return spec
        case .mapping:
            guard let fields = reader.fields(node, path(), known: Self.paramKeys) else { return nil }
            if let enumNode = fields["enum"] {
                // `[enum]`: an array whose items are the enum's.
                let isArray = fields["type"]?.scalar == "[enum]"
                if let typeNode = fields["type"], typeNode.scalar != "enum", !isArray {
                    reader.error(
                        typeNode.mark, path() + ".type",
                        "a param with 'enum' has type enum or [enum]; remove 'type' or set it to one of them")
                }
                guard let cases = enumCases(enumNode, path() + ".enum") else { return spec }
                spec.type = isArray ? .array(.enumeration(cases)) : .enumeration(cases)
            } else if let typeNode = fields["type"] {
                guard let type = paramType(typeNode, path() + ".type") else { return spec }
                spec.type = type
            } else {
                reader.error(node.mark, path(), "a param needs a type, such as { type: string }, or an enum")
                return spec
            }
            spec.description = fields["description"].flatMap { reader.prose($0, path() + ".description") }
            spec.isOptional = fields["optional"].flatMap { reader.bool($0, path() + ".optional") } ?? false
            spec.isSecret = fields["secret"].flatMap { reader.bool($0, path() + ".secret") } ?? false
            spec.allowsEmptyValue =
                fields["allowEmptyValue"].flatMap { reader.bool($0, path() + ".allowEmptyValue") } ?? false
            if let defaultNode = fields["default"] {
                // A scalar default's source takes a value bound after compiling; code generated
                // from the spec reads its variables when it runs.
                (spec.defaultValue, spec.defaultTemplate) = defaultValue(
                    defaultNode, path() + ".default", type: spec.type, name: name)
                spec.writtenDefault = Self.environmentReading(defaultNode)
            }
            if fields["style"] != nil || fields["explode"] != nil {
                spec.style = paramStyle(fields, path(), type: spec.type)
            }
            spec.rules = rules(fields, path(), type: spec.type)
            if let rules = spec.rules, let value = spec.defaultValue, let node = fields["default"] {
                for violation in rules.violations(value) {
                    reader.error(node.mark, path() + ".default", "the default breaks the param's rules: \(violation)")
                }
            }
            return spec
        }
    }

    /// The rules a param's long form gives (JSON Schema's keywords), each checked against the
    /// type it applies to: bounds to numbers, lengths, `pattern` and `format` to strings,
    /// `minItems`, `maxItems` and `uniqueItems` to arrays.
    private mutating func rules(_ fields: SpecReader.Fields, _ path: @autoclosure () -> String, type: ParamType)
        -> ParamRules?
    {
        var keywords: [(key: String, value: JSONValue)] = []
        var hidden: Set<String> = []
        let element: ParamType = if case .array(let inner) = type { inner } else { type }
        for key in ParamRules.valueKeys + ParamRules.arrayKeys {
            guard let node = fields[key] else { continue }
            let at = path() + "." + key
            let (kind, applies): (String, Bool) =
                switch key {
                case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
                    ("an int or a number", element == .int || element == .number)
                case "minItems", "maxItems", "uniqueItems": ("an array", type.isArray)
                default: ("a string", element == .string)
                }
            // OpenAPI's integer formats, the range an int's values fit.
            if key == "format", element == .int {
                let formats = ParamRules.integerFormats.keys.sorted()
                guard let text = reader.string(node, at), formats.contains(text) else {
                    reader.error(node.mark, at, "an int's format is \(formats.joined(separator: " or "))")
                    continue
                }
                keywords.append((key, .string(text)))
                continue
            }
            guard applies else {
                reader.error(node.mark, at, "\(key) applies to \(kind) param; this one is of type \(type)")
                continue
            }
            switch key {
            case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
                guard let value = reader.number(node, at) else { continue }
                if key == "multipleOf", value <= 0 {
                    reader.error(node.mark, at, "expected a number above 0, got \(JSONValue.format(value))")
                    continue
                }
                keywords.append(
                    (key, value.rounded() == value && abs(value) < 1e15 ? .integer(Int(value)) : .number(value)))
            case "minLength", "maxLength", "minItems", "maxItems":
                guard let value = reader.integer(node, at) else { continue }
                guard value >= 0 else {
                    reader.error(node.mark, at, "expected a count of 0 or more, got \(value)")
                    continue
                }
                keywords.append((key, .integer(value)))
            case "uniqueItems":
                guard let value = reader.bool(node, at) else { continue }
                if value { keywords.append((key, .bool(true))) }
            default:
                guard let text = reader.string(node, at) else { continue }
                if key == "pattern" {
                    do throws(RegularExpression.SyntaxError) {
                        _ = try RegularExpression(text)
                    } catch {
                        // An environment value is never shown: it may be a secret.
                        let shown = Self.environmentReading(node) == nil ? "'\(text)'" : "the pattern"
                        reader.error(node.mark, at, "\(shown) is not a valid regular expression: \(error)")
                        continue
                    }
                }
                if Self.environmentReading(node) != nil { hidden.insert(key) }
                keywords.append((key, .string(text)))
            }
        }
        return keywords.isEmpty ? nil : ParamRules(keywords: keywords, isArray: type.isArray, hiddenKeys: hidden)
    }

    /// `style` and `explode`, OpenAPI's: an array or an object param takes any style
    /// (`deepObject` an object only), a scalar only `label` or `matrix` (its prefix), and
    /// `explode` defaults to true for `form` and `deepObject`, false for the others.
    private mutating func paramStyle(_ fields: SpecReader.Fields, _ path: @autoclosure () -> String, type: ParamType)
        -> ParamStyle?
    {
        var style = ParamStyle.Style.form
        if let node = fields["style"] {
            guard
                let name = reader.choice(
                    node, path() + ".style", ParamStyle.Style.allCases.map(\.rawValue), what: "param style"),
                let chosen = ParamStyle.Style(rawValue: name)
            else { return nil }
            style = chosen
        }
        let explode =
            fields["explode"].flatMap { reader.bool($0, path() + ".explode") } ?? ParamStyle.defaultExplode(style)
        let node = fields["style"] ?? fields["explode"]
        let at = path() + (fields["style"] != nil ? ".style" : ".explode")
        switch type {
        case .object:
            break
        case .array where style != .deepObject:
            break
        case .array:
            reader.error(
                node?.mark ?? Mark(line: 1, column: 1), at,
                "deepObject is an object's style; this param is of type \(type)")
            return nil
        default:
            guard style == .label || style == .matrix, fields["explode"] == nil else {
                reader.error(
                    node?.mark ?? Mark(line: 1, column: 1), at,
                    "style and explode say how an array or object is sent (a scalar takes only label or matrix); "
                        + "this param is of type \(type)")
                return nil
            }
        }
        return ParamStyle(style: style, explode: explode)
    }

    private mutating func paramType(_ node: YAMLNode, _ path: @autoclosure () -> String) -> ParamType? {
        let names = ParamType.scalarNames + ["enum"]
        switch node.content {
        case .sequence(let items):
            guard items.count == 1, let element = items.first?.scalar, let type = ParamType.named(element),
                !type.isArray
            else {
                reader.error(node.mark, path(), "an array type is one element type in brackets, such as [string]")
                return nil
            }
            return .array(type)
        case .scalar(let text, _):
            if let type = ParamType.named(text) { return type }
            if text == "enum" {
                reader.error(node.mark, path(), "an enum param lists its cases: { enum: { english: en, german: de } }")
                return nil
            }
            // Other languages' names for the types, so `integer` (or `integr`) suggests `int`.
            let aliases = [
                "integer": "int", "long": "int", "float": "number", "double": "number", "decimal": "number",
                "boolean": "bool", "str": "string", "text": "string", "array": "[string]", "list": "[string]",
            ]
            let nearest = Suggestion.nearest(to: text, in: names + aliases.keys.sorted())
            reader.error(
                node.mark, path(),
                "unknown param type \"\(text)\"; expected string, int, number, bool, file, [T] or enum"
                    + (nearest.map { "; did you mean '\(aliases[$0] ?? $0)'?" } ?? ""))
            return nil
        case .mapping:
            reader.error(node.mark, path(), "expected a type name such as string or [int], got a mapping")
            return nil
        }
    }

    private mutating func enumCases(_ node: YAMLNode, _ path: @autoclosure () -> String) -> [ParamType.EnumCase]? {
        var cases: [ParamType.EnumCase] = []
        switch node.content {
        case .sequence(let items):
            for (index, item) in items.enumerated() {
                guard let text = reader.string(item, "\(path())[\(index)]") else { continue }
                // The key is what is typed and printed: as written, never the environment's value.
                let reads = item.scalar.map(SpecReader.readsEnvironment) ?? false
                cases.append(
                    ParamType.EnumCase(
                        key: reads ? reader.written(item, text) : text, value: text, isFromEnvironment: reads))
            }
        case .mapping:
            guard let fields = reader.fields(node, path(), known: nil) else { return nil }
            for entry in fields {
                let key = entry.key
                guard let text = reader.string(entry.value, SpecReader.join(path(), key)) else {
                    continue
                }
                cases.append(
                    ParamType.EnumCase(
                        key: key, value: text,
                        isFromEnvironment: entry.value.scalar.map(SpecReader.readsEnvironment) ?? false))
            }
        case .scalar:
            reader.error(node.mark, path(), "expected a list of values or a mapping of keys to values")
            return nil
        }
        guard !cases.isEmpty else {
            reader.error(node.mark, path(), "an enum needs at least one case")
            return nil
        }
        return cases
    }

    /// A default's text as written when it (or an item of it) reads the environment.
    private static func environmentReading(_ node: YAMLNode) -> String? {
        switch node.content {
        case .scalar(let text, _):
            return SpecReader.readsEnvironment(text) ? text : nil
        case .sequence(let items):
            let texts = items.compactMap(\.scalar)
            return texts.contains(where: SpecReader.readsEnvironment) ? "[" + texts.joined(separator: ", ") + "]" : nil
        case .mapping:
            return nil
        }
    }

    /// A param's default, and a scalar one's source when it reads the environment.
    private mutating func defaultValue(
        _ node: YAMLNode, _ path: @autoclosure () -> String, type: ParamType, name: String
    ) -> (value: ParamValue?, source: Template?) {
        if case .array(let element) = type {
            let items: [YAMLNode]
            if case .sequence(let values) = node.content { items = values } else { items = [node] }
            var values: [ParamValue] = []
            for (index, item) in items.enumerated() {
                guard
                    let value = scalarDefault(item, "\(path())[\(index)]", type: element, name: name, bindable: false)
                        .value
                else {
                    return (nil, nil)
                }
                values.append(value)
            }
            return (.array(values), nil)
        }
        return scalarDefault(node, path(), type: type, name: name, bindable: true)
    }

    /// An object param's value written as a mapping of scalars (`{ R: 100, G: 200 }`).
    mutating func objectValue(_ node: YAMLNode, _ path: @autoclosure () -> String, name: String) -> ParamValue? {
        guard case .mapping(let pairs) = node.content else { return nil }
        var members: [(key: String, value: JSONValue)] = []
        for pair in pairs {
            guard let key = pair.key.scalar else {
                reader.error(pair.key.mark, path(), "an object param's keys are text")
                return nil
            }
            guard case .scalar(let text, _) = pair.value.content else {
                reader.error(
                    pair.value.mark, SpecReader.join(path(), key),
                    "an object param's members are strings, numbers or booleans")
                return nil
            }
            members.append((key, YAMLScalar.plainValue(pair.value) ?? .string(text)))
        }
        do {
            return try ParamSpec.object(from: .object(members), param: name)
        } catch {
            reader.error(node.mark, path(), error.message)
            return nil
        }
    }

    /// A scalar default, or an array default's item. A `bindable` one's `${VAR}`s take a value
    /// bound after compiling: its source (`ParamSpec.defaultTemplate`) comes with it, even
    /// when an unset variable leaves the value unreadable until then.
    private mutating func scalarDefault(
        _ node: YAMLNode, _ path: @autoclosure () -> String, type: ParamType, name: String, bindable: Bool
    ) -> (value: ParamValue?, source: Template?) {
        if type == .object, case .mapping = node.content { return (objectValue(node, path(), name: name), nil) }
        let unset = reader.unsetVariables.count
        let read = bindable ? reader.sourcedString(node, path()) : reader.string(node, path()).map { ($0, nil) }
        guard let (text, source) = read else { return (nil, nil) }
        do {
            return (
                try ParamSpec.parse(text, as: type, param: name, shown: "\"\(reader.written(node, text))\""), source
            )
        } catch {
            let problem = Diagnostic(
                file: reader.file, mark: node.mark, keyPath: path(), message: "the default \(error.message)")
            // Unset, a store's variable is typed as it is bound (`ServiceSpec.binding(_:)`).
            if bindable, reader.unsetVariables.count > unset {
                reader.unboundDefaults.append((problem, reader.unsetVariables[unset...].map(\.name)))
            } else {
                reader.diagnostics.append(problem)
            }
            return (nil, source)
        }
    }
}
