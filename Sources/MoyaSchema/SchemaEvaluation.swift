import MoyaJSON
import MoyaRegex

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A place in the instance, kept as a chain so that a path is written out only for an error.
final class InstancePath {
    enum Step {
        case key(String)
        case index(Int)
    }

    let parent: InstancePath?
    let step: Step?

    init(parent: InstancePath? = nil, step: Step? = nil) {
        self.parent = parent
        self.step = step
    }

    func appending(_ key: String) -> InstancePath { InstancePath(parent: self, step: .key(key)) }
    func appending(_ index: Int) -> InstancePath { InstancePath(parent: self, step: .index(index)) }

    /// The path as the JSON paths moya-cli prints elsewhere: `$.items[3].id`, and
    /// `$['a b']` for a name that is not an identifier.
    var description: String {
        var steps: [Step] = []
        var current: InstancePath? = self
        while let node = current {
            if let step = node.step { steps.append(step) }
            current = node.parent
        }
        var text = "$"
        for step in steps.reversed() {
            switch step {
            case .index(let index): text += "[\(index)]"
            case .key(let key):
                if Self.isIdentifier(key) {
                    text += "." + key
                } else {
                    text += "['" + key.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "']"
                }
            }
        }
        return text
    }

    private static func isIdentifier(_ key: String) -> Bool {
        // ASCII keys, nearly all of them, without a lookup of Unicode's properties.
        if key.utf8.allSatisfy({ $0 < 0x80 }) {
            let bytes = key.utf8
            guard let first = bytes.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
            return bytes.allSatisfy { $0 == UInt8(ascii: "_") || isLetter($0) || (48...57).contains($0) }
        }
        guard let first = key.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return key.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (65...90).contains(byte) || (97...122).contains(byte)
    }
}

/// What the keywords of a valid schema evaluated, for `unevaluatedProperties` and
/// `unevaluatedItems`.
struct Annotations {
    var properties: Set<String> = []
    /// Items before this index were evaluated.
    var prefix = 0
    /// Items evaluated one by one, by `contains`.
    var indices: Set<Int> = []

    mutating func merge(_ other: Annotations) {
        properties.formUnion(other.properties)
        prefix = max(prefix, other.prefix)
        indices.formUnion(other.indices)
    }

    func evaluated(_ index: Int) -> Bool { index < prefix || indices.contains(index) }
}

/// One evaluation of an instance: the dynamic scope, the depth, and where errors go.
struct Evaluation {
    let registry: SchemaRegistry
    let assertsFormat: Bool
    /// Errors are collected here; without it evaluation stops at the first failure.
    var errors: [SchemaError]?
    /// The most errors collected: a large body that breaks its schema everywhere makes a
    /// bounded report, not one larger than itself.
    var errorLimit = SchemaValidator.errorLimit
    /// Schema nodes evaluated so far, and the most allowed: `oneOf`, `anyOf` and `$ref`s that
    /// nest in them multiply the work per level of the instance, so the budget counts work,
    /// never time. Past it, the value fails (`exhausted`).
    var steps = 0
    var stepLimit = Int.max
    private(set) var exhausted = false

    /// The instance whose size raises the budget, counted only if the first million steps
    /// run out (see `SchemaValidator.stepLimit(for:)`).
    var sizedBy: JSONValue?

    init(registry: SchemaRegistry, assertsFormat: Bool, errors: [SchemaError]?) {
        self.registry = registry
        self.assertsFormat = assertsFormat
        self.errors = errors
        tracksDynamicScope = registry.hasDynamicAnchors
    }
    /// Whether the dynamic scope is kept: only a registry with `$dynamicAnchor`s reads it.
    let tracksDynamicScope: Bool
    /// The resources entered, outermost first, for `$dynamicRef`.
    var dynamicScope: [String] = []
    /// Whether annotations are gathered: only a registry with `unevaluated…` keywords reads
    /// them. Read each time, since a registry that is not frozen may compile such a keyword
    /// in the middle of an evaluation.
    var collects: Bool { registry.needsAnnotations }
    var depth = 0

    static let maximumDepth = 512

    /// Whether `instance` satisfies `node`, adding what it evaluated to `annotations`.
    mutating func evaluate(
        _ node: SchemaNode, _ instance: JSONValue, at path: InstancePath, _ annotations: inout Annotations
    ) -> Bool {
        if let constant = node.constant {
            if !constant { fail(path, node, "", "no value is allowed here") }
            return constant
        }
        guard depth < Self.maximumDepth else {
            fail(path, node, "", "the schema refers to itself more than \(Self.maximumDepth) levels deep")
            return false
        }
        steps += 1
        if steps > stepLimit {
            // Counting the instance costs a pass over it, so it is done only when needed.
            if let instance = sizedBy {
                sizedBy = nil
                stepLimit = SchemaValidator.stepLimit(for: instance)
            }
            guard steps <= stepLimit else {
                exhausted = true
                return false
            }
        }
        depth += 1
        // Entering another resource, by its root or by a reference into it, adds it to the
        // dynamic scope.
        let entered = tracksDynamicScope && dynamicScope.last != node.scope.resource
        if entered { dynamicScope.append(node.scope.resource) }
        defer {
            depth -= 1
            if entered { dynamicScope.removeLast() }
        }
        var valid = true
        var own = Annotations()
        for (name, keyword) in node.keywords {
            if !apply(keyword, name, node, instance, path, &own) {
                valid = false
                if errors == nil { return false }
            }
        }
        if valid, collects { annotations.merge(own) }
        return valid
    }

    /// A subschema evaluated apart: its errors not reported, its annotations its own.
    mutating func quietly(
        _ node: SchemaNode, _ instance: JSONValue, at path: InstancePath, _ annotations: inout Annotations
    ) -> Bool {
        let saved = errors
        errors = nil
        defer { errors = saved }
        return evaluate(node, instance, at: path, &annotations)
    }

    /// The path one step further, written only where errors are kept: a pass that stops at
    /// the first failure allocates none.
    func step(_ path: InstancePath, _ key: String) -> InstancePath {
        errors == nil ? path : path.appending(key)
    }

    func step(_ path: InstancePath, _ index: Int) -> InstancePath {
        errors == nil ? path : path.appending(index)
    }

    mutating func fail(
        _ path: InstancePath, _ node: SchemaNode, _ keyword: String, _ message: String, missing: String? = nil
    ) {
        guard let count = errors?.count, count < errorLimit else { return }
        let schemaPath = keyword.isEmpty ? node.path : node.path + "/" + keyword
        var error = SchemaError(
            instancePath: path.description, schemaPath: schemaPath, message: message,
            keyword: keyword.isEmpty ? "schema" : keyword)
        error.missingMember = missing
        errors?.append(error)
    }

    // MARK: - Keywords

    /// Applies one keyword: the one exhaustive switch, each keyword's own unit behind it, in
    /// `Keywords/` by what it constrains (the value, an array's items, an object's members,
    /// subschemas).
    private mutating func apply(
        _ keyword: SchemaNode.Keyword, _ name: String, _ node: SchemaNode, _ instance: JSONValue,
        _ path: InstancePath, _ annotations: inout Annotations
    ) -> Bool {
        switch keyword {
        case .type(let kinds): applyType(kinds, name, node, instance, path, &annotations)
        case .enumeration(let values): applyEnum(values, name, node, instance, path, &annotations)
        case .constant(let value): applyConst(value, name, node, instance, path, &annotations)
        case .multipleOf(let divisor): applyMultipleOf(divisor, name, node, instance, path, &annotations)
        case .maximum(let bound, let exclusive):
            applyMaximum(bound, exclusive, name, node, instance, path, &annotations)
        case .minimum(let bound, let exclusive):
            applyMinimum(bound, exclusive, name, node, instance, path, &annotations)
        case .maxLength(let limit): applyMaxLength(limit, name, node, instance, path, &annotations)
        case .minLength(let limit): applyMinLength(limit, name, node, instance, path, &annotations)
        case .pattern(let pattern): applyPattern(pattern, name, node, instance, path, &annotations)
        case .format(let format): applyFormat(format, name, node, instance, path, &annotations)
        case .prefixItems(let nodes): applyPrefixItems(nodes, name, node, instance, path, &annotations)
        case .items(let child, let start): applyItems(child, start, name, node, instance, path, &annotations)
        case .contains(let child, let minimum, let maximum):
            applyContains(child, minimum, maximum, name, node, instance, path, &annotations)
        case .maxItems(let limit): applyMaxItems(limit, name, node, instance, path, &annotations)
        case .minItems(let limit): applyMinItems(limit, name, node, instance, path, &annotations)
        case .uniqueItems: applyUniqueItems(name, node, instance, path, &annotations)
        case .maxProperties(let limit): applyMaxProperties(limit, name, node, instance, path, &annotations)
        case .minProperties(let limit): applyMinProperties(limit, name, node, instance, path, &annotations)
        case .required(let names): applyRequired(names, name, node, instance, path, &annotations)
        case .dependentRequired(let dependencies):
            applyDependentRequired(dependencies, name, node, instance, path, &annotations)
        case .properties(let nodes): applyProperties(nodes, name, node, instance, path, &annotations)
        case .patternProperties(let patterns):
            applyPatternProperties(patterns, name, node, instance, path, &annotations)
        case .additionalProperties(let child, let named, let patterns):
            applyAdditionalProperties(child, named, patterns, name, node, instance, path, &annotations)
        case .propertyNames(let child): applyPropertyNames(child, name, node, instance, path, &annotations)
        case .dependentSchemas(let dependencies):
            applyDependentSchemas(dependencies, name, node, instance, path, &annotations)
        case .allOf(let nodes): applyAllOf(nodes, name, node, instance, path, &annotations)
        case .anyOf(let nodes): applyAnyOf(nodes, name, node, instance, path, &annotations)
        case .oneOf(let nodes): applyOneOf(nodes, name, node, instance, path, &annotations)
        case .not(let child): applyNot(child, name, node, instance, path, &annotations)
        case .conditional(let condition, let then, let otherwise):
            applyConditional(condition, then, otherwise, name, node, instance, path, &annotations)
        case .ref(let reference): applyRef(reference, name, node, instance, path, &annotations)
        case .unevaluatedProperties(let child):
            applyUnevaluatedProperties(child, name, node, instance, path, &annotations)
        case .unevaluatedItems(let child): applyUnevaluatedItems(child, name, node, instance, path, &annotations)
        }
    }

    /// The properties no other keyword took, held to `child` (`additionalProperties`,
    /// `unevaluatedProperties`): with `false`, each is unexpected.
    mutating func restOfProperties(
        _ members: [(key: String, value: JSONValue)], _ child: SchemaNode, _ node: SchemaNode, _ name: String,
        _ path: InstancePath, _ annotations: inout Annotations
    ) -> Bool {
        var valid = true
        for (key, value) in members {
            if child.constant == false {
                fail(step(path, key), node, name, "unexpected property")
            } else if member(key, value, meets: child, path, &annotations) {
                continue
            }
            valid = false
            if errors == nil { return false }
        }
        return valid
    }

    /// Whether the member `key`'s `value` meets `child`; one that does counts as evaluated,
    /// for `unevaluatedProperties`.
    mutating func member(
        _ key: String, _ value: JSONValue, meets child: SchemaNode, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        var ignored = Annotations()
        guard evaluate(child, value, at: step(path, key), &ignored) else { return false }
        if collects { annotations.properties.insert(key) }
        return true
    }

    /// A reference's target: resolved once; for a `$dynamicRef` whose static target is a
    /// `$dynamicAnchor`, the outermost resource in the dynamic scope with that anchor.
    mutating func resolve(_ reference: SchemaNode.Reference) -> SchemaNode? {
        if !reference.resolved {
            reference.resolved = true
            reference.target = registry.location(of: reference.uri).flatMap(registry.node(at:))
        }
        guard let target = reference.target, let name = reference.dynamicName else { return reference.target }
        guard registry.resources[target.scope.resource]?.dynamicAnchors.contains(name) == true,
            let dynamic = registry.dynamicTarget(name, in: dynamicScope), let node = registry.node(at: dynamic)
        else { return target }
        return node
    }

    // MARK: - Values

    static func isOfKind(_ value: JSONValue, _ kind: SchemaNode.Kind) -> Bool {
        switch (kind, value) {
        case (.null, .null), (.boolean, .bool), (.object, .object), (.array, .array), (.string, .string): true
        case (.number, .integer), (.number, .number), (.integer, .integer): true
        case (.integer, .number(let double)): double.rounded() == double && double.isFinite
        default: false
        }
    }

    static func isMultiple(_ number: Double, of divisor: Double, _ instance: JSONValue) -> Bool {
        guard divisor > 0 else { return true }
        if case .integer(let int) = instance, divisor.rounded() == divisor, abs(divisor) < 9e18 {
            return int % Int(divisor) == 0
        }
        let quotient = number / divisor
        guard quotient.isFinite else { return false }
        return abs(quotient - quotient.rounded()) <= 1e-9 * max(1, abs(quotient))
    }

    static func format(_ number: Double) -> String { JSONValue.format(number) }

    /// `1 item`, `2 items`, `1 property`, `2 properties`.
    static func count(_ count: Int, _ noun: String) -> String {
        guard count != 1 else { return "1 \(noun)" }
        return noun.hasSuffix("y") ? "\(count) \(noun.dropLast())ies" : "\(count) \(noun)s"
    }

    /// A value in one line of at most 60 characters.
    static func preview(_ value: JSONValue) -> String {
        let text = value.serialized(escapeSlashes: false)
        return text.count > 60 ? String(text.prefix(57)) + "..." : text
    }
}

/// JSON Schema's equality: numbers by value (1 is 1.0), objects whatever their members'
/// order, and nothing else alike (false is not 0).
enum SchemaEquality {
    /// The first item of `items` equal to an earlier one, and that earlier one; nil when every
    /// item is unique. Items are bucketed by a hash that agrees with `equal`, so a large array
    /// costs linear time, not a comparison of every pair.
    static func firstRepeat(in items: [JSONValue]) -> (Int, Int)? {
        var buckets: [Int: [Int]] = [:]
        for (index, item) in items.enumerated() {
            let key = hash(item)
            if let earlier = buckets[key]?.first(where: { equal(items[$0], item) }) { return (earlier, index) }
            buckets[key, default: []].append(index)
        }
        return nil
    }

    /// A hash on which values that `equal` calls equal agree: numbers by their `Double`
    /// value (`1` and `1.0` are one), strings by code points, objects whatever their order.
    static func hash(_ value: JSONValue) -> Int {
        var hasher = Hasher()
        switch value {
        case .null: hasher.combine(0)
        case .bool(let flag): hasher.combine(flag)
        case .integer(let number): hasher.combine(Double(number))
        case .number(let number): hasher.combine(number)
        case .string(let text):
            hasher.combine(1)
            for scalar in text.unicodeScalars { hasher.combine(scalar.value) }
        case .array(let items):
            hasher.combine(2)
            for item in items { hasher.combine(hash(item)) }
        case .object(let members):
            // A sum, which no order of the members changes.
            var sum = 0
            for member in members {
                var pair = Hasher()
                for scalar in member.key.unicodeScalars { pair.combine(scalar.value) }
                pair.combine(hash(member.value))
                sum &+= pair.finalize()
            }
            hasher.combine(3)
            hasher.combine(sum)
        }
        return hasher.finalize()
    }

    static func equal(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            let lookup = SchemaRegistry.lookup(b)
            return a.allSatisfy { member in lookup[member.key].map { equal(member.value, $0) } ?? false }
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.string(let a), .string(let b)):
            // Code points, not Swift's canonical equivalence: "é" and "e\u{301}" differ.
            return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        default:
            return lhs == rhs
        }
    }
}
