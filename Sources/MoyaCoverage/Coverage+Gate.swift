import MoyaJSON

extension Coverage {
    /// A group of the matrix: a service's targets under one path segment.
    public struct Group: Sendable, Hashable, CustomStringConvertible {
        public var service: String
        public var name: String

        /// `petstore /pet`.
        public var description: String { service + " " + name }
    }

    /// Whether the covered share of the matrix is at least `minimum` percent, counted
    /// exactly, not from the rounded percentage.
    public func meets(_ minimum: Double) -> Bool {
        let statuses = total.statuses
        return Double(statuses.covered) * 100 >= minimum * Double(statuses.total)
    }

    /// The one line `--coverage-min` fails with: the percentage, how many more statuses would
    /// reach `minimum`, and the three groups with the most uncovered ones; nil when met.
    public func shortfall(below minimum: Double) -> String? {
        guard !meets(minimum) else { return nil }
        let statuses = total.statuses
        let reach = Int((minimum * Double(statuses.total) / 100).rounded(.up))
        let needed = max(reach - statuses.covered, 1)
        var line =
            "coverage \(JSONValue.format(total.percent))% is below --coverage-min \(JSONValue.format(minimum))%: "
            + "\(needed) more of \(statuses.total) declared \(statuses.total == 1 ? "status" : "statuses") to cover"
        let largest = uncoveredGroups.prefix(3).map { "\($0.group) (\($0.uncovered))" }
        if !largest.isEmpty { line += "; most uncovered: " + largest.joined(separator: ", ") }
        return line
    }

    /// Groups by how many declared statuses they leave uncovered, most first, then in order.
    public var uncoveredGroups: [(group: Group, uncovered: Int)] {
        var order: [Group] = []
        var counts: [Group: Int] = [:]
        for item in items {
            let group = Group(service: item.declared.service, name: item.declared.group)
            if counts[group] == nil { order.append(group) }
            counts[group, default: 0] += item.statusesCovered.count { !$0 }
        }
        return order.enumerated()
            .map { (position: $0.offset, group: $0.element, uncovered: counts[$0.element] ?? 0) }
            .filter { $0.uncovered > 0 }
            .sorted { ($1.uncovered, $0.position) < ($0.uncovered, $1.position) }
            .map { ($0.group, $0.uncovered) }
    }
}

/// `--coverage-min`'s verdict on a run, as a report shows it: JUnit's case for the gate.
public struct CoverageGate: Sendable {
    /// The least percentage that passes.
    public var minimum: Double
    /// The run's figures.
    public var coverage: Coverage

    public init(minimum: Double, coverage: Coverage) {
        self.minimum = minimum
        self.coverage = coverage
    }

    /// The case's name: `coverage >= 80%`.
    public var name: String { "coverage >= \(JSONValue.format(minimum))%" }

    /// Why it failed; nil when it passed.
    public var failure: String? { coverage.shortfall(below: minimum) }
}
