import MoyaCore
import MoyaSchema

/// A JSON Schema a spec gives a target or a sample (`schema:`), with every document it
/// refers to, read when the spec is compiled: files beside the spec, or an OpenAPI
/// document's components.
public struct SchemaSpec: Sendable, Hashable {
    /// A document the schema refers to, by its URI.
    public struct Document: Sendable, Hashable {
        public var uri: String
        public var value: JSONValue
        /// Its schemas' dialect: an OpenAPI 3.0 document's are 3.0's.
        public var dialect: SchemaDialect
    }

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

    public init(schema: JSONValue, uri: String, documents: [Document], dialect: SchemaDialect, mark: Mark) {
        self.schema = schema
        self.uri = uri
        self.documents = documents
        self.dialect = dialect
        self.mark = mark
    }

    /// A validator for the schema, on a registry of its own: a registry compiles on first
    /// use, so one is never shared between tasks.
    public func validator() -> SchemaValidator {
        let registry = SchemaRegistry()
        for document in documents { registry.add(document.value, uri: document.uri, dialect: document.dialect) }
        return SchemaValidator(schema: schema, uri: uri, dialect: dialect, registry: registry)
    }

    /// Every way `value` breaks the schema.
    public func errors(in value: JSONValue) -> [SchemaError] { validator().errors(in: value) }
}
