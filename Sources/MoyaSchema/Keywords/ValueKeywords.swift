import MoyaJSON
import MoyaRegex

/// The keywords of any value: type, enum, const, numbers' bounds, strings' length, pattern and format.
///
/// One function per keyword, which `Evaluation.apply` dispatches to.
extension Evaluation {
    /// `type`: the value is of one of the kinds (`nullable` lets null through too).
    mutating func applyType(
        _ kinds: [SchemaNode.Kind], _ name: String, _ node: SchemaNode, _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        if kinds.contains(where: { Self.isOfKind(instance, $0) }) || (node.nullable && instance == .null) {
            return true
        }
        fail(
            path, node, name,
            "expected \(kinds.map(\.rawValue).joined(separator: " or ")), got \(instance.typeName)")
        return false
    }

    /// `enum`: the value equals one of the values.
    mutating func applyEnum(
        _ values: [JSONValue], _ name: String, _ node: SchemaNode, _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        if values.contains(where: { SchemaEquality.equal($0, instance) }) { return true }
        fail(path, node, name, "expected one of \(Self.preview(.array(values))), got \(Self.preview(instance))")
        return false
    }

    /// `const`: the value equals the one value.
    mutating func applyConst(
        _ value: JSONValue, _ name: String, _ node: SchemaNode, _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        if SchemaEquality.equal(value, instance) { return true }
        fail(path, node, name, "expected \(Self.preview(value)), got \(Self.preview(instance))")
        return false
    }

    /// `multipleOf`: a number is a whole multiple of the divisor.
    mutating func applyMultipleOf(
        _ divisor: Double, _ name: String, _ node: SchemaNode, _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard let number = SchemaNode.number(instance) else { return true }
        if Self.isMultiple(number, of: divisor, instance) { return true }
        fail(path, node, name, "expected a multiple of \(Self.format(divisor)), got \(Self.preview(instance))")
        return false
    }

    /// `maximum` and `exclusiveMaximum`: a number is at most (or below) the bound.
    mutating func applyMaximum(
        _ bound: Double, _ exclusive: Bool, _ name: String, _ node: SchemaNode, _ instance: JSONValue,
        _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard let number = SchemaNode.number(instance) else { return true }
        if exclusive ? number < bound : number <= bound { return true }
        fail(
            path, node, name,
            "expected \(exclusive ? "<" : "<=") \(Self.format(bound)), got \(Self.preview(instance))")
        return false
    }

    /// `minimum` and `exclusiveMinimum`: a number is at least (or above) the bound.
    mutating func applyMinimum(
        _ bound: Double, _ exclusive: Bool, _ name: String, _ node: SchemaNode, _ instance: JSONValue,
        _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard let number = SchemaNode.number(instance) else { return true }
        if exclusive ? number > bound : number >= bound { return true }
        fail(
            path, node, name,
            "expected \(exclusive ? ">" : ">=") \(Self.format(bound)), got \(Self.preview(instance))")
        return false
    }

    /// `maxLength`: a string has at most so many characters (Unicode scalars).
    mutating func applyMaxLength(
        _ limit: Int, _ name: String, _ node: SchemaNode, _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard case .string(let text) = instance else { return true }
        let length = text.unicodeScalars.count
        if length <= limit { return true }
        fail(path, node, name, "expected at most \(Self.count(limit, "character")), got \(length)")
        return false
    }

    /// `minLength`: a string has at least so many characters (Unicode scalars).
    mutating func applyMinLength(
        _ limit: Int, _ name: String, _ node: SchemaNode, _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard case .string(let text) = instance else { return true }
        let length = text.unicodeScalars.count
        if length >= limit { return true }
        fail(path, node, name, "expected at least \(Self.count(limit, "character")), got \(length)")
        return false
    }

    /// `pattern`: a string matches the regular expression somewhere, within its step budget.
    mutating func applyPattern(
        _ pattern: SchemaNode.Pattern, _ name: String, _ node: SchemaNode, _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard case .string(let text) = instance else { return true }
        let matched: Bool
        do throws(RegularExpression.BudgetExceeded) {
            matched = try pattern.matches(text)
        } catch {
            fail(path, node, name, "\(error)")
            return false
        }
        if matched { return true }
        var why = ""
        if case .failure(let problem) = pattern.regex { why = " (the pattern cannot be compiled: \(problem))" }
        fail(path, node, name, "expected to match /\(pattern.source)/\(why), got \(Self.preview(instance))")
        return false
    }

    /// `format`: asserted only where the dialect or the spec asks for it.
    mutating func applyFormat(
        _ format: String, _ name: String, _ node: SchemaNode, _ instance: JSONValue, _ path: InstancePath,
        _ annotations: inout Annotations
    ) -> Bool {
        guard assertsFormat, !Formats.holds(format, instance) else { return true }
        // "an email", "an ipv4", "a uuid" (a "you" sound), "a date-time".
        let article = format.first.map { "aeio".contains($0) } == true ? "an" : "a"
        fail(path, node, name, "expected \(article) \(format), got \(Self.preview(instance))")
        return false
    }
}
