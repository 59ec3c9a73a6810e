import MoyaHTTP
import MoyaSpec
import MoyaYAML

/// A source description of an Arazzo document, and, when it is a file moya-cli may read, the
/// operations its OpenAPI description declares.
public struct ArazzoSource: Sendable {
    /// Its `name`.
    public var name: String
    /// Its `url`, as written.
    public var url: String
    /// Its `type`: `openapi` (the default), `arazzo` or `asyncapi`.
    public var type: String
    /// The file read, when one was.
    public var path: String?
    /// The description, when it was read.
    public var document: JSONValue?
    /// Why it was not read.
    public var problem: String?

    /// One operation of an OpenAPI description.
    public struct Operation: Sendable, Hashable {
        /// The path's key, as the description writes it: `/pet/{petId}`.
        public var path: String
        /// The method, lower case, as the description's key.
        public var method: String
        public var operationId: String?
        /// The parameters it takes, the path item's with the operation's: `in` and `name`.
        public var parameters: [Parameter]

        public struct Parameter: Sendable, Hashable {
            public var name: String
            public var location: String
        }

        /// The JSON pointer of the operation in its description: `/paths/~1pet/get`.
        public var pointer: String {
            "/paths/" + path.replacing("~", with: "~0").replacing("/", with: "~1") + "/" + method
        }
    }

    /// The operations, in the description's order.
    public var operations: [Operation] = []

    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// `--source NAME=FILE` options as a map; the error says which one is wrong.
    public static func givenFiles(_ options: [String]) throws(RuntimeExpressionError) -> [String: String] {
        var files: [String: String] = [:]
        for option in options {
            guard let equals = option.firstIndex(of: "="), equals != option.startIndex,
                option.index(after: equals) != option.endIndex
            else { throw RuntimeExpressionError("--source takes NAME=FILE, got '\(option)'") }
            let name = String(option[..<equals])
            guard files[name] == nil else { throw RuntimeExpressionError("--source names '\(name)' twice") }
            files[name] = String(option[option.index(after: equals)...])
        }
        return files
    }

    /// The document's sources. A relative `url` is a file beside the document, read only inside
    /// `fileRoot`, as a spec reads its files; `given` maps a source's name to a file the user
    /// names instead (`--source NAME=FILE`), which is the user's own and is not confined.
    public static func load(_ document: ArazzoDocument, given: [String: String] = [:], fileRoot: FileRoot)
        -> [ArazzoSource]
    {
        document.sources.map { entry in
            var source = ArazzoSource(
                name: entry["name"]?.stringValue ?? "", url: entry["url"]?.stringValue ?? "",
                type: entry["type"]?.stringValue ?? "openapi")
            source.read(given: given[source.name], beside: document.file, fileRoot: fileRoot)
            return source
        }
    }

    mutating func read(given: String?, beside file: String, fileRoot: FileRoot) {
        let bytes: [UInt8]
        if let given {
            guard let read = FileRoot.specBytes(given) else {
                problem = "cannot read \(given), which --source names for '\(name)'"
                return
            }
            path = given
            bytes = read
        } else {
            if url.contains("://") {
                problem =
                    "'\(name)' is at \(url), which moya-cli does not fetch; name a copy with --source \(name)=FILE"
                return
            }
            let relative = String(url.prefix { $0 != "#" })
            let folder = file.lastIndex(of: "/").map { String(file[...$0]) } ?? ""
            let place = relative.hasPrefix("/") ? relative : folder + relative
            do {
                bytes = try fileRoot.read(place)
            } catch {
                problem = "cannot read '\(name)' at \(url): \(error)"
                return
            }
            path = place
        }
        guard let root = try? YAMLLoader.load(bytes) else {
            problem = "'\(name)' at \(path ?? url) is not YAML or JSON"
            return
        }
        let json = root.jsonValue
        document = json
        guard type == "openapi" else { return }
        guard case .object(let paths)? = json["paths"] else { return }
        for (key, item) in paths {
            let shared = Self.parameters(item["parameters"], in: json)
            for method in Self.methods {
                guard let operation = item[method], case .object = operation else { continue }
                var parameters = Self.parameters(operation["parameters"], in: json)
                for parameter in shared where !parameters.contains(parameter) { parameters.append(parameter) }
                operations.append(
                    Operation(
                        path: key, method: method, operationId: operation["operationId"]?.stringValue,
                        parameters: parameters))
            }
        }
    }

    /// A parameters list's `name` and `in`, through a local `$ref`.
    private static func parameters(_ list: JSONValue?, in document: JSONValue?) -> [Operation.Parameter] {
        guard case .array(let items)? = list else { return [] }
        return items.compactMap { item in
            var item = item
            if let reference = item["$ref"]?.stringValue, reference.hasPrefix("#/"),
                let found = document?.value(atPath: RuntimeExpression.tokens(ofPointer: String(reference.dropFirst())))
            {
                item = found
            }
            guard let name = item["name"]?.stringValue, let location = item["in"]?.stringValue else { return nil }
            return Operation.Parameter(name: name, location: location)
        }
    }

    /// The source's name and the JSON pointer of an `operationPath`:
    /// `{$sourceDescriptions.NAME.url}#/paths/~1pet/get`, or `$sourceDescriptions.NAME#/paths/…`
    /// as some documents write it; nil for neither.
    public static func operationPath(_ reference: String) -> (source: String, pointer: String)? {
        var head = Substring(reference)
        var pointer: Substring
        if head.hasPrefix("{"), let close = head.firstIndex(of: "}") {
            pointer = head[head.index(after: close)...]
            head = head[head.index(after: head.startIndex)..<close]
            guard head.hasSuffix(".url") else { return nil }
            head = head.dropLast(4)
        } else {
            guard let hash = head.firstIndex(of: "#") else { return nil }
            pointer = head[hash...]
            head = head[..<hash]
        }
        guard pointer.hasPrefix("#"), head.hasPrefix("$sourceDescriptions.") else { return nil }
        let name = head.dropFirst("$sourceDescriptions.".count)
        guard !name.isEmpty, !name.contains(".") else { return nil }
        return (String(name), String(pointer.dropFirst()))
    }

    /// The operation with this `operationId`.
    public func operation(id: String) -> Operation? { operations.first { $0.operationId == id } }

    /// The source name an operationId written `NAME.OPERATION_ID` starts with (the longest of
    /// `names` followed by a dot and more), and the operationId after it: the form Redocly's
    /// `respect` reads for `$sourceDescriptions.NAME.OPERATION_ID`.
    public static func sourcePrefixed(_ id: String, among names: [String]) -> (name: String, operationId: String)? {
        names.filter { id.hasPrefix($0 + ".") && id.count > $0.count + 1 }.max { $0.count < $1.count }
            .map { ($0, String(id.dropFirst($0.count + 1))) }
    }

    /// A command-line argument that hands `--file-root DIR` to the import helper among the
    /// `NAME=FILE` sources (`@file-root=DIR`): `@` starts no source's name, Arazzo's being
    /// letters, digits, `_` and `-`.
    package static let fileRootArgument = "@file-root="

    /// The operation a JSON pointer into the description reaches: `/paths/~1pet~1findByStatus`
    /// (a path item with one operation) or `/paths/~1pet/get`.
    public func operation(pointer: String) -> Operation? {
        let tokens = RuntimeExpression.tokens(ofPointer: pointer)
        guard tokens.count >= 2, tokens[0] == "paths" else { return nil }
        let found = operations.filter { $0.path == tokens[1] }
        if tokens.count == 2 { return found.count == 1 ? found[0] : nil }
        guard tokens.count == 3 else { return nil }
        return found.first { $0.method == tokens[2].lowercased() }
    }
}
