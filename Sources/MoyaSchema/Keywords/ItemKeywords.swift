import MoyaJSON
import MoyaRegex

/// The keywords of an array's items.
///
/// One function per keyword, which `Evaluation.apply` dispatches to.
extension Evaluation {
    /// `prefixItems` (an array `items` before 2020-12): each leading item meets its own schema.
    mutating func applyPrefixItems(
        _ nodes: [SchemaNode], _ name: String, _ node: SchemaNode, _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard case .array(let items) = instance else { return true }
        var valid = true
        for (index, item) in items.prefix(nodes.count).enumerated() {
            var ignored = Annotations()
            if !evaluate(nodes[index], item, at: step(path, index), &ignored) {
                valid = false
                if errors == nil { return false }
            }
        }
        if valid { annotations.prefix = max(annotations.prefix, min(items.count, nodes.count)) }
        return valid
    }

    /// `items` (and `additionalItems`): every item from `start` on meets the schema.
    mutating func applyItems(
        _ child: SchemaNode, _ start: Int, _ name: String, _ node: SchemaNode, _ instance: JSONValue,
        _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard case .array(let items) = instance else { return true }
        var valid = true
        for index in items.indices where index >= start {
            var ignored = Annotations()
            if !evaluate(child, items[index], at: step(path, index), &ignored) {
                valid = false
                if errors == nil { return false }
            }
        }
        if valid { annotations.prefix = max(annotations.prefix, items.count) }
        return valid
    }

    /// `contains`, with `minContains` and `maxContains`: how many items meet the schema.
    mutating func applyContains(
        _ child: SchemaNode, _ minimum: Int, _ maximum: Int?, _ name: String, _ node: SchemaNode, _ instance: JSONValue,
        _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard case .array(let items) = instance else { return true }
        var matched: [Int] = []
        for (index, item) in items.enumerated() {
            var ignored = Annotations()
            if quietly(child, item, at: step(path, index), &ignored) { matched.append(index) }
        }
        if matched.count >= minimum, maximum.map({ matched.count <= $0 }) ?? true {
            if collects { annotations.indices.formUnion(matched) }
            return true
        }
        let wanted = maximum.map { minimum == 0 ? "at most \($0)" : "\(minimum) to \($0)" } ?? "at least \(minimum)"
        fail(path, node, name, "expected \(wanted) items to match contains, got \(matched.count)")
        return false
    }

    /// `maxItems`.
    mutating func applyMaxItems(
        _ limit: Int, _ name: String, _ node: SchemaNode, _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard case .array(let items) = instance, items.count > limit else { return true }
        fail(path, node, name, "expected at most \(Self.count(limit, "item")), got \(items.count)")
        return false
    }

    /// `minItems`.
    mutating func applyMinItems(
        _ limit: Int, _ name: String, _ node: SchemaNode, _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard case .array(let items) = instance, items.count < limit else { return true }
        fail(path, node, name, "expected at least \(Self.count(limit, "item")), got \(items.count)")
        return false
    }

    /// `uniqueItems`: no two items are equal, as JSON Schema compares them.
    mutating func applyUniqueItems(
        _ name: String, _ node: SchemaNode, _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard case .array(let items) = instance,
            let (first, second) = SchemaEquality.firstRepeat(in: items)
        else { return true }
        fail(path, node, name, "expected unique items, got \(Self.preview(items[first])) at \(first) and \(second)")
        return false
    }
}
