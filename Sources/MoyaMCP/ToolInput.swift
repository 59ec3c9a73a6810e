import MoyaHTTP
import MoyaMCPProtocol
import MoyaSchema
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A tool's arguments: the JSON Schema the model fills in, built from a target's params or a
/// flow's variables, and the arguments it sends checked against it and made into params.
///
/// A param whose value is a credential or comes from the environment (`secret: true`, a
/// `${VAR}` default, what `auth:` or a credential header is built from) is no argument at
/// all: the model can neither see its value nor set it, and the spec's value is sent.
///
/// A path is the model's only inside `--allow-files`: a `file` param, or any param the task
/// reads a file through whole, is an argument only then, and resolved inside that folder; a
/// param that is part of a path, or where a download is written, never is.
public enum ToolInput {
    /// Whether the model may see and set `param` of `target`; `credentials` are the target's
    /// credential params (`ServiceSpec.credentialParams(of:)`).
    static func isArgument(_ param: ParamSpec, of target: TargetSpec, credentials: Set<String>, allowsFiles: Bool)
        -> Bool
    {
        guard !param.isSecret, param.writtenDefault == nil, param.defaultTemplate == nil,
            !credentials.contains(param.name)
        else { return false }
        switch target.task.pathUse(of: param.name) {
        case .reads?: return allowsFiles
        case .other?: return false
        case nil: break
        }
        if param.elementType == .file { return allowsFiles }
        if case .enumeration(let cases) = param.elementType, cases.allSatisfy(\.isFromEnvironment) { return false }
        return true
    }

    /// Whether the model's value of `param` names a file, to be found inside `--allow-files`.
    static func isPath(_ param: ParamSpec, of target: TargetSpec) -> Bool {
        param.elementType == .file || target.task.pathUse(of: param.name) == .reads
    }

    /// The input schema of a target: one property per param the model may set, and the JSON
    /// path that selects what of a JSON body comes back.
    static func schema(for target: TargetSpec, in service: ServiceSpec, allowsFilesIn folder: String?) -> JSONValue {
        var properties: [(key: String, value: JSONValue)] = []
        var required: [JSONValue] = []
        let credentials = service.credentialParams(of: target)
        for param in target.params
        where isArgument(param, of: target, credentials: credentials, allowsFiles: folder != nil) {
            properties.append((param.name, property(for: param, of: target, folder: folder)))
            if param.isRequired { required.append(.string(param.name)) }
        }
        if let body = JSONBody(target) {
            let (schema, isRequired) = body.property
            properties.append((body.argument, schema))
            if isRequired { required.append(.string(body.argument)) }
        }
        properties.append(
            (
                ToolCatalog.selectArgument,
                .object([
                    ("type", .string("string")),
                    (
                        "description",
                        .string(
                            "An RFC 9535 JSONPath, such as $.items[*].name: only the values it selects of a JSON body "
                                + "come back, as a JSON array. Use it to keep results small.")
                    ),
                ])
            ))
        return object(properties, required: required)
    }

    /// The input schema of a flow: its variables with literal values, which the model may set
    /// in their place. A variable built from the environment or from others is not offered. A
    /// null variable (an Arazzo input with no default) takes a string, number or boolean.
    static func schema(for flow: FlowSpec) -> JSONValue {
        var properties: [(key: String, value: JSONValue)] = []
        for variable in flow.variables {
            guard case .value(let value) = variable.value else { continue }
            let type: JSONValue =
                value == .null
                ? .array(["string", "number", "boolean", "null"].map(JSONValue.string)) : .string(value.typeName)
            properties.append((variable.name, .object([("type", type), ("default", value)])))
        }
        return object(properties, required: [])
    }

    /// An object schema of `properties`, `required` ones named, and no other property.
    static func object(_ properties: [(key: String, value: JSONValue)], required: [JSONValue]) -> JSONValue {
        var schema: [(key: String, value: JSONValue)] = [
            ("type", .string("object")), ("properties", .object(properties)),
        ]
        if !required.isEmpty { schema.append(("required", .array(required))) }
        schema.append(("additionalProperties", .bool(false)))
        return .object(schema)
    }

    /// One param's property: its type, enum keys, default and description.
    static func property(for param: ParamSpec, of target: TargetSpec, folder: String?) -> JSONValue {
        var members = typeMembers(param.type, folder: folder)
        if let rules = param.rules { members = rules.adding(to: members) }
        if let value = param.defaultValue, let shown = defaultShown(value, of: param) {
            members.append(("default", shown))
        }
        var description = VisibleText(param.description ?? "").text
        if isPath(param, of: target), let folder {
            description += (description.isEmpty ? "" : " ") + "A path to a file inside \(folder)."
        }
        if !description.isEmpty { members.append(("description", .string(description))) }
        return .object(members)
    }

    private static func typeMembers(_ type: ParamType, folder: String?) -> [(key: String, value: JSONValue)] {
        switch type {
        case .string, .file: return [("type", .string("string"))]
        case .int: return [("type", .string("integer"))]
        case .number: return [("type", .string("number"))]
        case .bool: return [("type", .string("boolean"))]
        case .enumeration(let cases):
            let keys = cases.filter { !$0.isFromEnvironment }.map { JSONValue.string($0.key) }
            return [("type", .string("string")), ("enum", .array(keys))]
        case .array(let element):
            return [("type", .string("array")), ("items", .object(typeMembers(element, folder: folder)))]
        case .object:
            // A flat object: each member a string, number or boolean.
            let scalar = JSONValue.array([.string("string"), .string("number"), .string("boolean")])
            return [("type", .string("object")), ("additionalProperties", .object([("type", scalar)]))]
        }
    }

    /// A default as the model gives the value: an enum's by its key. A default that is an
    /// environment case is not shown.
    private static func defaultShown(_ value: ParamValue, of param: ParamSpec) -> JSONValue? {
        guard case .enumeration(let cases) = param.elementType else { return value.jsonValue }
        func key(_ item: ParamValue) -> JSONValue? {
            guard case .string(let sent) = item, let match = cases.first(where: { $0.value == sent }),
                !match.isFromEnvironment
            else { return nil }
            return .string(match.key)
        }
        if case .array(let items) = value {
            let keys = items.compactMap(key)
            return keys.count == items.count ? .array(keys) : nil
        }
        return key(value)
    }

    // MARK: - Arguments

    /// Why arguments were refused: each way they break the input schema, or a value that
    /// does not make a param.
    public struct Refusal: Error, Sendable {
        public var violations: [String]
    }

    /// `$.id: expected integer, got string`.
    static func describe(_ error: SchemaError) -> String {
        let path = error.instancePath.isEmpty ? "$" : error.instancePath
        return path + ": " + error.message
    }

    /// `--allow-files DIR`: the folder, as given (for messages), and its root, which confines
    /// paths as a spec's file root does (links resolved; no device, FIFO, socket or `/proc`).
    public struct Files: Sendable {
        public let folder: String
        let root: FileRoot

        public init(folder: String) {
            self.folder = folder
            root = FileRoot(spec: folder + "/", given: folder)
        }
    }

    /// A target's arguments as param values, after the schema has accepted them; `select` is
    /// the JSON path argument, taken out. A `file` path must name a file inside `files`.
    static func params(
        from arguments: [(key: String, value: JSONValue)], of target: TargetSpec, in service: ServiceSpec,
        files: Files?
    ) throws(Refusal) -> [String: ParamValue] {
        var values: [String: ParamValue] = [:]
        var violations: [String] = []
        let credentials = service.credentialParams(of: target)
        let body = JSONBody(target)?.argument
        for (key, value) in arguments where key != ToolCatalog.selectArgument && key != body {
            guard let param = target.params.first(where: { $0.name == key }),
                isArgument(param, of: target, credentials: credentials, allowsFiles: files != nil)
            else {
                violations.append("$.\(key): not an argument of this tool")
                continue
            }
            do throws(ParamValueError) {
                var made = try param.value(from: value)
                if isPath(param, of: target) {
                    // isArgument admits a path only with --allow-files.
                    guard let files else { throw ParamValueError(param: key, message: "not an argument of this tool") }
                    made = try inside(made, files, param: key)
                }
                values[key] = made
            } catch {
                violations.append("$.\(key): " + error.message)
            }
        }
        if !violations.isEmpty { throw Refusal(violations: violations) }
        return values
    }

    /// A file param's paths as the files they name, relative ones taken from the folder.
    private static func inside(_ value: ParamValue, _ files: Files, param: String) throws(ParamValueError)
        -> ParamValue
    {
        func resolve(_ path: String) throws(ParamValueError) -> ParamValue {
            do {
                return .string(try files.root.file(path.hasPrefix("/") ? path : files.folder + "/" + path))
            } catch {
                let message: String
                switch error.reason {
                case .missing: message = "names no file inside \(files.folder), the --allow-files folder"
                case .outside: message = "is not inside \(files.folder), the --allow-files folder"
                default: message = error.description
                }
                throw ParamValueError(param: param, message: message)
            }
        }
        if case .array(let items) = value {
            var resolved: [ParamValue] = []
            for item in items { resolved.append(try resolve(item.description)) }
            return .array(resolved)
        }
        return try resolve(value.description)
    }
}

/// A target's body as one argument, when its task sends a fixed document (a `data` task, as
/// `import openapi` writes the document's example): the model gives the whole body, as
/// `call --body` does, and the spec's document is sent when it gives none. A JSON body is
/// JSON, held to the target's `requestSchema` where it has one, its members the argument's
/// properties, nested as the body is; any other is text, sent as it is (base64, where an API
/// takes an image so).
struct JSONBody {
    /// `body`, or `moya.body` when a param is named `body`.
    let argument: String
    /// Whether the body is JSON; else text.
    let isJSON: Bool
    private let target: TargetSpec
    private let source: DataSource
    private let type: String

    /// Which argument, and of which kind: cheap, as a call asks it. The schema the model
    /// reads (`property`) is made only when the input schema is.
    init?(_ target: TargetSpec) {
        guard case .data(let source, let contentType, _) = target.task else { return nil }
        self.target = target
        self.source = source
        type = contentType.flatMap(Self.literal) ?? ""
        isJSON = Self.isJSON(type)
        argument = target.params.contains { $0.name == "body" } ? "moya.body" : "body"
    }

    /// The argument's schema, and whether it is required: held to the target's
    /// `requestSchema`, bundled, with the spec's document as its default.
    var property: (schema: JSONValue, isRequired: Bool) {
        var members: [(key: String, value: JSONValue)] = isJSON ? [] : [("type", .string("string"))]
        if isJSON, let schema = target.requestSchema,
            let bundled = SchemaBundle.bundle(
                schema.schema, uri: schema.uri, documents: schema.documents, dialect: schema.dialect),
            case .object(let schemaMembers) = bundled
        {
            members = schemaMembers
        }
        // The spec's own document, shown as the default when it is plain text: never one that
        // holds an environment value, which may be a credential, nor a large one.
        var example: JSONValue?
        if case .text(let template) = source, let text = Self.literal(template), text.utf8.count <= 16 << 10 {
            example = isJSON ? try? JSONValue(parsing: Data(text.utf8)) : .string(text)
        }
        var description =
            (isJSON ? "The request body, JSON" : "The request body, as text" + (type.isEmpty ? "" : " (\(type))"))
            + (example == nil ? "." : "; the default is sent when it is left out.")
        if case .string(let own)? = JSONValue.object(members)["description"] {
            description = VisibleText(own).text + "\n\n" + description
        }
        members.removeAll { $0.key == "default" || $0.key == "description" }
        if let example { members.append(("default", example)) }
        members.append(("description", .string(description)))
        return (.object(members), example == nil && target.bodyRequired == true)
    }

    /// The body the model gave, as the bytes sent.
    func bytes(of value: JSONValue) -> Data {
        if !isJSON, case .string(let text) = value { return Data(text.utf8) }
        return Data(value.serialized(escapeSlashes: false).utf8)
    }

    /// A template's text when it is all literal.
    static func literal(_ template: Template) -> String? {
        var text = ""
        for segment in template.segments {
            guard case .literal(let part) = segment else { return nil }
            text += part
        }
        return text
    }

    /// `application/json` and `application/*+json`, parameters aside.
    static func isJSON(_ type: String) -> Bool {
        let media = String(type.split(separator: ";").first ?? "").trimmingSpaces().lowercased()
        return media == "application/json" || (media.hasPrefix("application/") && media.hasSuffix("+json"))
    }
}
