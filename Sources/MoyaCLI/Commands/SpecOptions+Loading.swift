import MoyaBinding
import MoyaCommandSupport
import MoyaCompiler
import MoyaRuntime
import MoyaSpec

extension SpecOptions {
    /// The library these options and the context's environment describe.
    /// With `readingEnvironment` false, the specs compile on `Environment.none`: every
    /// `${VAR}` stays a reference at its default (see `SpecCompiler.environment`).
    /// With `checkingSamples`, each sample is checked against its schema, as `validate` does.
    func library(
        paths: [String]? = nil, readingEnvironment: Bool = true, checkingSamples: Bool = false
    ) -> SpecLibrary {
        let environment = CommandContext.current.environment
        var compiler = compiler(explicitPaths: paths != nil)
        if !readingEnvironment { compiler.environment = .none }
        compiler.sampleBodies = checkingSamples ? ServiceSpec.sampleBody : nil
        var library = SpecLibrary(
            searchPaths: paths ?? SpecLibrary.searchPaths(specs: specs, environment: environment), compiler: compiler)
        library.layered = paths == nil && SpecLibrary.isLayered(specs: specs, environment: environment)
        return library
    }

    /// The compiler these options and the context's environment describe.
    /// Specs found in the working directory read no set variable until the user trusts
    /// their folder (`SpecTrust`); `explicitPaths` says a command named its own paths.
    func compiler(explicitPaths: Bool = false) -> SpecCompiler {
        let environment = CommandContext.current.environment
        var compiler = SpecCompiler(environment: environment)
        compiler.fileRoot = fileRoot
        compiler.userSecrets = UserSecrets.load(environment: environment)
        if !explicitPaths, let found = SpecLibrary.foundFolder(specs: specs, environment: environment) {
            let trust = SpecTrust(environment: environment)
            compiler.refusesEnvironment = EnvironmentRefusal(folder: found) { reading in
                trust.refusal(forFound: found, reading: reading)
            }
        }
        return compiler
    }

    /// What reads the secrets a sent target needs from their sources (`secrets:`), for the
    /// specs these options describe: one per command, so that each value is read at most once.
    func secretVault(explicitPaths: Bool = false) -> SecretVault {
        let environment = CommandContext.current.environment
        let trust = SecretStoreTrust(
            refusesEnvironment: compiler(explicitPaths: explicitPaths).refusesEnvironment, environment: environment)
        return SecretVault(environment: environment, refuses: trust.refusal)
    }

    /// Options for completion, which parses no flags: the `--specs` a command line names,
    /// and each spec's own folder as its file root.
    init(naming specs: [String]) {
        self.init()
        self.specs = specs
        fileRoot = nil
    }

    /// Shell completions from the specs a command line (or the environment) names: `names`
    /// of every service, those that start with `prefix`.
    static func completions(
        _ words: [String], _ prefix: String, _ names: (ServiceSpec) -> [String]
    ) -> [String] {
        let options = SpecOptions(naming: CallCommand.specPaths(in: words))
        // Completion reads no environment: it names targets, which no variable changes.
        guard let catalog = try? options.library(readingEnvironment: false).loadAll() else { return [] }
        return catalog.services.flatMap(names).filter { $0.hasPrefix(prefix) }
    }

    /// Every service, or a failure carrying every diagnostic.
    func loadCatalog(paths: [String]? = nil, checkingSamples: Bool = false) throws
        -> SpecLibrary.Catalog
    {
        try Self.loadCatalog(library(paths: paths, checkingSamples: checkingSamples), context: CommandContext.current)
    }

    /// Every service of `library`, or a failure carrying every diagnostic; a note on
    /// `context`'s stderr for each service a nearer layer hides.
    static func loadCatalog(_ library: SpecLibrary, context: CommandContext) throws
        -> SpecLibrary.Catalog
    {
        let catalog: SpecLibrary.Catalog
        do {
            catalog = try library.loadAll()
        } catch {
            throw FileFailure.missing(error.description)
        }
        guard catalog.diagnostics.isEmpty else { throw Self.invalid(catalog.diagnostics) }
        for shadowing in catalog.shadowed {
            context.errorLine(
                "moya-cli: note: service '\(shadowing.service)' is read from \(shadowing.kept), which hides "
                    + shadowing.hidden)
        }
        return catalog
    }

    /// One service by name.
    /// With `target`, only what a call of it needs is compiled.
    func loadService(named name: String, target: String? = nil, readingEnvironment: Bool = true)
        throws -> ServiceSpec
    {
        do {
            let library = library(readingEnvironment: readingEnvironment)
            let service = try library.service(named: name, target: target)
            for hidden in library.shadowedFiles(of: name, keptIn: service.file) {
                CommandContext.current.errorLine(
                    "moya-cli: note: service '\(name)' is read from \(service.file), which hides \(hidden)")
            }
            return service
        } catch let error as SpecError {
            throw Self.invalid(error.diagnostics)
        } catch let error as SpecNotFoundError {
            throw FileFailure.missing(error.description)
        } catch {
            throw UsageError("\(error)")
        }
    }

    /// A service and one of its targets from `SERVICE.TARGET`. With `lazily`, the service
    /// holds only that target and what it needs, as `call` wants; the rest of the file is not
    /// compiled.
    func loadTarget(_ qualifiedName: String, lazily: Bool = false, readingEnvironment: Bool = true)
        throws -> (ServiceSpec, TargetSpec)
    {
        let (serviceName, targetName) = try Self.split(qualifiedName, "SERVICE.TARGET")
        // A target the file does not have gets the whole service, which names the others.
        let service = try loadService(
            named: serviceName, target: lazily ? targetName : nil,
            readingEnvironment: readingEnvironment)
        guard let target = service.target(named: targetName) else {
            let names = service.targets.map(\.name)
            throw UsageError(
                "service '\(serviceName)' has no target '\(targetName)'" + hint(targetName, names))
        }
        return (service, target)
    }

    /// Every service, and the service and flow `SERVICE.FLOW` names: a flow's steps may call
    /// any service's targets.
    func loadFlow(_ qualifiedName: String) throws -> (SpecLibrary.Catalog, ServiceSpec, FlowSpec) {
        let (serviceName, flowName) = try Self.split(qualifiedName, "SERVICE.FLOW")
        let catalog = try loadCatalog()
        guard let service = catalog.services.first(where: { $0.name == serviceName }) else {
            throw FileFailure.missing(
                "no service '\(serviceName)'" + hint(serviceName, catalog.services.map(\.name)))
        }
        guard let flow = service.flows.first(where: { $0.name == flowName }) else {
            let names = service.flows.map(\.name)
            throw UsageError(
                "service '\(serviceName)' has no flow '\(flowName)'"
                    + (names.isEmpty ? "; it has none" : hint(flowName, names)))
        }
        return (catalog, service, flow)
    }

    /// `SERVICE` and `NAME` from `SERVICE.NAME`.
    static func split(_ qualifiedName: String, _ form: String) throws -> (String, String) {
        guard let dot = qualifiedName.firstIndex(of: "."), dot != qualifiedName.startIndex,
            dot != qualifiedName.index(before: qualifiedName.endIndex)
        else {
            throw UsageError("expected \(form), got '\(qualifiedName)'")
        }
        return (String(qualifiedName[..<dot]), String(qualifiedName[qualifiedName.index(after: dot)...]))
    }

    /// `; did you mean 'x'?`, else `; it has a, b`, else nothing.
    func hint(_ name: String, _ names: [String]) -> String {
        let suggestion = Suggestion.hint(for: name, in: names)
        guard suggestion.isEmpty, !names.isEmpty else { return suggestion }
        return "; it has \(names.joined(separator: ", "))"
    }

    static func invalid(_ diagnostics: [Diagnostic]) -> SpecError {
        SpecError(diagnostics)
    }
}
