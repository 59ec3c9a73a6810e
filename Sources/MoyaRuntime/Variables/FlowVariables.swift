import MoyaHTTP
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The variables of one flow run: its `vars`, the command line's, and what steps captured, with
/// a mark on each that is secret.
public struct FlowVariables: Sendable {
    /// The values by name.
    public private(set) var values: [String: JSONValue] = [:]
    /// The names whose values are secrets.
    public private(set) var secretNames: Set<String> = []
    /// The text of every secret value used, for redaction: captured secrets and environment
    /// values that passed through a template.
    public private(set) var secrets = SecretSet.none

    /// The values of `${NAME}`s bound after compiling (`ServiceSpec.boundVariables`).
    public let boundVariables: [String: String]

    /// Creates an empty set of variables, over the service's `boundVariables`.
    public init(boundVariables: [String: String] = [:]) {
        self.boundVariables = boundVariables
    }

    /// Sets a variable; a secret's text is remembered for redaction.
    public mutating func set(_ name: String, to value: JSONValue, secret: Bool = false) {
        values[name] = value
        if secret {
            secretNames.insert(name)
            Self.collectText(of: value, into: &secrets)
        } else {
            secretNames.remove(name)
        }
    }

    /// Removes a variable, as an `each` step does with `item` when it is done.
    public mutating func remove(_ name: String) {
        values[name] = nil
        secretNames.remove(name)
    }

    /// The value a reference reaches, or nil when the variable is unset or the path is not in it.
    public func lookup(_ reference: VariableTemplate.Reference) -> JSONValue? {
        let value: JSONValue
        switch reference.name {
        case "$uuid": value = .string(UUID().uuidString.lowercased())
        case "$now": value = .string(Date().ISO8601Format())
        case "$timestamp": value = .integer(Int(Date().timeIntervalSince1970))
        default:
            guard let found = values[reference.name] else { return nil }
            value = found
        }
        return value.value(atPath: reference.path)
    }

    /// A template's value: a lone reference keeps its JSON type, anything else is text.
    /// `isSecret` says whether a secret went into it.
    public func render(_ template: VariableTemplate) throws(FlowError) -> (value: JSONValue, isSecret: Bool) {
        if let whole = template.wholeReference {
            return (try value(of: whole), secretNames.contains(whole.name))
        }
        var text = ""
        var isSecret = false
        for segment in template.segments {
            switch segment {
            case .literal(let literal): text += literal
            case .reference(let reference):
                text += try value(of: reference).text
                isSecret = isSecret || secretNames.contains(reference.name)
            case .environment(let name, let value):
                text += boundVariables[name] ?? value
                isSecret = true
            }
        }
        return (.string(text), isSecret)
    }

    /// A flow value with every template rendered.
    public func render(_ value: FlowValue) throws(FlowError) -> (value: JSONValue, isSecret: Bool) {
        switch value {
        case .value(let json):
            return (json, false)
        case .template(let template):
            return try render(template)
        case .array(let items):
            var values: [JSONValue] = []
            var isSecret = false
            for item in items {
                let rendered = try render(item)
                values.append(rendered.value)
                isSecret = isSecret || rendered.isSecret
            }
            return (.array(values), isSecret)
        case .object(let members):
            var values: [(key: String, value: JSONValue)] = []
            var isSecret = false
            for member in members {
                let rendered = try render(member.value)
                values.append((member.key, rendered.value))
                isSecret = isSecret || rendered.isSecret
            }
            return (.object(values), isSecret)
        }
    }

    private func value(of reference: VariableTemplate.Reference) throws(FlowError) -> JSONValue {
        guard let value = lookup(reference) else {
            if values[reference.name] == nil {
                throw FlowError("variable '\(reference.name)' is not set")
            }
            throw FlowError("variable '\(reference.name)' has no '\(reference.path.joined(separator: "."))'")
        }
        return value
    }

    /// Whether a `skip:` condition holds.
    public func holds(_ condition: FlowCondition) -> Bool {
        switch condition {
        case .truthy(let operand):
            switch value(of: operand) {
            case .bool(true), .string("true"): return true
            default: return false
            }
        case .exists(let reference):
            return lookup(reference) != nil
        case .equal(let left, let right, let negated):
            return Self.sameValue(value(of: left), value(of: right)) != negated
        case .not(let inner):
            return !holds(inner)
        case .and(let left, let right):
            return holds(left) && holds(right)
        case .or(let left, let right):
            return holds(left) || holds(right)
        }
    }

    private func value(of operand: FlowCondition.Operand) -> JSONValue? {
        switch operand {
        case .reference(let reference): lookup(reference)
        case .literal(let literal): literal
        }
    }

    /// Equal JSON values, or equal text when the types differ: `{count} == 3` holds whether the
    /// count was captured as a number or as text.
    private static func sameValue(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
        guard let left, let right else { return left == nil && right == nil }
        return left == right || left.text == right.text
    }

    /// A predicate with the variables in its expected values filled in: a value that is one
    /// reference keeps the variable's type.
    public func substituting(_ predicate: MoyaSpec.Predicate) throws(FlowError) -> MoyaSpec.Predicate {
        switch predicate {
        case .equals(let value): return .equals(try substituting(value))
        case .contains(let value): return .contains(try substituting(value))
        case .oneOf(let values):
            var substituted: [JSONValue] = []
            for value in values { substituted.append(try substituting(value)) }
            return .oneOf(substituted)
        case .not(let inner): return .not(try substituting(inner))
        case .all(let predicates):
            var substituted: [MoyaSpec.Predicate] = []
            for inner in predicates { substituted.append(try substituting(inner)) }
            return .all(substituted)
        case .exists, .type, .matches, .compare, .count, .statusClass: return predicate
        }
    }

    private func substituting(_ value: JSONValue) throws(FlowError) -> JSONValue {
        switch value {
        case .string(let text):
            guard VariableTemplate.hasReference(text) else { return value }
            return try render(VariableTemplate(text)).value
        case .array(let items):
            var substituted: [JSONValue] = []
            for item in items { substituted.append(try substituting(item)) }
            return .array(substituted)
        case .object(let members):
            var substituted: [(key: String, value: JSONValue)] = []
            for member in members { substituted.append((member.key, try substituting(member.value))) }
            return .object(substituted)
        default:
            return value
        }
    }

    /// The texts a param receives for a value: one per element of an array.
    public static func texts(of value: JSONValue) -> [String] {
        if case .array(let items) = value { return items.map(\.text) }
        return [value.text]
    }

    private static func collectText(of value: JSONValue, into secrets: inout SecretSet) {
        switch value {
        case .array(let items): items.forEach { collectText(of: $0, into: &secrets) }
        case .object(let members): members.forEach { collectText(of: $0.value, into: &secrets) }
        case .null: break
        default: secrets.add([value.text])
        }
    }
}
