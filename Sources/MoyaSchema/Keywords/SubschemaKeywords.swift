import MoyaJSON
import MoyaRegex

/// The keywords that apply subschemas to the value: allOf, anyOf, oneOf, not, if, $ref, and the unevaluated ones.
///
/// One function per keyword, which `Evaluation.apply` dispatches to.
extension Evaluation {
    /// `allOf`: the value meets every schema.
    mutating func applyAllOf(
        _ nodes: [SchemaNode], _ name: String, _ node: SchemaNode, _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        var valid = true
        for child in nodes where !evaluate(child, instance, at: path, &annotations) {
            valid = false
            if errors == nil { return false }
        }
        return valid
    }

    /// `anyOf`: the value meets at least one schema.
    mutating func applyAnyOf(
        _ nodes: [SchemaNode], _ name: String, _ node: SchemaNode, _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        var matched = false
        for child in nodes where quietly(child, instance, at: path, &annotations) {
            matched = true
            // Every branch that holds adds its annotations; without them, one is enough.
            if !registry.needsAnnotations { break }
        }
        if !matched { fail(path, node, name, "matches none of anyOf's \(nodes.count) schemas") }
        return matched
    }

    /// `oneOf`: the value meets exactly one schema.
    mutating func applyOneOf(
        _ nodes: [SchemaNode], _ name: String, _ node: SchemaNode, _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        var matches = 0
        var kept = Annotations()
        for child in nodes {
            var own = Annotations()
            if quietly(child, instance, at: path, &own) {
                matches += 1
                kept = own
            }
        }
        if matches == 1 {
            annotations.merge(kept)
            return true
        }
        fail(path, node, name, "matches \(matches) of oneOf's \(nodes.count) schemas; expected exactly one")
        return false
    }

    /// `not`: the value does not meet the schema.
    mutating func applyNot(
        _ child: SchemaNode, _ name: String, _ node: SchemaNode, _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        var ignored = Annotations()
        guard quietly(child, instance, at: path, &ignored) else { return true }
        fail(path, node, name, "matches the schema in not")
        return false
    }

    /// `if`, `then` and `else`.
    mutating func applyConditional(
        _ condition: SchemaNode, _ then: SchemaNode?, _ otherwise: SchemaNode?, _ name: String, _ node: SchemaNode,
        _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        var own = Annotations()
        if quietly(condition, instance, at: path, &own) {
            annotations.merge(own)
            guard let then else { return true }
            return evaluate(then, instance, at: path, &annotations)
        }
        guard let otherwise else { return true }
        return evaluate(otherwise, instance, at: path, &annotations)
    }

    /// `$ref` and `$dynamicRef`: the value meets the schema referred to.
    mutating func applyRef(
        _ reference: SchemaNode.Reference, _ name: String, _ node: SchemaNode, _ instance: JSONValue,
        _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard let target = resolve(reference) else {
            fail(path, node, name, "cannot resolve \(reference.uri)")
            return false
        }
        return evaluate(target, instance, at: path, &annotations)
    }

    /// `unevaluatedProperties`: the members no other keyword evaluated.
    mutating func applyUnevaluatedProperties(
        _ child: SchemaNode, _ name: String, _ node: SchemaNode, _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard case .object(let members) = instance else { return true }
        let rest = members.filter { !annotations.properties.contains($0.key) }
        return restOfProperties(rest, child, node, name, path, &annotations)
    }

    /// `unevaluatedItems`: the items no other keyword evaluated.
    mutating func applyUnevaluatedItems(
        _ child: SchemaNode, _ name: String, _ node: SchemaNode, _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard case .array(let items) = instance else { return true }
        var valid = true
        for index in items.indices where !annotations.evaluated(index) {
            var ignored = Annotations()
            if !evaluate(child, items[index], at: step(path, index), &ignored) {
                valid = false
                if errors == nil { return false }
            }
        }
        if valid { annotations.prefix = items.count }
        return valid
    }
}
