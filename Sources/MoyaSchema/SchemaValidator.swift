import MoyaJSON

/// One way an instance breaks a schema: where in the instance, which keyword, and why.
public struct SchemaError: Sendable, Hashable, CustomStringConvertible {
    /// Where in the instance, as a JSON path: `$.items[3].id`.
    public var instancePath: String
    /// The keyword's place in its schema document, as a JSON pointer fragment:
    /// `#/properties/id/type`.
    public var schemaPath: String
    /// What was expected and what came: `expected integer, got string`.
    public var message: String
    /// The keyword that failed (`type`, `required`); `schema` for a schema that allows
    /// nothing or could not be evaluated.
    public var keyword: String
    /// The member a `required` error found missing.
    public var missingMember: String?

    public init(instancePath: String, schemaPath: String, message: String, keyword: String = "schema") {
        self.instancePath = instancePath
        self.schemaPath = schemaPath
        self.message = message
        self.keyword = keyword
    }

    /// `$.items[3].id: expected integer, got string`.
    public var description: String { instancePath + ": " + message }

    /// One step of an instance path: a member's key or an item's index.
    public enum Step: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// The `instancePath` an error at `steps` has: `$.items[3].id`, `$['a b']`.
    public static func path(_ steps: [Step]) -> String {
        steps.reduce(InstancePath()) { path, step in
            switch step {
            case .key(let key): path.appending(key)
            case .index(let index): path.appending(index)
            }
        }.description
    }
}

/// Validates instances against one schema of a registry.
public struct SchemaValidator {
    /// The most errors `errors(in:)` reports by default: the first ones in the instance's
    /// order of evaluation.
    public static let errorLimit = 100
    private let registry: SchemaRegistry
    private let uri: String
    /// The root, found once the registry is frozen (`freeze()`); until then it is looked up
    /// at each validation, since documents it refers to may still be added.
    private var frozenRoot: SchemaNode?
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
    private var root: SchemaNode? {
        frozenRoot ?? registry.location(of: URIReference(uri)).flatMap(registry.node(at:))
    }

    /// Compiles everything the schema can reach and freezes the registry (see
    /// `SchemaRegistry.freeze`), keeping the root.
    mutating func freeze() {
        registry.freeze(from: registry.location(of: URIReference(uri)))
        frozenRoot = root
    }

    /// Whether `instance` is valid, stopping at the first failure.
    public func isValid(_ instance: JSONValue) -> Bool {
        guard let root else { return false }
        var evaluation = Evaluation(registry: registry, assertsFormat: assertsFormat, errors: nil)
        evaluation.stepLimit = Self.baseStepLimit
        evaluation.sizedBy = instance
        var annotations = Annotations()
        return evaluation.evaluate(root, instance, at: InstancePath(), &annotations) && !evaluation.exhausted
    }

    /// The schema nodes one validation may evaluate: a million, and 64 more for each value
    /// in the instance, so that a large valid body is never cut short while a small one that
    /// makes nested `oneOf`s double their work per level is stopped in well under a second.
    public static func stepLimit(for instance: JSONValue) -> Int {
        var count = 0
        var stack = [instance]
        while let value = stack.popLast() {
            count += 1
            switch value {
            case .array(let items): stack.append(contentsOf: items)
            case .object(let members): stack.append(contentsOf: members.map(\.value))
            default: break
            }
        }
        return baseStepLimit + 64 * count
    }

    /// The steps any validation may take, whatever the instance's size.
    static let baseStepLimit = 1_000_000

    /// Every way `instance` breaks the schema, in the order the schema's keywords are
    /// written; empty when it is valid. `assertingFormat` asserts `format` for this call only.
    public func errors(in instance: JSONValue, limit: Int = errorLimit, assertingFormat: Bool = false)
        -> [SchemaError]
    {
        guard let root else {
            return [SchemaError(instancePath: "$", schemaPath: "#", message: "cannot resolve the schema \(uri)")]
        }
        var evaluation = Evaluation(registry: registry, assertsFormat: assertsFormat || assertingFormat, errors: [])
        evaluation.errorLimit = max(limit, 1)
        evaluation.stepLimit = Self.baseStepLimit
        evaluation.sizedBy = instance
        var annotations = Annotations()
        _ = evaluation.evaluate(root, instance, at: InstancePath(), &annotations)
        guard evaluation.exhausted else { return evaluation.errors ?? [] }
        // What failed after the budget ran out failed for that alone: only the budget is said.
        return [
            SchemaError(
                instancePath: "$", schemaPath: "#",
                message: "validating this value takes more than \(evaluation.stepLimit) schema steps "
                    + "(oneOf and anyOf multiply them); it is taken as invalid")
        ]
    }
}

/// A schema compiled whole when it is built: every subschema compiled and every reference
/// resolved, in a registry of its own that is never written again. Validating only reads it,
/// so one `CompiledSchema` serves any number of tasks at once, with no lock: `serve`'s event
/// loops and a run's checks share it.
public final class CompiledSchema: @unchecked Sendable {
    // Unchecked: the registry and its nodes are classes, written only in `init` (by
    // `SchemaRegistry.freeze`) and read after; `SchemaRegistry.node(at:)` no longer compiles
    // once it is frozen.
    private let validator: SchemaValidator

    /// A document a schema refers to, by its URI.
    public struct Document: Sendable, Hashable {
        public var uri: String
        public var value: JSONValue
        /// Its schemas' dialect: an OpenAPI 3.0 document's are 3.0's.
        public var dialect: SchemaDialect

        public init(uri: String, value: JSONValue, dialect: SchemaDialect) {
            self.uri = uri
            self.value = value
            self.dialect = dialect
        }
    }

    /// Compiles `schema`, registered under `uri`, with the documents its references reach.
    public init(
        schema: JSONValue, uri: String = "urn:moya-cli:schema", dialect: SchemaDialect = .draft2020_12,
        documents: [Document] = [], assertsFormat: Bool = false
    ) {
        let registry = SchemaRegistry()
        for document in documents { registry.add(document.value, uri: document.uri, dialect: document.dialect) }
        var validator = SchemaValidator(schema: schema, uri: uri, dialect: dialect, registry: registry)
        validator.assertsFormat = assertsFormat
        validator.freeze()
        self.validator = validator
    }

    /// Whether `instance` is valid, stopping at the first failure.
    public func isValid(_ instance: JSONValue) -> Bool { validator.isValid(instance) }

    /// Every way `instance` breaks the schema, up to `limit`; empty when it is valid. With
    /// `assertingFormat`, `format` is asserted as well, as a request is held to it.
    public func errors(
        in instance: JSONValue, limit: Int = SchemaValidator.errorLimit, assertingFormat: Bool = false
    ) -> [SchemaError] {
        validator.errors(in: instance, limit: limit, assertingFormat: assertingFormat)
    }
}
