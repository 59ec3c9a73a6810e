import MoyaHTTP
import MoyaSpec

extension DocumentRepair {
    // MARK: - Schema keywords

    static let types: Set<String> = ["string", "number", "integer", "boolean", "array", "object", "null"]
    static let counts = ["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"]
    static let bounds = ["minimum", "maximum", "multipleOf"]

    /// Reads a schema's keywords leniently: what OpenAPIKit would refuse is converted, or
    /// left out, with a warning.
    mutating func repairSchema(
        _ members: inout [(key: String, value: JSONValue)], at pointer: [String], in origin: Origin
    ) {
        let type = repairTypeAndEnum(&members, at: pointer, in: origin)
        repairNumbers(&members, type: type, at: pointer, in: origin)
        func index(_ key: String) -> Int? { members.firstIndex { $0.key == key } }
        func remove(_ key: String) { members.removeAll { $0.key == key } }

        // `items` as a list is draft 4's tuple form: 2020-12 (3.1) calls it `prefixItems`; 3.0
        // has no tuple, so each item is read as matching one of the list's schemas.
        if let at = index("items"), case .array(let schemas) = members[at].value {
            if is31 {
                warn(origin, pointer + ["items"], "a list of item schemas is draft 4's tuple form; read as prefixItems")
                members[at] = (key: "prefixItems", value: .array(schemas))
            } else {
                warn(
                    origin, pointer + ["items"],
                    "a list of item schemas is draft 4's tuple form, which OpenAPI 3.0 does not have; "
                        + "read as items that match any of them")
                members[at].value = schemas.isEmpty ? .object([]) : .object([(key: "anyOf", value: .array(schemas))])
            }
        }

        // `required` in a schema lists names.
        if let at = index("required") {
            if case .array(let names) = members[at].value,
                names.allSatisfy({ if case .string = $0 { true } else { false } })
            {
            } else {
                warn(origin, pointer + ["required"], "required is not a list of names; left out")
                remove("required")
            }
        }
        for key in ["format", "pattern", "title", "description"] {
            guard let at = index(key) else { continue }
            if case .string = members[at].value { continue }
            warn(origin, pointer + [key], "\(key) is not a string; left out")
            remove(key)
        }
    }

    /// `type` (names OpenAPI knows; one of them in 3.0) and `enum` (values of that type);
    /// returns the type, when it is one name.
    private mutating func repairTypeAndEnum(
        _ members: inout [(key: String, value: JSONValue)], at pointer: [String], in origin: Origin
    ) -> String? {
        func index(_ key: String) -> Int? { members.firstIndex { $0.key == key } }
        func remove(_ key: String) { members.removeAll { $0.key == key } }

        // `type`: names OpenAPI knows; one of them in 3.0.
        if let at = index("type") {
            switch members[at].value {
            case .string(let type) where !Self.types.contains(type) || (!is31 && type == "null"):
                warn(origin, pointer + ["type"], "type '\(type)' is not a JSON Schema type; left out")
                remove("type")
            case .array(let list) where !is31:
                let names = list.compactMap { if case .string(let name) = $0 { name } else { nil } }
                let chosen = names.first { $0 != "null" && Self.types.contains($0) }
                warn(
                    origin, pointer + ["type"],
                    "a list of types is OpenAPI 3.1's; read as \(chosen.map { "'\($0)'" } ?? "any type")"
                        + (names.contains("null") ? " with nullable: true" : ""))
                members[at].value = chosen.map { .string($0) } ?? .null
                if chosen == nil { remove("type") }
                if names.contains("null"), index("nullable") == nil {
                    members.append((key: "nullable", value: .bool(true)))
                }
            case .string, .array: break
            default:
                warn(origin, pointer + ["type"], "type is not a name; left out")
                remove("type")
            }
        }
        let type: String? = if case .string(let name)? = index("type").map({ members[$0].value }) { name } else { nil }

        // `enum`: values of the schema's type.
        if let at = index("enum"), let type, case .array(let values) = members[at].value {
            var kept: [JSONValue] = []
            var changed: [String] = []
            for value in values {
                if value == .null || JSONType(rawValue: type == "boolean" ? "bool" : type)?.matches(value) != false {
                    kept.append(value)
                } else if let converted = Self.convert(value, to: type) {
                    kept.append(converted)
                    changed.append(value.serialized())
                } else {
                    changed.append(value.serialized())
                }
            }
            if !changed.isEmpty {
                warn(
                    origin, pointer + ["enum"],
                    "enum values \(changed.joined(separator: ", ")) are not of type \(type); "
                        + (kept.count == values.count
                            ? "read as \(type)s" : "those that cannot be read as one are left out"))
                members[at].value = .array(kept)
                if kept.isEmpty { remove("enum") }
            }
        }
        return type
    }

    /// Counts, numeric bounds, and `exclusiveMinimum`/`exclusiveMaximum` as the document's
    /// version writes them.
    private mutating func repairNumbers(
        _ members: inout [(key: String, value: JSONValue)], type: String?, at pointer: [String], in origin: Origin
    ) {
        func index(_ key: String) -> Int? { members.firstIndex { $0.key == key } }
        func remove(_ key: String) { members.removeAll { $0.key == key } }

        // Counts are non-negative integers.
        for key in Self.counts {
            guard let at = index(key) else { continue }
            if case .integer(let count) = members[at].value, count >= 0 { continue }
            warn(origin, pointer + [key], "\(key) \(members[at].value.serialized()) is not a count; left out")
            remove(key)
        }

        // Bounds fit the schema's type: an integer schema's in an `Int`.
        let numericBounds = Self.bounds + (is31 ? ["exclusiveMinimum", "exclusiveMaximum"] : [])
        for key in numericBounds {
            guard let at = index(key) else { continue }
            let value = members[at].value
            switch (value, type) {
            case (.integer, _): continue
            case (.number(let number), "integer"):
                if number.rounded() == number, let exact = Int(exactly: number) {
                    members[at].value = .integer(exact)
                    continue
                }
                warn(origin, pointer + [key], "\(key) \(value.serialized()) is out of range for an integer; left out")
                remove(key)
            case (.number, _): continue
            case (.bool, _) where key.hasPrefix("exclusive"): continue
            default:
                warn(origin, pointer + [key], "\(key) \(value.serialized()) is not a number; left out")
                remove(key)
            }
        }

        // `exclusiveMinimum` and `exclusiveMaximum` as the document's version writes them.
        for (exclusive, bound) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
            guard let at = index(exclusive) else { continue }
            switch (members[at].value, is31) {
            case (.bool(let flag), true):
                if flag, let limit = index(bound) {
                    warn(
                        origin, pointer + [exclusive],
                        "\(exclusive): true is OpenAPI 3.0's; read as \(exclusive): \(members[limit].value.serialized())"
                    )
                    members[at].value = members[limit].value
                    remove(bound)
                } else {
                    warn(origin, pointer + [exclusive], "\(exclusive): \(flag) is OpenAPI 3.0's; left out")
                    remove(exclusive)
                }
            case (.integer, false), (.number, false):
                let limit = members[at].value
                warn(
                    origin, pointer + [exclusive],
                    "\(exclusive): \(limit.serialized()) is OpenAPI 3.1's; read as \(bound): \(limit.serialized()), "
                        + "\(exclusive): true")
                members[at].value = .bool(true)
                remove(bound)
                members.append((key: bound, value: limit))
            case (.bool, false), (.integer, true), (.number, true): break
            default:
                warn(origin, pointer + [exclusive], "\(exclusive) is neither a number nor a boolean; left out")
                remove(exclusive)
            }
        }
    }

    /// `value` read as a `type`, where it says one: `true` as the string `"true"`, `"3"` as
    /// the integer 3.
    static func convert(_ value: JSONValue, to type: String) -> JSONValue? {
        switch (type, value) {
        case ("string", .bool(let flag)): return .string(flag ? "true" : "false")
        case ("string", .integer(let number)): return .string(String(number))
        case ("string", .number(let number)): return .string(JSONValue.format(number))
        case ("integer", .string(let text)): return Int(text).map { .integer($0) }
        case ("integer", .number(let number)): return Int(exactly: number).map { .integer($0) }
        case ("number", .string(let text)): return Double(text).map { .number($0) }
        case ("boolean", .string("true")): return .bool(true)
        case ("boolean", .string("false")): return .bool(false)
        default: return nil
        }
    }

    // MARK: - Cycles

    /// Makes the component schemas' `$ref`s acyclic: a depth-first walk from each component
    /// in order replaces every `$ref` to a schema still being walked with the cycle marker.
    func breakCycles(_ root: inout JSONValue) {
        guard let (schemas, position, edges) = Self.schemaGraph(root) else { return }

        // Iterative: the component graph may be as deep as it has components.
        enum State { case new, active, done }
        var state = [State](repeating: .new, count: schemas.count)
        var closing: [Int: Set<String>] = [:]
        for start in schemas.indices where state[start] == .new {
            var stack: [(node: Int, next: Int)] = [(start, 0)]
            state[start] = .active
            while let top = stack.last {
                let targets = edges[top.node]
                guard top.next < targets.count else {
                    state[top.node] = .done
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                guard let target = position[targets[top.next].name] else { continue }
                switch state[target] {
                case .new:
                    state[target] = .active
                    stack.append((target, 0))
                case .active:
                    closing[top.node, default: []].insert(targets[top.next].name)
                case .done:
                    break
                }
            }
        }
        Self.cut(closing, in: &root)
    }

    /// The component schemas of `root`, each one's position by name, and the schemas each
    /// names in its `$ref`s, with how often; nil without any.
    static func schemaGraph(_ root: JSONValue) -> (
        schemas: [(key: String, value: JSONValue)], position: [String: Int], edges: [[(name: String, count: Int)]]
    )? {
        guard case .object(let members) = root,
            case .object(let components)? = members.first(where: { $0.key == "components" })?.value,
            case .object(let schemas)? = components.first(where: { $0.key == "schemas" })?.value
        else { return nil }
        var position: [String: Int] = [:]
        for (index, entry) in schemas.enumerated() where position[entry.key] == nil { position[entry.key] = index }
        return (schemas, position, schemas.map { schemaReferences($0.value) })
    }

    /// Replaces, in the component schema at each index of `cuts`, each `$ref` to a schema it
    /// names there with the cycle marker. The tree is taken apart and put back, so that the
    /// rest of the document is not copied.
    static func cut(_ cuts: [Int: Set<String>], in root: inout JSONValue) {
        guard !cuts.isEmpty, case .object(var members) = root,
            let at = members.firstIndex(where: { $0.key == "components" }),
            case .object(var components) = members[at].value,
            let schemasAt = components.firstIndex(where: { $0.key == "schemas" }),
            case .object(var schemas) = components[schemasAt].value
        else { return }
        root = .null
        members[at].value = .null
        components[schemasAt].value = .null
        for (node, names) in cuts { markCycles(&schemas[node].value, closing: names, depth: 0) }
        components[schemasAt].value = .object(schemas)
        members[at].value = .object(components)
        root = .object(members)
    }

    /// The longest chain of component schemas, each reaching the next through a `$ref`, that
    /// is kept. OpenAPIKit follows a chain by recursion, so 10,000 of them overflowed the
    /// stack; real descriptions chain at most 22.
    static let longestChain = 64

    /// Cuts the component schemas' `$ref`s, now acyclic, so that no chain is longer than
    /// `longestChain`: a `$ref` that would make one longer becomes the cycle marker, where
    /// samples and params stop, as at a cycle.
    mutating func boundChains(_ root: inout JSONValue) {
        guard let (schemas, position, edges) = Self.schemaGraph(root) else { return }
        // Each schema's chain length, worked out after its targets', without recursion.
        var length = [Int?](repeating: nil, count: schemas.count)
        // How many schemas each one becomes once dereferenced: OpenAPIKit copies a schema at
        // every `$ref` to it, so 17 schemas that each name the next twice became 2^17 copies
        // (6 s; 25 would take an hour). Found by the openapi-refs fuzz target.
        var sizes = [Int](repeating: 1, count: schemas.count)
        var cut: [Int: Set<String>] = [:]
        var widened = 0
        for start in schemas.indices where length[start] == nil {
            var stack: [(node: Int, expanded: Bool)] = [(start, false)]
            while let (node, expanded) = stack.popLast() {
                guard length[node] == nil else { continue }
                let targets = edges[node].compactMap { edge in position[edge.name].map { (edge, $0) } }
                if !expanded {
                    stack.append((node, true))
                    for (_, target) in targets where length[target] == nil { stack.append((target, false)) }
                    continue
                }
                var longest = 0
                var size = 1
                for (edge, target) in targets {
                    // A target not yet measured is on this walk's path: a cycle, already broken.
                    let through = (length[target] ?? 0) + 1
                    let copies = edge.count.multipliedReportingOverflow(by: sizes[target])
                    if through > Self.longestChain {
                        cut[node, default: []].insert(edge.name)
                    } else if copies.overflow || size > Self.largestExpansion - copies.partialValue {
                        cut[node, default: []].insert(edge.name)
                        widened += 1
                    } else {
                        longest = max(longest, through)
                        size += copies.partialValue
                    }
                }
                length[node] = longest
                sizes[node] = size
            }
        }
        guard !cut.isEmpty else { return }
        let count = cut.values.reduce(0) { $0 + $1.count } - widened
        if count > 0 {
            warn(
                main, ["components", "schemas"],
                "\(count == 1 ? "1 $ref makes" : "\(count) $refs make") a chain of schemas longer than "
                    + "\(Self.longestChain); cut there, where samples and params stop")
        }
        if widened > 0 {
            warn(
                main, ["components", "schemas"],
                "\(widened == 1 ? "1 $ref makes" : "\(widened) $refs make") a schema that names others more than "
                    + "\(Self.largestExpansion) times over, counting each $ref where it stands; cut there, where "
                    + "samples and params stop")
        }
        Self.cut(cut, in: &root)
    }

    /// The most schemas one component may become once every `$ref` in it, and in what it
    /// names, is copied in place. None of the ten real descriptions of `../shared/openapi-real`
    /// reaches it; a document past it is built to be.
    static let largestExpansion = 20_000

    /// The component schemas `value` names in its `$ref`s, each once, in order, with how many
    /// `$ref`s name it: OpenAPIKit copies the schema at each.
    static func schemaReferences(_ value: JSONValue) -> [(name: String, count: Int)] {
        var found: [(name: String, count: Int)] = []
        var seen: [String: Int] = [:]
        var stack = [value]
        while let current = stack.popLast() {
            switch current {
            case .object(let members):
                for member in members.reversed() {
                    if member.key == "$ref", case .string(let ref) = member.value,
                        let name = schemaComponent(ofRef: ref)
                    {
                        if let index = seen[name] {
                            found[index].count += 1
                        } else {
                            seen[name] = found.count
                            found.append((name, 1))
                        }
                    } else {
                        stack.append(member.value)
                    }
                }
            case .array(let items):
                stack.append(contentsOf: items.reversed())
            default:
                break
            }
        }
        return found
    }

    /// The component schema a `$ref` points at or into: `s1` for `#/components/schemas/s1`
    /// and for `#/components/schemas/s1/properties/x`, whose walk passes through `s1`; nil for
    /// a `$ref` elsewhere.
    static func schemaComponent(ofRef ref: String) -> String? {
        let prefix = "#/components/schemas/"
        guard ref.hasPrefix(prefix) else { return nil }
        let rest = ref.dropFirst(prefix.count)
        let name = rest.prefix { $0 != "/" }
        guard !name.isEmpty else { return nil }
        return String(name).replacing("~1", with: "/").replacing("~0", with: "~")
    }

    /// Replaces each `$ref` in `value` to a schema in `closing`, or into one, with the cycle
    /// marker. The depth is the document's, which the reader bounds.
    static func markCycles(_ value: inout JSONValue, closing: Set<String>, depth: Int) {
        switch value {
        case .object(var members):
            if let ref = members.first(where: { $0.key == "$ref" }), case .string(let text) = ref.value,
                let name = schemaComponent(ofRef: text), closing.contains(name)
            {
                var marked = members.filter { $0.key != "$ref" && $0.key != "title" }
                marked.append((key: "title", value: .string(cycleMarker + name)))
                value = .object(marked)
                return
            }
            value = .null
            for index in members.indices { markCycles(&members[index].value, closing: closing, depth: depth + 1) }
            value = .object(members)
        case .array(var items):
            value = .null
            for index in items.indices { markCycles(&items[index], closing: closing, depth: depth + 1) }
            value = .array(items)
        default:
            break
        }
    }
}
