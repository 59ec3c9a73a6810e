import ArgumentParser
import MoyaArazzo
import MoyaCommandSupport
import MoyaCompiler
import MoyaHTTP
import MoyaRuntime
import MoyaSpec
import MoyaTransport
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `moya-cli check`: runs the checks in specs, live or on the samples, for CI.
struct CheckCommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        _superCommandName: MoyaCommand.name,
        abstract: "Run the checks in specs against the live API or the samples.",
        discussion: """
            Runs every target's checks and every flow; a target with no checks and no required \
            params is checked once against its own validation, and one that needs params is \
            skipped. A flow is one check: its steps run in order, and flows run in parallel. \
            Prints a line per check and a summary; each failure shows the assertion's \
            file:line:col, what was expected and what came. --coverage FILE writes which \
            targets, statuses, params, enum values and body branches of every service read \
            the run covered (docs/coverage.md). Exits 0 when all pass, 1 when any fails or the \
            run covers less than --coverage-min of the declared statuses, 65 for an invalid spec, 66 for a missing one, 130 after Ctrl-C, whose first \
            press starts nothing new and lets flows run their finally steps. Under \
            GITHUB_ACTIONS=true, failures are also printed as ::error annotations. Arazzo \
            documents run every workflow, as the flows import arazzo makes of them, each \
            failure placed at its step in the document.

            Examples:
              moya-cli check specs/
              moya-cli check --stub immediate
              moya-cli check --only 'myservice.*' --env staging --retry 2
              moya-cli check pets.arazzo.yaml --stub immediate
              moya-cli check --shard 2/4 --junit report.xml
              moya-cli check --coverage coverage.json --coverage-min 80
              moya-cli check --tap > checks.tap
            """
    )

    @Argument(help: ArgumentHelp("Spec files or directories. Defaults to the spec search path.", valueName: "path"))
    var paths: [String] = []

    @Option(
        name: .customLong("source"),
        help: ArgumentHelp(
            "With Arazzo documents: the file to read the source description NAME from.", valueName: "name=file"))
    var sources: [String] = []

    @Option(
        help: ArgumentHelp(
            "never, immediate or delayed=SECONDS: run on the samples. Defaults to each spec's stub, else never.",
            valueName: "behavior"))
    var stub: String?

    @Option(help: ArgumentHelp("Use this environment of every service that has it.", valueName: "name"))
    var env: String?

    @Option(
        help: ArgumentHelp(
            "Only targets and flows matching this SERVICE.NAME pattern, with * and ?; repeatable.",
            valueName: "pattern"))
    var only: [String] = []

    @Option(help: ArgumentHelp("How many checks run at once, sharing one connection pool.", valueName: "n"))
    var parallel = 8

    @Flag(help: "Stop at the first failure.")
    var bail = false

    @Option(help: ArgumentHelp("Run only the I-th of N stable parts of the checks, as I/N.", valueName: "i/n"))
    var shard: String?

    @Option(help: ArgumentHelp("Write a JUnit XML report to this file.", valueName: "file"))
    var junit: String?

    @Flag(
        name: .customLong("junit-steps"),
        help: "In the JUnit report, a test case per flow step instead of one per flow.")
    var junitSteps = false

    @Option(
        help: ArgumentHelp(
            "Write an HTML report to this file: one page with each request and response, secrets masked.",
            valueName: "file"))
    var html: String?

    @Flag(help: "Print TAP to stdout; the usual lines go to stderr.")
    var tap = false

    @Option(name: .customLong("json"), help: ArgumentHelp("Write a JSON report to this file.", valueName: "file"))
    var jsonReport: String?

    @Option(
        help: ArgumentHelp(
            "auto, always or never. auto colours PASS, FAIL and SKIP on a terminal unless NO_COLOR is set.",
            valueName: "when"))
    var color: ColorChoice = .auto

    @Flag(name: .customLong("show-secrets"), help: "Print secrets in failures and reports instead of ••••.")
    var showSecrets = false

    @Flag(help: "Write each target check's live response into its sample in the spec, showing a diff.")
    var record = false

    @Flag(help: "With --record, record even where the CI variable is set.")
    var force = false

    @Flag(
        name: .customLong("allow-writes"),
        help: "Send live the live: false checks of POST, PUT, PATCH and other writes, which import writes.")
    var allowsWrites = false

    @Flag(name: .customLong("allow-deletes"), help: "Send live the live: false checks of DELETE.")
    var allowsDeletes = false

    @OptionGroup(title: "Coverage") var coverageOptions: CoverageOptions

    @OptionGroup(title: "Network") var network: NetworkOptions

    @OptionGroup var specOptions: SpecOptions

    func validate() throws {
        guard (1...256).contains(parallel) else { throw ValidationError("--parallel takes 1 to 256") }
        if let shard, Shard(shard) == nil {
            throw ValidationError("--shard takes I/N with 1 <= I <= N, not '\(shard)'")
        }
        if record, stub != nil { throw ValidationError("--record writes live responses, and cannot go with --stub") }
        if force, !record { throw ValidationError("--force goes with --record") }
        if junitSteps, junit == nil { throw ValidationError("--junit-steps goes with --junit FILE") }
    }

    func execute() async throws {
        let context = CommandContext.current
        let behavior = record ? .never : try stub.map { text throws in try CallCommand.parseStub(text) }
        if record { try RecordRequest.checkAllowed(force: force, environment: context.environment) }
        // Arazzo documents run their workflows, as the flows import makes of them.
        let documents = paths.filter(ArazzoDocument.isArazzo(path:))
        if !documents.isEmpty, documents.count < paths.count {
            throw UsageError("check takes Arazzo documents or specs, not both in one run")
        }
        var arazzo: ArazzoSpecs?
        defer { arazzo?.remove() }
        var catalog: SpecLibrary.Catalog
        var only = only
        if documents.isEmpty {
            catalog = try specOptions.loadCatalog(paths: paths.isEmpty ? nil : paths)
        } else {
            let specs = try ArazzoSpecs(documents, sources: sources, fileRoot: specOptions.fileRoot)
            arazzo = specs
            catalog = specs.relocated(try specOptions.loadCatalog(paths: specs.folders))
            // Every workflow, and nothing else of the imported specs.
            if only.isEmpty {
                only = catalog.services.flatMap { service in
                    service.flows.map { "\(service.name).\(Self.escapingPattern($0.name))" }
                }
            }
        }
        let plan: [PlannedCheck]
        do {
            // A `live: false` check (import writes one for each write) is sent live only when
            // these flags allow its method; stubbed, it runs on its sample.
            let overrides = network.overrides(stub: behavior)
            plan = try CheckPlan.make(services: catalog.services, only: only, shard: shard.flatMap(Shard.init)) {
                target, service, check in
                guard CallPolicy.decide(overrides, target: target, service: service).stub == .never else { return nil }
                return check.liveRefusal(
                    method: target.method, allowsWrites: allowsWrites, allowsDeletes: allowsDeletes)
            }
        } catch {
            throw UsageError(error.description)
        }
        // The reports' files are opened before anything is sent, so that a destination that
        // cannot be written fails the command at once, not after the whole run.
        let junitFile = try junit.map(Self.openReport)
        let jsonFile = try jsonReport.map(Self.openReport)
        let htmlFile = try html.map(Self.openReport)
        let coverageRun = try coverageOptions.start(services: catalog.services)
        defer {
            junitFile?.discard()
            jsonFile?.discard()
            htmlFile?.discard()
            coverageRun?.discard()
        }
        if network.insecure, behavior != .immediate {
            context.errorLine("moya-cli: warning: --insecure: servers' certificates are not verified")
        }

        var configuration = network.configuration(environment: context.environment)
        // A check reads the whole body, so it holds one only up to the limit call uses.
        configuration.maximumBodyBytes = BodyOutput.limit
        let session = Session(configuration: configuration)
        // The first Ctrl-C starts nothing new and lets flows run their finally steps.
        let interrupts = InterruptFlag()
        var client = SpecClient(
            services: catalog.services, environment: env, overrides: network.overrides(stub: behavior),
            session: session, showSecrets: showSecrets,
            logins: Logins(environment: context.environment, usesCache: !network.noTokenCache))
        client.tracesExchanges = htmlFile != nil
        client.secrets = specOptions.secretVault(explicitPaths: !paths.isEmpty)
        if let coverageRun { client.counting(into: coverageRun.recorder) }
        var runner = CheckRunner(client: client, parallel: parallel, bail: bail, interrupts: interrupts)
        let heard = Mutex<[(index: Int, exchange: Exchange)]>([])
        // A stream's check reads its events as one array, which is no sample of it: `call
        // --record` records a stream's events.
        let streams = Mutex<[String]>([])
        if record {
            runner.heard = { index, exchange in
                guard case .check(_, let check) = plan[index].subject, let target = exchange.target,
                    let response = exchange.response,
                    SampleRecorder.records(response, for: check, validation: target.validationType)
                else { return }
                guard exchange.stream == nil else {
                    streams.withLock { $0.append(target.qualifiedName) }
                    return
                }
                heard.withLock { $0.append((index, exchange)) }
            }
        }
        let printer = CheckPrinter(
            context: context, total: plan.count, toStandardError: tap,
            annotates: context.environment["GITHUB_ACTIONS"] == "true", color: color)
        let start = ContinuousClock.now
        let results = await runner.run(plan) { index, result in printer.finished(index, result) }
        interrupts.stop()
        await session.shutdown()
        let summary = CheckSummary(results: results, seconds: (ContinuousClock.now - start) / .seconds(1))
        printer.summarize(summary)

        for name in Set(streams.withLock { $0 }).sorted() {
            context.errorLine("moya-cli: \(name): a stream is not recorded by check; record it with call --record")
        }
        let recordingFailure = record ? recordAll(heard.withLock { $0 }, plan: plan, services: catalog.services) : nil

        let coverage = coverageRun?.coverage
        if tap { context.writeOut(Array(CheckReports.tap(results).utf8)) }
        if let junitFile {
            let gate = coverage.flatMap { coverageRun?.gate($0) }
            try Self.write(CheckReports.junit(results, summary: summary, steps: junitSteps, gate: gate), to: junitFile)
        }
        if let jsonFile { try Self.write(CheckReports.json(results, summary: summary), to: jsonFile) }
        if let htmlFile {
            try Self.write(CheckReports.html(results, summary: summary, coverage: coverage), to: htmlFile)
        }
        if let coverage { try coverageRun?.write(coverage) }
        let shortfall = coverage.flatMap { coverageRun?.shortfall($0) }
        if let signal = interrupts.arrived {
            throw Interrupted("interrupted by \(Interrupts.name(of: signal))", signal: signal)
        }
        if summary.failed > 0 {
            if let shortfall { context.errorLine("moya-cli: error: \(shortfall.message)") }
            throw RunFailure(
                "\(summary.failed) of \(summary.total) \(summary.total == 1 ? "check" : "checks") failed")
        }
        if let recordingFailure { throw recordingFailure }
        if let shortfall { throw shortfall }
    }

    /// A name as a `--only` pattern that matches only it: `*`, `?` and `[` in brackets.
    static func escapingPattern(_ name: String) -> String {
        var pattern = ""
        for character in name {
            pattern += "*?[".contains(character) ? "[\(character)]" : String(character)
        }
        return pattern
    }

    /// Records the responses in plan order, the first for each sample; a sample that cannot
    /// be recorded prints its error and the others are still recorded. Returns the failure the
    /// command ends with when every check passed, with the last error's status.
    func recordAll(_ heard: [(index: Int, exchange: Exchange)], plan: [PlannedCheck], services: [ServiceSpec])
        -> FailureSummary?
    {
        let context = CommandContext.current
        let recorder = SampleRecorder(
            check: EditCheck(specOptions.compiler(explicitPaths: !paths.isEmpty)), services: services)
        var written: Set<[String]> = []
        var failures: [any Error] = []
        // A trusted folder stays trusted after the recordings, which are moya-cli's own writes.
        SpecTrust(environment: context.environment).keeping(writing: services.map(\.file)) {
            for (index, exchange) in heard.sorted(by: { $0.index < $1.index }) {
                let planned = plan[index]
                guard case .check(let target, let check) = planned.subject, let response = exchange.response,
                    written.insert([planned.service.file, target.name, check.sample ?? ""]).inserted
                else { continue }
                do {
                    try RecordRequest.record(
                        response, redactor: exchange.redactor, target: target, of: planned.service, named: check.sample,
                        recorder: recorder, context: context)
                } catch {
                    context.errorLine("moya-cli: error: \(error.failureMessage)")
                    failures.append(error)
                }
            }
        }
        guard let last = failures.last else { return nil }
        let count = failures.count == 1 ? "a sample" : "\(failures.count) samples"
        return FailureSummary("\(count) could not be recorded", of: last)
    }

    /// A report's file, open for writing; nothing is at its path until it is written whole.
    /// A report's file, opened before the run, in a folder made for it when it is not there
    /// (as Hurl's reports and curl's `--create-dirs` do); discarded with that folder when the
    /// command does not finish it.
    struct Report {
        let file: PendingFile
        let madeFolders: [String]

        func discard() {
            file.discard()
            FileSystem.removeFolders(madeFolders)
        }
    }

    static func openReport(_ path: String) throws -> Report {
        let made: [String]
        switch FileSystem.makeFolders(above: path) {
        case .success(let folders): made = folders
        case .failure(let failure): throw FileFailure.unwritable("cannot write the report: \(failure.message)")
        }
        do {
            return Report(file: try PendingFile(path: path), madeFolders: made)
        } catch {
            FileSystem.removeFolders(made)
            throw FileFailure.unwritable("cannot write the report: \(error.message)")
        }
    }

    /// Writes a report whole; `execute` discards a file it did not finish.
    static func write(_ text: String, to report: Report) throws {
        do {
            try report.file.write(Array(text.utf8))
            try report.file.commit()
        } catch {
            throw FileFailure.unwritable("cannot write the report: \(error.message)")
        }
    }
}

/// Prints results in plan order as they finish, with a live progress line on a terminal.
final class CheckPrinter: Sendable {
    private struct State {
        var ready: [Int: CheckResult] = [:]
        var next = 0
        var done = 0
    }

    private let context: CommandContext
    private let total: Int
    private let toStandardError: Bool
    private let annotates: Bool
    private let showsProgress: Bool
    private let colored: Bool
    private let state = Mutex(State())

    init(context: CommandContext, total: Int, toStandardError: Bool, annotates: Bool, color: ColorChoice = .never) {
        self.context = context
        self.total = total
        self.toStandardError = toStandardError
        self.annotates = annotates
        showsProgress = context.errorIsTerminal
        colored = color.colors(
            terminal: toStandardError ? context.errorIsTerminal : context.outputIsTerminal,
            environment: context.environment)
    }

    func finished(_ index: Int, _ result: CheckResult) {
        state.withLock { state in
            state.ready[index] = result
            state.done += 1
            var text = ""
            while let next = state.ready.removeValue(forKey: state.next) {
                text += lines(for: next).joined(separator: "\n") + "\n"
                state.next += 1
            }
            // The progress line lives on stderr: cleared before results print, then redrawn.
            if showsProgress { context.writeError(Array("\r\u{1B}[K".utf8)) }
            if !text.isEmpty { emit(text) }
            if showsProgress, state.done < total {
                context.writeError(Array("[\(state.done)/\(total)] checking…".utf8))
            }
        }
    }

    func summarize(_ summary: CheckSummary) {
        emit((total > 0 ? "\n" : "") + summary.line + "\n")
    }

    private func emit(_ text: String) {
        let bytes = Array(text.utf8)
        if toStandardError { context.writeError(bytes) } else { context.writeOut(bytes) }
    }

    private func lines(for result: CheckResult) -> [String] {
        let time = "(\(result.milliseconds) ms)"
        // Check names and failure texts come from specs and servers: no control characters
        // reach the terminal.
        let title = TerminalText.escapingControls(result.planned.title)
        let word = result.outcome.painted(colored: colored)
        switch result.outcome {
        case .passed:
            return [word + "  \(title)  \(time)"]
        case .skipped:
            return [word + "  \(title)  (\(TerminalText.escapingControls(result.reason ?? "skipped")))"]
        case .failed:
            var lines =
                [word + "  \(title)  \(time)"]
                + result.failureLines.map { "      " + TerminalText.escapingControls($0) }
            if annotates { lines += CheckReports.githubAnnotations(result) }
            return lines
        }
    }
}
