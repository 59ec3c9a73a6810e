import MoyaHTTP
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension GeneratedFile {
    // MARK: - Values

    /// A `JSONValue` expression for a param's typed value; `optional` when it may be absent.
    func jsonValue(_ param: ParamSpec) -> (code: Code, optional: Bool) {
        let name = label(param)
        let scalar: (String) -> String = { value in
            switch param.elementType {
            case .string, .array, .object: ".string(\(value))"
            case .int: ".integer(\(value))"
            case .number: ".number(\(value))"
            case .bool: ".bool(\(value))"
            case .file: ".string(\(value).path)"
            case .enumeration: ".string(\(value).rawValue)"
            }
        }
        let value = param.type.isArray ? ".array(VALUE.map { \(scalar("$0")) })" : scalar("VALUE")
        if param.defaultValue == nil, param.isOptional {
            let inner = value.replacing("VALUE", with: "value")
            return (.raw("\(name).map { value -> JSONValue in \(inner) }"), true)
        }
        return (.raw(value.replacing("VALUE", with: name)), false)
    }

    /// A `JSONValue` expression for a value template, as `call` renders it; `optional` when
    /// it is one reference to a param that may be absent.
    func json(_ value: ValueTemplate, in target: TargetSpec) -> (code: Code, optional: Bool) {
        switch value {
        case .null: return (.raw(".null"), false)
        case .bool(let bool): return (.raw(".bool(\(bool))"), false)
        case .integer(let int): return (.raw(".integer(\(int))"), false)
        case .number(let double): return (.raw(".number(\(double))"), false)
        case .string(let template):
            if let whole = template.typedParam, let param = target.param(named: whole) {
                return jsonValue(param)
            }
            // Left out when the environment leaves it empty, as `call` leaves it out.
            if template.isOnlyVariables {
                return (.raw("Self.given(\(text(template, in: target))).map(JSONValue.string)"), true)
            }
            return (.call(".string", .raw(text(template, in: target))), false)
        case .array(let items):
            let parts = items.map { json($0, in: target) }
            let list = Code.list(parts.map(\.code))
            return (
                parts.contains(where: \.optional)
                    ? .call(".array", .call("Self.present", list)) : .call(".array", list), false
            )
        case .object(let members):
            let parts = members.map { (key: $0.key, value: json($0.value, in: target)) }
            if parts.contains(where: \.value.optional) {
                let pairs = parts.map { Code.call("", .raw(SwiftName.literal($0.key)), $0.value.code) }
                return (.call(".object", .call("Self.present", .list(pairs))), false)
            }
            let pairs = parts.map {
                Code.call(
                    "",
                    [(label: "key", value: .raw(SwiftName.literal($0.key))), (label: "value", value: $0.value.code)])
            }
            return (.call(".object", .list(pairs)), false)
        }
    }

    /// A `JSONValue` expression that stands on its own, where no type is implied.
    func standalone(_ code: (code: Code, optional: Bool)) -> Code {
        if code.optional { return .raw(code.code.flat + " ?? JSONValue.null") }
        switch code.code {
        case .raw(let text) where text.hasPrefix("."): return .raw("JSONValue" + text)
        case .call(let name, let arguments) where name.hasPrefix("."): return .call("JSONValue" + name, arguments)
        default: return code.code
        }
    }

    /// `[String: Any]` for a parameter block, as `call` makes it: absent optional values left
    /// out, and in an ordered block a repeated key gathering its values.
    func parameters(_ block: ParameterBlock, in target: TargetSpec) -> Code {
        guard !block.entries.isEmpty else { return .raw("[:]") }
        let entries = block.entries.map { entry in
            var value = json(entry.value, in: target)
            // An array that is not exploded is one value, its items joined, as `call` sends it.
            if case .string(let template) = entry.value, let whole = template.wholeParam,
                let param = target.param(named: whole), param.type.isArray, let style = param.style, !style.explode
            {
                let separator = SwiftName.literal(style.separator)
                value.code = .call("Self.joined", [(nil, value.code), ("separator", .raw(separator))])
            }
            return Code.call("", .raw(SwiftName.literal(entry.key)), value.code)
        }
        var arguments: [(label: String?, value: Code)] = [(nil, .list(entries))]
        if block.isOrdered { arguments.append(("gathering", .raw("true"))) }
        return .call("Self.parameters", arguments)
    }

    /// The keys of an ordered block, each once, in order.
    func keys(_ block: ParameterBlock) -> Code {
        var seen: [String] = []
        for entry in block.entries where !seen.contains(entry.key) { seen.append(entry.key) }
        return .list(seen.map { .raw(SwiftName.literal($0)) })
    }

    func params(in block: ParameterBlock?) -> Set<String> {
        Set(block?.templates.flatMap(\.params) ?? [])
    }

    // MARK: - baseURL

    /// A composite task's query in declared order, or an upload's, which `call` writes into the
    /// base URL.
    func orderedQuery(_ target: TargetSpec) -> ParameterBlock? {
        switch target.task {
        case .data(_, _, let query?), .json(_, let query?), .parameters(_, _, let query?), .multipart(_, let query?):
            query.isOrdered ? query : nil
        // Moya's upload has no query: it is always the base URL's.
        case .upload(_, let query?): query
        default: nil
        }
    }

    mutating func writeBaseURL() {
        func url(_ source: Template) -> String {
            "URL(string: \(text(source, in: TargetSpec.none))) ?? URL(fileURLWithPath: \"/\")"
        }
        let base = url(service.baseURLSource)
        // A target with its own base URL (`baseURL:` on the target) returns that one.
        func own(_ target: TargetSpec) -> String? {
            (target.baseURLSource ?? target.baseURL.map { Template(literal: $0) }).map(url)
        }
        let special = service.targets.filter { orderedQuery($0) != nil || own($0) != nil }
        guard !special.isEmpty else {
            let single = "    \(level)var baseURL: URL { \(base) }"
            if single.count <= Code.width {
                line(single)
            } else {
                line("    \(level)var baseURL: URL {")
                line("        " + base)
                line("    }")
            }
            return
        }
        line("    \(level)var baseURL: URL {")
        line("        let base = \(base)")
        line("        switch self {")
        for target in special {
            guard let query = orderedQuery(target) else {
                line("        case \(pattern(target, using: [])):")
                line("            return \(own(target) ?? "base")")
                continue
            }
            let code = Code.call(
                "Self.appending",
                [(nil, parameters(query, in: target)), ("keys", keys(query)), ("to", .raw(own(target) ?? "base"))])
            line("        case \(pattern(target, using: params(in: query))):")
            for codeLine in code.lines(indent: "            ", lead: "return ") { line(codeLine) }
        }
        line("        default:")
        line("            return base")
        line("        }")
        line("    }")
    }

    // MARK: - task

    mutating func writeTask() {
        writeSwitch("task", type: "Task") { file, target in file.task(target) }
    }

    mutating func task(_ target: TargetSpec) -> (Code, Set<String>) {
        switch target.task {
        case .plain:
            return (.raw(".requestPlain"), [])
        case .data(let source, _, let query):
            let body = data(source, in: target)
            guard let query else { return (.call(".requestData", body.code), body.used) }
            let url: Code = query.isOrdered ? .raw("[:]") : parameters(query, in: target)
            return (
                .call(".requestCompositeData", [("bodyData", body.code), ("urlParameters", url)]),
                body.used.union(query.isOrdered ? [] : params(in: query))
            )
        case .json(let value, let query):
            guard let query else {
                return (.call(".requestJSONEncodable", standalone(json(value, in: target))), params(in: value))
            }
            // Moya's JSON task has no query: the JSON's bytes, in the members' order, with one.
            let url: Code = query.isOrdered ? .raw("[:]") : parameters(query, in: target)
            return (
                .call(
                    ".requestCompositeData",
                    [("bodyData", .call("Self.data", standalone(json(value, in: target)))), ("urlParameters", url)]),
                params(in: value).union(query.isOrdered ? [] : params(in: query))
            )
        case .parameters(let block, let spec, let query):
            let encoding = self.encoding(spec, ordered: block.isOrdered ? keys(block) : nil, method: target.method)
            let used = params(in: block)
            guard let query else {
                return (
                    .call(
                        ".requestParameters", [("parameters", parameters(block, in: target)), ("encoding", encoding)]),
                    used
                )
            }
            let url: Code = query.isOrdered ? .raw("[:]") : parameters(query, in: target)
            return (
                .call(
                    ".requestCompositeParameters",
                    [
                        ("bodyParameters", parameters(block, in: target)), ("bodyEncoding", encoding),
                        ("urlParameters", url),
                    ]),
                used.union(query.isOrdered ? [] : params(in: query))
            )
        case .upload(let template, _):
            // Its query is the base URL's (`orderedQuery`).
            let used = params(in: template)
            // An optional file not given sends no body, as `call` sends none.
            if let whole = template.wholeParam, let param = target.param(named: whole), param.elementType == .file,
                !param.type.isArray, param.defaultValue == nil, param.isOptional
            {
                return (.raw("\(label(param)).map(Task.uploadFile) ?? .requestPlain"), used)
            }
            return (.call(".uploadFile", file(template, in: target)), used)
        case .multipart(let parts, let query):
            var used: Set<String> = []
            var codes: [Code] = []
            for part in parts {
                var arguments: [(label: String?, value: Code)] = []
                switch part.content {
                case .value(let template):
                    used.formUnion(params(in: template))
                    if let whole = template.wholeParam, let param = target.param(named: whole),
                        param.defaultValue == nil, param.isOptional
                    {
                        arguments.append((nil, .raw(textValue(param, orNil: true))))
                    } else {
                        arguments.append((nil, .raw(self.text(template, in: target))))
                    }
                case .file(let template):
                    used.formUnion(params(in: template))
                    arguments.append(("file", file(template, in: target)))
                }
                arguments.append(("name", .raw(SwiftName.literal(part.name))))
                if let fileName = part.fileName {
                    used.formUnion(params(in: fileName))
                    arguments.append(("fileName", .raw(text(fileName, in: target))))
                }
                if let mimeType = part.mimeType {
                    used.formUnion(params(in: mimeType))
                    arguments.append(("mimeType", .raw(text(mimeType, in: target))))
                }
                codes.append(.call("Self.part", arguments))
            }
            let form = Code.call("MultipartFormData", [(label: "parts", value: .call("Self.present", .list(codes)))])
            guard let query else { return (.call(".uploadMultipartFormData", form), used) }
            let url: Code = query.isOrdered ? .raw("[:]") : parameters(query, in: target)
            return (
                .call(".uploadCompositeMultipartFormData", [(nil, form), ("urlParameters", url)]),
                used.union(query.isOrdered ? [] : params(in: query))
            )
        case .download(let template, let block, let spec):
            let destination = Code.raw(
                "{ _, _ in (URL(fileURLWithPath: \(text(template, in: target))), [.removePreviousFile]) }")
            let used = params(in: template)
            guard let block else { return (.call(".downloadDestination", destination), used) }
            let encoding = self.encoding(spec, ordered: block.isOrdered ? keys(block) : nil, method: target.method)
            return (
                .call(
                    ".downloadParameters",
                    [
                        ("parameters", parameters(block, in: target)), ("encoding", encoding),
                        ("destination", destination),
                    ]),
                used.union(params(in: block))
            )
        }
    }

    /// A local file's URL: a `file` param as it is, any other path as written.
    func file(_ template: Template, in target: TargetSpec) -> Code {
        if let whole = template.wholeParam, let param = target.param(named: whole), param.elementType == .file,
            !param.type.isArray
        {
            return .raw(label(param))
        }
        return .raw("URL(fileURLWithPath: \(text(template, in: target)))")
    }

    /// A raw body: text as written, or a file's bytes as they are now.
    mutating func data(_ source: DataSource, in target: TargetSpec) -> (code: Code, used: Set<String>) {
        switch source {
        case .text(let template):
            return (.raw("Data(\(text(template, in: target)).utf8)"), [])
        case .file(let path):
            let resolved = service.path(path)
            guard let bytes = FileManager.default.contents(atPath: resolved) else {
                warnings.append("\(target.name): cannot read \(resolved); the body is empty")
                return (.raw("Data()"), [])
            }
            return (embedded(bytes), [])
        }
    }

    /// Bytes in the source: UTF-8 text as a string literal, anything else as base64.
    func embedded(_ bytes: Data) -> Code {
        if let text = String(validating: bytes, as: UTF8.self) {
            // Text with line breaks reads best as it is; a multi-line literal needs a final
            // line break, written as an empty last line, and has no carriage returns or tabs.
            if text.contains("\n"), text.hasSuffix("\n"),
                !text.unicodeScalars.contains(where: { $0 != "\n" && TerminalText.isControl($0) })
            {
                return .textData(text)
            }
            return .raw("Data(\(SwiftName.literal(text)).utf8)")
        }
        return .raw("Data(base64Encoded: \(SwiftName.literal(bytes.base64EncodedString()))) ?? Data()")
    }

    /// The parameter encoding for an encoding spec: Alamofire's, or `InOrder` for a block
    /// written as a sequence.
    mutating func encoding(_ spec: EncodingSpec, ordered keys: Code?, method: MoyaHTTP.Method) -> Code {
        switch spec.kind {
        case .json: return .raw("JSONEncoding.default")
        case .prettyJSON: return .raw("JSONEncoding.prettyPrinted")
        case .url, .queryString, .httpBody: break
        }
        if let keys {
            let inBody =
                spec.kind == .httpBody || (spec.kind == .url && ![.get, .head, .delete].contains(method))
            var arguments: [(label: String?, value: Code)] = [("keys", keys)]
            if inBody { arguments.append(("inBody", .raw("true"))) }
            if spec.bools == .literal { arguments.append(("boolEncoding", .raw(".literal"))) }
            return .call("InOrder", arguments)
        }
        let destination =
            switch spec.kind {
            case .queryString: "queryString"
            case .httpBody: "httpBody"
            default: "default"
            }
        if spec.arrays == .brackets, spec.bools == .numeric { return .raw("URLEncoding.\(destination)") }
        return .call(
            "URLEncoding",
            [
                ("destination", .raw(destination == "default" ? ".methodDependent" : "." + destination)),
                ("arrayEncoding", .raw("." + spec.arrays.rawValue)),
                ("boolEncoding", .raw("." + spec.bools.rawValue)),
            ])
    }

    // MARK: - headers, validationType, sampleData

    /// The headers `call` sends for a target, as (name, value template), in order: the
    /// service's, then the target's, each replacing one of the same name, then the
    /// credentials of `auth:`.
    func headerTemplates(_ target: TargetSpec) -> [(name: String, value: Template)] {
        var headers: [(name: String, value: Template)] = []
        for header in service.headers + target.headers {
            headers.removeAll { $0.name.lowercased() == header.name.lowercased() }
            headers.append((header.name, header.value))
        }
        return headers
    }

    mutating func writeHeaders() {
        var branches: [(patterns: [String], body: [String])] = []
        for target in service.targets {
            var used: Set<String> = []
            var statements: [String] = []
            let headers = headerTemplates(target)
            let auth = target.auth ?? service.auth
            for header in headers {
                if auth.map(Self.setsAuthorization) == true, header.name.lowercased() == "authorization" { continue }
                used.formUnion(params(in: header.value))
                // A dictionary entry set to nil is left out.
                statements.append("headers[\(SwiftName.literal(header.name))] = \(sent(header.value, in: target).code)")
            }
            if !target.cookies.isEmpty {
                statements.append("var cookies: [String] = []")
                for cookie in target.cookies {
                    used.formUnion(params(in: cookie.value))
                    let name = SwiftName.literal(cookie.name)
                    let value = sent(cookie.value, in: target)
                    if value.mayBeAbsent {
                        statements.append("if let value = \(value.code) {")
                        statements.append("    cookies.append(Self.cookie(\(name), value))")
                        statements.append("}")
                    } else {
                        statements.append("cookies.append(Self.cookie(\(name), \(value.code)))")
                    }
                }
                statements.append("if !cookies.isEmpty {")
                statements.append(
                    "    headers[\"Cookie\"] = ([headers[\"Cookie\"]].compactMap { $0 } + cookies).joined(separator: \"; \")"
                )
                statements.append("}")
            }
            if case .data(_, let contentType?, _) = target.task {
                used.formUnion(params(in: contentType))
                statements.append(
                    "if !headers.keys.contains(where: { $0.lowercased() == \"content-type\" }) {")
                statements.append("    headers[\"Content-Type\"] = \(text(contentType, in: target))")
                statements.append("}")
            }
            if case .json(_, _?) = target.task {
                // `requestJSONEncodable` sets it; the composite data a JSON body with a query is does not.
                statements.append(
                    "if !headers.keys.contains(where: { $0.lowercased() == \"content-type\" }) {")
                statements.append("    headers[\"Content-Type\"] = \"application/json\"")
                statements.append("}")
            }
            switch auth {
            case .bearer(let token)?:
                used.formUnion(params(in: token))
                statements += authorization(token, scheme: "Bearer", in: target)
            case .basic(let user, let password)?:
                used.formUnion(params(in: user).union(params(in: password)))
                let (userText, passwordText) = (text(user, in: target), text(password, in: target))
                let header = "headers[\"Authorization\"] = Self.basic(\(userText), \(passwordText))"
                if user.isOnlyVariables, password.isOnlyVariables {
                    // Neither given: no credentials to send.
                    statements += ["if !\(userText).isEmpty || !\(passwordText).isEmpty {", "    " + header, "}"]
                } else {
                    statements.append(header)
                }
            case .custom(let scheme, let token)?:
                used.formUnion(params(in: token))
                statements += authorization(token, scheme: scheme, in: target)
            case .login?:
                warnings.append(
                    "\(target.name): auth: login is not generated; send its token with an AccessTokenPlugin")
            case .none?, nil:
                break
            }
            branches.append(
                (
                    [pattern(target, using: used)],
                    (statements.isEmpty ? ["break"] : statements).map { "            " + $0 }
                ))
        }
        if branches.allSatisfy({ $0.body == ["            break"] }) {
            line("    \(level)var headers: [String: String]? { nil }")
            return
        }
        line("    \(level)var headers: [String: String]? {")
        line("        var headers: [String: String] = [:]")
        line("        switch self {")
        writeBranches(branches)
        line("        }")
        line("        return headers.isEmpty ? nil : headers")
        line("    }")
    }

    /// A header's or cookie's value as code: a `String?` when it may be left out, as `call`
    /// leaves it out (one reference to an optional param with no default, or only
    /// environment references, which are a credential not given when empty); else a `String`.
    func sent(_ template: Template, in target: TargetSpec) -> (code: String, mayBeAbsent: Bool) {
        if let whole = template.wholeParam, let param = target.param(named: whole), param.defaultValue == nil,
            param.isOptional
        {
            return (textValue(param, orNil: true), true)
        }
        if template.isOnlyVariables { return ("Self.given(\(text(template, in: target)))", true) }
        return (text(template, in: target), false)
    }

    /// The statements that send `token` under `scheme`; a token the environment leaves empty
    /// is not sent, as `call` does not send it.
    func authorization(_ token: Template, scheme: String, in target: TargetSpec) -> [String] {
        guard token.isOnlyVariables else {
            return ["headers[\"Authorization\"] = \(text(token, in: target, after: scheme + " "))"]
        }
        let head = "headers[\"Authorization\"] = Self.given(\(text(token, in: target))).map"
        let body = "\(SwiftName.literal(scheme + " ")) + $0"
        // The statement stands 12 spaces in, inside its case.
        let single = "\(head) { \(body) }"
        return 12 + single.count <= Code.width ? [single] : [head + " {", "    " + body, "}"]
    }

    static func setsAuthorization(_ auth: AuthSpec) -> Bool {
        switch auth {
        case .bearer, .basic, .custom: true
        case .none, .login: false
        }
    }

    mutating func writeValidation() {
        let types = service.targets.map { Self.validation($0.validation ?? service.validation) }
        if let first = types.first, types.allSatisfy({ $0 == first }) {
            line("    \(level)var validationType: ValidationType { \(first) }")
            return
        }
        writeSwitch("validationType", type: "ValidationType") { file, target in
            (.raw(Self.validation(target.validation ?? file.service.validation)), [])
        }
    }

    static func validation(_ type: ValidationType) -> String {
        switch type {
        case .none: ".none"
        case .successCodes: ".successCodes"
        case .successAndRedirectCodes: ".successAndRedirectCodes"
        case .customCodes(let codes): ".customCodes([\(codes.map(String.init).joined(separator: ", "))])"
        }
    }

    mutating func writeSampleData() {
        writeSwitch("sampleData", type: "Data") { file, target in
            guard case .response(_, _, let body)? = target.sample else { return (.raw("Data()"), []) }
            switch body {
            case .empty:
                return (.raw("Data()"), [])
            case .text(let template):
                return (.raw("Data(\(file.text(template, in: target)).utf8)"), file.params(in: template))
            case .json(let value):
                return (.call("Self.data", file.standalone(file.json(value, in: target))), file.params(in: value))
            case .file(let path):
                guard let bytes = FileManager.default.contents(atPath: path) else {
                    file.warnings.append("\(target.name): cannot read the sample \(path); it is empty")
                    return (.raw("Data()"), [])
                }
                return (file.embedded(bytes), [])
            case .events:
                file.warnings.append("\(target.name): a stream sample's events are not generated; sampleData is empty")
                return (.raw("Data()"), [])
            }
        }
    }

    // MARK: - Helpers

    mutating func writeHelpers() {
        let helpers: [(uses: [String], lines: [String])] = [
            (["Self.environment(", typeName + ".environment("], Self.environmentHelper),
            (["Self.given("], Self.givenHelper),
            (["Self.pathSegment("], Self.pathSegmentHelper),
            (["Self.present("], Self.presentHelpers),
            (["Self.parameters("], Self.parametersHelper),
            (["Self.joined("], Self.joinedHelper),
            (["Self.data("], Self.dataHelper),
            (["Self.part("], Self.partHelpers),
            (["Self.appending("], Self.appendingHelper),
            (["Self.basic("], Self.basicHelper),
            (["Self.cookie("], Self.cookieHelper),
        ]
        let used = helpers.filter { helper in helper.uses.contains { output.contains($0) } }
        let inOrder = output.contains("InOrder(") || output.contains("Self.appending(")
        guard !used.isEmpty || inOrder else { return }
        line()
        line("extension \(typeName) {")
        for (index, helper) in used.enumerated() {
            if index > 0 { line() }
            for text in helper.lines {
                // A public case's default argument may call only what is public.
                let declared = text.hasPrefix("static func environment(") ? level + text : text
                line(declared.isEmpty ? "" : "    " + declared)
            }
        }
        if inOrder {
            if !used.isEmpty { line() }
            for text in Self.inOrderType(level: level) { line(text.isEmpty ? "" : "    " + text) }
        }
        line("}")
    }

    static let environmentHelper = [
        "/// An environment variable's value when the code runs, or the spec's default.",
        "static func environment(_ name: String, or fallback: String) -> String {",
        "    ProcessInfo.processInfo.environment[name] ?? fallback",
        "}",
    ]

    static let givenHelper = [
        "/// A value from the environment, or nil when it is empty: a credential not given, which",
        "/// is left out rather than sent empty.",
        "static func given(_ value: String) -> String? {",
        "    value.isEmpty ? nil : value",
        "}",
    ]

    static let cookieHelper = [
        "/// A cookie's `name=value`, the value percent-encoded past RFC 6265's cookie-octet (and",
        "/// `%`), as moya-cli sends it.",
        "static func cookie(_ name: String, _ value: String) -> String {",
        "    let octets = CharacterSet(",
        "        charactersIn: \"!#$&'()*+-./0123456789:<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~\")",
        "    return name + \"=\" + (value.addingPercentEncoding(withAllowedCharacters: octets) ?? value)",
        "}",
    ]

    static let pathSegmentHelper = [
        "/// A value as one path segment: all but unreserved characters percent-encoded, and dots",
        "/// too when it is only dots, so that it can neither add a segment nor climb out of one.",
        "static func pathSegment(_ value: String) -> String {",
        "    let unreserved = CharacterSet(",
        "        charactersIn: \"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~\")",
        "    if !value.isEmpty, value.allSatisfy({ $0 == \".\" }) {",
        "        return String(repeating: \"%2E\", count: value.count)",
        "    }",
        "    return value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value",
        "}",
    ]

    static let presentHelpers = [
        "/// The values that are there, in order.",
        "static func present<Value>(_ values: [Value?]) -> [Value] {",
        "    values.compactMap { $0 }",
        "}",
        "",
        "/// Object members whose values are there, in order.",
        "static func present(_ members: [(String, JSONValue?)]) -> [(key: String, value: JSONValue)] {",
        "    members.compactMap { key, value in value.map { (key: key, value: $0) } }",
        "}",
    ]

    static let joinedHelper = [
        "/// An array sent as one value, its items joined, as OpenAPI's `explode: false` writes it.",
        "static func joined(_ value: JSONValue?, separator: String) -> JSONValue? {",
        "    guard case .array(let items)? = value else { return value }",
        "    return .string(",
        "        items.map { item -> String in",
        "            if case .string(let text) = item { return text }",
        "            return item.serialized(escapeSlashes: false)",
        "        }.joined(separator: separator))",
        "}",
    ]

    static let parametersHelper = [
        "/// Parameters whose values are there; `gathering` collects a repeated key's values.",
        "static func parameters(_ entries: [(String, JSONValue?)], gathering: Bool = false) -> [String: Any] {",
        "    var parameters: [String: Any] = [:]",
        "    for case let (key, value?) in entries {",
        "        guard gathering, let existing = parameters[key] else {",
        "            parameters[key] = value.parameterValue",
        "            continue",
        "        }",
        "        let added: [Any]",
        "        if case .array(let values) = value {",
        "            added = values.map(\\.parameterValue)",
        "        } else {",
        "            added = [value.parameterValue]",
        "        }",
        "        parameters[key] = ((existing as? [Any]) ?? [existing]) + added",
        "    }",
        "    return parameters",
        "}",
    ]

    static let dataHelper = [
        "/// A JSON sample's bytes, as moya-cli writes them.",
        "static func data(_ json: JSONValue) -> Data {",
        "    Data(json.serialized(escapeSlashes: false).utf8)",
        "}",
    ]

    static let partHelpers = [
        "/// A multipart part with text, or nil when there is none.",
        "static func part(",
        "    _ text: String?, name: String, fileName: String? = nil, mimeType: String? = nil",
        ") -> MultipartFormBodyPart? {",
        "    text.map {",
        "        MultipartFormBodyPart(provider: .data(Data($0.utf8)), name: name, fileName: fileName, mimeType: mimeType)",
        "    }",
        "}",
        "",
        "/// A multipart part with a file's contents, or nil when there is no file.",
        "static func part(",
        "    file: URL?, name: String, fileName: String? = nil, mimeType: String? = nil",
        ") -> MultipartFormBodyPart? {",
        "    file.map {",
        "        MultipartFormBodyPart(provider: .file($0), name: name, fileName: fileName, mimeType: mimeType)",
        "    }",
        "}",
    ]

    static let basicHelper = [
        "/// An `Authorization` value for HTTP Basic authentication.",
        "static func basic(_ user: String, _ password: String) -> String {",
        "    \"Basic \" + Data(\"\\(user):\\(password)\".utf8).base64EncodedString()",
        "}",
    ]

    static let appendingHelper = [
        "/// `url` with parameters added to its query in the order of `keys`, booleans as words.",
        "static func appending(_ parameters: [String: Any], keys: [String], to url: URL) -> URL {",
        "    let encoding = InOrder(keys: keys, boolEncoding: .literal)",
        "    let request = try? encoding.encode(URLRequest(url: url), with: parameters)",
        "    return request?.url ?? url",
        "}",
    ]

    static func inOrderType(level: String) -> [String] {
        [
            "/// Puts parameters in the query, or in a form body, in the order the spec declares them,",
            "/// a repeated key once for each of its values.",
            "\(level)struct InOrder: ParameterEncoding {",
            "    /// The keys, in order.",
            "    \(level)var keys: [String]",
            "    /// Whether the pairs go in a form body instead of the query.",
            "    \(level)var inBody = false",
            "    /// How booleans are written.",
            "    \(level)var boolEncoding = URLEncoding.BoolEncoding.numeric",
            "",
            "    \(level)func encode(_ urlRequest: URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest {",
            "        var request = try urlRequest.asURLRequest()",
            "        guard let parameters else { return request }",
            "        let pairs = URLEncoding(destination: .queryString, arrayEncoding: .noBrackets, boolEncoding: boolEncoding)",
            "        let start = inBody ? nil : request.url",
            "        var scratch = URLRequest(url: start ?? URL(fileURLWithPath: \"/\"))",
            "        for key in keys {",
            "            if let value = parameters[key] { scratch = try pairs.encode(scratch, with: [key: value]) }",
            "        }",
            "        guard inBody else {",
            "            request.url = scratch.url",
            "            return request",
            "        }",
            "        let query = scratch.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }",
            "        if request.value(forHTTPHeaderField: \"Content-Type\") == nil {",
            "            let form = \"application/x-www-form-urlencoded; charset=utf-8\"",
            "            request.setValue(form, forHTTPHeaderField: \"Content-Type\")",
            "        }",
            "        request.httpBody = Data((query?.percentEncodedQuery ?? \"\").utf8)",
            "        return request",
            "    }",
            "}",
        ]
    }
}
