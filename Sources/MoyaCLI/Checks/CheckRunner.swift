import MoyaCore
import MoyaSpec

/// Runs planned checks, up to `parallel` at once, all through one session and so one HTTP
/// client and connection pool.
struct CheckRunner: Sendable {
    /// `--stub`; nil uses each service's `stub`, else live.
    let stub: StubBehavior?
    /// `--env`.
    let environment: String?
    /// `--timeout`, winning over the spec's.
    let timeout: Double?
    /// Whether `--retry` was given; its policy is the session's, and wins over the spec's.
    let retryFlagGiven: Bool
    /// `--retry-all`, also for a spec's `retry`.
    let retriesAllMethods: Bool
    /// The shared transport, carrying `--retry`, `--timeout` and the TLS options.
    let session: Session
    let parallel: Int
    let bail: Bool
    let showSecrets: Bool

    /// Runs `plan`; `finished` hears of each result as it comes, with its index in the plan.
    func run(_ plan: [PlannedCheck], finished: @Sendable (Int, CheckResult) -> Void) async -> [CheckResult] {
        var results: [CheckResult?] = Array(repeating: nil, count: plan.count)
        await withTaskGroup(of: (Int, CheckResult).self) { group in
            var next = 0
            var stopped = false
            while next < plan.count, next < parallel {
                let index = next
                group.addTask { (index, await run(plan[index])) }
                next += 1
            }
            for await (index, result) in group {
                results[index] = result
                finished(index, result)
                if bail, result.outcome == .failed { stopped = true }
                if !stopped, next < plan.count {
                    let index = next
                    group.addTask { (index, await run(plan[index])) }
                    next += 1
                }
            }
        }
        return results.enumerated().map { index, result in
            if let result { return result }
            let skipped = CheckResult(
                planned: plan[index], outcome: .skipped, seconds: 0, failures: [],
                reason: "not run after a failure (--bail)")
            finished(index, skipped)
            return skipped
        }
    }

    func run(_ planned: PlannedCheck) async -> CheckResult {
        if let reason = planned.skipReason {
            return CheckResult(planned: planned, outcome: .skipped, seconds: 0, failures: [], reason: reason)
        }
        let check = planned.check
        let failed = { (message: String, seconds: Double) in
            CheckResult(
                planned: planned, outcome: .failed, seconds: seconds,
                failures: [CheckFailure(keyPath: "request", mark: check.mark, message: message)], reason: nil)
        }
        let resolved: SpecTarget
        do {
            resolved = try planned.service.resolve(
                planned.target,
                with: CallOptions(arguments: check.arguments, environment: environment, sample: check.sample))
        } catch {
            return failed(error.message, 0)
        }
        let specRetry = retryFlagGiven ? nil : resolved.retry
        let call = TargetCall(
            target: resolved, extraHeaders: [:], timeout: timeout ?? resolved.timeout,
            retry: specRetry.map { RetryPolicy(limit: $0, retriesAllMethods: retriesAllMethods) },
            keepsDownloadsInMemory: true)
        let provider = call.provider(stub: stub ?? resolved.stubBehavior ?? .never, session: session)
        let redactor = call.redactor(showingSecrets: showSecrets)

        let start = ContinuousClock.now
        let result = await provider.result(for: resolved)
        let seconds = (ContinuousClock.now - start) / .seconds(1)

        let response: Response
        switch result {
        case .success(let value), .failure(.statusCode(let value)):
            response = value
        case .failure(let error):
            let message = CallFailure(error: error, target: resolved, redactor: redactor).failure.message
            let prefix = resolved.qualifiedName + ": "
            return failed(message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message, seconds)
        }
        let needsSample = check.assertions.contains { $0.subject == .sampleShape }
        let sample = needsSample ? try? JSONValue(parsing: resolved.sampleData) : nil
        let failures = check.failures(
            of: response, seconds: seconds, validation: resolved.validationType, sample: sample,
            scrub: redactor.scrub
        ).map { failure in
            var redacted = failure
            redacted.message = redactor.scrub(failure.message)
            return redacted
        }
        return CheckResult(
            planned: planned, outcome: failures.isEmpty ? .passed : .failed, seconds: seconds, failures: failures,
            reason: nil)
    }
}
