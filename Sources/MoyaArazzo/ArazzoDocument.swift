import MoyaCompiler
import MoyaHTTP
import MoyaSchema
import MoyaSpec
import MoyaYAML

/// An Arazzo document as read from its file: the YAML tree, which says where each value is
/// written, and the same tree as JSON.
public struct ArazzoDocument: Sendable {
    /// The file it was read from, as the user named it.
    public var file: String
    /// The tree, for the places of values.
    public var root: YAMLNode
    /// The tree as JSON.
    public var json: JSONValue

    /// Whether the bytes are an Arazzo document: a YAML or JSON mapping with an `arazzo` key.
    /// A document that does not parse is not one.
    public static func isArazzo(_ bytes: [UInt8]) -> Bool {
        guard case .mapping(let pairs)? = (try? YAMLLoader.load(bytes))?.content else { return false }
        return pairs.contains { $0.key.scalar == "arazzo" }
    }

    /// Whether the path names an Arazzo document: a YAML file with an `arazzo:` key at the
    /// top, told by its lines without parsing it, as a folder of specs tells OpenAPI documents
    /// (`SpecLibrary.isSchemaDocument`); a JSON one is parsed.
    public static func isArazzo(path: String) -> Bool {
        if path.hasSuffix(".yaml") || path.hasSuffix(".yml") { return SpecLibrary.hasTopLevelKey(path, ["arazzo"]) }
        guard path.hasSuffix(".json"), let bytes = FileRoot.specBytes(path) else { return false }
        return isArazzo(bytes)
    }

    /// Reads the document; a YAML problem is one diagnostic.
    public init(_ bytes: [UInt8], file: String) throws(SpecError) {
        let node: YAMLNode?
        do {
            node = try YAMLLoader.load(bytes)
        } catch {
            throw SpecError([Diagnostic(file: file, mark: error.mark, keyPath: "yaml", message: error.message)])
        }
        self.file = file
        root = node ?? YAMLNode(.scalar("", .plain), mark: Mark(line: 1, column: 1))
        json = root.jsonValue
    }

    /// The version's minor release: `1.0` or `1.1`; nil for another.
    public var version: String? {
        guard case .string(let text)? = json["arazzo"] else { return nil }
        if text.hasPrefix("1.0.") { return "1.0" }
        if text.hasPrefix("1.1.") { return "1.1" }
        return nil
    }

    /// The node at a path of keys and indices, or the deepest one on the way.
    public func node(at steps: [SchemaError.Step]) -> YAMLNode {
        var node = root
        for step in steps {
            switch (step, node.content) {
            case (.key(let key), .mapping(let pairs)):
                guard let pair = pairs.first(where: { $0.key.scalar == key }) else { return node }
                node = pair.value
            case (.index(let index), .sequence(let items)) where items.indices.contains(index):
                node = items[index]
            default:
                return node
            }
        }
        return node
    }

    /// The key of a member, for pointing at the key rather than its value.
    public func keyNode(at steps: [SchemaError.Step]) -> YAMLNode? {
        guard case .key(let key)? = steps.last, case .mapping(let pairs) = node(at: steps.dropLast()).content
        else { return nil }
        return pairs.first { $0.key.scalar == key }?.key
    }

    /// `workflows[0].steps[1].operationId`, as diagnostics name a place.
    public static func keyPath(_ steps: [SchemaError.Step]) -> String {
        var text = ""
        for step in steps {
            switch step {
            case .key(let key): text += text.isEmpty ? key : "." + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text.isEmpty ? "arazzo" : text
    }

    /// The workflows, as JSON objects, in order.
    public var workflows: [JSONValue] {
        if case .array(let items)? = json["workflows"] { return items }
        return []
    }

    /// The source descriptions, in order.
    public var sources: [JSONValue] {
        if case .array(let items)? = json["sourceDescriptions"] { return items }
        return []
    }
}

extension SchemaError.Step {
    /// The steps of an instance path as the validator writes it (`$.items[3].id`,
    /// `$['a b']`); nil when it is not one.
    static func steps(ofInstancePath path: String) -> [SchemaError.Step]? {
        var scalars = Array(path.unicodeScalars)[...]
        guard scalars.first == "$" else { return nil }
        scalars = scalars.dropFirst()
        var steps: [SchemaError.Step] = []
        while let first = scalars.first {
            if first == "." {
                scalars = scalars.dropFirst()
                let name = scalars.prefix { $0 != "." && $0 != "[" }
                steps.append(.key(String(String.UnicodeScalarView(name))))
                scalars = scalars.dropFirst(name.count)
            } else if first == "[", scalars.dropFirst().first == "'" {
                scalars = scalars.dropFirst(2)
                var key = String.UnicodeScalarView()
                while let scalar = scalars.first, scalar != "'" {
                    if scalar == "\\", let next = scalars.dropFirst().first {
                        key.append(next)
                        scalars = scalars.dropFirst(2)
                    } else {
                        key.append(scalar)
                        scalars = scalars.dropFirst()
                    }
                }
                guard scalars.starts(with: ["'", "]"]) else { return nil }
                scalars = scalars.dropFirst(2)
                steps.append(.key(String(key)))
            } else if first == "[" {
                let digits = scalars.dropFirst().prefix { $0 != "]" }
                guard let index = Int(String(String.UnicodeScalarView(digits))) else { return nil }
                scalars = scalars.dropFirst(digits.count + 2)
                steps.append(.index(index))
            } else {
                return nil
            }
        }
        return steps
    }
}
