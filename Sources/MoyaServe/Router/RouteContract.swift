import MoyaCore
import MoyaSchema
import MoyaSpec
import Synchronization

/// The schemas `serve` holds one target to: its request bodies to `requestSchema:`, and its
/// answers to the schema each sample must meet. Each validator is compiled on first use and
/// kept; the event loops share them under a lock, since a registry compiles as it goes.
final class RouteContract: Sendable {
    private let target: TargetSpec
    /// Validators by "request", or by "sample:" and the sample's name ("" for the default).
    private let validators = Mutex<[String: SchemaValidator]>([:])

    init(target: TargetSpec) {
        self.target = target
    }

    /// Whether the target has a schema for its request bodies.
    var checksRequests: Bool { target.requestSchema != nil }

    /// Each way a request's JSON body breaks `requestSchema:`; empty without one.
    func requestErrors(_ body: JSONValue) -> [SchemaError] {
        guard let schema = target.requestSchema else { return [] }
        return errors(body, key: "request", schema: schema)
    }

    /// Whether a sample has a schema to meet; without, its body is not even parsed.
    func checksSample(_ name: String?) -> Bool { target.contract(forSample: name) != nil }

    /// Each way a sample's JSON body breaks the schema it must meet; empty without one.
    func sampleErrors(_ body: JSONValue, sample name: String?) -> [SchemaError] {
        guard let schema = target.contract(forSample: name) else { return [] }
        return errors(body, key: "sample:" + (name ?? ""), schema: schema)
    }

    private func errors(_ value: JSONValue, key: String, schema: SchemaSpec) -> [SchemaError] {
        validators.withLock { validators in
            let validator = validators[key] ?? schema.validator()
            validators[key] = validator
            return validator.errors(in: value)
        }
    }
}
