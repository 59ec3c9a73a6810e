import MoyaHTTP
import MoyaSchema
import MoyaYAML
import Synchronization

/// A JSON Schema a spec gives a target or a sample (`schema:`), with every document it
/// refers to, read when the spec is compiled: files beside the spec, or an OpenAPI
/// document's components.
public struct SchemaSpec: Sendable, Hashable {
    /// A document the schema refers to, by its URI.
    public typealias Document = CompiledSchema.Document

    /// The schema as written.
    public var schema: JSONValue
    /// The URI relative references in it resolve against: the spec file's.
    public var uri: String
    /// The documents its `$ref`s reach.
    public var documents: [Document]
    /// The dialect, unless the schema's `$schema` names another: 2020-12, as OpenAPI 3.1's.
    public var dialect: SchemaDialect
    /// Where the schema is written.
    public var mark: Mark
    /// The compiled schema, built on first use and then shared by every copy of this value.
    private let cache = CompiledCache()

    public init(schema: JSONValue, uri: String, documents: [Document], dialect: SchemaDialect, mark: Mark) {
        self.schema = schema
        self.uri = uri
        self.documents = documents
        self.dialect = dialect
        self.mark = mark
    }

    /// The schema compiled whole, once: every check and every `serve` request that validates
    /// against it shares one, with no lock while validating.
    public var compiled: CompiledSchema {
        cache.value.withLock { cached in
            if let cached { return cached }
            let made = CompiledSchema(schema: schema, uri: uri, dialect: dialect, documents: documents)
            cached = made
            return made
        }
    }

    /// Every way `value` breaks the schema.
    public func errors(in value: JSONValue) -> [SchemaError] { compiled.errors(in: value) }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.schema == rhs.schema && lhs.uri == rhs.uri && lhs.documents == rhs.documents && lhs.dialect == rhs.dialect
            && lhs.mark == rhs.mark
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(schema)
        hasher.combine(uri)
        hasher.combine(documents)
        hasher.combine(dialect)
        hasher.combine(mark)
    }
}

/// Where a `SchemaSpec` keeps its compiled schema.
private final class CompiledCache: Sendable {
    let value = Mutex<CompiledSchema?>(nil)
}
