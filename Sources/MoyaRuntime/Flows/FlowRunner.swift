import MoyaBinding
import MoyaHTTP
import MoyaJSONPath
import MoyaRegex
import MoyaSpec
import MoyaYAML

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Runs one flow: its steps in order, each through the client, with variables and cookies
/// carried from step to step, then its `finally` steps whatever happened.
public struct FlowRunner: Sendable {
    /// What sends each step; its services are the ones a step may name.
    public let client: SpecClient
    /// Ctrl-C and its kin: after one, no further step starts, and `finally` runs.
    public let interrupts: (any InterruptSource)?
    /// `--var` and `--vars`, which replace the flow's `vars`.
    public let overrides: [(name: String, value: JSONValue)]
    /// Hears of each step as it ends, for `run`'s lines.
    public var stepFinished: @Sendable (StepResult) -> Void = { _ in }

    /// A flow runner on `client`, with `overrides` for the flow's variables.
    public init(
        client: SpecClient, interrupts: (any InterruptSource)? = nil, overrides: [(name: String, value: JSONValue)] = []
    ) {
        self.client = client
        self.interrupts = interrupts
        self.overrides = overrides
    }

    /// The state a flow run carries from step to step.
    private struct Run {
        let service: ServiceSpec
        var variables: FlowVariables
        /// The run's cookies, which every step sends and keeps, redirects included.
        let cookies = CookieStore()
        /// Every secret the steps' exchanges knew of, a login's token included: what a shown
        /// capture is masked of.
        var secretsSeen = SecretSet.none

        init(service: ServiceSpec) {
            self.service = service
            variables = FlowVariables(boundVariables: service.boundVariables)
        }
    }

    /// Runs `flow` and reports it as one result whose steps are its parts.
    public func run(_ flow: FlowSpec, of planned: PlannedCheck) async -> CheckResult {
        let start = ContinuousClock.now
        // The flow's own `${NAME}`s that a secret source gives are read before its first
        // step, unless the flow is stubbed and sends nothing.
        var flow = flow
        var service = planned.service
        var secretFailure: SecretFailure?
        let stubbed = CallPolicy.decide(client.overrides, target: nil, service: service).stub != .never
        if let secrets = client.secrets, !stubbed {
            do {
                service = try secrets.service(service, running: flow)
                flow = service.flows.first { $0.name == flow.name } ?? flow
            } catch {
                secretFailure = error
            }
        }
        var run = Run(service: service)
        var steps: [StepResult] = []
        var failures: [CheckFailure] = []

        // `--var` replaces a declared variable where it stands, so that later ones built from
        // it (`greeting: "hi {first}"`) see the new value.
        var overridden = Dictionary(overrides.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
        // A failure before the first step is a failed step of its own.
        func failBefore(_ name: String, _ failure: CheckFailure) {
            failures.append(failure)
            let result = StepResult(
                name: name, outcome: .failed, status: nil, seconds: 0, failures: [failure], reason: nil,
                isFinally: false)
            steps.append(result)
            stepFinished(result)
        }
        // A `${VAR}` of the flow's own that the environment does not set stops it before any
        // step; each step's target is held to its own as it is called.
        if let secretFailure {
            failBefore("secrets", CheckFailure(keyPath: "vars", mark: flow.mark, message: secretFailure.message))
        } else if let unset = service.unsetVariables.first(where: {
            $0.owner == .flow(flow.name) && !(stubbed && service.secretSources[$0.name] != nil)
        }) {
            failBefore(
                "environment",
                CheckFailure(
                    keyPath: unset.place.keyPath, mark: unset.place.mark,
                    message: unset.message(for: "flow \(planned.service.name).\(flow.name)")))
        }
        for variable in flow.variables where failures.isEmpty {
            if let value = overridden.removeValue(forKey: variable.name) {
                run.variables.set(variable.name, to: value)
                continue
            }
            do {
                let rendered = try run.variables.render(variable.value)
                run.variables.set(variable.name, to: rendered.value, secret: rendered.isSecret)
            } catch {
                failBefore("vars", CheckFailure(keyPath: "vars.\(variable.name)", mark: flow.mark, message: "\(error)"))
            }
        }
        for override in overrides where overridden[override.name] != nil {
            run.variables.set(override.name, to: override.value)
        }

        var stopped = !failures.isEmpty
        for (index, step) in flow.steps.enumerated() {
            if stopped || interrupts?.arrived != nil {
                let reason =
                    interrupts?.arrived != nil ? "not run after an interrupt" : "not run after a failure"
                var skipped = StepResult.skipped(step.name, because: reason, isFinally: false)
                skipped.mark = step.mark
                steps.append(skipped)
                stepFinished(skipped)
                continue
            }
            for var result in await self.run(step, path: "steps[\(index)]", isFinally: false, in: &run) {
                result.mark = step.mark
                steps.append(result)
                stepFinished(result)
                if result.outcome == .failed {
                    stopped = true
                    failures += result.failures
                }
            }
        }
        for (index, step) in flow.finally.enumerated() {
            for var result in await self.run(step, path: "finally[\(index)]", isFinally: true, in: &run) {
                result.mark = step.mark
                steps.append(result)
                stepFinished(result)
                if result.outcome == .failed { failures += result.failures }
            }
        }
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        var result = CheckResult(
            planned: planned, outcome: failures.isEmpty ? .passed : .failed, seconds: seconds, failures: failures,
            reason: nil, steps: steps)
        result.captures = Self.shownCaptures(of: flow, in: run.variables, secrets: run.secretsSeen)
        return result
    }

    /// The captures a flow may show: those not declared secret and not made of a secret, each
    /// once, in declaration order, with every secret the run knew of (`secrets`) masked in them.
    static func shownCaptures(of flow: FlowSpec, in variables: FlowVariables, secrets: SecretSet)
        -> [(name: String, value: JSONValue)]
    {
        let redactor = Redactor(secrets: variables.secrets.adding(secrets))
        var seen = Set<String>()
        var shown: [(name: String, value: JSONValue)] = []
        for capture in (flow.steps + flow.finally).flatMap(\.captures) where seen.insert(capture.name).inserted {
            guard !capture.isSecret, !variables.secretNames.contains(capture.name),
                let value = variables.values[capture.name]
            else { continue }
            shown.append((capture.name, redactor.scrubbing(value)))
        }
        return shown
    }

    // MARK: - Steps

    /// A step's results: one, or one per row of `each`.
    private func run(_ step: FlowStep, path: String, isFinally: Bool, in run: inout Run) async -> [StepResult] {
        let failed = { (message: String) in
            StepResult(
                name: step.name, outcome: .failed, status: nil, seconds: 0,
                failures: [CheckFailure(keyPath: "\(step.name): \(path)", mark: step.mark, message: message)],
                reason: nil, isFinally: isFinally)
        }
        guard let each = step.each else {
            if let skip = step.skip, run.variables.holds(skip) {
                return [.skipped(step.name, because: "skip: \(skip)", isFinally: isFinally)]
            }
            return [await once(step, name: step.name, path: path, isFinally: isFinally, in: &run)]
        }
        let rows: JSONValue
        do {
            rows = try run.variables.render(each).value
        } catch {
            // A `finally` step needs what the failed steps would have captured.
            if isFinally { return [.skipped(step.name, because: "each: \(error)", isFinally: true)] }
            return [failed("each: \(error)")]
        }
        guard case .array(let items) = rows else {
            return [failed("each: expected an array of rows, got \(JSONType.of(rows).rawValue)")]
        }
        var results: [StepResult] = []
        // Each row is `item` while its request runs, and `skip` is asked of each row.
        for (index, item) in items.enumerated() {
            // An interrupt stops the rows of any step but a `finally` one, which must finish.
            if !isFinally, interrupts?.arrived != nil { break }
            run.variables.set("item", to: item)
            let name = "\(step.name)[\(index)]"
            if let skip = step.skip, run.variables.holds(skip) {
                results.append(.skipped(name, because: "skip: \(skip)", isFinally: isFinally))
                continue
            }
            let result = await once(step, name: name, path: path, isFinally: isFinally, in: &run)
            results.append(result)
            if result.outcome == .failed { break }
        }
        run.variables.remove("item")
        return results
    }

    /// One request of a step, polled while `until` does not hold, then checked and captured.
    private func once(_ step: FlowStep, name: String, path: String, isFinally: Bool, in run: inout Run) async
        -> StepResult
    {
        let start = ContinuousClock.now
        var status: Int?
        var trace: ExchangeTrace?
        func result(_ failures: [CheckFailure], skipped reason: String? = nil) -> StepResult {
            var made = StepResult(
                name: name, outcome: reason != nil ? .skipped : failures.isEmpty ? .passed : .failed, status: status,
                seconds: (ContinuousClock.now - start) / .seconds(1), failures: failures, reason: reason,
                isFinally: isFinally)
            made.trace = trace
            return made
        }
        func failure(_ message: String, keyPath: String = "request", mark: Mark? = nil) -> [CheckFailure] {
            [CheckFailure(keyPath: "\(name): \(keyPath)", mark: mark ?? step.mark, message: message)]
        }

        guard let service = step.service.map({ name in client.services.first { $0.name == name } }) ?? run.service
        else {
            return result(failure("no service '\(step.service ?? "")' is loaded", keyPath: path + ".call"))
        }
        guard let target = service.target(named: step.target) else {
            return result(
                failure("service '\(service.name)' has no target '\(step.target)'", keyPath: path + ".call"))
        }
        var arguments: [String: ParamValue] = [:]
        var secretArguments: Set<String> = []
        for argument in step.arguments {
            guard let param = target.param(named: argument.name) else {
                return result(failure("target '\(target.name)' has no param '\(argument.name)'"))
            }
            do {
                let rendered = try run.variables.render(argument.value)
                // An optional param whose value is null is not given: a flow's variable nothing
                // set (an Arazzo input the run leaves out) leaves the param out.
                if rendered.value == .null, param.isOptional { continue }
                arguments[param.name] = try param.value(from: rendered.value)
                if rendered.isSecret { secretArguments.insert(param.name) }
            } catch let error as FlowError {
                // A `finally` step needs what the failed steps would have captured.
                if isFinally { return result([], skipped: "\(error)") }
                return result(failure("\(error)", keyPath: "params.\(argument.name)"))
            } catch {
                return result(failure("\(error)", keyPath: "params.\(argument.name)"))
            }
        }
        let options = CallOptions(
            arguments: arguments, environment: client.environment, sample: step.sample,
            secretArguments: secretArguments, argumentsFromSpec: true)

        var attempt = 0
        var exchange: Exchange
        var response: Response
        while true {
            attempt += 1
            exchange = await client.exchange(
                service, target, with: options, cookies: run.cookies,
                secrets: run.variables.secrets.adding(run.cookies.snapshot.cookies.map(\.value)),
                responseSecrets: ResponseSecrets(step.captures), pages: step.pages)
            run.secretsSeen.add(exchange.redactor.secrets)
            trace = client.trace(exchange, of: target, in: service)
            guard let received = exchange.response else {
                return result(failure(exchange.failure?.reason ?? "the request failed"))
            }
            response = received
            status = response.statusCode
            guard !step.until.isEmpty, let poll = step.retry else { break }
            let unmet: [CheckFailure]
            do {
                unmet = exchange.failures(
                    of: try substituted(step.until, run.variables), mark: step.mark)
            } catch {
                return result(failure("\(error)", keyPath: "until"))
            }
            if unmet.isEmpty { break }
            let elapsed = (ContinuousClock.now - start) / .seconds(1)
            let outOfTime = poll.timeLimit.map { elapsed + poll.interval > $0 } ?? false
            let outOfTries = poll.attempts.map { attempt >= $0 } ?? false
            if outOfTime || outOfTries || interrupts?.arrived != nil {
                let first = unmet[0]
                let waited = Int((elapsed * 1000).rounded())
                return result([
                    CheckFailure(
                        keyPath: "\(name): \(first.keyPath)", mark: first.mark,
                        message: "still not met after \(attempt) \(attempt == 1 ? "attempt" : "attempts") in "
                            + "\(waited) ms: \(first.message)")
                ])
            }
            try? await _Concurrency.Task.sleep(for: .seconds(Seconds.clamped(poll.interval)))
        }

        var failures: [CheckFailure]
        do {
            failures = exchange.failures(
                of: try substituted(step.assertions, run.variables), mark: step.mark)
        } catch {
            return result(failure("\(error)", keyPath: "expect"))
        }
        failures = failures.map { failure in
            var named = failure
            named.keyPath = "\(name): \(failure.keyPath)"
            return named
        }
        if failures.isEmpty {
            for capture in step.captures {
                switch Self.value(of: capture, in: response, seconds: exchange.seconds) {
                case .success(let value?):
                    run.variables.set(capture.name, to: value, secret: capture.isSecret || capture.isCookie)
                case .success(nil):
                    if !capture.isOptional {
                        failures += failure(
                            "capture '\(capture.name)' found nothing: \(capture.sourceDescription)",
                            keyPath: "capture.\(capture.name)", mark: capture.mark)
                    }
                case .failure(let error):
                    failures += failure(error.description, keyPath: "capture.\(capture.name)", mark: capture.mark)
                }
            }
        }
        return result(failures)
    }

    private func substituted(_ assertions: [Assertion], _ variables: FlowVariables) throws(FlowError) -> [Assertion] {
        var result: [Assertion] = []
        for assertion in assertions {
            var filled = assertion
            filled.predicate = try variables.substituting(assertion.predicate)
            // An expected value built from a secret variable prints as ••••.
            let names = assertion.predicate.expectedStrings.flatMap { VariableTemplate($0).references.map(\.name) }
            if names.contains(where: variables.secretNames.contains) { filled.expectsSecret = true }
            // A status written as a variable is compared as a code, whether the variable holds
            // 404 or "404".
            if assertion.subject == .status, case .equals(let value) = filled.predicate,
                case .equals(.string(let written)) = assertion.predicate
            {
                guard let code = Int(value.text), (100...999).contains(code) else {
                    throw FlowError("the status \(written) is '\(value.text)', not a status code")
                }
                filled.predicate = .equals(.integer(code))
            }
            result.append(filled)
        }
        return result
    }

    // MARK: - Captures

    /// What a capture reads from a response: nil when it finds nothing.
    public static func value(of capture: CaptureSpec, in response: Response, seconds: Double)
        -> Result<JSONValue?, FlowError>
    {
        var text: String
        switch capture.source {
        case .json(let path):
            guard let json = try? JSONValue(parsing: response.data) else {
                return .failure(FlowError("the body is not JSON, so \(path) cannot be read"))
            }
            let values = path.values(in: json)
            if path.isSingular { return .success(values.first) }
            return .success(values.isEmpty ? nil : .array(values))
        case .status:
            return .success(.integer(response.statusCode))
        case .duration:
            return .success(.integer(Int((seconds * 1000).rounded())))
        case .cookie(let name):
            let value = response.headers.values(for: "Set-Cookie").compactMap(CookieJar.nameAndValue)
                .last { $0.name == name }?.value
            return .success(value.map(JSONValue.string))
        case .header(let name):
            guard let value = response.headers[name] else { return .success(nil) }
            text = value
        case .body:
            text = String(decoding: response.data, as: UTF8.self)
        }
        guard let pattern = capture.pattern else { return .success(.string(text)) }
        do throws(RegularExpression.BudgetExceeded) {
            // The first group, else the whole match.
            guard let match = try pattern.firstMatch(in: text) else { return .success(nil) }
            let value = match.groups.dropFirst().first.flatMap { $0 } ?? match.groups.first.flatMap { $0 }
            return .success(value.map { .string(String($0)) })
        } catch {
            return .failure(FlowError("\(error)"))
        }
    }
}

extension CaptureSpec {
    /// Whether it reads a cookie, whose value is always a secret.
    public var isCookie: Bool {
        if case .cookie = source { return true }
        return false
    }

    /// What the capture looked for, as a failure names it.
    public var sourceDescription: String {
        let base =
            switch source {
            case .json(let path): "no value at \(path)"
            case .header(let name): "no \(name) header"
            case .cookie(let name): "no cookie '\(name)' was set"
            case .status, .duration, .body: "nothing"
            }
        guard let pattern else { return base }
        return base == "nothing" ? "/\(pattern)/ does not match the body" : "\(base) matching /\(pattern)/"
    }
}

extension SpecClient {
    /// Runs the flow `SERVICE.FLOW`, with `variables` in place of its `vars`; its steps are the
    /// result's.
    public func run(flow name: String, variables: [(name: String, value: JSONValue)] = []) async -> CheckResult? {
        guard let (service, member) = split(name), let flow = service.flows.first(where: { $0.name == member })
        else { return nil }
        let planned = PlannedCheck(service: service, subject: .flow(flow), skipReason: nil)
        return await FlowRunner(client: self, overrides: variables).run(flow, of: planned)
    }
}
