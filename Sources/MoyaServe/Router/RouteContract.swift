import MoyaHTTP
import MoyaSchema
import MoyaSpec

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

    /// Each way a body of text (a form, XML) breaks `requestSchema:`, read as the schema has
    /// it (`LooseBody`); empty without one.
    func requestErrors(_ body: LooseBody) -> [SchemaError] {
        guard let schema = target.requestSchema?.compiled else { return [] }
        var body = body
        var errors = schema.errors(in: body.value(), assertingFormat: true)
        // Each round moves every value read with the wrong type to its next reading, and puts
        // an empty list where a required member is missing (taking it out again where the
        // member is no list): a bounded number of rounds, as a value has at most `readings`.
        for _ in 0...LooseBody.readings {
            let wrong = Set(errors.lazy.filter { $0.keyword == "type" }.map(\.instancePath))
            let missing = errors.compactMap { error in error.missingMember.map { (error.instancePath, $0) } }
            let advanced = body.advance(where: wrong)
            let takenOut = body.takeOutEmptyLists(where: wrong)
            guard body.addEmptyLists(for: missing) || advanced || takenOut else { break }
            errors = schema.errors(in: body.value(), assertingFormat: true)
        }
        return errors
    }

    /// Whether a sample has a schema to meet; without, its body is not even parsed.
    func checksSample(_ name: String?) -> Bool { target.contract(forSample: name) != nil }

    /// Each way a sample's JSON body breaks the schema it must meet; empty without one.
    func sampleErrors(_ body: JSONValue, sample name: String?) -> [SchemaError] {
        target.contract(forSample: name)?.compiled.errors(in: body) ?? []
    }
}
