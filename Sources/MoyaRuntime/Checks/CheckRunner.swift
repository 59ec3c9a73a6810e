import MoyaCore
import MoyaSpec

/// Runs planned checks, up to `parallel` at once, all through one session and so one HTTP
/// client and connection pool.
public struct CheckRunner: Sendable {
    /// What the command line overrides of each target's policy (see `CallPolicy.decide`).
    public let overrides: CallPolicy.Overrides
    /// `--env`.
    public let environment: String?
    /// The shared transport, carrying the TLS options.
    public let session: Session
    /// How many checks run at once.
    public let parallel: Int
    /// Whether the first failure stops the run.
    public let bail: Bool
    /// Whether secrets print as they are.
    public let showSecrets: Bool
    /// Every loaded service, for flow steps that call another service's target.
    public var services: [ServiceSpec] = []
    /// Ctrl-C and its kin, which stop flows before their next step and run their `finally`.
    public var interrupts: (any InterruptSource)? = nil
    /// The logins shared by every request of the run.
    public var logins: Logins? = nil
    /// What `-v` logs of each request, and where; nothing by default.
    public var logOptions: NetworkLoggerPlugin.LogOptions = []
    /// Where the log's lines go.
    public var log: @Sendable (String) -> Void = { _ in }
    /// Hears of each exchange of a target's check that got a response, with the check's index
    /// in the plan, before its assertions are judged: what `check --record` records. Flows'
    /// steps are not reported.
    public var heard: (@Sendable (_ index: Int, _ exchange: Exchange) -> Void)? = nil

    /// A runner; what is not given is left out: no other services, no interrupts, no logins
    /// and no log.
    public init(
        overrides: CallPolicy.Overrides, environment: String?, session: Session, parallel: Int, bail: Bool,
        showSecrets: Bool, services: [ServiceSpec] = [], interrupts: (any InterruptSource)? = nil,
        logins: Logins? = nil, logOptions: NetworkLoggerPlugin.LogOptions = [],
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.overrides = overrides
        self.environment = environment
        self.session = session
        self.parallel = parallel
        self.bail = bail
        self.showSecrets = showSecrets
        self.services = services
        self.interrupts = interrupts
        self.logins = logins
        self.logOptions = logOptions
        self.log = log
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
            return await FlowRunner(runner: self, overrides: [])
                .run(flow, of: planned)
        case .check(let target, let check):
            let exchange = await self.exchange(
                planned.service, target,
                with: CallOptions(
                    arguments: check.arguments, environment: environment, sample: check.sample,
                    argumentsFromSpec: true))
            guard let response = exchange.response else {
                return CheckResult(
                    planned: planned, outcome: .failed, seconds: exchange.seconds,
                    failures: [CheckFailure(keyPath: "request", mark: check.mark, message: exchange.failure ?? "")],
                    reason: nil)
            }
            heard?(index, exchange)
            let failures = exchange.failures(of: check.assertions, response: response, mark: check.mark)
            return CheckResult(
                planned: planned, outcome: failures.isEmpty ? .passed : .failed, seconds: exchange.seconds,
                failures: failures, reason: nil)
        }
    }

    /// Resolves `target` with `options` and sends it (or answers from its sample), through the
    /// same provider and redaction a call uses. `headers` are added as `call -H` adds them;
    /// `cookies` are sent and kept, as a flow's are; `secrets` are more values to redact. A
    /// target whose `auth:` is a login carries the shared token, and is replayed once after a
    /// refresh when its status asks for one; `authenticating: false` sends the login call itself.
    public func exchange(
        _ service: ServiceSpec, _ target: TargetSpec, with options: CallOptions, headers: HTTPHeaders = [:],
        cookies: CookieStore? = nil, secrets: Set<String> = [],
        responseSecrets: ResponseSecrets = ResponseSecrets(), authenticating: Bool = true
    ) async -> Exchange {
        let prepared: PreparedCall
        do {
            prepared = try PreparedCall.prepare(
                target, of: service, with: options, headers: headers, secrets: secrets, overrides: overrides,
                showingSecrets: showSecrets, printsRequest: !logOptions.isEmpty, keepsDownloadsInMemory: true)
        } catch {
            return Exchange(target: nil, redactor: Redactor(), response: nil, seconds: 0, failure: error.message)
        }
        var resolved = prepared.call.target

        let start = ContinuousClock.now
        let delivered = await deliver(
            prepared, of: service, Delivery(cookies: cookies, responseSecrets: responseSecrets),
            authenticating: authenticating)
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        resolved.secretValues.formUnion(delivered.tokens)
        let redactor = delivered.redactor

        switch delivered.result {
        case .success(let value), .failure(.statusCode(let value)):
            return Exchange(target: resolved, redactor: redactor, response: value, seconds: seconds, failure: nil)
        case .failure(.underlying(let error as LoginError, _)):
            return Exchange(
                target: resolved, redactor: redactor, response: nil, seconds: seconds,
                failure: redactor.scrub(error.description))
        case .failure(let error):
            let message = SendFailure(error: error, target: resolved, redactor: redactor).message
            let prefix = resolved.qualifiedName + ": "
            return Exchange(
                target: resolved, redactor: redactor, response: nil, seconds: seconds,
                failure: message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message)
        }
    }
}

/// What of a response is a secret before it arrives: the headers, lowercased, and whether the
/// body, that a flow step's secret captures read; the log masks them.
public struct ResponseSecrets: Sendable {
    public var headers: Set<String> = []
    public var body = false

    /// The parts of a response that `captures` take secrets from.
    public init(_ captures: [CaptureSpec] = []) {
        for capture in captures where capture.isSecret {
            switch capture.source {
            case .header(let name): headers.insert(name.lowercased())
            case .json, .body: body = true
            case .cookie, .status, .duration: break
            }
        }
    }
}
