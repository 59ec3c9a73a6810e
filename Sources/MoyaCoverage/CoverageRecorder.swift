import MoyaJSON
import MoyaSpec
import Synchronization

/// What a run exercised of its services, tallied as each exchange ends: every check, flow
/// step and login of a `check` or `run` through the client, or every request `serve` answers.
/// Only counts are kept, never a value, so its size is the services', however long it runs.
/// `Sendable`: any number of tasks record at once.
public final class CoverageRecorder: Sendable {
    /// One target's tally.
    struct Tally {
        var calls = 0
        var statuses: [Int: Int] = [:]
        var params: Set<String> = []
        var enumValues: Set<Int> = []
        var bodyBranches: Set<Int> = []
    }

    private struct State {
        var declared: [DeclaredTarget] = []
        var index: [String: Int] = [:]
        var tallies: [String: Tally] = [:]
        var unmatched = 0
    }

    private let state = Mutex(State())

    /// A recorder counting against every target of `services`.
    public init(services: [ServiceSpec]) {
        declare(services)
    }

    /// Counts against `services` from now on, as `serve --watch` reloads them; what was
    /// tallied stays, by each target's name.
    public func declare(_ services: [ServiceSpec]) {
        let declared = services.flatMap { service in service.targets.map { DeclaredTarget($0, of: service) } }
        var index: [String: Int] = [:]
        for (position, target) in declared.enumerated() { index[target.qualifiedName] = position }
        state.withLock { state in
            state.declared = declared
            state.index = index
        }
    }

    /// Tallies one exchange of `target` of `service`: the status that came back (nil when
    /// none did), the params sent with their values, and the body, read only when the
    /// target's figures need it (`body` is called at most once, outside the lock).
    public func record(
        service: String, target: String, status: Int?, params: [String: ParamValue],
        body: () -> JSONValue?
    ) {
        let name = service + "." + target
        guard let declared = state.withLock({ state in state.index[name].map { state.declared[$0] } }) else { return }
        var tally = Tally(calls: 1)
        if let status { tally.statuses[status] = 1 }
        tally.params = Set(params.keys.filter(declared.params.contains))
        let sent = params.mapValues(\.jsonValue)
        let read = declared.readsBody ? body() : nil
        for (name, cases) in declared.paramCases {
            guard let given = sent[name] else { continue }
            let each: [JSONValue] = if case .array(let items) = given { items } else { [given] }
            for item in each {
                for position in cases[item.text] ?? [] { tally.enumValues.insert(position) }
            }
        }
        if let read {
            for (position, value) in declared.enumValues.enumerated() where value.place != "param" {
                if read[value.name] == value.shown { tally.enumValues.insert(position) }
            }
        }
        if let read {
            for (position, branch) in declared.bodyBranches.enumerated() where branch.schema.errors(in: read).isEmpty {
                tally.bodyBranches.insert(position)
            }
        }
        state.withLock { state in
            state.tallies[name, default: Tally()].merge(tally)
        }
    }

    /// Counts a request no target answered (`serve`'s 404s and 405s).
    public func recordUnmatched() {
        state.withLock { $0.unmatched += 1 }
    }

    /// The figures so far.
    public var coverage: Coverage {
        let (declared, tallies, unmatched) = state.withLock { ($0.declared, $0.tallies, $0.unmatched) }
        return Coverage(declared: declared, tallies: tallies, unmatched: unmatched)
    }
}

extension CoverageRecorder.Tally {
    mutating func merge(_ other: Self) {
        calls += other.calls
        statuses.merge(other.statuses, uniquingKeysWith: +)
        params.formUnion(other.params)
        enumValues.formUnion(other.enumValues)
        bodyBranches.formUnion(other.bodyBranches)
    }
}
