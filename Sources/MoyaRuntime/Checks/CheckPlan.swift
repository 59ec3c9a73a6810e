import MoyaSpec
import MoyaYAML

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which checks a run has, in spec order, after the name patterns (`--only`) and the shard.
public enum CheckPlan {
    /// Patterns that select nothing.
    public struct UnmatchedPatterns: Error, Sendable, CustomStringConvertible {
        /// The patterns, as given.
        public var patterns: [String]

        public init(patterns: [String]) {
            self.patterns = patterns
        }

        public var description: String {
            let names = patterns.map { "'\(TerminalText.escapingControls($0))'" }.joined(separator: ", ")
            return "--only \(names) \(patterns.count == 1 ? "matches" : "match") no target or flow; see moya-cli list"
        }
    }

    /// The plan: every check of every target and every flow whose `SERVICE.NAME` a
    /// shell-style pattern selects (all, without patterns), in the shard. A pattern that
    /// selects nothing throws, since a mistyped one would otherwise pass by running nothing.
    /// `liveRefusal` says why a check is not sent (a `live: false` check in a live run), and
    /// the check is skipped with that reason.
    public static func make(
        services: [ServiceSpec], only patterns: [String] = [], shard: Shard? = nil,
        liveRefusal: (TargetSpec, ServiceSpec, CheckSpec) -> String? = { _, _, _ in nil }
    ) throws(UnmatchedPatterns) -> [PlannedCheck] {
        var plan: [PlannedCheck] = []
        var unmatched = Set(patterns)
        for service in services {
            // Shell-style patterns: `*` matches any run of characters, `?` any one.
            func selects(_ name: String) -> Bool {
                let qualified = "\(service.name).\(name)"
                let matching = patterns.filter { fnmatch($0, qualified, 0) == 0 }
                unmatched.subtract(matching)
                return patterns.isEmpty || !matching.isEmpty
            }
            for target in service.targets where selects(target.name) {
                if !target.checks.isEmpty {
                    for check in target.checks {
                        plan.append(
                            PlannedCheck(
                                service: service, subject: .check(target: target, check: check),
                                skipReason: liveRefusal(target, service, check)))
                    }
                    continue
                }
                let required = target.params.filter(\.isRequired).map(\.name)
                let implicit = CheckSpec(name: "", mark: target.mark)
                let reason =
                    required.isEmpty ? nil : "no checks, and it needs params: \(required.joined(separator: ", "))"
                plan.append(
                    PlannedCheck(service: service, subject: .check(target: target, check: implicit), skipReason: reason)
                )
            }
            for flow in service.flows where selects(flow.name) {
                plan.append(PlannedCheck(service: service, subject: .flow(flow), skipReason: nil))
            }
        }
        let missed = patterns.filter(unmatched.contains)
        if !missed.isEmpty { throw UnmatchedPatterns(patterns: missed) }
        guard let shard else { return plan }
        return plan.filter { shard.contains($0.identity) }
    }
}

/// `--shard I/N`: the I-th of N stable parts of a run, by a hash of each check's identity.
public struct Shard: Sendable, Equatable {
    public let index: Int
    public let count: Int

    /// `I/N`, with 1 ≤ I ≤ N; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
            (1...count).contains(index)
        else { return nil }
        self.index = index
        self.count = count
    }

    /// Whether the check with `identity` is in this shard.
    public func contains(_ identity: String) -> Bool {
        Int(Self.fnv1a(identity) % UInt64(count)) == index - 1
    }

    /// 64-bit FNV-1a: the same on every machine and run, unlike `Hasher`.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return hash
    }
}
