import MoyaJSON

/// Schema documents by URI, with every resource (`$id`) and anchor in them, and their
/// subschemas compiled on first use. A `$ref` is resolved through it, to a document added
/// here: `missingReferences` names the ones to add first.
public final class SchemaRegistry {
    /// Where a schema stands: a document and a JSON pointer into it, as reference tokens.
    struct Location: Hashable {
        var document: Int
        var pointer: [String]

        func appending(_ token: String) -> Location { Location(document: document, pointer: pointer + [token]) }

        /// The pointer as RFC 6901 writes it in a URI fragment: `#/properties/a~1b`.
        var fragment: String {
            "#" + pointer.map { "/" + $0.replacing("~", with: "~0").replacing("/", with: "~1") }.joined()
        }
    }

    /// What the scan found at a schema's location: its base URI after its own `$id`, its
    /// dialect, and the resource it belongs to.
    struct Scope {
        var base: URIReference
        var dialect: SchemaDialect
        var resource: String
    }

    /// A schema resource: a document's root or a subschema with an `$id`.
    struct Resource {
        var location: Location
        var dialect: SchemaDialect
        /// The `$schema` the resource names when it is not a dialect the validator knows: a
        /// metaschema whose `$vocabulary` decides which keywords apply.
        var metaschema: String?
        /// The `$dynamicAnchor` names it declares.
        var dynamicAnchors: Set<String> = []
    }

    private(set) var documents: [JSONValue] = []
    private(set) var resources: [String: Resource] = [:]
    /// Plain-name anchors by `RESOURCE#name`.
    private var anchors: [String: Location] = [:]
    private var scopes: [Location: Scope] = [:]
    private var nodes: [Location: SchemaNode] = [:]
    /// References compiled and not yet resolved, which `freeze` resolves.
    var unresolved: [SchemaNode.Reference] = []
    /// Whether every schema a validation can reach is compiled, and nothing changes any more.
    private(set) var isFrozen = false
    /// Whether any schema uses `unevaluatedProperties` or `unevaluatedItems`, which need the
    /// annotations the other keywords leave.
    private(set) var needsAnnotations = false

    /// Whether any resource declares a `$dynamicAnchor`, without which no `$dynamicRef` is
    /// dynamic.
    private(set) var hasDynamicAnchors = false

    /// How deeply a document's schemas may nest before the rest is ignored.
    static let maximumDepth = 512

    public init() {}

    /// Adds a document under `uri` (its own `$id` wins), read in `dialect` unless its
    /// `$schema` names another.
    public func add(_ document: JSONValue, uri: String, dialect: SchemaDialect = .draft2020_12) {
        let index = documents.count
        documents.append(document)
        let location = Location(document: index, pointer: [])
        let base = URIReference(uri).withoutFragment
        resources[base.description] = Resource(location: location, dialect: dialect)
        scan(document, at: location, base: base, dialect: dialect, resource: base.description, depth: 0)
    }

    /// Every `$ref` written anywhere in `document`, schema or not (an OpenAPI document's
    /// operations hold schemas where a schema's keywords do not reach), to a depth of
    /// `maximumDepth`.
    public static func references(in document: JSONValue) -> [String] {
        var found: [String] = []
        var pending: [(value: JSONValue, depth: Int)] = [(document, 0)]
        while let (value, depth) = pending.popLast() {
            guard depth < maximumDepth else { continue }
            switch value {
            case .object(let members):
                for member in members {
                    if member.key == "$ref", case .string(let reference) = member.value { found.append(reference) }
                    pending.append((member.value, depth + 1))
                }
            case .array(let items):
                pending += items.map { ($0, depth + 1) }
            default:
                break
            }
        }
        return found
    }

    /// The URIs the registered documents refer to (by `$ref`, `$dynamicRef` or `$schema`)
    /// that no registered document holds: what has to be fetched before validating.
    public var missingReferences: [String] {
        var missing: Set<String> = []
        for (location, scope) in scopes {
            guard case .object(let members) = value(at: location) else { continue }
            for (key, value) in members where key == "$ref" || key == "$dynamicRef" || key == "$schema" {
                guard case .string(let text) = value else { continue }
                if key == "$schema", SchemaDialect(metaschema: text) != nil { continue }
                let target = URIReference(text).resolved(against: scope.base).withoutFragment.description
                if resources[target] == nil { missing.insert(target) }
            }
        }
        return missing.sorted()
    }

    /// Every `$ref` and `$dynamicRef` in the registered documents, resolved against the
    /// resource it is written in, whose document no registered resource holds: the
    /// references that leave the schema, fragments kept. One to an embedded resource (`$id`,
    /// relative, absolute or a URN) stays inside.
    public var externalReferences: [String] {
        var found: Set<String> = []
        for (location, scope) in scopes {
            guard case .object(let members) = value(at: location) else { continue }
            for (key, value) in members where key == "$ref" || key == "$dynamicRef" {
                guard case .string(let text) = value else { continue }
                let target = URIReference(text).resolved(against: scope.base)
                if resources[target.withoutFragment.description] == nil { found.insert(target.description) }
            }
        }
        return found.sorted()
    }

    // MARK: - Scanning

    /// Records the scope of every schema in a document, and its resources and anchors,
    /// descending only into keywords whose values are schemas.
    private func scan(
        _ value: JSONValue, at location: Location, base: URIReference, dialect: SchemaDialect, resource: String,
        depth: Int
    ) {
        guard depth < Self.maximumDepth, case .object(let members) = value else {
            scopes[location] = Scope(base: base, dialect: dialect, resource: resource)
            return
        }
        let schema = Self.lookup(members)
        var dialect = dialect
        var metaschema: String?
        if case .string(let text)? = schema["$schema"] {
            if let named = SchemaDialect(metaschema: text) { dialect = named } else { metaschema = text }
        }
        var base = base
        var resource = resource
        let refStandsAlone = dialect.refIgnoresSiblings && schema["$ref"] != nil
        if case .string(let id)? = schema[dialect.idKeyword], !refStandsAlone {
            if dialect.idMayBeAnchor, id.hasPrefix("#") {
                anchors[resource + id] = location
            } else {
                let reference = URIReference(id).resolved(against: base)
                base = reference.withoutFragment
                resource = base.description
                if resources[resource] == nil || location.pointer.isEmpty {
                    resources[resource] = Resource(location: location, dialect: dialect, metaschema: metaschema)
                }
                if dialect.idMayBeAnchor, let fragment = reference.fragment, !fragment.isEmpty {
                    anchors[resource + "#" + fragment] = location
                }
            }
        } else if location.pointer.isEmpty, metaschema != nil {
            resources[resource]?.metaschema = metaschema
        }
        if dialect == .draft2020_12 {
            if case .string(let name)? = schema["$anchor"] { anchors[resource + "#" + name] = location }
            if case .string(let name)? = schema["$dynamicAnchor"] {
                anchors[resource + "#" + name] = location
                resources[resource]?.dynamicAnchors.insert(name)
                hasDynamicAnchors = true
            }
            if schema["unevaluatedProperties"] != nil || schema["unevaluatedItems"] != nil { needsAnnotations = true }
        }
        scopes[location] = Scope(base: base, dialect: dialect, resource: resource)
        if refStandsAlone { return }
        for (key, child) in members {
            let here = location.appending(key)
            if dialect.schemaKeywords.contains(key) {
                scan(child, at: here, base: base, dialect: dialect, resource: resource, depth: depth + 1)
            } else if key == "items" || dialect.schemaArrayKeywords.contains(key) {
                if case .array(let items) = child {
                    for (index, item) in items.enumerated() {
                        scan(
                            item, at: here.appending(String(index)), base: base, dialect: dialect, resource: resource,
                            depth: depth + 1)
                    }
                } else if key == "items" {
                    scan(child, at: here, base: base, dialect: dialect, resource: resource, depth: depth + 1)
                }
            } else if dialect.schemaMapKeywords.contains(key), case .object(let entries) = child {
                for (name, entry) in entries {
                    // `dependencies` holds schemas and arrays of names side by side.
                    if case .array = entry { continue }
                    scan(
                        entry, at: here.appending(name), base: base, dialect: dialect, resource: resource,
                        depth: depth + 1)
                }
            }
        }
    }

    /// An object's members by name; the first of a repeated name wins.
    static func lookup(_ members: [(key: String, value: JSONValue)]) -> [String: JSONValue] {
        var lookup: [String: JSONValue] = [:]
        lookup.reserveCapacity(members.count)
        for (key, value) in members where lookup[key] == nil { lookup[key] = value }
        return lookup
    }

    // MARK: - Resolving

    /// The JSON value at a location, nil when the pointer leads nowhere.
    func value(at location: Location) -> JSONValue? {
        guard documents.indices.contains(location.document) else { return nil }
        return documents[location.document].value(atPath: location.pointer)
    }

    /// The location an absolute reference names: a resource, a JSON pointer into one, or an
    /// anchor in one.
    func location(of reference: URIReference) -> Location? {
        let uri = reference.withoutFragment.description
        guard let resource = resources[uri] else { return nil }
        guard let tokens = reference.pointer else {
            return anchors[uri + "#" + PercentEncoding.decode(Substring(reference.fragment ?? ""))]
        }
        return Location(document: resource.location.document, pointer: resource.location.pointer + tokens)
    }

    /// The compiled schema at a location, compiled now if it is not yet; nil when nothing is
    /// there.
    func node(at location: Location) -> SchemaNode? {
        if let node = nodes[location] { return node }
        guard !isFrozen, let value = value(at: location) else { return nil }
        let scope = scopes[location] ?? inheritedScope(of: location)
        let node = SchemaNode(location: location, scope: scope)
        // Stored before its keywords are compiled, so a schema that refers to itself finds it.
        nodes[location] = node
        // A schema the scan did not reach (one inside an OpenAPI document's components, whose
        // keywords are not a schema's) still needs the annotations its keywords read.
        if scope.dialect == .draft2020_12, value["unevaluatedProperties"] != nil || value["unevaluatedItems"] != nil {
            needsAnnotations = true
        }
        node.compile(value, registry: self)
        return node
    }

    /// Compiles the schema at `location` and everything it can reach: its subschemas, every
    /// reference's target, and every `$dynamicAnchor` a `$dynamicRef` may land on. From then
    /// on the registry and its nodes are never written, so tasks can share them.
    func freeze(from location: Location?) {
        guard !isFrozen else { return }
        if let location { _ = node(at: location) }
        resolvePending()
        for (uri, resource) in resources {
            for name in resource.dynamicAnchors {
                if let anchor = anchors[uri + "#" + name] { _ = node(at: anchor) }
            }
        }
        resolvePending()
        isFrozen = true
    }

    /// Resolves every reference compiled so far, compiling their targets, and theirs.
    private func resolvePending() {
        while let reference = unresolved.popLast() {
            guard !reference.resolved else { continue }
            reference.resolved = true
            reference.target = self.location(of: reference.uri).flatMap(node(at:))
        }
    }

    /// The scope of a location the scan did not reach, such as a pointer into an unknown
    /// keyword: that of its nearest scanned ancestor.
    private func inheritedScope(of location: Location) -> Scope {
        var ancestor = location
        while !ancestor.pointer.isEmpty {
            ancestor.pointer.removeLast()
            if let scope = scopes[ancestor] { return scope }
        }
        return Scope(base: URIReference(""), dialect: .draft2020_12, resource: "")
    }

    /// Whether the resource's metaschema turns on the validation vocabulary: a dialect the
    /// validator knows always does; a custom metaschema does when its `$vocabulary` lists it
    /// or when it has none.
    func validates(in resource: String) -> Bool {
        guard let metaschema = resources[resource]?.metaschema else { return true }
        let uri = URIReference(metaschema).withoutFragment.description
        guard let meta = resources[uri], case .object(let members)? = value(at: meta.location),
            case .object(let vocabularies)? = Self.lookup(members)["$vocabulary"]
        else { return true }
        return vocabularies.contains { $0.key == "https://json-schema.org/draft/2020-12/vocab/validation" }
    }

    /// The outermost resource of `scope` that declares `$dynamicAnchor` `name`.
    func dynamicTarget(_ name: String, in scope: [String]) -> Location? {
        for resource in scope where resources[resource]?.dynamicAnchors.contains(name) == true {
            return anchors[resource + "#" + name]
        }
        return nil
    }
}
