import MoyaHTTP
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes a spec's service as Swift: an enum that conforms to Moya's `TargetType`, the way a
/// Moya user writes one by hand, with a case per target and its params as typed associated
/// values. The request each case builds is the one `call` sends for the same values.
///
/// Compile the spec on `Environment.none`, so that `${VAR}` is read when the
/// code runs and no value from the environment is written into it.
public struct SwiftGenerator {
    /// The access level of what is generated.
    public enum Access: String, Sendable, CaseIterable {
        /// For an app or a tool: the enum is used where it is declared.
        case `internal`
        /// For a library: the enum is used by other modules.
        case `public`
    }

    /// The access level of what is generated.
    public var access: Access
    /// The command that generated the file, for its header.
    public var command: String

    /// Creates a generator.
    public init(access: Access = .internal, command: String) {
        self.access = access
        self.command = command
    }

    /// The generated file, and one line for each part of the spec it could not express.
    public func generate(_ service: ServiceSpec) -> (source: String, warnings: [String]) {
        var file = GeneratedFile(service: service, access: access)
        file.write(command: command)
        // Moya sends HTTP requests: a WebSocket's case is its handshake alone.
        let sockets = service.targets.filter { $0.stream?.kind == .websocket }.map {
            "\($0.name): a WebSocket; Moya sends HTTP requests, so its case is the handshake's GET alone"
        }
        return (file.output, sockets + file.warnings)
    }
}

/// One service's file, written line by line in swift-format's layout.
struct GeneratedFile {
    let service: ServiceSpec
    let access: SwiftGenerator.Access
    let typeName: String
    var output = ""
    var warnings: [String] = []
    /// The nested enum for each enum param, by target and param name.
    var enumTypes: [String: String] = [:]
    /// The nested enums to declare, in order: name, cases (key, value) and each case's
    /// Swift name.
    var enumDeclarations: [(name: String, cases: [ParamType.EnumCase], members: [String])] = []
    /// Each target's case name, unique though names such as `get-user` and `getUser` read
    /// the same in Swift.
    var caseNames: [String: String] = [:]
    /// Each param's label in its case, unique within the case.
    var labels: [ParamSpec: String] = [:]
    /// The models the targets' schemas describe.
    var models: ModelPlan?

    init(service: ServiceSpec, access: SwiftGenerator.Access) {
        self.service = service
        self.access = access
        typeName = SwiftName.type(service.name)
        planNames()
        planEnums()
        models = ModelPlan(service: service, typeName: typeName, taken: Set(enumDeclarations.map(\.name)))
    }

    /// The case name of `target`.
    func caseName(_ target: TargetSpec) -> String { caseNames[target.name] ?? SwiftName.member(target.name) }

    /// The label, and local name, of `param`.
    func label(_ param: ParamSpec) -> String { labels[param] ?? SwiftName.member(param.name) }

    private mutating func planNames() {
        var used: Set<String> = []
        for target in service.targets {
            let name = SwiftName.member(target.name, avoiding: SwiftName.reservedCases, suffix: "Target")
            caseNames[target.name] = SwiftName.unique(name, in: &used)
            var taken: Set<String> = []
            for param in target.params {
                let label = SwiftName.member(param.name, avoiding: SwiftName.reservedLabels, suffix: "Value")
                labels[param] = SwiftName.unique(label, in: &taken)
            }
        }
    }

    var level: String { access == .public ? "public " : "" }

    mutating func line(_ text: String = "") {
        output += text.isEmpty ? "\n" : text + "\n"
    }

    // MARK: - Layout

    mutating func write(command: String) {
        let source = SwiftName.comment(service.file.split(separator: "/").last.map(String.init) ?? service.file)
        line(SwiftName.comment("// Generated from \(source) by `\(command)`."))
        line("// Change the spec and generate again rather than editing this file.")
        line()
        line("import Moya")
        line()
        line("/// The \(service.name) service, from \(source).")
        line("\(level)enum \(typeName): Sendable {")
        for (index, target) in service.targets.enumerated() {
            if index > 0 { line() }
            if let summary = target.summary { line("    /// \(SwiftName.comment(summary))") }
            let declaration = caseDeclaration(target)
            if declaration.values.isEmpty || 10 + declaration.single.count <= Code.width {
                line("    case \(declaration.single)")
            } else {
                // One param a line, as swift-format keeps a list too long for one.
                line("    case \(declaration.name)(")
                for (index, value) in declaration.values.enumerated() {
                    line("        " + value + (index < declaration.values.count - 1 ? "," : ""))
                }
                line("    )")
            }
        }
        for declaration in enumDeclarations {
            line()
            writeEnum(declaration.name, declaration.cases, members: declaration.members)
        }
        line("}")
        line()
        line("extension \(typeName): TargetType {")
        writeBaseURL()
        line()
        writeSwitch("path", type: "String") { file, target in
            (.raw(file.text(target.path, in: target, segment: true)), file.params(in: target.path))
        }
        line()
        writeSwitch("method", type: "Moya.Method") { _, target in (.raw("." + SwiftName.method(target.method)), []) }
        line()
        writeTask()
        line()
        writeHeaders()
        line()
        writeValidation()
        line()
        writeSampleData()
        line("}")
        writeTimeouts()
        warnOfWhatIsNotGenerated()
        writeHelpers()
        writeModels()
    }

    /// `timeout` for each target and a plugin that sets it on the request, when the spec
    /// sets any: Moya's `TargetType` has no timeout.
    mutating func writeTimeouts() {
        let timeouts = service.targets.map { $0.timeout ?? service.timeout }
        guard timeouts.contains(where: { $0 != nil }) else { return }
        let seconds = { (timeout: Double?) in timeout.map { "\($0)" } ?? "nil" }
        line()
        line("extension \(typeName) {")
        line("    /// Seconds a request may take, from the spec's `timeout`: Moya's `TargetType` has no")
        line("    /// timeout, so add `\(typeName).TimeoutPlugin()` to the provider's plugins to apply it.")
        if let first = timeouts.first, timeouts.allSatisfy({ $0 == first }) {
            line("    \(level)var timeout: TimeInterval? { \(seconds(first)) }")
        } else {
            writeSwitch("timeout", type: "TimeInterval?") { file, target in
                (.raw(seconds(target.timeout ?? file.service.timeout)), [])
            }
        }
        line()
        line("    /// Sets each target's `timeout` on its request.")
        line("    \(level)struct TimeoutPlugin: PluginType {")
        if access == .public { line("        public init() {}"); line() }
        line("        \(level)func prepare(_ request: URLRequest, target: TargetType) -> URLRequest {")
        line("            guard let timeout = (target as? \(typeName))?.timeout else { return request }")
        line("            var request = request")
        line("            request.timeoutInterval = timeout")
        line("            return request")
        line("        }")
        line("    }")
        line("}")
    }

    /// A warning for each part of the spec the generated code does not carry: redirects not
    /// followed, and enum or array defaults that read the environment.
    mutating func warnOfWhatIsNotGenerated() {
        for target in service.targets {
            if (target.followsRedirects ?? service.followsRedirects) == false {
                warnings.append(
                    "\(target.name): followRedirects: false is not generated; Moya follows redirects as its "
                        + "Session does, so give the provider a Session that does not")
            }
            for param in target.params where param.writtenDefault != nil {
                guard param.defaultValue.flatMap({ environmentDefault(param, $0, in: target) }) == nil else { continue }
                warnings.append(
                    "\(target.name): \(param.name)'s default \(param.writtenDefault ?? "") is read when the code is "
                        + "generated, not when it runs")
            }
            if case .multipart = target.task, !target.method.supportsMultipart {
                warnings.append(
                    "\(target.name): Moya sends a multipart body only with POST, PUT, PATCH or CONNECT; the generated "
                        + "\(target.method.rawValue) fails with .parameterEncoding, where call sends it")
            }
            for param in target.params {
                if param.type == .object {
                    warnings.append(
                        "\(target.name): \(param.name) is an object param; the generated code takes its text as "
                            + "its style writes it (R,100,G,200)")
                }
                if let style = param.style, style.explode, style.style == .label || style.style == .matrix,
                    param.type.isArray
                {
                    warnings.append(
                        "\(target.name): \(param.name) is an exploded \(style.style.rawValue) array; the generated "
                            + "code writes it not exploded")
                }
            }
            for param in target.params {
                guard case .enumeration(let cases) = param.elementType, cases.contains(where: \.isFromEnvironment)
                else { continue }
                warnings.append(
                    "\(target.name): \(param.name)'s enum values that read the environment are the spec's defaults "
                        + "in the generated code; they are raw values, fixed when it is generated")
            }
        }
    }

    mutating func writeEnum(_ name: String, _ cases: [ParamType.EnumCase], members: [String]) {
        line("    /// The values of a `\(name)` param: each case sends its raw value.")
        line("    \(level)enum \(name): String, CaseIterable, Sendable {")
        for (option, member) in zip(cases, members) {
            line("        case \(member) = \(SwiftName.literal(option.value))")
        }
        line("    }")
    }

    /// A computed property with a `switch` over the cases, each returning its expression;
    /// the names are the params the expression reads, which the case binds.
    mutating func writeSwitch(
        _ name: String, type: String, _ expression: (inout GeneratedFile, TargetSpec) -> (Code, Set<String>)
    ) {
        var branches: [(patterns: [String], body: [String])] = []
        for target in service.targets {
            let (code, used) = expression(&self, target)
            branches.append(([pattern(target, using: used)], code.lines(indent: "            ", lead: "return ")))
        }
        line("    \(level)var \(name): \(type) {")
        line("        switch self {")
        writeBranches(branches)
        line("        }")
        line("    }")
    }

    /// `case` branches, those with the same body and no bindings written as one.
    mutating func writeBranches(_ branches: [(patterns: [String], body: [String])]) {
        var merged: [(patterns: [String], body: [String])] = []
        for branch in branches {
            let binds = branch.patterns.contains { $0.contains("(") }
            if !binds, let index = merged.firstIndex(where: { $0.body == branch.body && !$0.patterns[0].contains("(") })
            {
                merged[index].patterns += branch.patterns
            } else {
                merged.append(branch)
            }
        }
        for branch in merged {
            let single = "        case \(branch.patterns.joined(separator: ", ")):"
            if single.count <= Code.width {
                line(single)
            } else if branch.patterns.count == 1 {
                // One pattern too long for a line: its bindings go on the next.
                let pattern = branch.patterns[0]
                if let open = pattern.firstIndex(of: "("), pattern.hasSuffix(")") {
                    line("        case \(pattern[...open])")
                    line("            \(pattern[pattern.index(after: open)...]):")
                } else {
                    line(single)
                }
            } else {
                line("        case \(branch.patterns[0]),")
                for (index, pattern) in branch.patterns.dropFirst().enumerated() {
                    line("            \(pattern)" + (index == branch.patterns.count - 2 ? ":" : ","))
                }
            }
            for bodyLine in branch.body { line(bodyLine) }
        }
    }

    // MARK: - Cases

    /// A case's name and its params with their types and defaults, and the whole as one line.
    /// `qualified` names the nested enum types with the service's type, for code outside it.
    func caseDeclaration(_ target: TargetSpec, qualified: Bool = false) -> (
        name: String, values: [String], single: String
    ) {
        let name = caseName(target)
        guard !target.params.isEmpty else { return (name, [], name) }
        let values = target.params.map { param in
            var text = "\(label(param)): \(swiftType(param, in: target, qualified: qualified))"
            if let value = param.defaultValue {
                let written = environmentDefault(param, value, in: target)
                text += " = " + (written ?? literal(value, param.type, param: param, in: target))
            } else if param.isOptional {
                text += " = nil"
            }
            return text
        }
        return (name, values, "\(name)(\(values.joined(separator: ", ")))")
    }

    /// `.name(let a, _)`, binding only the params `used`.
    func pattern(_ target: TargetSpec, using used: Set<String>) -> String {
        let name = "." + caseName(target)
        guard !target.params.isEmpty, target.params.contains(where: { used.contains($0.name) }) else { return name }
        let bindings = target.params.map { used.contains($0.name) ? "let " + label($0) : "_" }
        return "\(name)(\(bindings.joined(separator: ", ")))"
    }

    private mutating func planEnums() {
        for target in service.targets {
            for param in target.params {
                guard case .enumeration(let cases) = param.elementType else { continue }
                var name = SwiftName.nestedType(param.name, in: typeName)
                if let existing = enumDeclarations.first(where: { $0.name == name }), existing.cases != cases {
                    name = SwiftName.type(target.name) + name
                }
                if !enumDeclarations.contains(where: { $0.name == name }) {
                    var used: Set<String> = []
                    let members = cases.map { option in
                        SwiftName.unique(
                            SwiftName.member(option.key, avoiding: SwiftName.reservedEnumCases, suffix: "Value"),
                            in: &used)
                    }
                    enumDeclarations.append((name, cases, members))
                }
                enumTypes[target.name + "." + param.name] = name
            }
        }
    }

    private func swiftType(_ param: ParamSpec, in target: TargetSpec, qualified: Bool = false) -> String {
        let nested = enumTypes[target.name + "." + param.name].map { qualified ? typeName + "." + $0 : $0 }
        let type = scalarType(param.elementType, enumName: nested)
        let full = param.type.isArray ? "[\(type)]" : type
        return param.defaultValue == nil && param.isOptional ? full + "?" : full
    }

    private func scalarType(_ type: ParamType, enumName: String?) -> String {
        switch type {
        case .string: "String"
        case .int: "Int"
        case .number: "Double"
        case .bool: "Bool"
        case .file: "URL"
        case .enumeration: enumName ?? "String"
        // An object param's text, as its style writes it (`R,100,G,200`): the caller's to make.
        case .object: "String"
        case .array(let element): "[\(scalarType(element, enumName: enumName))]"
        }
    }

    /// A default that reads the environment, as an expression that reads it when the case is
    /// made, the spec's fallback standing where the variable is unset or its text is not of
    /// the param's type. Nil for other defaults, and for enum and array params, whose
    /// generated defaults are the values at generation (`write` warns of those).
    private func environmentDefault(_ param: ParamSpec, _ value: ParamValue, in target: TargetSpec) -> String? {
        guard let template = param.defaultTemplate else { return nil }
        // A case's default argument cannot say `Self`.
        let text = self.text(template, in: target).replacing("Self.environment(", with: typeName + ".environment(")
        let fallback = literal(value, param.type, param: param, in: target)
        switch param.type {
        case .string: return text
        case .file: return "URL(fileURLWithPath: \(text))"
        case .int: return "Int(\(text)) ?? \(fallback)"
        case .number: return "Double(\(text)) ?? \(fallback)"
        case .bool: return "Bool(\(text)) ?? \(fallback)"
        case .enumeration, .array, .object: return nil
        }
    }

    private func literal(_ value: ParamValue, _ type: ParamType, param: ParamSpec, in target: TargetSpec) -> String {
        switch (value, type) {
        case (.array(let items), .array(let element)):
            return "[" + items.map { literal($0, element, param: param, in: target) }.joined(separator: ", ") + "]"
        case (.string(let text), .enumeration(let cases)):
            let name = enumTypes[target.name + "." + param.name]
            let members = enumDeclarations.first { $0.name == name }?.members ?? []
            guard let index = cases.firstIndex(where: { $0.value == text }), index < members.count else {
                return "." + SwiftName.member(text)
            }
            return "." + members[index]
        case (.string(let text), .file):
            return "URL(fileURLWithPath: \(SwiftName.literal(text)))"
        case (.string(let text), _): return SwiftName.literal(text)
        case (.int(let int), _): return String(int)
        case (.number(let double), _): return "\(double)"
        case (.bool(let bool), _): return bool ? "true" : "false"
        case (.array, _): return "[]"
        case (.object, _): return SwiftName.literal(value.description)
        }
    }

    // MARK: - Values

    /// What a template reads, each param by name.
    func params(in template: Template) -> Set<String> { Set(template.params) }

    func params(in value: ValueTemplate) -> Set<String> { Set(value.templates.flatMap(\.params)) }

    /// A Swift string expression for a template's text, as `call` renders it: a param's
    /// value as text (an absent optional one as nothing), and `${VAR}` read when it runs.
    func text(_ template: Template, in target: TargetSpec, segment: Bool = false, after prefix: String = "")
        -> String
    {
        if !template.namesVariables, let literal = template.literalText { return SwiftName.literal(prefix + literal) }
        if prefix.isEmpty, !segment, let whole = template.wholeParam, let param = target.param(named: whole) {
            return textValue(param)
        }
        let segments = template.segments
        if prefix.isEmpty, segments.count == 1, let (name, fallback) = segments[0].variable {
            return "Self.environment(\(SwiftName.literal(name)), or: \(SwiftName.literal(fallback)))"
        }
        var body = SwiftName.escaped(prefix)
        for piece in segments {
            switch piece {
            case .literal(let text): body += SwiftName.escaped(text)
            case .param(let name):
                guard let param = target.param(named: name) else { continue }
                let value = textValue(param)
                guard segment else {
                    body += "\\(\(value))"
                    continue
                }
                // label's and matrix's prefix, before the value as the simple style writes it.
                switch param.style?.style {
                case .label?: body += "."
                case .matrix?: body += ";" + SwiftName.escaped(name) + "="
                default: break
                }
                body += "\\(Self.pathSegment(\(value)))"
            case .environment(let name, let fallback), .environmentDefault(let name, let fallback):
                body += "\\(Self.environment(\(SwiftName.literal(name)), or: \(SwiftName.literal(fallback))))"
            }
        }
        return "\"" + body + "\""
    }

    /// A param's value as `call` writes it in text: an absent optional one as `""`, or, with
    /// `orNil`, as nil, the expression then being a `String?`.
    func textValue(_ param: ParamSpec, orNil: Bool = false) -> String {
        let name = label(param)
        guard param.defaultValue == nil, param.isOptional else { return Self.text(of: name, param) }
        let text = Self.text(of: "value", param)
        let mapped = text == "value" ? name : "\(name).map { value in \(text) }"
        return orNil ? mapped : mapped + " ?? \"\""
    }

    /// `value`, a param's value, as text.
    static func text(of value: String, _ param: ParamSpec) -> String {
        let scalar: (String) -> String = { value in
            switch param.elementType {
            case .string, .array, .object: value
            case .int, .bool: "String(\(value))"
            case .number: "JSONValue.format(\(value))"
            case .file: "\(value).path"
            case .enumeration: "\(value).rawValue"
            }
        }
        guard param.type.isArray else { return scalar(value) }
        let element = scalar("$0")
        return element == "$0"
            ? "\(value).joined(separator: \",\")" : "\(value).map { \(element) }.joined(separator: \",\")"
    }
}

/// How names and literals are written in Swift.
public enum SwiftName {
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "switch", "where", "while", "as", "Any",
        "catch", "false", "is", "nil", "super", "self", "Self", "throw", "throws", "true", "try", "some", "any",
    ]

    /// Type names that a nested type must not take: it would hide the type the generated code
    /// means, or is not a type name at all.
    static let reservedTypes: Set<String> = [
        "Self", "Type", "Protocol", "Any", "AnyObject", "String", "Int", "Double", "Bool", "URL", "Data", "Array",
        "Dictionary", "Optional", "Error", "Never", "Void", "Character", "JSONValue", "Task", "Method", "TargetType",
        "Moya", "ValidationType", "Endpoint", "MultipartFormData", "ParameterEncoding", "URLEncoding",
        "JSONEncoding", "InOrder", "Parameters", "URLRequest", "URLRequestConvertible", "Sendable",
        "CaseIterable",
    ]

    /// The words of a name, as `NameWords.split` gives them.
    public static func words(_ name: String) -> [String] {
        NameWords.split(name)
    }

    /// `UpperCamelCase`, for types.
    static func type(_ name: String) -> String {
        let joined = words(name).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        guard let first = joined.first else { return "Service" }
        if first.isNumber { return "_" + joined }
        return reservedTypes.contains(joined) ? joined + "Service" : joined
    }

    /// A type nested in `outer`, named after `name`: `Value` is added to a name that would
    /// hide a type the code uses, or that is the outer type's own.
    static func nestedType(_ name: String, in outer: String) -> String {
        let joined = words(name).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        guard let first = joined.first else { return "Value" }
        if first.isNumber { return "_" + joined }
        return reservedTypes.contains(joined) || joined == outer ? joined + "Value" : joined
    }

    /// `name`, or `name2`, `name3`… when it is taken.
    static func unique(_ name: String, in used: inout Set<String>) -> String {
        var candidate = name
        var number = 2
        while used.contains(candidate) {
            let bare = name.hasSuffix("`") ? String(name.dropFirst().dropLast()) : name
            candidate = "\(bare)\(number)"
            number += 1
        }
        used.insert(candidate)
        return candidate
    }

    /// Names a target's case must not take: the members `TargetType` and the generated
    /// helpers declare beside the cases, and names a binding cannot have.
    static let reservedCases: Set<String> = [
        "baseURL", "path", "method", "task", "headers", "sampleData", "validationType", "environment", "pathSegment",
        "present", "parameters", "data", "part", "basic", "appending", "self", "super", "init", "type", "protocol",
    ]
    /// Names an enum param's case must not take: `RawRepresentable`'s and `CaseIterable`'s.
    static let reservedEnumCases: Set<String> = ["rawValue", "allCases", "hashValue", "self", "super", "init", "type"]
    /// Names a param's label must not take: a binding cannot have them.
    static let reservedLabels: Set<String> = ["self", "super", "type", "protocol"]

    /// `member(name)`, with `suffix` added when it is in `reserved`.
    static func member(_ name: String, avoiding reserved: Set<String>, suffix: String) -> String {
        let plain = member(name)
        return reserved.contains(bare(plain)) ? bare(plain) + suffix : plain
    }

    /// A name without the backticks a keyword is written in.
    static func bare(_ name: String) -> String {
        name.hasPrefix("`") ? String(name.dropFirst().dropLast()) : name
    }

    /// `lowerCamelCase`, for cases and labels; a keyword in backticks. A first word in capitals
    /// is an acronym and is lowered whole, as Swift's API guidelines ask: `GET` is `get`, and
    /// `URLPath` is `urlPath`.
    static func member(_ name: String) -> String {
        let parts = words(name)
        guard let head = parts.first else { return "value" }
        // The leading capitals, all of them in a word in capitals, else all but the one that
        // begins the next word.
        let capitals = head.prefix { $0.isUppercase }.count
        let lowered = capitals == head.count ? capitals : max(1, capitals - 1)
        let joined =
            head.prefix(lowered).lowercased() + head.dropFirst(lowered)
            + parts.dropFirst().map {
                $0.prefix(1).uppercased() + $0.dropFirst()
            }.joined()
        if let first = joined.first, first.isNumber { return "_" + joined }
        return keywords.contains(joined) ? "`\(joined)`" : joined
    }

    static func method(_ method: MoyaHTTP.Method) -> String {
        MoyaHTTP.Method.allKnown.contains(method)
            ? method.rawValue.lowercased() : "init(rawValue: \(literal(method.rawValue)))"
    }

    /// A string literal.
    static func literal(_ text: String) -> String { "\"" + escaped(text) + "\"" }

    /// Text as it goes inside a string literal.
    static func escaped(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": output += "\\\\"
            case "\"": output += "\\\""
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    output += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output
    }

    /// Text for a comment: one line, its controls escaped.
    static func comment(_ text: String) -> String {
        TerminalText.escapingControls(text.split(whereSeparator: \.isNewline).joined(separator: " "))
    }
}
