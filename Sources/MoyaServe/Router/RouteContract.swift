import MoyaCore
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

    /// Whether a sample has a schema to meet; without, its body is not even parsed.
    func checksSample(_ name: String?) -> Bool { target.contract(forSample: name) != nil }

    /// Each way a sample's JSON body breaks the schema it must meet; empty without one.
    func sampleErrors(_ body: JSONValue, sample name: String?) -> [SchemaError] {
        target.contract(forSample: name)?.compiled.errors(in: body) ?? []
    }
}
