import MoyaHTTP

/// Repairs, in a document's JSON, what would make OpenAPIKit refuse the whole document for
/// one spot, each with a warning naming its JSON pointer:
///
/// - `$ref`s OpenAPIKit cannot follow: a pointer deeper than a component, one into another
///   kind of component, one into another file (read relative to the document). Each target
///   is copied into the components, once, and the `$ref` points there. A URL is not fetched,
///   and a `$ref` that leads nowhere is left out (a schema becomes one that takes anything).
/// - Schema keywords of the wrong type or range: enum values of another type, numbers past
///   what the keyword holds, 3.0's boolean `exclusiveMinimum` in a 3.1 document and 3.1's
///   number in a 3.0 one.
/// - Recursive schemas: the `$ref` that closes a cycle becomes a schema marked with
///   `x-moya-cycle`, where samples and params stop; so does one that makes a chain of
///   component schemas longer than `longestChain`.
///
/// The walk follows the document's structure, so that it knows the kind of every object it
/// meets; its depth is the document's, which the reader bounds.
struct DocumentRepair {
    /// The `title` a cycle's closing `$ref` becomes, followed by the schema's name. A title,
    /// because import decodes no extensions.
    static let cycleMarker = "\u{FFFF}moya-cycle:"

    /// What an object in a document is, for what its `$ref` may point to and what its
    /// members hold.
    enum Kind: Equatable {
        case document, components, pathItem, operation, parameter, header, requestBody, mediaType, encoding
        case response, callback, schema, example, link, securityScheme, info, contact, license

        /// The `components` member that holds this kind.
        var componentKey: String? {
            switch self {
            case .schema: "schemas"
            case .response: "responses"
            case .parameter: "parameters"
            case .example: "examples"
            case .requestBody: "requestBodies"
            case .header: "headers"
            case .securityScheme: "securitySchemes"
            case .link: "links"
            case .callback: "callbacks"
            case .pathItem: "pathItems"
            default: nil
            }
        }

        static let byComponentKey: [String: Kind] = [
            "schemas": .schema, "responses": .response, "parameters": .parameter, "examples": .example,
            "requestBodies": .requestBody, "headers": .header, "securitySchemes": .securityScheme, "links": .link,
            "callbacks": .callback, "pathItems": .pathItem,
        ]
    }

    /// Where a value came from: the document, or a file one of its `$ref`s names.
    struct Origin {
        /// The file's path as the user gave it or as the `$ref` made it.
        var file: String
        /// The file's whole value, for its `#/…` pointers.
        var root: JSONValue
    }

    /// How the walk leaves an object that held a `$ref`.
    enum Outcome {
        case keep
        case replace(JSONValue)
        case remove
    }

    let version: String
    let main: Origin
    /// Reads another file a `$ref` names: its bytes, or nil.
    let readFile: (String) -> [UInt8]?
    /// Parses another file's bytes.
    let parse: ([UInt8]) -> JSONValue?

    private(set) var warnings: [String] = []
    /// Example values taken out of the document, each replaced by a marker string that
    /// `JSONBridge` puts back: OpenAPIKit decodes an example through `AnyCodable` by trying
    /// each type in turn, which made examples most of a large document's decoding time.
    private(set) var examples: [JSONValue] = []
    /// Targets copied into the components, by component key, in the order they were met.
    private var hoisted: [String: [(name: String, value: JSONValue)]] = [:]
    /// The component each copied target became, by its origin, pointer and kind.
    private var hoistedNames: [String: String] = [:]
    /// How many hoists are under way, each inside the last: a `$ref` into a part of another
    /// component hoists that part, whose own `$ref` may do the same.
    private var hoistDepth = 0
    /// The next number of each hoisted name's stem (`Names.unique(_:in:next:)`).
    private var hoistNumbers: [String: Int] = [:]
    /// Each document's components of each kind by name (`resolve(_:in:)`).
    private var componentIndex: [String: [String: JSONValue]] = [:]
    /// Names taken in each component key.
    private var taken: [String: Set<String>] = [:]
    /// Other files, parsed, by path; nil when they could not be read.
    private var files: [String: JSONValue?] = [:]

    init(
        version: String, file: String, root: JSONValue, readFile: @escaping (String) -> [UInt8]?,
        parse: @escaping ([UInt8]) -> JSONValue?
    ) {
        self.version = version
        self.main = Origin(file: file, root: root)
        self.readFile = readFile
        self.parse = parse
        if case .object(let components)? = root["components"] {
            for (key, value) in components {
                guard case .object(let members) = value else { continue }
                taken[key] = Set(members.map(\.key))
            }
        }
    }

    var is31: Bool { !version.hasPrefix("3.0") }

    mutating func warn(_ origin: Origin, _ pointer: [String], _ message: String) {
        warnings.append("\(origin.file)#\(Names.pointer(pointer)): \(message)")
    }

    // MARK: - The whole document

    /// The repaired document.
    mutating func repair() -> JSONValue {
        var root = main.root
        walk(&root, kind: .document, at: [], in: main)
        // Copied targets join the components, after the document's own.
        if !hoisted.isEmpty, case .object(var members) = root {
            root = .null
            var components: [(key: String, value: JSONValue)] = []
            if let index = members.firstIndex(where: { $0.key == "components" }),
                case .object(let existing) = members[index].value
            {
                components = existing
                members[index].value = .null
            }
            for key in hoisted.keys.sorted() {
                let added = (hoisted[key] ?? []).map { (key: $0.name, value: $0.value) }
                if let index = components.firstIndex(where: { $0.key == key }),
                    case .object(var entries) = components[index].value
                {
                    components[index].value = .null
                    entries += added
                    components[index].value = .object(entries)
                } else {
                    components.append((key: key, value: .object(added)))
                }
            }
            if let index = members.firstIndex(where: { $0.key == "components" }) {
                members[index].value = .object(components)
            } else {
                members.append((key: "components", value: .object(components)))
            }
            root = .object(members)
        }
        breakCycles(&root)
        boundChains(&root)
        leaveOutUnknownSchemes(&root)
        return root
    }

    /// Leaves out of every security requirement, the document's and each operation's, a
    /// scheme that no security scheme defines: OpenAPIKit refuses the whole requirement, and
    /// with it the operation. A requirement left with no scheme is left out; one that was
    /// empty (no credential needed) is kept.
    mutating func leaveOutUnknownSchemes(_ root: inout JSONValue) {
        guard case .object(var members) = root else { return }
        var defined: Set<String> = []
        if case .object(let schemes)? = root.value(atPath: ["components", "securitySchemes"]) {
            defined = Set(schemes.map(\.key))
        }
        func mend(_ value: inout JSONValue, at pointer: [String]) {
            guard case .array(let requirements) = value else { return }
            var kept: [JSONValue] = []
            for requirement in requirements {
                guard case .object(let schemes) = requirement, !schemes.isEmpty else {
                    kept.append(requirement)
                    continue
                }
                let known = schemes.filter { defined.contains($0.key) }
                for unknown in schemes where !defined.contains(unknown.key) {
                    warn(
                        main, pointer + [unknown.key],
                        "no security scheme is named '\(unknown.key)'; the requirement is left out")
                }
                if !known.isEmpty { kept.append(.object(known)) }
            }
            value = .array(kept)
        }
        root = .null
        defer { root = .object(members) }
        for index in members.indices {
            switch members[index].key {
            case "security":
                mend(&members[index].value, at: ["security"])
            case "paths", "webhooks":
                guard case .object(var items) = members[index].value else { continue }
                members[index].value = .null
                for item in items.indices {
                    guard case .object(var operations) = items[item].value else { continue }
                    items[item].value = .null
                    for operation in operations.indices {
                        guard OpenAPIPieces.methods.contains(operations[operation].key),
                            case .object(var fields) = operations[operation].value,
                            let at = fields.firstIndex(where: { $0.key == "security" })
                        else { continue }
                        operations[operation].value = .null
                        mend(
                            &fields[at].value,
                            at: [members[index].key, items[item].key, operations[operation].key, "security"])
                        operations[operation].value = .object(fields)
                    }
                    items[item].value = .object(operations)
                }
                members[index].value = .object(items)
            default:
                continue
            }
        }
    }

    // MARK: - Walking

    /// Repairs `value`, an object of `kind` at `pointer` in `origin`, and what it holds.
    mutating func walk(_ value: inout JSONValue, kind: Kind, at pointer: [String], in origin: Origin) {
        guard case .object(var members) = value else { return }
        if let index = members.firstIndex(where: { $0.key == "$ref" }), kind.componentKey != nil {
            switch reference(members[index].value, kind: kind, at: pointer + ["$ref"], in: origin) {
            case .keep: return
            case .remove:
                value = .null
                return
            case .replace(let replacement):
                value = replacement
                return
            }
        }
        value = .null
        if kind == .schema { repairSchema(&members, at: pointer, in: origin) }
        for index in members.indices where Self.holdsExamples(kind, key: members[index].key) {
            if kind == .schema, members[index].key == "examples", case .array(var items) = members[index].value {
                members[index].value = .null
                for item in items.indices { items[item] = takeExample(items[item]) }
                members[index].value = .array(items)
            } else {
                members[index].value = takeExample(members[index].value)
            }
        }
        var index = 0
        while index < members.count {
            let key = members[index].key
            let child = pointer + [key]
            let holds = Self.holds(kind, key: key, is31: is31)
            switch holds {
            case nil: break
            case .one(let inner):
                walk(&members[index].value, kind: inner, at: child, in: origin)
                if members[index].value == .null, inner != .schema {
                    members.remove(at: index)
                    continue
                }
            case .map(let inner):
                if case .object(var entries) = members[index].value {
                    members[index].value = .null
                    var position = 0
                    while position < entries.count {
                        walk(&entries[position].value, kind: inner, at: child + [entries[position].key], in: origin)
                        if entries[position].value == .null {
                            entries.remove(at: position)
                        } else {
                            position += 1
                        }
                    }
                    members[index].value = .object(entries)
                }
            case .list(let inner):
                if case .array(var items) = members[index].value {
                    members[index].value = .null
                    var position = 0
                    var original = 0
                    while position < items.count {
                        walk(&items[position], kind: inner, at: child + [String(original)], in: origin)
                        original += 1
                        if items[position] == .null {
                            items.remove(at: position)
                        } else {
                            position += 1
                        }
                    }
                    members[index].value = .array(items)
                } else if inner == .schema {
                    // 2020-12's `items` is one schema.
                    walk(&members[index].value, kind: .schema, at: child, in: origin)
                }
            }
            index += 1
        }
        value = .object(members)
    }

    /// Whether a member of an object of `kind` holds example data.
    static func holdsExamples(_ kind: Kind, key: String) -> Bool {
        switch (kind, key) {
        case (.schema, "example"), (.schema, "examples"), (.schema, "default"), (.schema, "const"),
            (.mediaType, "example"), (.parameter, "example"), (.header, "example"), (.example, "value"):
            true
        default: false
        }
    }

    /// A container example as its marker; a scalar, which decodes cheaply, as it is.
    mutating func takeExample(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object, .array:
            examples.append(value)
            return .string(JSONBridge.marker + String(examples.count - 1))
        default:
            return value
        }
    }

    /// What a member of an object holds.
    enum Holds {
        case one(Kind)
        case map(Kind)
        case list(Kind)
    }

    static func holds(_ kind: Kind, key: String, is31: Bool) -> Holds? {
        switch (kind, key) {
        case (.document, "paths"), (.document, "webhooks"): .map(.pathItem)
        case (.document, "components"): .one(.components)
        case (.document, "info"): .one(.info)
        case (.info, "contact"): .one(.contact)
        case (.info, "license"): .one(.license)
        case (.components, _): Kind.byComponentKey[key].map { .map($0) }
        case (.pathItem, "parameters"), (.operation, "parameters"): .list(.parameter)
        case (.pathItem, "get"), (.pathItem, "put"), (.pathItem, "post"), (.pathItem, "delete"),
            (.pathItem, "options"), (.pathItem, "head"), (.pathItem, "patch"), (.pathItem, "trace"),
            (.pathItem, "query"):
            .one(.operation)
        case (.operation, "requestBody"): .one(.requestBody)
        case (.operation, "responses"): .map(.response)
        case (.operation, "callbacks"): .map(.callback)
        case (.parameter, "schema"), (.header, "schema"), (.mediaType, "schema"): .one(.schema)
        case (.parameter, "content"), (.header, "content"), (.requestBody, "content"), (.response, "content"):
            .map(.mediaType)
        case (.parameter, "examples"), (.header, "examples"), (.mediaType, "examples"): .map(.example)
        case (.mediaType, "encoding"): .map(.encoding)
        case (.encoding, "headers"), (.response, "headers"): .map(.header)
        case (.response, "links"): .map(.link)
        case (.callback, _): .one(.pathItem)
        case (.schema, "properties"), (.schema, "patternProperties"), (.schema, "$defs"), (.schema, "definitions"),
            (.schema, "dependentSchemas"):
            .map(.schema)
        case (.schema, "allOf"), (.schema, "anyOf"), (.schema, "oneOf"), (.schema, "prefixItems"): .list(.schema)
        case (.schema, "items"): .list(.schema)
        case (.schema, "additionalProperties"), (.schema, "not"), (.schema, "if"), (.schema, "then"),
            (.schema, "else"), (.schema, "contains"), (.schema, "propertyNames"), (.schema, "unevaluatedItems"),
            (.schema, "unevaluatedProperties"), (.schema, "additionalItems"), (.schema, "contentSchema"):
            .one(.schema)
        default: nil
        }
    }

    // MARK: - References

    /// What becomes of an object of `kind` whose `$ref` is `value`.
    mutating func reference(_ value: JSONValue, kind: Kind, at pointer: [String], in origin: Origin) -> Outcome {
        guard case .string(let ref) = value, let componentKey = kind.componentKey else { return .keep }
        let hash = ref.firstIndex(of: "#") ?? ref.endIndex
        let location = String(ref[..<hash])
        let fragment = PercentEncoding.decode(ref[hash...].dropFirst())
        let segments = Self.segments(fragment)

        var target = origin
        if !location.isEmpty {
            if location.contains("://") {
                warn(origin, pointer, "'\(ref)' is a URL, which import does not fetch; \(Self.leftOut(kind))")
                return missing(kind)
            }
            guard let other = file(location, from: origin) else {
                warn(
                    origin, pointer,
                    "'\(location)' cannot be read (relative to \(origin.file)); \(Self.leftOut(kind))")
                return missing(kind)
            }
            target = other
        } else if origin.file == main.file, let parts = segments, parts.count == 3, parts[0] == "components",
            parts[1] == componentKey, taken[componentKey]?.contains(parts[2]) == true
        {
            return .keep
        }
        guard let segments, let found = resolve(segments, in: target) else {
            warn(origin, pointer, "'\(ref)' does not resolve; \(Self.leftOut(kind))")
            return missing(kind)
        }
        // Each hoist walks what it copies, and may hoist again: bounded as chains of
        // components are (`longestChain`), so that no document runs the walk out of stack.
        guard hoistDepth < Self.longestChain || hoistedNames[Self.identity(of: segments, in: target, kind)] != nil
        else {
            warn(
                origin, pointer,
                "'\(ref)' is past a chain of \(Self.longestChain) $refs into other components; cut there, "
                    + Self.leftOut(kind))
            return missing(kind)
        }
        if segments.count == 3, segments[0] == "components", segments[1] != componentKey,
            let other = Kind.byComponentKey[segments[1]]
        {
            warn(
                origin, pointer,
                "'\(ref)' is a \(segments[1]) component where one of \(componentKey) belongs; read as one")
            return .replace(
                .object([
                    (
                        key: "$ref",
                        value: .string(
                            hoist(Self.convert(found, from: other, to: kind), kind: kind, at: segments, in: target))
                    )
                ]))
        }
        return .replace(.object([(key: "$ref", value: .string(hoist(found, kind: kind, at: segments, in: target)))]))
    }

    /// What `segments` point at in `origin`. A component is found by its name in an index
    /// made once per document and kind, not by a scan of every component: a document of
    /// thousands of schemas that refer to one another resolves in linear time.
    mutating func resolve(_ segments: [String], in origin: Origin) -> JSONValue? {
        guard segments.count >= 3, segments[0] == "components" else { return origin.root.value(atPath: segments) }
        let key = origin.file + "\u{0}" + segments[1]
        if componentIndex[key] == nil {
            var index: [String: JSONValue] = [:]
            if case .object(let members)? = origin.root.value(atPath: segments.prefix(2)) {
                for member in members where index[member.key] == nil { index[member.key] = member.value }
            }
            componentIndex[key] = index
        }
        return componentIndex[key]?[segments[2]]?.value(atPath: segments.dropFirst(3))
    }

    /// A `$ref` that leads nowhere: a schema takes anything, anything else is left out.
    func missing(_ kind: Kind) -> Outcome {
        switch kind {
        case .schema: .replace(.object([]))
        case .response: .replace(.object([(key: "description", value: .string(""))]))
        default: .remove
        }
    }

    /// What becomes of a `$ref` that leads nowhere, as the warning says it.
    static func leftOut(_ kind: Kind) -> String {
        switch kind {
        case .schema: "read as a schema that takes any value"
        case .response: "read as a response with no content"
        default: "left out"
        }
    }

    /// The component a target at `pointer` in `origin` becomes: `#/components/…/name`. It is
    /// copied, and repaired, once.
    mutating func hoist(_ target: JSONValue, kind: Kind, at pointer: [String], in origin: Origin) -> String {
        let componentKey = kind.componentKey ?? "schemas"
        let identity = Self.identity(of: pointer, in: origin, kind)
        if let name = hoistedNames[identity] { return "#/components/\(componentKey)/\(name)" }
        var base = Self.componentName(pointer.last ?? Names.stem(of: origin.file))
        if origin.file != main.file || pointer.count != 3 { base = "moya_" + base }
        // In place: a copy of the names taken for each hoist would be quadratic.
        let name = Names.unique(base, in: &taken[componentKey, default: []], next: &hoistNumbers)
        hoistedNames[identity] = name
        var copy = target
        hoistDepth += 1
        walk(&copy, kind: kind, at: pointer, in: origin)
        hoistDepth -= 1
        if copy == .null { copy = kind == .schema ? .object([]) : .object([(key: "description", value: .string(""))]) }
        hoisted[componentKey, default: []].append((name, copy))
        return "#/components/\(componentKey)/\(name)"
    }

    /// What a hoisted target is known by: its document, its place there, and its kind.
    static func identity(of pointer: [String], in origin: Origin, _ kind: Kind) -> String {
        "\(origin.file)#\(Names.pointer(pointer))@\(kind.componentKey ?? "schemas")"
    }

    /// A component name OpenAPI allows: letters, digits, `.`, `-` and `_`.
    static func componentName(_ text: String) -> String {
        let name = String(
            text.unicodeScalars.map { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || ".-_".unicodeScalars.contains(scalar))
                    ? Character(scalar) : "_"
            })
        return name.isEmpty ? "component" : name
    }

    /// A request body read as a response, or a response as a request body: what both hold.
    static func convert(_ value: JSONValue, from: Kind, to: Kind) -> JSONValue {
        guard case .object(let members) = value, from != to else { return value }
        switch (from, to) {
        case (.requestBody, .response), (.response, .requestBody):
            var kept = members.filter { $0.key == "description" || $0.key == "content" || $0.key.hasPrefix("x-") }
            if to == .response, !kept.contains(where: { $0.key == "description" }) {
                kept.insert((key: "description", value: .string("")), at: 0)
            }
            return .object(kept)
        default:
            return value
        }
    }

    /// Another file a `$ref` names, read relative to the file that names it.
    mutating func file(_ location: String, from origin: Origin) -> Origin? {
        let path: String
        if location.hasPrefix("/") {
            path = location
        } else if let slash = origin.file.lastIndex(of: "/") {
            path = String(origin.file[...slash]) + location
        } else {
            path = location
        }
        let decoded = PercentEncoding.decode(path[...])
        if let cached = files[decoded] { return cached.map { Origin(file: decoded, root: $0) } }
        let root = readFile(decoded).flatMap(parse)
        files[decoded] = .some(root)
        return root.map { Origin(file: decoded, root: $0) }
    }

    /// A JSON pointer's segments, unescaped; nil when it is not a pointer.
    static func segments(_ fragment: String) -> [String]? {
        if fragment.isEmpty { return [] }
        guard fragment.hasPrefix("/") else { return nil }
        return fragment.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).replacing("~1", with: "/").replacing("~0", with: "~")
        }
    }
}
