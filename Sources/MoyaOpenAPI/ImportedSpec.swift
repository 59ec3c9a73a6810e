import MoyaHTTP
import MoyaSpec

/// A spec as `import openapi` writes it: the parts of the spec format an OpenAPI document
/// fills, in the order they are written.
struct ImportedSpec {
    /// A string the spec holds: text from the document, which is data and never reads the
    /// environment, and the `${VAR:-default}` references import itself makes, for server
    /// variables and credentials. The writer escapes the one and writes the other.
    struct Text: Hashable, ExpressibleByStringInterpolation {
        enum Piece: Hashable {
            /// Text from the document, or a `{param}` template import made.
            case data(String)
            /// `${name:-fallback}`, the fallback holding no `}`; `${name}` without one.
            case environment(name: String, fallback: String?)
        }

        var pieces: [Piece]

        init(_ pieces: [Piece]) { self.pieces = pieces }
        init(stringLiteral value: String) { pieces = [.data(value)] }
        init(stringInterpolation: DefaultStringInterpolation) {
            pieces = [.data(String(stringInterpolation: stringInterpolation))]
        }

        /// A reference to the variable `name`, empty when it is not set.
        static func environment(_ name: String, or fallback: String = "") -> Text {
            Text([.environment(name: name, fallback: fallback)])
        }

        static func + (lhs: Text, rhs: Text) -> Text { Text(lhs.pieces + rhs.pieces) }
    }

    /// Credentials, as `auth:` writes them.
    enum Auth: Equatable {
        case bearer(Text)
        case basic(user: Text, password: Text)
        /// `auth: none`. (Not `none`, which an optional would read as nil.)
        case disabled
    }

    /// A declared param.
    struct Param {
        var name: String
        var type: String
        var enumValues: [String]?
        var defaultValue: JSONValue?
        var description: String?
        var optional: Bool
        /// OpenAPI's `style` where the spec must say it: an array or object sent as one value
        /// in a query or cookie, a `label` or `matrix` path param, an exploded object in a
        /// header or path; nil where the place's own way is the document's.
        var style: String? = nil
        /// `explode`, where it is not the style's default.
        var explode: Bool? = nil
        /// A value a check gives this param: the document's example, else one made from its
        /// schema, typed as the param is; nil when none fits (a file).
        var example: JSONValue? = nil
        /// The schema's rules the spec carries (`minimum`, `pattern`, …).
        var rules: [(key: String, value: JSONValue)] = []
        /// OpenAPI's `allowEmptyValue` for a query param.
        var allowsEmptyValue = false

        /// `rules` as the spec reads them; nil for none.
        var ruleSet: ParamRules? { rules.isEmpty ? nil : ParamRules(keywords: rules, isArray: type.hasPrefix("[")) }

        /// Takes the document's example as the check's value when it is of the param's type and
        /// meets its rules; else keeps the one made from the schema (a `uri` that is not one
        /// would stop the call before it is sent).
        mutating func take(example value: JSONValue) {
            guard let typed = Importer.typed(value, as: self), ruleSet?.violations(json: typed).isEmpty != false
            else { return }
            example = typed
        }
    }

    /// One entry of a parameters block or a query: the key sent, and its value's template.
    struct Entry {
        var key: String
        var value: Text
    }

    /// One part of a multipart body.
    struct Part {
        var name: String
        /// `{param}` for a value, or for a file's path.
        var template: Text
        var isFile: Bool
        /// The part's `Content-Type`, when the document gives or implies one.
        var mimeType: String?
    }

    /// How a target sends its params.
    enum Task {
        /// Encoded parameters (`url`, `queryString`, `httpBody` or `json`), and a query.
        case parameters([Entry], encoding: String, query: [Entry])
        /// A literal body, and a query.
        case data(String, contentType: String, query: [Entry])
        /// A multipart form, and a query.
        case multipart([Part], query: [Entry])
        /// A file, its path a param's, sent whole with its content type, and a query.
        case upload(Text, contentType: String, query: [Entry])
        /// A body of text that may read the environment (`import curl`'s `$TOKEN`), and a query.
        case text(Text, contentType: String, query: [Entry])
        /// A JSON body whose strings are texts (`{param}` templates and `${VAR}`s), sent as
        /// `application/json`, and a query.
        case json(JSONText, query: [Entry])
    }

    /// JSON whose strings are texts that may name params and variables.
    indirect enum JSONText {
        /// A number, a boolean or null.
        case scalar(JSONValue)
        case text(Text)
        case array([JSONText])
        case object([(key: String, value: JSONText)])
    }

    /// A sample response.
    struct Sample {
        var status: Int
        var json: JSONValue?
        var body: String?
        var contentType: String?
        /// A redirect's `Location`.
        var location: String? = nil
        /// The `$ref` to its response's schema, for a response other than the target's.
        var schema: String? = nil
    }

    /// One target.
    struct Target {
        var name: String
        var summary: String?
        var description: String?
        var method: String
        var path: String
        var params: [Param] = []
        var headers: [Entry] = []
        var cookies: [Entry] = []
        var auth: Auth?
        var task: Task?
        var sample: Sample?
        /// The `$ref` to the success response's schema in the document, relative to the spec.
        var schema: String? = nil
        /// The `$ref` to the JSON request body's schema.
        var requestSchema: String? = nil
        /// Whether a request must carry a body, written where the body's params do not say it
        /// (a required body with no required param, an optional one with some).
        var bodyRequired: Bool? = nil
        /// The operation's or path item's own server, when it is not the document's.
        var baseURL: Text? = nil
        var samples: [(name: String, sample: Sample)] = []
        /// `successAndRedirectCodes` for an operation that only redirects; nil leaves the default.
        var validation: String? = nil
        /// False when the operation's success is a redirect: the answer is the 3xx itself.
        var followsRedirects: Bool? = nil
        /// `paginate:`, in flow style, for an operation whose responses page.
        var paginate: String? = nil
        /// `stream:`, the kind, for an operation whose success answers only as a stream.
        var stream: String? = nil
        /// The operation it is made from, as `import arazzo` finds a step's target.
        var operation = ImportedOperation(path: "", method: "", target: "")
        /// `timeout:`, in seconds, and `retry:`, where the source sets them (curl's `-m`, `--retry`).
        var timeout: Double? = nil
        var retry: Int? = nil
        /// A check's `expect:` members from the source's assertions (`status`, `json`, …),
        /// written on the example check.
        var expectations: [(key: String, value: JSONValue)] = []
    }

    var comment: [String] = []
    var service: String
    var baseURL: Text
    var environments: [(name: String, baseURL: Text)] = []
    var auth: Auth?
    var targets: [Target] = []
}
