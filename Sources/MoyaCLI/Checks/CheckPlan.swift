import MoyaRuntime
import MoyaSpec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which checks a `check` run has, in spec order, after `--only` and `--shard`.
enum CheckPlan {
    /// The plan; a pattern of `--only` that matches no target is a usage error, since a
    /// mistyped pattern would otherwise pass by running nothing.
    static func make(services: [ServiceSpec], only patterns: [String], shard: Shard?) throws(CommandFailure)
        -> [PlannedCheck]
    {
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
                                service: service, subject: .check(target: target, check: check), skipReason: nil))
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
        if !missed.isEmpty {
            let names = missed.map { "'\(TerminalText.escapingControls($0))'" }.joined(separator: ", ")
            throw CommandFailure(
                "--only \(names) \(missed.count == 1 ? "matches" : "match") no target or flow; see moya-cli list",
                status: .usage)
        }
        guard let shard else { return plan }
        return plan.filter { shard.contains($0.identity) }
    }
}

/// `--shard I/N`: the I-th of N stable parts of a run, by a hash of each check's identity.
struct Shard: Sendable, Equatable {
    let index: Int
    let count: Int

    init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
            (1...count).contains(index)
        else { return nil }
        self.index = index
        self.count = count
    }

    func contains(_ identity: String) -> Bool {
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
