import MoyaJSON
import MoyaSchema
import MoyaSpec

/// A target's request body schema with its `$ref`s followed: where its `oneOf` branches and
/// its members' enums are. Only the body's top level is read, through at most
/// `referenceLimit` references, so a schema that refers to itself ends.
struct BodyShape {
    /// The schema as written, for its base URI, documents and dialect.
    let spec: SchemaSpec
    /// The schema the references lead to.
    let value: JSONValue
    /// Where `value` is, as an absolute URI with a JSON pointer; nil for the spec's own text.
    let location: String?

    /// How many `$ref`s are followed to one schema.
    static let referenceLimit = 16

    init?(_ spec: SchemaSpec) {
        guard let (value, location) = Self.resolve(spec.schema, at: nil, in: spec) else { return nil }
        self.spec = spec
        self.value = value
        self.location = location
    }

    /// The schema `value` (at `location`, nil for the spec's own text) stands for, its
    /// `$ref`s followed; nil when one leads nowhere.
    static func resolve(_ value: JSONValue, at location: String?, in spec: SchemaSpec) -> (JSONValue, String?)? {
        var value = value
        var location = location
        for _ in 0..<referenceLimit {
            guard case .string(let reference)? = value["$ref"] else { return (value, location) }
            let target = URIReference(reference).resolved(against: URIReference(location ?? spec.uri))
            let uri = target.withoutFragment.description
            guard let pointer = target.pointer else { return nil }
            let document: JSONValue
            if let found = spec.documents.first(where: { $0.uri == uri }) {
                document = found.value
            } else if uri == URIReference(spec.uri).withoutFragment.description {
                document = spec.schema
            } else {
                return nil
            }
            guard let next = document.value(atPath: pointer) else { return nil }
            value = next
            location = target.description
        }
        return nil
    }

    /// Each `oneOf` branch, held to on its own: by a reference to it where it is in a
    /// document, so that its own references resolve there.
    func branches() -> [DeclaredTarget.BodyBranch] {
        guard case .array(let branches)? = value["oneOf"] else { return [] }
        return branches.enumerated().map { index, branch in
            let schema: JSONValue =
                location.map { .object([("$ref", .string($0 + "/oneOf/\(index)"))]) } ?? branch
            return DeclaredTarget.BodyBranch(
                label: Self.label(of: branch, index: index),
                schema: SchemaSpec(
                    schema: schema, uri: spec.uri, documents: spec.documents, dialect: spec.dialect, mark: spec.mark))
        }
    }

    /// Each value of each top-level member's `enum`.
    func memberEnums() -> [DeclaredTarget.EnumValue] {
        guard case .object(let members)? = value["properties"] else { return [] }
        return members.flatMap { member -> [DeclaredTarget.EnumValue] in
            let place = location.map { $0 + "/properties/" + Self.escaped(member.key) }
            guard let (schema, _) = Self.resolve(member.value, at: place, in: spec),
                case .array(let values)? = schema["enum"]
            else { return [] }
            return values.map { allowed in DeclaredTarget.EnumValue(place: "body", name: member.key, shown: allowed) }
        }
    }

    /// A branch's `title`, else the last segment of its `$ref`, else `#N`.
    static func label(of branch: JSONValue, index: Int) -> String {
        if case .string(let title)? = branch["title"], !title.isEmpty { return title }
        if case .string(let reference)? = branch["$ref"], let last = reference.split(separator: "/").last {
            return String(last)
        }
        return "#\(index)"
    }

    /// A key as a JSON pointer token (RFC 6901) in a URI's fragment, percent-encoded.
    static func escaped(_ key: String) -> String {
        let token = key.replacing("~", with: "~0").replacing("/", with: "~1")
        // RFC 3986's fragment characters: unreserved, sub-delims, ':', '@', '/' and '?'.
        return PercentEncoding.encode(token) { PercentEncoding.isUnreserved($0) || "!$&'()*+,;=:@/?".utf8.contains($0) }
    }
}
