import MoyaBinding
import MoyaHTTP
import MoyaSpec

/// Runs planned checks, up to `parallel` at once, through one client (and so one session,
/// connection pool and set of logins). It only schedules: what a request is and how it is
/// sent is the client's.
public struct CheckRunner: Sendable {
    /// What sends every request of the run.
    public let client: SpecClient
    /// How many checks run at once.
    public let parallel: Int
    /// Whether the first failure stops the run.
    public let bail: Bool
    /// Ctrl-C and its kin, which stop the run, and flows before their next step.
    public var interrupts: (any InterruptSource)? = nil
    /// Hears of each exchange of a target's check that got a response, with the check's index
    /// in the plan, before its assertions are judged: what `check --record` records. Flows'
    /// steps are not reported.
    public var heard: (@Sendable (_ index: Int, _ exchange: Exchange) -> Void)? = nil

    /// A runner of checks through `client`.
    public init(client: SpecClient, parallel: Int = 1, bail: Bool = false, interrupts: (any InterruptSource)? = nil) {
        self.client = client
        self.parallel = parallel
        self.bail = bail
        self.interrupts = interrupts
    }

    /// Runs `plan`; `finished` hears of each result as it comes, with its index in the plan.
    public func run(_ plan: [PlannedCheck], finished: @Sendable (Int, CheckResult) -> Void) async -> [CheckResult] {
        var results: [CheckResult?] = Array(repeating: nil, count: plan.count)
        await withTaskGroup(of: (Int, CheckResult).self) { group in
            var next = 0
            var stopped = false
            while next < plan.count, next < parallel {
                let index = next
                group.addTask { (index, await run(plan[index], index: index)) }
                next += 1
            }
            for await (index, result) in group {
                results[index] = result
                finished(index, result)
                if bail, result.outcome == .failed { stopped = true }
                if interrupts?.arrived != nil { stopped = true }
                if !stopped, next < plan.count {
                    let index = next
                    group.addTask { (index, await run(plan[index], index: index)) }
                    next += 1
                }
            }
        }
        return results.enumerated().map { index, result in
            if let result { return result }
            let skipped = CheckResult(
                planned: plan[index], outcome: .skipped, seconds: 0, failures: [],
                reason: interrupts?.arrived != nil ? "not run after an interrupt" : "not run after a failure (--bail)")
            finished(index, skipped)
            return skipped
        }
    }

    /// Runs one entry of a plan, the `index`-th: a check, a flow, or a skip.
    public func run(_ planned: PlannedCheck, index: Int = 0) async -> CheckResult {
        if let reason = planned.skipReason {
            return CheckResult(planned: planned, outcome: .skipped, seconds: 0, failures: [], reason: reason)
        }
        switch planned.subject {
        case .flow(let flow):
            return await FlowRunner(client: client, interrupts: interrupts, overrides: []).run(flow, of: planned)
        case .check(let target, let check):
            let exchange = await client.exchange(
                planned.service, target,
                with: CallOptions(
                    arguments: check.arguments, environment: client.environment, sample: check.sample,
                    argumentsFromSpec: true),
                pages: check.pages)
            guard exchange.response != nil else {
                var result = CheckResult(
                    planned: planned, outcome: .failed, seconds: exchange.seconds,
                    failures: [
                        CheckFailure(keyPath: "request", mark: check.mark, message: exchange.failure?.reason ?? "")
                    ],
                    reason: nil)
                result.trace = client.trace(exchange, of: target, in: planned.service)
                return result
            }
            heard?(index, exchange)
            let failures = exchange.failures(of: check.assertions, mark: check.mark)
            var result = CheckResult(
                planned: planned, outcome: failures.isEmpty ? .passed : .failed, seconds: exchange.seconds,
                failures: failures, reason: nil)
            result.trace = client.trace(exchange, of: target, in: planned.service)
            return result
        }
    }
}
