/// The JSON Schema dialects the validator knows: which keywords there are and what they mean.
public enum SchemaDialect: String, Sendable, Hashable, CaseIterable {
    /// Draft 2020-12, which OpenAPI 3.1 uses.
    case draft2020_12 = "https://json-schema.org/draft/2020-12/schema"
    /// Draft 7.
    case draft7 = "http://json-schema.org/draft-07/schema"
    /// Draft 4.
    case draft4 = "http://json-schema.org/draft-04/schema"
    /// OpenAPI 3.0's Schema Object: draft 4's keywords, with `nullable` and without `$schema`.
    case openAPI30 = "https://spec.openapis.org/oas/3.0/dialect"

    /// The dialect a `$schema` value names, with or without its trailing `#`.
    public init?(metaschema: String) {
        var uri = metaschema
        if uri.hasSuffix("#") { uri.removeLast() }
        if uri.hasPrefix("https://json-schema.org/draft-07/") { uri = "http://" + uri.dropFirst("https://".count) }
        guard let dialect = SchemaDialect(rawValue: uri) else { return nil }
        self = dialect
    }

    /// The keyword that gives a schema its URI.
    var idKeyword: String { self == .draft4 || self == .openAPI30 ? "id" : "$id" }

    /// Whether `$ref` stands alone: draft 7 and earlier ignore its siblings.
    var refIgnoresSiblings: Bool { self != .draft2020_12 }

    /// Whether `$id` may carry a fragment that names a plain-name anchor (`#foo`), as draft 7
    /// and draft 4 allow; 2020-12 has `$anchor` for that.
    var idMayBeAnchor: Bool { self != .draft2020_12 }

    /// Whether `exclusiveMaximum` and `exclusiveMinimum` are booleans that modify `maximum`
    /// and `minimum`, as in draft 4 and OpenAPI 3.0.
    var exclusiveBoundsAreBooleans: Bool { self == .draft4 || self == .openAPI30 }

    /// Keywords whose value is one subschema.
    var schemaKeywords: Set<String> {
        switch self {
        case .draft2020_12:
            [
                "additionalProperties", "contains", "propertyNames", "not", "if", "then", "else", "items",
                "unevaluatedItems", "unevaluatedProperties", "contentSchema",
            ]
        case .draft7:
            ["additionalItems", "additionalProperties", "contains", "propertyNames", "not", "if", "then", "else"]
        case .draft4, .openAPI30: ["additionalItems", "additionalProperties", "not"]
        }
    }

    /// Keywords whose value is an array of subschemas.
    var schemaArrayKeywords: Set<String> {
        self == .draft2020_12 ? ["allOf", "anyOf", "oneOf", "prefixItems"] : ["allOf", "anyOf", "oneOf"]
    }

    /// Keywords whose value is an object of subschemas.
    var schemaMapKeywords: Set<String> {
        switch self {
        case .draft2020_12: ["properties", "patternProperties", "$defs", "dependentSchemas", "definitions"]
        case .draft7, .draft4, .openAPI30: ["properties", "patternProperties", "definitions", "dependencies"]
        }
    }
}
