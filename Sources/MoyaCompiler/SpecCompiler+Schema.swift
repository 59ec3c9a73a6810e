import MoyaHTTP
import MoyaSchema
import MoyaSpec
import MoyaYAML

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension CompileContext {
    /// A `schema:`: a JSON Schema written in the spec, whose `$ref`s may reach files beside
    /// it (JSON or YAML, an OpenAPI document's components among them). Every file it reaches
    /// is read now, so a missing one is a spec error at the schema.
    mutating func schema(_ node: YAMLNode, _ path: @autoclosure () -> String) -> SchemaSpec? {
        let value = node.jsonValue
        switch value {
        case .object, .bool: break
        default:
            reader.error(node.mark, path(), "a schema is a mapping, such as { type: object }, or true or false")
            return nil
        }
        // A URI: what would end its path is escaped, and unescaped again to read a file.
        let uri = "file://" + PercentEncoding.encode(Self.absolute(file)) { !" #%?".utf8.contains($0) }
        guard readsSchemaDocuments else {
            return SchemaSpec(schema: value, uri: uri, documents: [], dialect: .draft2020_12, mark: node.mark)
        }
        let registry = SchemaRegistry()
        registry.add(value, uri: uri)
        var documents: [SchemaSpec.Document] = []
        var read: [String: JSONValue] = [:]
        var tried: Set<String> = []
        // What the schema reaches: the targets of its `$ref`s that leave it, and of theirs in
        // turn. The schema's own are resolved by the registry, against the resource each is
        // written in, so one to an embedded resource (`$id`, `$anchor`) never reaches a file.
        // The documents' are walked as JSON: a `$ref` in an OpenAPI operation's schema lies
        // outside any keyword the registry reads. The documents are not added to the registry:
        // scanning a large one for every schema that refers to it made compiling an imported
        // spec quadratic.
        var targets = registry.externalReferences.reversed().map { URIReference($0) }
        var reached: [(base: String, value: JSONValue)] = []
        var visited: Set<String> = []
        var waiting: [String: [URIReference]] = [:]
        var named: [String] = []
        while true {
            while true {
                while let (base, value) = reached.popLast() {
                    for text in SchemaRegistry.references(in: value) {
                        targets.append(URIReference(text).resolved(against: URIReference(base)))
                    }
                }
                guard let target = targets.popLast() else { break }
                let document = target.withoutFragment.description
                guard document != uri, visited.insert(target.description).inserted else { continue }
                guard let held = read[document] else {
                    waiting[document, default: []].append(target)
                    if !named.contains(document) { named.append(document) }
                    continue
                }
                if let part = Self.value(in: held, at: target) { reached.append((document, part)) }
            }
            guard let reference = (named + registry.missingReferences).first(where: { !tried.contains($0) }) else {
                break
            }
            tried.insert(reference)
            guard reference.hasPrefix("file://") else {
                reader.error(
                    node.mark, path(), "\(reference) is not a file; a schema's $ref reaches files beside the spec")
                continue
            }
            let target = PercentEncoding.decode(reference.dropFirst("file://".count))
            // Named as the spec would name it, relative to the spec's folder.
            let folder =
                Self.absolute(file).split(separator: "/", omittingEmptySubsequences: false).dropLast()
                .joined(separator: "/") + "/"
            let shown = target.hasPrefix(folder) ? String(target.dropFirst(folder.count)) : target
            let document: JSONValue
            var found = schemaDocuments[target]
            if found == nil {
                do {
                    found = try Self.document(at: target, in: fileRoot)
                } catch {
                    let problem =
                        error.reason == .missing
                        ? "cannot read \(shown) as JSON or YAML, which a $ref in the schema names"
                        : "$ref: " + FileRootError(error.reason, path: shown).description
                    reader.error(node.mark, path(), problem)
                    continue
                }
            }
            guard let found else {
                reader.error(
                    node.mark, path(), "cannot read \(shown) as JSON or YAML, which a $ref in the schema names")
                continue
            }
            document = found
            schemaDocuments[target] = document
            read[reference] = document
            for waiter in waiting.removeValue(forKey: reference) ?? [] {
                if let part = Self.value(in: document, at: waiter) { reached.append((reference, part)) }
            }
            let dialect = Self.dialect(of: document)
            documents.append(SchemaSpec.Document(uri: reference, value: document, dialect: dialect))
        }
        return SchemaSpec(schema: value, uri: uri, documents: documents, dialect: .draft2020_12, mark: node.mark)
    }

    /// The dialect of a document's schemas: OpenAPI 3.0's for an OpenAPI 3.0 or Swagger 2.0
    /// document (draft 4's, and `nullable`), else 2020-12 unless its `$schema` says otherwise.
    private static func dialect(of document: JSONValue) -> SchemaDialect {
        if case .string(let version)? = document["openapi"], version.hasPrefix("3.0") { return .openAPI30 }
        if document["swagger"] != nil { return .openAPI30 }
        return .draft2020_12
    }

    /// The value a reference's fragment points at in `document`: all of it without one; nil
    /// for an anchor (`#name`), whose schema the registry finds.
    private static func value(in document: JSONValue, at reference: URIReference) -> JSONValue? {
        reference.pointer.flatMap { document.value(atPath: $0) }
    }

    /// A JSON or YAML document in a file inside `root`, as JSON; nil when it reads as neither.
    private static func document(at path: String, in root: FileRoot) throws(FileRootError) -> JSONValue? {
        let bytes = try root.read(path)
        if path.hasSuffix(".json") { return try? JSONValue(parsing: Data(bytes)) }
        return (try? YAMLLoader.load(bytes))?.flatMap { $0 }?.jsonValue
    }

    /// A path made absolute against the working directory, for the schema's file URI.
    private static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        let directory = FileManager.default.currentDirectoryPath
        return directory + "/" + (path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
    }
}

/// A sample to hold to its schema once the service is compiled (`SpecCompiler.sampleBodies`).
struct SampleCheck {
    var target: String
    /// The named sample, nil for the default.
    var sample: String?
    var mark: Mark
    var path: String
}

extension CompileContext {
    /// Reports each way a sample's JSON body breaks its schema, at the sample. The body is
    /// rendered as `serve` answers it, with each param's default, else an example of its type.
    mutating func checkSamples(of service: ServiceSpec) {
        for check in sampleChecks {
            guard let target = service.target(named: check.target),
                let schema = target.contract(forSample: check.sample)
            else { continue }
            let values = Dictionary(uniqueKeysWithValues: target.params.map { ($0.name, $0.example) })
            guard let body = sampleBodies?(service, target, check.sample, values),
                let json = try? JSONValue(parsing: body)
            else { continue }
            for error in sampleValidator(schema).errors(in: json) {
                reader.error(check.mark, check.path, error.description)
            }
        }
    }
}

extension CompileContext {
    /// A validator for a sample check, on one registry for the whole compile: each document
    /// is added to it once, and each schema under a URI of its own beside the spec's
    /// (`spec.yaml?schema=3`), against which its relative `$ref`s resolve as against the
    /// spec's.
    mutating func sampleValidator(_ schema: SchemaSpec) -> SchemaValidator {
        for document in schema.documents where sampleDocuments.insert(document.uri).inserted {
            sampleRegistry.add(document.value, uri: document.uri, dialect: document.dialect)
        }
        sampleSchemaCount += 1
        return SchemaValidator(
            schema: schema.schema, uri: schema.uri + "?schema=\(sampleSchemaCount)", dialect: schema.dialect,
            registry: sampleRegistry)
    }
}

extension ParamSpec {
    /// A value to check samples with: the default, else one of the param's type.
    var example: ParamValue {
        if let defaultValue { return defaultValue }
        func scalar(_ type: ParamType) -> ParamValue {
            switch type {
            case .string, .file: .string("example")
            case .int: .int(1)
            case .number: .number(1.5)
            case .bool: .bool(true)
            case .enumeration(let cases): .string(cases.first?.value ?? "")
            case .object: .object([])
            case .array(let element): .array([scalar(element)])
            }
        }
        return scalar(type)
    }
}
