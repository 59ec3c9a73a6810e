import MoyaCore

/// One way an instance breaks a schema: where in the instance, which keyword, and why.
public struct SchemaError: Sendable, Hashable, CustomStringConvertible {
    /// Where in the instance, as a JSON path: `$.items[3].id`.
    public var instancePath: String
    /// The keyword's place in its schema document, as a JSON pointer fragment:
    /// `#/properties/id/type`.
    public var schemaPath: String
    /// What was expected and what came: `expected integer, got string`.
    public var message: String

    public init(instancePath: String, schemaPath: String, message: String) {
        self.instancePath = instancePath
        self.schemaPath = schemaPath
        self.message = message
    }

    /// `$.items[3].id: expected integer, got string`.
    public var description: String { instancePath + ": " + message }
}

/// Validates instances against one schema of a registry.
public struct SchemaValidator {
    /// The most errors `errors(in:)` reports by default: the first ones in the instance's
    /// order of evaluation.
    public static let errorLimit = 100
    private let registry: SchemaRegistry
    private let uri: String
    /// Whether `format` is asserted; by default it is an annotation, as the drafts say.
    public var assertsFormat = false

    /// A validator for `schema`, registered under `uri` in `registry` (a new one by default).
    public init(
        schema: JSONValue, uri: String = "urn:moya-cli:schema", dialect: SchemaDialect = .draft2020_12,
        registry: SchemaRegistry = SchemaRegistry()
    ) {
        registry.add(schema, uri: uri, dialect: dialect)
        self.registry = registry
        self.uri = uri
    }

    /// The schema, compiled on first use, once the documents it refers to may have been
    /// added to the registry.
    private var root: SchemaNode? { registry.location(of: URIReference(uri)).flatMap(registry.node(at:)) }

    /// Whether `instance` is valid, stopping at the first failure.
    public func isValid(_ instance: JSONValue) -> Bool {
        guard let root else { return false }
        var evaluation = Evaluation(registry: registry, assertsFormat: assertsFormat, errors: nil)
        var annotations = Annotations()
        return evaluation.evaluate(root, instance, at: InstancePath(), &annotations)
    }

    /// Every way `instance` breaks the schema, in the order the schema's keywords are
    /// written; empty when it is valid.
    public func errors(in instance: JSONValue, limit: Int = errorLimit) -> [SchemaError] {
        guard let root else {
            return [SchemaError(instancePath: "$", schemaPath: "#", message: "cannot resolve the schema \(uri)")]
        }
        var evaluation = Evaluation(registry: registry, assertsFormat: assertsFormat, errors: [])
        evaluation.errorLimit = max(limit, 1)
        var annotations = Annotations()
        _ = evaluation.evaluate(root, instance, at: InstancePath(), &annotations)
        return evaluation.errors ?? []
    }
}
