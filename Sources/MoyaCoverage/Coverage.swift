import MoyaJSON
import MoyaSpec

/// How much of its services a run exercised (docs/coverage.md): for each target, whether it
/// was called, which of its declared responses came back, which params were sent, and which
/// enum values and request body branches; per service and in total. The one percentage is
/// the covered share of the operation × status matrix: covered statuses of all declared.
public struct Coverage: Sendable {
    /// A covered share.
    public struct Count: Sendable, Hashable {
        public var covered: Int
        public var total: Int

        /// `covered` of `total` as a percentage, rounded to two places; 100 for nothing.
        public var percent: Double {
            guard total > 0 else { return 100 }
            return Double((covered * 10_000 + total / 2) / total) / 100
        }

        static func + (lhs: Self, rhs: Self) -> Self {
            Count(covered: lhs.covered + rhs.covered, total: lhs.total + rhs.total)
        }

        static let zero = Count(covered: 0, total: 0)
    }

    /// One target's row.
    public struct Item: Sendable {
        /// What the target declares.
        public var declared: DeclaredTarget
        /// How many exchanges it had.
        public var calls: Int
        /// How many times each status came back.
        public var seen: [Int: Int]
        /// Which of `declared.statuses` a status came back under (`ResponseKey.match`).
        public var statusesCovered: [Bool]
        /// Statuses that came back under no declared response, in order: gaps in the
        /// description, not in the run.
        public var undeclared: [Int]
        /// Which of `declared.params` were sent.
        public var paramsCovered: [Bool]
        /// Which of `declared.enumValues` were sent.
        public var enumValuesCovered: [Bool]
        /// Which of `declared.bodyBranches` a sent body met.
        public var bodyBranchesCovered: [Bool]

        public var statuses: Count { Count(covered: statusesCovered.count { $0 }, total: statusesCovered.count) }
        public var params: Count { Count(covered: paramsCovered.count { $0 }, total: paramsCovered.count) }
        public var enumValues: Count {
            Count(covered: enumValuesCovered.count { $0 }, total: enumValuesCovered.count)
        }
        public var bodyBranches: Count {
            Count(covered: bodyBranchesCovered.count { $0 }, total: bodyBranchesCovered.count)
        }
    }

    /// A service's share of the figures.
    public struct Totals: Sendable {
        public var targets = Count.zero
        public var statuses = Count.zero
        public var params = Count.zero
        public var enumValues = Count.zero
        public var bodyBranches = Count.zero
        /// The covered share of the operation × status matrix.
        public var percent: Double { statuses.percent }

        mutating func add(_ item: Item) {
            targets = targets + Count(covered: item.calls > 0 ? 1 : 0, total: 1)
            statuses = statuses + item.statuses
            params = params + item.params
            enumValues = enumValues + item.enumValues
            bodyBranches = bodyBranches + item.bodyBranches
        }
    }

    /// Every target's row, in the services' declared order.
    public var items: [Item]
    /// Requests no target answered (`serve` only).
    public var unmatched: Int

    init(declared: [DeclaredTarget], tallies: [String: CoverageRecorder.Tally], unmatched: Int) {
        items = declared.map { target in
            let tally = tallies[target.qualifiedName] ?? CoverageRecorder.Tally()
            var covered = Set<String>()
            var undeclared: [Int] = []
            for status in tally.statuses.keys.sorted() {
                if let key = ResponseKey.match(status, in: target.statuses) {
                    covered.insert(key)
                } else {
                    undeclared.append(status)
                }
            }
            return Item(
                declared: target, calls: tally.calls, seen: tally.statuses,
                statusesCovered: target.statuses.map(covered.contains), undeclared: undeclared,
                paramsCovered: target.params.map(tally.params.contains),
                enumValuesCovered: target.enumValues.indices.map(tally.enumValues.contains),
                bodyBranchesCovered: target.bodyBranches.indices.map(tally.bodyBranches.contains))
        }
        self.unmatched = unmatched
    }

    /// The figures of every service together.
    public var total: Totals {
        var totals = Totals()
        for item in items { totals.add(item) }
        return totals
    }

    /// Each service's figures, in order.
    public var services: [(name: String, totals: Totals)] {
        var order: [String] = []
        var totals: [String: Totals] = [:]
        for item in items {
            if totals[item.declared.service] == nil { order.append(item.declared.service) }
            totals[item.declared.service, default: Totals()].add(item)
        }
        return order.map { ($0, totals[$0] ?? Totals()) }
    }
}
