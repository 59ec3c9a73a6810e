import MoyaJSON
import MoyaRegex

/// The keywords of an object's members.
///
/// One function per keyword, which `Evaluation.apply` dispatches to.
extension Evaluation {
    /// `maxProperties`.
    mutating func applyMaxProperties(
        _ limit: Int, _ name: String, _ node: SchemaNode, _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard case .object(let members) = instance, members.count > limit else { return true }
        fail(path, node, name, "expected at most \(Self.count(limit, "property")), got \(members.count)")
        return false
    }

    /// `minProperties`.
    mutating func applyMinProperties(
        _ limit: Int, _ name: String, _ node: SchemaNode, _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard case .object(let members) = instance, members.count < limit else { return true }
        fail(path, node, name, "expected at least \(Self.count(limit, "property")), got \(members.count)")
        return false
    }

    /// `required`: each named member is present.
    mutating func applyRequired(
        _ names: [String], _ name: String, _ node: SchemaNode, _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard case .object(let members) = instance else { return true }
        var valid = true
        for required in names where !members.contains(where: { $0.key == required }) {
            fail(path, node, name, "missing required property '\(required)'", missing: required)
            valid = false
            if errors == nil { return false }
        }
        return valid
    }

    /// `dependentRequired` (`dependencies` with names before 2019-09).
    mutating func applyDependentRequired(
        _ dependencies: [(String, [String])], _ name: String, _ node: SchemaNode, _ instance: JSONValue,
        _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard case .object(let members) = instance else { return true }
        var valid = true
        for (key, names) in dependencies where members.contains(where: { $0.key == key }) {
            for required in names where !members.contains(where: { $0.key == required }) {
                fail(path, node, name, "missing property '\(required)', which '\(key)' requires")
                valid = false
                if errors == nil { return false }
            }
        }
        return valid
    }

    /// `properties`: each named member meets its schema.
    mutating func applyProperties(
        _ nodes: [String: SchemaNode], _ name: String, _ node: SchemaNode, _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard case .object(let members) = instance else { return true }
        var valid = true
        for (key, value) in members {
            guard let child = nodes[key] else { continue }
            if !member(key, value, meets: child, path, &annotations) {
                valid = false
                if errors == nil { return false }
            }
        }
        return valid
    }

    /// `patternProperties`: each member whose name matches a pattern meets its schema.
    mutating func applyPatternProperties(
        _ patterns: [(SchemaNode.Pattern, SchemaNode)], _ name: String, _ node: SchemaNode, _ instance: JSONValue,
        _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard case .object(let members) = instance else { return true }
        var valid = true
        for (key, value) in members {
            for (pattern, child) in patterns {
                let matched: Bool
                do throws(RegularExpression.BudgetExceeded) {
                    matched = try pattern.matches(key)
                } catch {
                    fail(step(path, key), node, name, "\(error) (the name)")
                    valid = false
                    if errors == nil { return false }
                    continue
                }
                guard matched else { continue }
                if !member(key, value, meets: child, path, &annotations) {
                    valid = false
                    if errors == nil { return false }
                }
            }
        }
        return valid
    }

    /// `additionalProperties`: the members neither `properties` names nor a pattern matches.
    mutating func applyAdditionalProperties(
        _ child: SchemaNode, _ named: Set<String>, _ patterns: [SchemaNode.Pattern], _ name: String, _ node: SchemaNode,
        _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard case .object(let members) = instance else { return true }
        // A name whose pattern ran out of steps was reported by patternProperties.
        let rest = members.filter { key, _ in
            !named.contains(key) && !patterns.contains(where: { (try? $0.matches(key)) != false })
        }
        return restOfProperties(rest, child, node, name, path, &annotations)
    }

    /// `propertyNames`: each member's name, as a string, meets the schema.
    mutating func applyPropertyNames(
        _ child: SchemaNode, _ name: String, _ node: SchemaNode, _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard case .object(let members) = instance else { return true }
        for (key, _) in members {
            var ignored = Annotations()
            if !quietly(child, .string(key), at: path, &ignored) {
                fail(path, node, name, "the property name '\(key)' does not match propertyNames")
                return false
            }
        }
        return true
    }

    /// `dependentSchemas` (`dependencies` with schemas before 2019-09).
    mutating func applyDependentSchemas(
        _ dependencies: [(String, SchemaNode)], _ name: String, _ node: SchemaNode, _ instance: JSONValue,
        _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard case .object(let members) = instance else { return true }
        var valid = true
        for (key, child) in dependencies where members.contains(where: { $0.key == key }) {
            if !evaluate(child, instance, at: path, &annotations) {
                valid = false
                if errors == nil { return false }
            }
        }
        return valid
    }
}
