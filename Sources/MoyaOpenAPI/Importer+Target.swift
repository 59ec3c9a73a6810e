import MoyaHTTP
import MoyaRegex
import MoyaSpec
import MoyaStreams
import OpenAPIKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Importer {
    /// One operation as a target.
    mutating func target(_ endpoint: ResolvedEndpoint, names: inout Set<String>) -> ImportedSpec.Target {
        let method = endpoint.method.rawValue.lowercased()
        let pointer = ["paths", endpoint.path.rawValue, method]
        let fallback = method + endpoint.path.components.map { Names.upperCamel($0) }.joined()
        var name = Names.lowerCamel(endpoint.operationId ?? "", fallback: Names.lowerCamel(fallback, fallback: method))
        if names.contains(name) {
            var number = 2
            while names.contains("\(name)\(number)") { number += 1 }
            name += "\(number)"
        }
        names.insert(name)
        var target = ImportedSpec.Target(
            name: name, summary: (endpoint.endpointSummary ?? endpoint.routeSummary).map(Names.oneLine),
            description: endpoint.endpointDescription ?? endpoint.routeDescription,
            method: endpoint.method.rawValue.uppercased(), path: Self.sentPath(endpoint.path.rawValue))

        target.baseURL = ownServer(endpoint)
        target.operation = ImportedOperation(
            path: endpoint.path.rawValue, method: method, operationId: endpoint.operationId, target: name)
        var paramNames: Set<String> = []
        var pathNames: Set<String> = []
        var query: [ImportedSpec.Entry] = []
        for (index, parameter) in endpoint.parameters.enumerated() {
            let at = pointer + ["parameters", String(index)]
            let readsAsTemplate = !Template(parameter.name).params.isEmpty
            switch parameter.location {
            case .querystring:
                // The whole query as a form of an object is each of its properties as a query
                // param, as an exploded form object is; any other has no place in a spec.
                guard let members = querystringMembers(parameter, at: at) else {
                    warn(
                        at,
                        "querystring param '\(parameter.name)' has no place in a spec unless it is a form "
                            + "(application/x-www-form-urlencoded) of an object; left out")
                    continue
                }
                for (key, member) in members {
                    var param = member
                    param.name = Names.unique(Names.param(key), in: &paramNames)
                    query.append(.init(key: key, value: "{\(param.name)}"))
                    target.params.append(param)
                }
                continue
            case .header where ["accept", "content-type", "authorization"].contains(parameter.name.lowercased()):
                // OpenAPI: such a definition "SHALL be ignored"; the content and security say these.
                warn(at, "OpenAPI ignores a header param named '\(parameter.name)'; left out")
                continue
            case .cookie where !HTTPHeaders.isValidName(parameter.name):
                warn(at, "cookie param '\(parameter.name)' has a name a cookie cannot have; left out")
                continue
            case .header where !HTTPHeaders.isValidName(parameter.name):
                warn(at, "header param '\(parameter.name)' has a name a header cannot have; left out")
                continue
            case .query where readsAsTemplate, .header where readsAsTemplate:
                warn(
                    at,
                    "a \(parameter.location.rawValue) param named '\(parameter.name)' would read as a template; left out"
                )
                continue
            case .path, .query, .header, .cookie:
                break
            }
            if parameter.location == .query, let members = objectMembers(parameter, at: at) {
                for (key, member) in members {
                    var param = member
                    param.name = Names.unique(Names.param(key), in: &paramNames)
                    query.append(.init(key: key, value: "{\(param.name)}"))
                    target.params.append(param)
                }
                continue
            }
            var param = self.param(parameter, at: at)
            param.name = Names.unique(
                exportedName(of: parameter.name, in: parameter.location.rawValue, at: pointer)
                    ?? Names.param(parameter.name), in: &paramNames)
            target.operation.params[ImportedOperation.key(in: parameter.location.rawValue, parameter.name)] = param.name
            switch parameter.location {
            case .path:
                param.optional = false
                // A matrix param's key is its name in the path: a name the spec changed keeps
                // the document's key as a literal prefix.
                if param.style == "matrix", param.name != parameter.name, !param.type.hasPrefix("["),
                    param.type != "object"
                {
                    target.path = target.path.replacing(
                        "{\(parameter.name)}", with: ";\(Names.urlText(parameter.name[...]))={\(parameter.name)}")
                    param.style = nil
                }
                target.path = target.path.replacing("{\(parameter.name)}", with: "{\(param.name)}")
                pathNames.insert(param.name)
            case .query: query.append(.init(key: parameter.name, value: "{\(param.name)}"))
            case .header: target.headers.append(.init(key: parameter.name, value: "{\(param.name)}"))
            case .cookie: target.cookies.append(.init(key: parameter.name, value: "{\(param.name)}"))
            case .querystring: break
            }
            target.params.append(param)
        }

        // A template the document declares no path parameter for is still one segment the
        // caller fills: a string param, with a warning.
        var rest = Substring(target.path)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let name = String(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
            guard !target.params.contains(where: { "{\($0.name)}" == "{\(name)}" && pathNames.contains($0.name) })
            else { continue }
            let param = Names.unique(Names.param(name), in: &paramNames)
            warn(pointer, "the path names {\(name)}, which no path parameter declares; it is a string param")
            target.path = target.path.replacing("{\(name)}", with: "{\(param)}")
            target.params.append(ImportedSpec.Param(name: param, type: "string", description: nil, optional: false))
            pathNames.insert(param)
        }

        if let body = endpoint.requestBody {
            let before = target.params.count
            target.task = task(
                body, query: query, params: &target.params, names: &paramNames, at: pointer + ["requestBody"])
            // Whether the body is required, where its params do not say it (a body is required
            // when a param in it is).
            let paramsRequire = target.params[before...].contains { !$0.optional }
            if body.required != paramsRequire { target.bodyRequired = body.required }
            if case .upload(_, let contentType, _)? = target.task {
                target.headers.append(.init(key: "Content-Type", value: "\(contentType)"))
            }
            Self.describeBody(target.task, into: &target.operation)
            if let schema = schemas?.requestSchema(operation: pointer, content: body.content.keys.map(\.rawValue)) {
                target.requestSchema = schemas?.reference(to: schema)
            }
        } else if !query.isEmpty {
            target.task = .parameters(query, encoding: "queryString", query: [])
        }
        samples(endpoint.responses, into: &target, operation: pointer)
        pagination(of: endpoint, into: &target, query: query, at: pointer)
        stream(of: endpoint.responses, into: &target, operation: pointer)
        return target
    }

    /// `stream: KIND` for an operation whose successes answer only as one kind of stream
    /// (`text/event-stream`, NDJSON/JSON Lines, `application/json-seq`); an operation that
    /// also answers JSON is left to the response's `Content-Type`. OpenAPI 3.2's `itemSchema`
    /// becomes the target's schema, which a stream's checks hold each event's data to.
    mutating func stream(
        of responses: DereferencedResponse.Map, into target: inout ImportedSpec.Target, operation: [String]
    ) {
        let successes = responses.filter { $0.key.isSuccess }
        let types = successes.flatMap { $0.value.content.keys.map(\.rawValue) }
        let kinds = Set(types.compactMap { StreamKind(contentType: $0) })
        guard !types.isEmpty, kinds.count == 1, let kind = kinds.first,
            types.allSatisfy({ StreamKind(contentType: $0) != nil })
        else { return }
        target.stream = kind.rawValue
        // A stream's sample synthesised from no example is no stream at all: the stub answers
        // empty instead.
        if target.sample?.body == "null", target.sample?.json == nil { target.sample = nil }
        for (code, response) in successes {
            for (type, content) in response.content where content.itemSchema != nil {
                let at = operation + ["responses", code.rawValue, "content", type.rawValue, "itemSchema"]
                // An event stream's `itemSchema` describes whole events (`event`, `data` as
                // text, `id`, `retry`), where a target's schema holds each event's data.
                guard kind != .sse else {
                    warn(
                        at,
                        "an event stream's itemSchema describes whole events, and a target's schema each event's data; left out"
                    )
                    return
                }
                if let found = schemas?.pointer(at) {
                    target.schema = schemas?.reference(to: found)
                    return
                }
            }
        }
    }

    /// The param name `export openapi` wrote beside a key (`x-moya-param`), when it is one.
    /// Import decodes no extensions, so it is read from the document as written.
    static func exportedName(_ value: JSONValue?) -> String? {
        guard let name = value?.stringValue, ParamSpec.isValidParamName(name) else { return nil }
        return name
    }

    /// The `x-moya-param` of the operation's (or its path item's) parameter `name` in `location`.
    func exportedName(of name: String, in location: String, at operation: [String]) -> String? {
        for place in [operation, Array(operation.dropLast())] {
            guard case .array(let items)? = written(place + ["parameters"]) else { continue }
            for item in items {
                let parameter = resolved(item)
                if parameter["name"]?.stringValue == name, parameter["in"]?.stringValue == location {
                    return Self.exportedName(parameter[Exporter.paramExtension])
                }
            }
        }
        return nil
    }

    /// The `x-moya-sample` beside the example `name` of a response's content.
    func exportedSampleName(of name: String, in content: [String]) -> String? {
        guard case .object(let types)? = written(content) else { return nil }
        for type in types {
            if let exported = Self.exportedName(resolved(type.value)["examples"]?[name]?[Exporter.sampleExtension]) {
                return exported
            }
        }
        return nil
    }

    /// The value at a pointer of the document as written, through its local `$ref`s.
    func written(_ pointer: [String]) -> JSONValue? {
        guard var value = schemas?.raw else { return nil }
        for token in pointer {
            guard let next = resolved(value).value(atPath: [token]) else { return nil }
            value = next
        }
        return resolved(value)
    }

    /// A local `$ref` followed, a few at most.
    func resolved(_ value: JSONValue) -> JSONValue {
        var value = value
        for _ in 0..<8 {
            guard let reference = value["$ref"]?.stringValue, reference.hasPrefix("#/") else { break }
            let tokens: [String] = reference.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false).map {
                String($0).replacing("~1", with: "/").replacing("~0", with: "~")
            }
            guard let found = schemas?.raw.value(atPath: tokens) else { break }
            value = found
        }
        return value
    }

    /// What a workflow's request body sets in the target: the param of each member, or a body
    /// that is the target's example as it stands.
    static func describeBody(_ task: ImportedSpec.Task?, into operation: inout ImportedOperation) {
        func param(_ text: ImportedSpec.Text) -> String? {
            guard case .data(let template)? = text.pieces.first, text.pieces.count == 1, template.hasPrefix("{"),
                template.hasSuffix("}")
            else { return nil }
            return String(template.dropFirst().dropLast())
        }
        switch task {
        case .parameters(let entries, let encoding, _):
            operation.bodyType = encoding == "json" ? "application/json" : "application/x-www-form-urlencoded"
            for entry in entries { operation.bodyMembers[entry.key] = param(entry.value) }
        case .multipart(let parts, _):
            operation.bodyType = "multipart/form-data"
            for part in parts { operation.bodyMembers[part.name] = param(part.template) }
        case .data(_, let contentType, _):
            operation.bodyType = contentType
            operation.bodyIsFixed = true
        case .upload(_, let contentType, _), .text(_, let contentType, _):
            operation.bodyType = contentType
            operation.bodyIsFixed = true
        case .json:
            operation.bodyType = "application/json"
            operation.bodyIsFixed = true
        case nil:
            break
        }
    }

    /// An operation's or path item's first server, when it is not the document's first: the
    /// target's own base URL, read from `${SERVICE_HOST_URL}` when it is set (`BOX_UPLOAD_URL`
    /// for upload.box.com), as the service's is from its own variable. Its other servers are
    /// named in a warning.
    mutating func ownServer(_ endpoint: ResolvedEndpoint) -> ImportedSpec.Text? {
        guard let server = endpoint.servers.first,
            server.urlTemplate.rawValue != document.servers.first?.urlTemplate.rawValue
        else { return nil }
        let raw = server.urlTemplate.rawValue
        let pointer = ["paths", endpoint.path.rawValue, endpoint.method.rawValue.lowercased(), "servers"]
        guard raw.contains("://") else {
            warn(pointer, "the operation's server '\(raw)' is relative; its requests go to the service's base URL")
            return nil
        }
        if endpoint.servers.count > 1 {
            warn(pointer, "the operation's first server is its base URL; the others are left out")
        }
        // Named after the host's first label: BOX_UPLOAD_URL for upload.box.com.
        let host = raw.split(separator: "/").dropFirst().first.map { String($0) } ?? ""
        let label = host.split(separator: ".").first.map(String.init) ?? "server"
        return Self.baseURL(url(of: server), variable: Names.environment(serviceName, label + " URL"))
    }

    /// The path a request is sent to: a path key's `#fragment` names a variant of an
    /// operation (`/oauth2/token#refresh`), which its target's name keeps apart, and is not
    /// sent.
    static func sentPath(_ key: String) -> String {
        guard let hash = key.firstIndex(of: "#") else { return key }
        let path = String(key[..<hash])
        return path.isEmpty ? "/" : path
    }

    /// A parameter's type, enum, default, description and whether it may be left out.
    mutating func param(_ parameter: DereferencedParameter, at pointer: [String]) -> ImportedSpec.Param {
        var param = ImportedSpec.Param(
            name: parameter.name, type: "string", description: parameter.description.map(Names.oneLine),
            optional: !parameter.required)
        if case .query(_, let allowsEmpty, _) = parameter.underlyingParameter.context, allowsEmpty {
            param.allowsEmptyValue = true
        }
        switch parameter.schemaOrContent {
        case .a(let context):
            if Self.isFlatObject(context.schema) {
                // An object the style writes (`R,100,G,200`): given as JSON text.
                param.type = "object"
                param.example = SampleSynthesis.value(context.schema)
                if let given = Self.example(of: context) { param.take(example: given) }
            } else {
                describe(context.schema, into: &param, at: pointer + ["schema"])
                if let given = Self.example(of: context) { param.take(example: given) }
            }
            let (style, explode) = Self.writtenStyle(
                context.style, explode: context.explode, at: parameter.location, type: param.type)
            param.style = style
            param.explode = explode
        case .b:
            warn(pointer + ["content"], "param '\(parameter.name)' is described by content; it is sent as text")
        }
        return param
    }

    /// Whether a parameter's schema is an object whose members (if it names them) are
    /// scalars: one that OpenAPI's styles write.
    static func isFlatObject(_ schema: DereferencedJSONSchema) -> Bool {
        guard case .object(_, let object) = schema else { return false }
        return object.properties.values.allSatisfy { scalarType($0) != nil || isAny($0) }
    }

    /// The `style` and `explode` a param's spec writes: only what the place's own way does
    /// not already say. An array's query style when not exploded (the block's `arrays` write
    /// an exploded one); an array's or object's cookie style when not exploded; an object's
    /// query style (its members' own keys are `objectMembers`'); a path's `label` and
    /// `matrix` (a scalar's too, for its prefix) and an exploded path or header object.
    static func writtenStyle(
        _ style: OpenAPI.Parameter.SchemaContext.Style, explode: Bool, at location: OpenAPI.Parameter.Context.Location,
        type: String
    ) -> (style: String?, explode: Bool?) {
        let isArray = type.hasPrefix("[")
        let isObject = type == "object"
        switch location {
        case .query:
            if isObject, style == .deepObject { return ("deepObject", nil) }
            guard isArray || isObject, !explode else { return (nil, nil) }
            switch style {
            case .form, .spaceDelimited, .pipeDelimited: return (style.rawValue, false)
            default: return (nil, nil)
            }
        case .cookie:
            guard isArray || isObject, !explode else { return (nil, nil) }
            return ("form", false)
        case .path:
            switch style {
            case .label, .matrix:
                return (style.rawValue, (isArray || isObject) && explode ? true : nil)
            default:
                return isObject && explode ? ("simple", true) : (nil, nil)
            }
        case .header:
            return isObject && explode ? ("simple", true) : (nil, nil)
        default:
            return (nil, nil)
        }
    }

    /// An object query param that OpenAPI sends as `deepObject` (`filter[color]=red`) or as
    /// exploded `form` (`color=red`, the default): one param for each property, under the
    /// key it is sent with, typed by its schema, optional unless both the parameter and the
    /// property are required, with the parameter's example's member as its example. Nil for
    /// any other param, and for an object with no properties to name.
    mutating func objectMembers(
        _ parameter: DereferencedParameter, at pointer: [String]
    ) -> [(key: String, param: ImportedSpec.Param)]? {
        guard case .a(let context) = parameter.schemaOrContent, case .object(_, let object) = context.schema,
            !object.properties.isEmpty
        else { return nil }
        let deep = context.style == .deepObject
        guard deep || (context.style == .form && context.explode) else { return nil }
        let required = SampleSynthesis.requiredNames(object)
        let given = Self.example(of: context)
        var members: [(key: String, param: ImportedSpec.Param)] = []
        for (key, schema) in object.properties.sorted(by: { $0.key < $1.key }) {
            var param = ImportedSpec.Param(
                name: key, type: "string", description: schema.description.map(Names.oneLine),
                optional: !parameter.required || !required.contains(key))
            describe(schema, into: &param, at: pointer + ["schema", "properties", key])
            if case .object(let values)? = given, let value = values.first(where: { $0.key == key })?.value {
                param.take(example: value)
            }
            members.append((deep ? "\(parameter.name)[\(key)]" : key, param))
        }
        return members
    }

    /// An OpenAPI 3.2 `querystring` parameter's properties, each a query param, when its
    /// content is a form (`application/x-www-form-urlencoded`) of an object with properties.
    mutating func querystringMembers(
        _ parameter: DereferencedParameter, at pointer: [String]
    ) -> [(key: String, param: ImportedSpec.Param)]? {
        guard case .b(let content) = parameter.schemaOrContent,
            let form = content.first(where: { $0.key.rawValue.lowercased() == "application/x-www-form-urlencoded" }),
            case .object(_, let object)? = form.value.schema, !object.properties.isEmpty
        else { return nil }
        let required = SampleSynthesis.requiredNames(object)
        return object.properties.sorted(by: { $0.key < $1.key }).map { key, schema in
            var param = ImportedSpec.Param(
                name: key, type: "string", description: schema.description.map(Names.oneLine),
                optional: !parameter.required || !required.contains(key))
            describe(schema, into: &param, at: pointer + ["content", form.key.rawValue, "schema", "properties", key])
            return (key, param)
        }
    }

    /// A parameter's example: its first named example by name, else `example`.
    static func example(of context: DereferencedSchemaContext) -> JSONValue? {
        context.examples?.sorted(by: { $0.key < $1.key }).lazy
            .compactMap({ $0.value.dataOrLegacyValue.flatMap(JSONBridge.value) }).first
            ?? context.example.flatMap(JSONBridge.value)
    }

    /// Fills a param's type, enum and default from a schema.
    mutating func describe(_ schema: DereferencedJSONSchema, into param: inout ImportedSpec.Param, at pointer: [String])
    {
        let scalar = Self.scalarType(schema)
        let titled = Self.titledEnum(schema)
        let titledItems: [(value: String, title: String?)]? =
            if case .array(_, let context) = schema, let items = context.items { Self.titledEnum(items) } else { nil }
        if let choices = titled ?? titledItems {
            // OpenAPI 3.1's titled enum: the values, each title said in the description.
            param.type = titled == nil ? "[enum]" : "enum"
            param.enumValues = choices.map(\.value)
            let titles = choices.compactMap { choice in choice.title.map { "\(choice.value): \($0)" } }
            if !titles.isEmpty {
                param.description = [param.description, "Values: " + titles.joined(separator: "; ")]
                    .compactMap { $0 }.joined(separator: ". ")
            }
        } else if let scalar {
            param.type = scalar
        } else if case .array(_, let context) = schema, let items = context.items, let element = Self.scalarType(items)
        {
            param.type = "[\(element)]"
        } else if !Self.isAny(schema) {
            warn(pointer, "param '\(param.name)' is not a scalar or an array of scalars; it is sent as text")
        }
        let core = SampleSynthesis.core(of: schema)
        if scalar == "string", let values = core.allowedValues?.compactMap({ $0.value as? String }), !values.isEmpty {
            param.enumValues = values
            param.type = "enum"
        } else if param.type == "[string]", case .array(_, let context) = schema, let items = context.items,
            let values = SampleSynthesis.core(of: items).allowedValues?.compactMap({ $0.value as? String }),
            !values.isEmpty
        {
            // An array of an enum's values: each item one of them.
            param.enumValues = values
            param.type = "[enum]"
        }
        // A default the param's type cannot hold would make the spec invalid: it is left out.
        if let value = core.defaultValue.flatMap(JSONBridge.value) {
            if scalar == "file" || param.type == "string" {
                param.defaultValue = value
            } else if let typed = Self.typed(value, as: param),
                param.enumValues.map({ values in typed == value && values.contains(value.text) }) ?? true
            {
                param.defaultValue = typed
            } else {
                warn(
                    pointer + ["default"],
                    "the default \(value.serialized()) is not a value of type \(param.type); left out")
            }
        }
        // A schema that allows any value is sent as text, so its example is text.
        let made =
            Self.isAny(schema)
            ? .string(SampleSynthesis.string(format: "", minLength: 0, maxLength: nil)) : SampleSynthesis.value(schema)
        param.example = Self.typed(made, as: param)
        param.rules = Self.rules(of: schema, type: param.type)
        // A default or example that breaks the rules would fail `validate` or the check.
        if let rules = param.ruleSet {
            if let value = param.defaultValue, let broken = rules.violations(json: value).first {
                warn(pointer + ["default"], "the default \(value.serialized()) breaks the schema (\(broken)); left out")
                param.defaultValue = nil
            }
            if let value = param.example, !rules.violations(json: value).isEmpty { param.example = nil }
        }
    }

    /// The rules of a param's schema that a spec carries: numbers' bounds, strings' lengths,
    /// pattern and format, arrays' counts (an array's items' rules are its own).
    static func rules(of schema: DereferencedJSONSchema, type: String) -> [(key: String, value: JSONValue)] {
        var rules: [(key: String, value: JSONValue)] = []
        var value = schema
        // Only the rules of the type the param has: one sent as text has none.
        let element = type.hasPrefix("[") ? String(type.dropFirst().dropLast()) : type
        guard ["int", "number", "string", "enum"].contains(element) else { return [] }
        if case .array(_, let context) = schema {
            guard type.hasPrefix("[") else { return [] }
            if context.minItems > 0 { rules.append(("minItems", .integer(context.minItems))) }
            if let most = context.maxItems { rules.append(("maxItems", .integer(most))) }
            if context.uniqueItems { rules.append(("uniqueItems", .bool(true))) }
            guard let items = context.items else { return rules }
            value = items
        }
        switch value {
        case .integer where element != "int", .number where element != "number", .string where element != "string":
            break
        case .integer(let core, let context):
            if let bound = context.minimum {
                rules.append((bound.exclusive ? "exclusiveMinimum" : "minimum", .integer(bound.value)))
            }
            if let bound = context.maximum {
                rules.append((bound.exclusive ? "exclusiveMaximum" : "maximum", .integer(bound.value)))
            }
            if let step = context.multipleOf, step > 0 { rules.append(("multipleOf", .integer(step))) }
            // The range of OpenAPI's integer formats, which serve and call hold values to.
            if element == "int", let format = core.formatString, ParamRules.integerFormats[format] != nil {
                rules.append(("format", .string(format)))
            }
        case .number(_, let context):
            if let bound = context.minimum {
                rules.append((bound.exclusive ? "exclusiveMinimum" : "minimum", .number(bound.value)))
            }
            if let bound = context.maximum {
                rules.append((bound.exclusive ? "exclusiveMaximum" : "maximum", .number(bound.value)))
            }
            if let step = context.multipleOf, step > 0 { rules.append(("multipleOf", .number(step))) }
        case .string(let core, let context):
            if context.minLength > 0 { rules.append(("minLength", .integer(context.minLength))) }
            if let most = context.maxLength { rules.append(("maxLength", .integer(most))) }
            if let pattern = context.pattern, (try? RegularExpression(pattern)) != nil {
                rules.append(("pattern", .string(pattern)))
            }
            if let format = core.formatString, Self.assertedFormats.contains(format) {
                rules.append(("format", .string(format)))
            }
        default:
            break
        }
        return rules
    }

    /// The formats a param's rules assert: those the schema validator checks.
    static let assertedFormats: Set<String> = ["date", "date-time", "time", "email", "ipv4", "uuid", "uri"]

    /// `value` as a check gives `param`: read as a flow's value is for a param of its type
    /// (`ParamSpec.value(from:)`), an enum's first value when it is not one of them; nil when
    /// it cannot be, for a file, or for no items.
    static func typed(_ value: JSONValue, as param: ImportedSpec.Param) -> JSONValue? {
        let type: ParamType
        if let values = param.enumValues {
            let element = ParamType.enumeration(values.map { ParamType.EnumCase(key: $0, value: $0) })
            type = param.type == "[enum]" ? .array(element) : element
        } else if let named = ParamType.named(param.type) {
            type = named
        } else {
            return nil
        }
        let spec = ParamSpec(name: param.name, type: type)
        guard spec.elementType != .file, let typed = try? spec.value(from: value).jsonValue,
            typed != .array([])
        else {
            // An enum's example that is not one of its values gives way to its first value.
            return param.enumValues?.first.map { param.type == "[enum]" ? .array([.string($0)]) : .string($0) }
        }
        return typed
    }

    /// The values of an enum written as OpenAPI 3.1 writes one with titles: a `oneOf` (or
    /// `anyOf`) whose every choice is one string `const` (or a one-value `enum`), with its
    /// `title` or `description`; nil for any other schema.
    static func titledEnum(_ schema: DereferencedJSONSchema) -> [(value: String, title: String?)]? {
        let choices: [DereferencedJSONSchema]
        switch schema {
        case .one(let options, _), .any(let options, _): choices = options
        default: return nil
        }
        var values: [(value: String, title: String?)] = []
        for choice in choices {
            let core = SampleSynthesis.core(of: choice)
            guard let allowed = core.allowedValues, allowed.count == 1, let value = allowed[0].value as? String,
                !values.contains(where: { $0.value == value })
            else { return nil }
            values.append((value, (core.title ?? core.description).map(Names.oneLine)))
        }
        return values.isEmpty ? nil : values
    }

    /// A JSON body that meets the request schema `serve` holds the request to: `body`, else one
    /// made from the schema (OpenAPIKit's reading, then the document as written), else `body`
    /// with a warning. `pointer` is the request body's; a document's example that breaks the
    /// schema is said with the first way it does.
    mutating func bodyMeetingItsSchema(
        _ body: JSONValue, given: Bool, content: DereferencedContent, type: String, at pointer: [String]
    ) -> JSONValue {
        guard let schemas, let schema = schemas.requestSchema(operation: Array(pointer.dropLast()), content: [type]),
            let first = schemas.errors(in: body, schema: schema)?.first
        else { return body }
        let made = content.schema.map(SampleSynthesis.value)
        let written = schemas.value(at: schema)
        // Without read-only members first; with them where the schema requires one, as a
        // validator that does not know OpenAPI's `readOnly` (serve's, many servers') does.
        let candidates =
            [made, written].compactMap { value in
                value.map { value in content.schema.map { SampleSynthesis.withoutReadOnly(value, $0) } ?? value }
            } + [made, written].compactMap { $0 }
        let place = pointer + ["content", type]
        for candidate in candidates where schemas.errors(in: candidate, schema: schema)?.isEmpty ?? true {
            if given {
                warn(place, "the example breaks its schema (\(first)); the body is made from the schema instead")
            }
            return candidate
        }
        warn(place, "the request body \(given ? "example" : "made from the schema") breaks its schema (\(first))")
        return body
    }

    /// The spec's type for a scalar schema.
    static func scalarType(_ schema: DereferencedJSONSchema) -> String? {
        switch schema {
        case .boolean: "bool"
        case .integer: "int"
        case .number: "number"
        case .string(let core, let context):
            core.formatString == "binary" || context.contentEncoding == .binary ? "file" : "string"
        default: nil
        }
    }

    // MARK: - Bodies

    /// The task a request body asks for: JSON, a form, multipart or a literal body.
    mutating func task(
        _ body: DereferencedRequest, query: [ImportedSpec.Entry], params: inout [ImportedSpec.Param],
        names: inout Set<String>, at pointer: [String]
    ) -> ImportedSpec.Task {
        let contents = mediaTypes(body.content, at: pointer + ["content"]).sorted { $0.type < $1.type }
        func find(_ match: (String) -> Bool) -> (type: String, content: DereferencedContent)? {
            contents.first { match($0.type) }
        }
        if let (type, content) = find({ $0 == "application/json" || $0.hasSuffix("+json") }) {
            if let fields = fields(
                of: content, names: &names, at: pointer + ["content", type, "schema"], as: .json)
            {
                params += fields.params
                return .parameters(fields.entries, encoding: "json", query: query)
            }
            let given = Examples.first(of: content)
            var example = given ?? content.schema.map(SampleSynthesis.value) ?? .object([])
            if let schema = content.schema { example = SampleSynthesis.withoutReadOnly(example, schema) }
            example = bodyMeetingItsSchema(example, given: given != nil, content: content, type: type, at: pointer)
            return .data(example.serialized(escapeSlashes: false), contentType: type, query: query)
        }
        if let content = find({ $0 == "application/x-www-form-urlencoded" })?.content,
            let fields = fields(
                of: content, names: &names,
                at: pointer + ["content", "application/x-www-form-urlencoded", "schema"], as: .form)
        {
            params += fields.params
            return .parameters(fields.entries, encoding: "httpBody", query: query)
        }
        if let content = find({ $0 == "multipart/form-data" })?.content,
            let fields = fields(
                of: content, names: &names, at: pointer + ["content", "multipart/form-data", "schema"], as: .multipart)
        {
            params += fields.params
            let parts = zip(fields.entries, fields.params).map { entry, param in
                ImportedSpec.Part(
                    name: entry.key, template: entry.value, isFile: param.type == "file",
                    mimeType: Self.partType(entry.key, of: content))
            }
            return .multipart(parts, query: query)
        }
        guard let (type, content) = contents.first else {
            return .parameters([], encoding: "json", query: query)
        }
        // A binary body (a binary string's schema, or none for a type that is not text) is a
        // file the user names, beside the query if there is one.
        let isBinary =
            content.schema.map { Self.scalarType($0) == "file" }
            ?? !(type.hasPrefix("text/") || type.hasSuffix("+xml") || type.hasSuffix("/xml"))
        if isBinary, Examples.first(of: content) == nil {
            let name = Names.unique("file", in: &names)
            params.append(
                ImportedSpec.Param(
                    name: name, type: "file", description: body.description.map(Names.oneLine),
                    optional: !body.required))
            return .upload("{\(name)}", contentType: type, query: query)
        }
        let text: String
        if let example = Examples.first(of: content) {
            if case .string(let string) = example {
                text = string
            } else {
                text = example.serialized(escapeSlashes: false)
            }
        } else {
            text = ""
        }
        warn(pointer + ["content", type], "a \(type) body is sent as its example, which no param fills")
        return .data(text, contentType: type, query: query)
    }

    /// A multipart part's media type: the one its `encoding` names, else JSON for a part that
    /// holds an object or an array of objects, as OpenAPI has it; nil leaves a text or file
    /// part without one.
    static func partType(_ name: String, of content: DereferencedContent) -> String? {
        // A part sent in a style has no content type of its own.
        if let encoding = content.encodingMap?[name], encoding.style != .form || !encoding.explode { return nil }
        if let named = content.encodingMap?[name]?.contentTypes.first { return named.rawValue }
        guard case .object(_, let object)? = content.schema, let property = object.properties[name] else {
            return nil
        }
        return holdsJSON(property) ? "application/json" : nil
    }

    /// Whether a schema allows any value: text fits it as well as anything.
    static func isAny(_ schema: DereferencedJSONSchema) -> Bool {
        if case .fragment = schema { return true }
        return false
    }

    /// How a body sends its members.
    enum BodyKind { case json, form, multipart }

    static func isArrayOfScalars(_ property: DereferencedJSONSchema) -> Bool {
        if case .array(_, let context) = property, let items = context.items { return scalarType(items) != nil }
        return false
    }

    /// Whether a body member is neither a scalar nor an array of scalars: a form or a
    /// multipart part sends it as JSON text.
    static func holdsJSON(_ property: DereferencedJSONSchema) -> Bool {
        !isAny(property) && scalarType(property) == nil && !isArrayOfScalars(property)
    }

    /// An object schema's properties as params, each sent under its own key; nil when the
    /// body is not an object of scalars and arrays of scalars. With `file`, binary strings
    /// are file params.
    ///
    /// A member the schema requires is a required param, whether or not the body is: the
    /// target always sends one. The body's example gives each param its example.
    mutating func fields(
        of content: DereferencedContent, names: inout Set<String>, at pointer: [String], as kind: BodyKind
    ) -> (entries: [ImportedSpec.Entry], params: [ImportedSpec.Param])? {
        guard case .object(_, let object)? = content.schema, !object.properties.isEmpty else { return nil }
        let given: [(key: String, value: JSONValue)] =
            if case .object(let members)? = Examples.first(of: content) { members } else { [] }
        let required = SampleSynthesis.requiredNames(object)
        var entries: [ImportedSpec.Entry] = []
        var params: [ImportedSpec.Param] = []
        // Read-only properties are the server's to set: never params of a request.
        for (key, property) in object.properties.sorted(by: { $0.key < $1.key })
        where !SampleSynthesis.core(of: property).readOnly {
            let scalar = Self.scalarType(property)
            let isJSON = Self.holdsJSON(property)
            var param = ImportedSpec.Param(
                name: key, type: "string",
                description: SampleSynthesis.core(of: property).description.map(Names.oneLine),
                optional: !required.contains(key))
            let at = pointer + ["properties", key]
            let example = given.first { $0.key == key }?.value
            // A style the member's `encoding` names (one that is not `form` exploded, which
            // OpenAPIKit cannot tell from none) is how the member is sent, its content type
            // aside, as OpenAPI 3.1 says: an object's `R,100,G,200`, an array's `a|b`.
            var styled = content.encodingMap?[key].flatMap { encoding in
                encoding.style != .form || !encoding.explode ? encoding : nil
            }
            // `deepObject` writes an object's members; an array has none, so it goes as a
            // form's array does.
            if styled?.style == .deepObject, !Self.isFlatObject(property) {
                warn(
                    Array(pointer.dropLast()) + ["encoding", key, "style"],
                    "deepObject is an object's style and '\(key)' is not an object; it is sent as a form sends it")
                styled = nil
            }
            if kind != .json, let styled, Self.isFlatObject(property) || Self.isArrayOfScalars(property) {
                if Self.isFlatObject(property) {
                    param.type = "object"
                    param.example = SampleSynthesis.value(property)
                } else {
                    describe(property, into: &param, at: at)
                }
                if let example { param.take(example: example) }
                param.style = styled.style.rawValue
                param.explode =
                    styled.explode
                        == ParamStyle.defaultExplode(
                            ParamStyle.Style(rawValue: styled.style.rawValue) ?? .form) ? nil : styled.explode
            } else if kind != .json, isJSON {
                // A form's or a part's member that holds an object, or an array of them, is its
                // JSON text: neither has another way to send one.
                var made = SampleSynthesis.withoutReadOnly(SampleSynthesis.value(property), property)
                if let value = SampleSynthesis.core(of: property).defaultValue.flatMap(JSONBridge.value) ?? example {
                    made = value
                }
                param.defaultValue = .string(made.serialized(escapeSlashes: false))
                warn(
                    at,
                    "\(kind == .multipart ? "part" : "field") '\(key)' holds JSON; it is sent as JSON text, "
                        + "its example the default")
            } else if kind == .multipart, case .array(_, let context) = property, let items = context.items,
                Self.scalarType(items) == "file"
            {
                // A spec's multipart part holds one file.
                param.type = "file"
                warn(at, "part '\(key)' is an array of files; it is sent as one file")
            } else {
                // A JSON body's member that is not a scalar or an array of them leaves the
                // body its example; only a part takes a file.
                guard kind != .json || scalar != nil || Self.isArrayOfScalars(property),
                    kind == .multipart || scalar != "file"
                else { return nil }
                describe(property, into: &param, at: at)
                if let example { param.take(example: example) }
            }
            param.name = Names.unique(
                Self.exportedName(written(pointer + ["properties", key])?[Exporter.paramExtension])
                    ?? Names.param(key), in: &names)
            entries.append(.init(key: key, value: "{\(param.name)}"))
            params.append(param)
        }
        return (entries, params)
    }

    // MARK: - Samples

    /// The success response (the lowest 2xx, else `default`, at 200) as the sample, its other examples
    /// and every other response as named samples. The success response's schema is the
    /// target's; another response's is its samples' own.
    mutating func samples(
        _ responses: DereferencedResponse.Map, into target: inout ImportedSpec.Target, operation: [String]
    ) {
        let pointer = operation + ["responses"]
        var outcomes = responses.map { (code: $0.key, response: $0.value) }.sorted {
            (Self.order($0.code), $0.code.rawValue) < (Self.order($1.code), $1.code.rawValue)
        }
        // The lowest 2xx, else `default`, else the lowest 3xx: an operation that only redirects
        // answers with its redirect.
        let success =
            outcomes.filter { $0.code.isSuccess }.min { Self.order($0.code) < Self.order($1.code) }
            ?? outcomes.first { $0.code.value == .default }
            ?? outcomes.filter { (300..<400).contains(Self.status($0.code)) }.min {
                Self.order($0.code) < Self.order($1.code)
            }
        if let success, (300..<400).contains(Self.status(success.code)) {
            // The redirect is the operation's answer, not a step on the way to it.
            target.validation = "successAndRedirectCodes"
            target.followsRedirects = false
        }
        // The success response first: its other examples come before the other statuses.
        if let index = outcomes.firstIndex(where: { $0.code.rawValue == success?.code.rawValue }) {
            outcomes.insert(outcomes.remove(at: index), at: 0)
        }
        var used: Set<String> = []
        for outcome in outcomes {
            // A `default` that is the success response answers 200: it is what the
            // operation answers when it works ("successful operation").
            let isDefaultSuccess = outcome.code.value == .default && outcome.code.rawValue == success?.code.rawValue
            let status = isDefaultSuccess ? 200 : Self.status(outcome.code)
            let schema = schemas?.responseSchema(
                operation: operation, status: outcome.code.rawValue,
                content: outcome.response.content.keys.map(\.rawValue))
            let isSuccess = outcome.code.rawValue == success?.code.rawValue
            let bodiless = !Response.carriesContent(statusCode: status)
            if bodiless, !outcome.response.content.isEmpty {
                warn(
                    pointer + [outcome.code.rawValue, "content"],
                    "a \(status) answer has no content in HTTP; its content is left out")
            }
            let examples =
                bodiless
                ? [(name: nil, json: nil, text: nil, contentType: nil)]
                : examples(of: outcome.response, at: pointer + [outcome.code.rawValue, "content"], schema: schema)
            if !outcome.response.links.isEmpty {
                for name in outcome.response.links.keys.sorted() {
                    warn(
                        pointer + [outcome.code.rawValue, "links", name],
                        "link '\(name)' has no place in a spec; left out")
                }
            }
            let location = (300..<400).contains(status) ? Self.location(of: outcome.response) : nil
            for (index, example) in examples.enumerated() {
                var sample = ImportedSpec.Sample(
                    status: status, json: example.json, body: example.text, contentType: example.contentType,
                    location: location)
                if !isSuccess, example.json != nil { sample.schema = schema.flatMap { schemas?.reference(to: $0) } }
                if isSuccess, index == 0 {
                    // The schema holds a JSON body: a text one (a wildcard's string) has none.
                    if example.json != nil { target.schema = schema.flatMap { schemas?.reference(to: $0) } }
                    target.sample = sample
                    continue
                }
                let base = isSuccess ? "" : Self.statusName(outcome.code)
                let label = example.name.map { Names.lowerCamel($0, fallback: "example") }
                var name: String
                if let label { name = base.isEmpty ? label : base + Names.upperCamel(label) } else { name = base }
                // `export openapi` says a sample's name where this would not give it back.
                if let written = example.name,
                    let exported = exportedSampleName(of: written, in: pointer + [outcome.code.rawValue, "content"])
                {
                    name = exported
                }
                let unique = Names.unique(name.isEmpty ? "example" : name, in: &used)
                target.samples.append((unique, sample))
                if let written = example.name { target.operation.samples[written] = unique }
            }
        }
    }

    /// A redirect's `Location`: its header's example, else one made from its schema, else `/`.
    static func location(of response: DereferencedResponse) -> String {
        guard let header = response.headers?.first(where: { $0.key.lowercased() == "location" })?.value,
            case .a(let context) = header.schemaOrContent
        else { return "/" }
        let value = context.example.flatMap(JSONBridge.value) ?? SampleSynthesis.value(context.schema)
        if case .string(let text) = value, !text.isEmpty, HTTPHeaders.isValidValue(text) { return text }
        return "/"
    }

    /// A response's examples: its content's named examples, its example, else one made from
    /// its schema; a response with no content is one empty sample. A wildcard media type
    /// (`*/*`) is answered as JSON, or as text for a string. A JSON example that breaks the
    /// schema at `schema` is left out, with a warning; with none left, the sample is made
    /// from the schema.
    mutating func examples(of response: DereferencedResponse, at pointer: [String], schema: [String]?) -> [(
        name: String?, json: JSONValue?, text: String?, contentType: String?
    )] {
        let contents = mediaTypes(response.content, at: pointer)
            .sorted { ($0.type.hasSuffix("json") ? 0 : 1, $0.type) < ($1.type.hasSuffix("json") ? 0 : 1, $1.type) }
        guard let (type, content) = contents.first else { return [(nil, nil, nil, nil)] }
        let isJSON = type == "application/json" || type.hasSuffix("+json")
        var found: [(name: String?, value: JSONValue)] = []
        // By the name each sample gets (so that an export, which writes those names, reads
        // back in the same order), with one named `default` first: it is the default sample.
        func order(_ key: String) -> (Int, String, String) {
            (key == "default" ? 0 : 1, Names.lowerCamel(key, fallback: "example"), key)
        }
        for (name, example) in (content.examples ?? [:]).sorted(by: { order($0.key) < order($1.key) }) {
            if let value = example.dataOrLegacyValue.flatMap(JSONBridge.value) { found.append((name, value)) }
        }
        if found.isEmpty, let value = Examples.first(of: content) { found.append((nil, value)) }
        let answersJSON = isJSON || type.contains("*")
        // A response carries no `writeOnly` member, whatever the document's example says.
        if answersJSON, let schema = content.schema {
            found = found.map { ($0.name, SampleSynthesis.withoutReadOnly($0.value, schema, writeOnly: true)) }
        }
        if answersJSON, let schema, let schemas {
            found = found.filter { example in
                guard let errors = schemas.errors(in: example.value, schema: schema), let first = errors.first else {
                    return true
                }
                let place = example.name.map { pointer + [type, "examples", $0] } ?? pointer + [type]
                let more = errors.count > 1 ? " and \(errors.count - 1) more" : ""
                warn(
                    place,
                    "\(example.name.map { "example '\($0)'" } ?? "the example") breaks its schema "
                        + "(\(first)\(more)); it is left out")
                return false
            }
        }
        if found.isEmpty {
            var made =
                content.schema.map { SampleSynthesis.withoutReadOnly(SampleSynthesis.value($0), $0, writeOnly: true) }
                ?? .null
            // OpenAPIKit's reading of the schema loses keywords; the document as written does not.
            if answersJSON, let schema, let schemas, schemas.errors(in: made, schema: schema)?.isEmpty == false {
                made =
                    schemas.value(at: schema).map { value in
                        content.schema.map { SampleSynthesis.withoutReadOnly(value, $0, writeOnly: true) } ?? value
                    } ?? made
                // Held to the rule the document's examples are: one that breaks its schema
                // is left out, and the response has no body.
                if let first = schemas.errors(in: made, schema: schema)?.first {
                    warn(
                        pointer + [type],
                        "the sample made from the schema breaks it (\(first)); it is left out, so the sample has no body"
                    )
                    return [(nil, nil, nil, nil)]
                }
            }
            found.append((nil, made))
        }
        return found.map { example in
            if type.contains("*") {
                if case .string(let text) = example.value { return (example.name, nil, text, "text/plain") }
                return (example.name, example.value, nil, nil)
            }
            // A JSON type other than `application/json` (`application/problem+json`) is the
            // sample's `Content-Type`.
            if isJSON { return (example.name, example.value, nil, type == "application/json" ? nil : type) }
            if case .string(let text) = example.value { return (example.name, nil, text, type) }
            return (example.name, nil, example.value.serialized(escapeSlashes: false), type)
        }
    }

    /// The media types of content, lowercased; one that a header could not carry (a line
    /// break, a control) is left out with a warning.
    mutating func mediaTypes(_ content: DereferencedContent.Map, at pointer: [String]) -> [(
        type: String, content: DereferencedContent
    )] {
        var types: [(type: String, content: DereferencedContent)] = []
        for (key, value) in content {
            let type = key.typeAndSubtype.lowercased()
            guard HTTPHeaders.isValidValue(type), !type.unicodeScalars.contains(where: TerminalText.isControl) else {
                warn(pointer + [key.rawValue], "a media type with a control character is not a valid header; left out")
                continue
            }
            types.append((type, value))
        }
        return types
    }

    static func status(_ code: OpenAPI.Response.StatusCode) -> Int {
        switch code.value {
        case .status(let code): (100...599).contains(code) ? code : 200
        case .default: 500
        case .range(let range):
            switch range {
            case .information: 100
            case .success: 200
            case .redirect: 300
            case .clientError: 400
            case .serverError: 500
            }
        }
    }

    static func order(_ code: OpenAPI.Response.StatusCode) -> Int {
        if case .status(let value) = code.value { return value }
        return status(code) + 99
    }

    /// A named sample's name for a status: `notFound`, `status418`, `error` for `default`.
    static func statusName(_ code: OpenAPI.Response.StatusCode) -> String {
        switch code.value {
        case .default: return ResponseKey.namePrefix(of: "default") ?? "error"
        case .range(let range): return ResponseKey.namePrefix(of: range.rawValue) ?? "status\(range.rawValue)"
        case .status(let value):
            let known = [
                201: "created", 202: "accepted", 204: "noContent", 301: "movedPermanently", 302: "found",
                304: "notModified", 400: "badRequest", 401: "unauthorized", 403: "forbidden", 404: "notFound",
                405: "methodNotAllowed", 409: "conflict", 410: "gone", 415: "unsupportedMediaType",
                422: "unprocessableContent", 429: "tooManyRequests", 500: "serverError", 502: "badGateway",
                503: "serviceUnavailable", 504: "gatewayTimeout",
            ]
            return known[value] ?? "status\(value)"
        }
    }
}

/// Examples from content: its `example`, else the first of its `examples`, else its schema's.
enum Examples {
    static func first(of content: DereferencedContent) -> JSONValue? {
        // Named examples first, by name: OpenAPIKit fills `example` from one of them, which
        // one differing between runs where its decoding does not keep their order.
        for (_, example) in (content.examples ?? [:]).sorted(by: { $0.key < $1.key }) {
            if let value = example.dataOrLegacyValue.flatMap(JSONBridge.value) { return value }
        }
        if let value = content.example.flatMap(JSONBridge.value) { return value }
        if let schema = content.schema,
            let value = SampleSynthesis.core(of: schema).examples.first.flatMap(JSONBridge.value)
        {
            return value
        }
        return nil
    }
}

/// OpenAPIKit's `AnyCodable` as moya-cli's `JSONValue`: encoded with sorted keys, so that an
/// example's members come out in one order every time.
enum JSONBridge {
    /// What an example taken out of the document is replaced with, before its index.
    static let marker = "\u{FFFF}moya-example:"

    /// The examples taken out of the document being imported.
    @TaskLocal static var examples: [JSONValue] = []

    static func value(_ value: AnyCodable) -> JSONValue? {
        if let text = value.value as? String, text.hasPrefix(marker) {
            guard let index = Int(text.dropFirst(marker.count)), examples.indices.contains(index) else { return nil }
            return sorted(examples[index])
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value) else { return nil }
        return try? JSONValue(parsing: data)
    }

    /// `value` with every object's members sorted by key, as the encoder writes them. The
    /// depth is the document's, which the reader bounds.
    static func sorted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            .object(members.sorted { $0.key < $1.key }.map { (key: $0.key, value: sorted($0.value)) })
        case .array(let items): .array(items.map(sorted))
        default: value
        }
    }
}
