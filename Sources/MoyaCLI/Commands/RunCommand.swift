import ArgumentParser
import MoyaArazzo
import MoyaCommandSupport
import MoyaCompiler
import MoyaHTTP
import MoyaRuntime
import MoyaSpec
import MoyaTransport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `moya-cli run SERVICE.FLOW`: runs one flow, a line per step.
struct RunCommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        _superCommandName: MoyaCommand.name,
        abstract: "Run a flow: its steps in order, passing captured values along.",
        discussion: """
            Prints a line per step: PASS, FAIL or SKIP, the step, the status and the time, \
            with each failure's file:line:col under it. The flow's finally steps run after a \
            failure too, and after the first Ctrl-C, which stops the flow before its next \
            step; a second Ctrl-C exits at once. --coverage FILE and --coverage-min count the \
            steps as check counts its checks. Exits 0 when every step passes, 1 when one \
            fails or the flow covers less than --coverage-min, 64 for a usage error, 65 for an invalid spec, 66 for a missing one, 130 \
            after Ctrl-C.

            An Arazzo document and one of its workflows run the same way: run FILE.arazzo.yaml \
            WORKFLOW imports the document as import arazzo does, into a temporary folder, and \
            runs the workflow's flow, each failure placed at its step in the document.

            Examples:
              moya-cli run myservice.userLifecycle
              moya-cli run myservice.userLifecycle --stub immediate
              moya-cli run myservice.userLifecycle --var first=Bob --env staging -v
              moya-cli run pets.arazzo.yaml apply-coupon --var quantity=1
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The flow, as SERVICE.FLOW; or an Arazzo document, then its workflow.", valueName: "service.flow"),
        completion: .custom(RunCommand.completeFlows))
    var flow: String

    @Argument(help: ArgumentHelp("With an Arazzo document: the workflow's id.", valueName: "workflow"))
    var workflow: String?

    @Option(
        name: .customLong("source"),
        help: ArgumentHelp(
            "With an Arazzo document: the file to read the source description NAME from.", valueName: "name=file"))
    var sources: [String] = []

    @Option(
        name: .customLong("var"),
        help: ArgumentHelp("Set a variable, NAME=VALUE, over the flow's vars; repeatable.", valueName: "name=value"))
    var variables: [String] = []

    @Option(
        name: .customLong("vars"),
        help: ArgumentHelp("Set the variables of a YAML mapping file; --var wins over it.", valueName: "file"))
    var variablesFile: String?

    @Option(
        help: ArgumentHelp(
            "never, immediate or delayed=SECONDS: run on the samples. Defaults to the spec's stub, else never.",
            valueName: "behavior"))
    var stub: String?

    @Option(help: ArgumentHelp("Use one of the service's environments.", valueName: "name"))
    var env: String?

    @Flag(
        name: .customShort("v"),
        help: "Log each request's method, URL and headers to stderr; -vv adds the bodies.")
    var verbosity: Int

    @Flag(name: .customLong("show-secrets"), help: "Print secrets in failures and logs instead of ••••.")
    var showSecrets = false

    @OptionGroup(title: "Coverage") var coverageOptions: CoverageOptions

    @OptionGroup(title: "Network") var network: NetworkOptions

    @OptionGroup var specOptions: SpecOptions

    func execute() async throws {
        let context = CommandContext.current
        let behavior = try stub.map { text throws in try CallCommand.parseStub(text) }
        // An Arazzo document's workflow runs as the flow import makes of it.
        var arazzo: ArazzoSpecs?
        defer { arazzo?.remove() }
        let (catalog, service, spec): (SpecLibrary.Catalog, ServiceSpec, FlowSpec)
        if ArazzoDocument.isArazzo(path: flow) {
            guard let workflow else { throw UsageError("name the workflow to run: run \(flow) WORKFLOW") }
            let specs = try ArazzoSpecs([flow], sources: sources, fileRoot: specOptions.fileRoot)
            arazzo = specs
            let ids = specs.documents.first?.file.workflowIds ?? []
            guard ids.contains(workflow) else {
                throw UsageError(
                    "\(flow) has no workflow '\(workflow)'" + Suggestion.hint(for: workflow, in: ids))
            }
            catalog = specs.relocated(try specOptions.loadCatalog(paths: specs.folders))
            (service, spec) = try ArazzoSpecs.flow(workflow, in: catalog)
        } else {
            if let workflow {
                throw UsageError("'\(workflow)': only an Arazzo document takes a workflow after it")
            }
            (catalog, service, spec) = try specOptions.loadFlow(flow)
        }
        let overrides = try Self.overrides(variables, file: variablesFile)
        let coverageRun = try coverageOptions.start(services: catalog.services)
        defer { coverageRun?.discard() }

        var configuration = network.configuration(environment: context.environment)
        configuration.maximumBodyBytes = BodyOutput.limit
        let session = Session(configuration: configuration)
        let interrupts = InterruptFlag()
        var client = SpecClient(
            services: catalog.services, environment: env, overrides: network.overrides(stub: behavior),
            session: session, showSecrets: showSecrets,
            logins: Logins(environment: context.environment, usesCache: !network.noTokenCache),
            logOptions: CallCommand.logOptions(verbosity: verbosity), log: { context.errorLine($0) })
        client.secrets = specOptions.secretVault()
        if let coverageRun { client.counting(into: coverageRun.recorder) }
        let planned = PlannedCheck(service: service, subject: .flow(spec), skipReason: nil)
        let colored = ColorChoice.auto.colors(terminal: context.outputIsTerminal, environment: context.environment)
        var flowRunner = FlowRunner(client: client, interrupts: interrupts, overrides: overrides)
        let file = service.file
        flowRunner.stepFinished = { step in
            for line in Self.lines(for: step, file: file, colored: colored) { context.line(line) }
        }
        let result = await flowRunner.run(spec, of: planned)
        interrupts.stop()
        await session.shutdown()

        let counts = Dictionary(grouping: result.steps, by: \.outcome).mapValues(\.count)
        context.line(
            "\n\(service.name).\(spec.name): \(result.steps.count) \(result.steps.count == 1 ? "step" : "steps"): "
                + "\(counts[.passed, default: 0]) passed, \(counts[.failed, default: 0]) failed, "
                + "\(counts[.skipped, default: 0]) skipped in \(CheckReports.seconds(result.seconds)) s")
        let coverage = coverageRun?.coverage
        if let coverage { try coverageRun?.write(coverage) }
        let shortfall = coverage.flatMap { coverageRun?.shortfall($0) }
        if let signal = interrupts.arrived {
            throw Interrupted("interrupted by \(Interrupts.name(of: signal)); the finally steps ran", signal: signal)
        }
        if result.outcome == .failed {
            if let shortfall { context.errorLine("moya-cli: error: \(shortfall.message)") }
            throw RunFailure("flow \(service.name).\(spec.name) failed")
        }
        if let shortfall { throw shortfall }
    }

    /// A step's line, and under a failure, each assertion's `file:line:col`.
    static func lines(for step: StepResult, file: String, colored: Bool) -> [String] {
        [step.outcome.painted(colored: colored) + TerminalText.escapingControls(step.details)]
            + step.failures.map { "      " + TerminalText.escapingControls(CheckResult.line(for: $0, in: file)) }
    }

    /// `--vars FILE` and then each `--var NAME=VALUE`, in order; a value reads as YAML's plain
    /// scalars do, so `--var id=7` is the integer 7.
    static func overrides(_ pairs: [String], file: String?) throws -> [(name: String, value: JSONValue)] {
        var overrides: [(name: String, value: JSONValue)] = []
        if let file {
            do {
                overrides += try FlowVariablesFile.read(file)
            } catch {
                throw UsageError("--vars \(file): \(error.description)")
            }
        }
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw UsageError("--var takes NAME=VALUE, not '\(pair)'")
            }
            let name = String(pair[..<equals])
            let text = String(pair[pair.index(after: equals)...])
            overrides.append((name, FlowVariablesFile.scalar(text)))
        }
        return overrides
    }

    @Sendable static func completeFlows(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        SpecOptions.completions(words, prefix) { service in service.flows.map { "\(service.name).\($0.name)" } }
    }
}
