import MoyaHTTP
import MoyaSpec
import MoyaYAML

extension CompileContext {
    static let taskKinds = ["data", "json", "parameters", "upload", "multipart", "download"]
    /// The keys of `data:` read from a file, and of a multipart part.
    static let dataFileKeys = ["file"]
    static let partKeys = ["name", "value", "file", "fileName", "mimeType"]
    static let taskKeys: [String: [String]] = [
        "data": ["data", "contentType", "query"],
        "json": ["json", "query"],
        "parameters": ["parameters", "encoding", "arrays", "bools", "query"],
        "upload": ["upload", "query"],
        "multipart": ["multipart", "query"],
        "download": ["download", "parameters", "encoding", "arrays", "bools"],
    ]

    mutating func task(_ node: YAMLNode, _ path: @autoclosure () -> String, scope: ParamScope)
        -> TaskSpec?
    {
        if node.isNull { return .plain }
        if case .scalar = node.content {
            guard reader.choice(node, path(), ["plain"], what: "task") != nil else { return nil }
            return .plain
        }
        guard case .mapping(let pairs) = node.content else {
            reader.error(
                node.mark, path(), "expected plain or a mapping with one of \(Self.taskKinds.joined(separator: ", "))")
            return nil
        }
        let keys = pairs.compactMap(\.key.scalar)
        let kinds = Self.taskKinds.filter { kind in
            keys.contains(kind) && !(kind == "parameters" && keys.contains("download"))
        }
        guard let kind = kinds.first else {
            let allKeys = Array(Set(Self.taskKeys.values.joined())).sorted()
            for pair in pairs {
                if let key = pair.key.scalar, !allKeys.contains(key) {
                    reader.error(
                        pair.key.mark, SpecReader.join(path(), key),
                        "unknown key '\(key)'" + Suggestion.hint(for: key, in: allKeys))
                }
            }
            reader.error(node.mark, path(), "a task needs one of \(Self.taskKinds.joined(separator: ", "))")
            return nil
        }
        guard kinds.count == 1 else {
            reader.error(node.mark, path(), "a task is exactly one kind; found both '\(kinds[0])' and '\(kinds[1])'")
            return nil
        }
        guard let fields = reader.fields(node, path(), known: Self.taskKeys[kind], nearby: SpecCompiler.targetKeys),
            let body = fields[kind]
        else { return nil }
        let bodyPath = path() + "." + kind
        let query = fields["query"].flatMap { parameterBlock($0, path() + ".query", scope: scope) }
        if let query { checkExploded(query, repeatsKeys: query.isOrdered, path() + ".query", scope: scope) }

        switch kind {
        case "data":
            guard let source = dataSource(body, bodyPath) else { return nil }
            var contentType: Template?
            if let node = fields["contentType"], let template = reader.template(node, path() + ".contentType") {
                check(template, path() + ".contentType", scope, allowArrays: false)
                contentType = template
            }
            return .data(source, contentType: contentType, query: query)
        case "json":
            return value(body, bodyPath, scope: scope).map { TaskSpec.json($0, query: query) }
        case "parameters":
            guard let block = parameterBlock(body, bodyPath, scope: scope) else { return nil }
            let encoding = encodingSpec(fields, path())
            if query != nil, encoding.kind == .url || encoding.kind == .queryString, let queryNode = fields["query"] {
                let at = fields["encoding"]?.mark ?? queryNode.mark
                reader.error(
                    at, path() + ".encoding",
                    "with a query, the body encoding must be httpBody, json or prettyJSON; \(encoding.kind.rawValue) would put the body parameters in the query as well"
                )
                return nil
            }
            if encoding.kind != .json, encoding.kind != .prettyJSON {
                let repeatsKeys = block.isOrdered || encoding.arrays == .noBrackets
                checkExploded(block, repeatsKeys: repeatsKeys, bodyPath, scope: scope)
            }
            return .parameters(block, encoding: encoding, query: query)
        case "upload":
            guard let template = reader.template(body, bodyPath) else { return nil }
            check(template, bodyPath, scope, allowArrays: false)
            checkSource(template, body, bodyPath)
            return .upload(template, query: query)
        case "multipart":
            guard let parts = multipartParts(body, bodyPath, scope: scope) else { return nil }
            return .multipart(parts, query: query)
        default:
            guard let destination = reader.template(body, bodyPath) else { return nil }
            check(destination, bodyPath, scope, allowArrays: false)
            checkDestination(destination, body, bodyPath)
            let parameters = fields["parameters"].flatMap { parameterBlock($0, path() + ".parameters", scope: scope) }
            return .download(destination, parameters: parameters, encoding: encodingSpec(fields, path()))
        }
    }

    /// An exploded array param (`explode: true`) repeats its key without brackets, so its
    /// block must write arrays that way: a list of one-key mappings, or `arrays: noBrackets`.
    private mutating func checkExploded(
        _ block: ParameterBlock, repeatsKeys: Bool, _ path: @autoclosure () -> String, scope: ParamScope
    ) {
        guard !repeatsKeys else { return }
        for entry in block.entries {
            guard case .string(let template) = entry.value, let name = template.wholeParam,
                let param = scope.params.first(where: { $0.name == name }), param.style?.explode == true,
                param.type.isArray
            else { continue }
            reader.error(
                entry.mark, SpecReader.join(path(), entry.key),
                "{\(name)} is exploded (\(name)=a&\(name)=b), but this block writes arrays with brackets; "
                    + "set the task's arrays: noBrackets, or write the block as a list of one-key mappings")
        }
    }

    private mutating func dataSource(_ node: YAMLNode, _ path: @autoclosure () -> String) -> DataSource? {
        if case .mapping = node.content {
            guard let fields = reader.fields(node, path(), known: Self.dataFileKeys), let file = fields["file"] else {
                reader.error(node.mark, path(), "expected text or { file: path }")
                return nil
            }
            return existingFile(file, path() + ".file").map(DataSource.file)
        }
        return reader.template(node, path(), references: false).map(DataSource.text)
    }

    private mutating func encodingSpec(_ fields: SpecReader.Fields, _ path: @autoclosure () -> String) -> EncodingSpec {
        var spec = EncodingSpec()
        if let node = fields["encoding"],
            let name = reader.choice(
                node, path() + ".encoding", EncodingSpec.Kind.allCases.map(\.rawValue), what: "encoding"),
            let kind = EncodingSpec.Kind(rawValue: name)
        {
            spec.kind = kind
        }
        if let node = fields["arrays"],
            let name = reader.choice(
                node, path() + ".arrays", EncodingSpec.Arrays.allCases.map(\.rawValue), what: "array style"),
            let arrays = EncodingSpec.Arrays(rawValue: name)
        {
            spec.arrays = arrays
        }
        if let node = fields["bools"],
            let name = reader.choice(
                node, path() + ".bools", EncodingSpec.Bools.allCases.map(\.rawValue), what: "bool style"),
            let bools = EncodingSpec.Bools(rawValue: name)
        {
            spec.bools = bools
        }
        return spec
    }

    private mutating func multipartParts(_ node: YAMLNode, _ path: @autoclosure () -> String, scope: ParamScope)
        -> [MultipartPartSpec]?
    {
        guard case .sequence(let items) = node.content else {
            reader.error(node.mark, path(), "expected a list of parts, such as - { name: avatar, file: \"{path}\" }")
            return nil
        }
        var parts: [MultipartPartSpec] = []
        for (index, item) in items.enumerated() {
            let itemPath = "\(path())[\(index)]"
            guard let fields = reader.fields(item, itemPath, known: Self.partKeys)
            else {
                continue
            }
            guard let nameNode = fields["name"], let name = reader.string(nameNode, itemPath + ".name") else {
                if fields["name"] == nil { reader.error(item.mark, itemPath + ".name", "required key is missing") }
                continue
            }
            var templates: [String: Template] = [:]
            for key in ["value", "file", "fileName", "mimeType"] {
                guard let node = fields[key], let template = reader.template(node, itemPath + "." + key) else {
                    continue
                }
                // An array param that is a whole value repeats its part, one per item.
                check(
                    template, itemPath + "." + key, scope, allowArrays: key == "value" && template.wholeParam != nil)
                templates[key] = template
            }
            let content: MultipartPartSpec.Content
            switch (templates["value"], templates["file"]) {
            case (let value?, nil): content = .value(value)
            case (nil, let file?):
                if let node = fields["file"] { checkSource(file, node, itemPath + ".file") }
                content = .file(file)
            case (.some, .some):
                reader.error(item.mark, itemPath, "a part has either value or file, not both")
                continue
            case (nil, nil):
                if fields["value"] == nil, fields["file"] == nil {
                    reader.error(item.mark, itemPath, "a part needs a value or a file")
                }
                continue
            }
            parts.append(
                MultipartPartSpec(
                    name: name, content: content, fileName: templates["fileName"], mimeType: templates["mimeType"]))
        }
        return parts
    }
}
