import MoyaCore
import MoyaSchema
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The schemas `serve` holds one target to: its request bodies to `requestSchema:`, and its
/// answers to the schema each sample must meet. Each schema is compiled when the route is
/// made, not on an event loop, and kept by its `SchemaSpec`; the event loops share it and
/// validate with no lock held (a lock guards only fetching the compiled schema).
final class RouteContract: Sendable {
    private let target: TargetSpec

    init(target: TargetSpec) {
        self.target = target
        for schema in [target.requestSchema, target.schema].compactMap(\.self) + target.sampleSchemas.values {
            _ = schema.compiled
        }
    }

    /// Whether the target has a schema for its request bodies.
    var checksRequests: Bool { target.requestSchema != nil }

    /// Each way a request's JSON body breaks `requestSchema:`, its formats (`date`, `email`,
    /// `uuid`, …) asserted as a param's rules assert them; empty without one.
    func requestErrors(_ body: JSONValue) -> [SchemaError] {
        target.requestSchema?.compiled.errors(in: body, assertingFormat: true) ?? []
    }

    /// Each way a form body breaks `requestSchema:`, read as the object it stands for. A form
    /// carries only text, so each field is read as the schema has it: as text, else as the
    /// scalar its text spells (`7`, `false`), else as an array of either (a field sent once
    /// where the schema wants a list). A field sent more than once is an array.
    func requestErrors(form pairs: [(key: String, value: String)]) -> [SchemaError] {
        guard let schema = target.requestSchema?.compiled else { return [] }
        var fields: [(key: String, texts: [String])] = []
        for pair in pairs {
            if let index = fields.firstIndex(where: { $0.key == pair.key }) {
                fields[index].texts.append(pair.value)
            } else {
                fields.append((pair.key, [pair.value]))
            }
        }
        let readings = fields.map { field in Self.readings(of: field.texts) }
        var chosen = Array(repeating: 0, count: fields.count)
        func object() -> JSONValue {
            .object(fields.indices.map { (fields[$0].key, readings[$0][chosen[$0]]) })
        }
        var errors = schema.errors(in: object(), assertingFormat: true)
        // Each round moves every field whose reading has the wrong type to its next reading:
        // at most as many rounds as a field has readings.
        for _ in 1..<4 {
            var moved = false
            for index in fields.indices where chosen[index] + 1 < readings[index].count {
                let path = SchemaError.path(ofMember: fields[index].key)
                if errors.contains(where: { $0.keyword == "type" && $0.isInside(path) }) {
                    chosen[index] += 1
                    moved = true
                }
            }
            guard moved else { break }
            errors = schema.errors(in: object(), assertingFormat: true)
        }
        return errors
    }

    /// What a form field's texts can stand for, text first.
    private static func readings(of texts: [String]) -> [JSONValue] {
        let strings = texts.map(JSONValue.string)
        let scalars = texts.map { text -> JSONValue in
            switch try? JSONValue(parsing: Data(text.utf8)) {
            case .bool(let bool)?: .bool(bool)
            case .integer(let int)?: .integer(int)
            case .number(let number)?: .number(number)
            default: .string(text)
            }
        }
        let hasScalars = scalars != strings
        if texts.count > 1 { return hasScalars ? [.array(strings), .array(scalars)] : [.array(strings)] }
        return hasScalars ? [strings[0], scalars[0], .array(strings), .array(scalars)] : [strings[0], .array(strings)]
    }

    /// Whether a sample has a schema to meet; without, its body is not even parsed.
    func checksSample(_ name: String?) -> Bool { target.contract(forSample: name) != nil }

    /// Each way a sample's JSON body breaks the schema it must meet; empty without one.
    func sampleErrors(_ body: JSONValue, sample name: String?) -> [SchemaError] {
        target.contract(forSample: name)?.compiled.errors(in: body) ?? []
    }
}
