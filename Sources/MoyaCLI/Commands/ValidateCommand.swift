import ArgumentParser
import MoyaArazzo
import MoyaSpec

/// `moya-cli validate`: compiles specs and reports every problem.
struct ValidateCommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        _superCommandName: MoyaCommand.name,
        abstract: "Check spec files and report every problem with its file:line:col.",
        discussion: """
            Prints "ok: N services, M targets, F flows", or each problem as \
            file:line:col: error: key.path: message. A sample that breaks its schema is a \
            problem, one line per violation: key.path: $.id: expected integer, got string. Warnings, such as a declared param that \
            the target never uses, go to stderr as file:line:col: warning: key.path: message \
            and do not fail validation. Exits 0 when valid, 65 when a spec is invalid, 66 when \
            a path does not exist.

            A file with an `arazzo:` key is an Arazzo workflow document: it is held to the JSON \
            Schema of its version (1.0 or 1.1), then its ids, runtime expressions and \
            conditions are checked, and each operation is looked up in the OpenAPI \
            descriptions it names (files beside it, or those --source names).

            Examples:
              moya-cli validate
              moya-cli validate specs/ more-specs/github.yaml
              moya-cli validate flows/pets.arazzo.yaml --source petstore=petstore.yaml
            """
    )

    @Argument(help: ArgumentHelp("Spec files or directories. Defaults to the spec search path.", valueName: "path"))
    var paths: [String] = []

    @OptionGroup var specOptions: SpecOptions

    @Option(
        name: .customLong("source"),
        help: ArgumentHelp(
            "For an Arazzo document: the file to read the source description NAME from, instead of its url.",
            valueName: "name=file"))
    var sources: [String] = []

    func execute() async throws {
        let arazzo = paths.filter(ArazzoDocument.isArazzo(path:))
        for path in arazzo {
            let validated = try ArazzoFile.validate(
                path, sources: try ArazzoFile.sourceFiles(sources), fileRoot: specOptions.fileRoot)
            let workflows = validated.document.workflows.count
            let steps = validated.document.workflows.reduce(0) { count, workflow in
                if case .array(let steps)? = workflow["steps"] { return count + steps.count }
                return count
            }
            CommandContext.current.line(
                "ok: \(path): \(workflows) \(workflows == 1 ? "workflow" : "workflows"), \(steps) \(steps == 1 ? "step" : "steps")"
            )
        }
        guard arazzo.isEmpty || arazzo.count < paths.count else { return }
        let specs = paths.filter { !arazzo.contains($0) }
        let catalog = try specOptions.loadCatalog(paths: specs.isEmpty ? nil : specs, checkingSamples: true)
        // Warnings are likely mistakes that still compile: they go to stderr and leave the
        // exit status at 0.
        for service in catalog.services {
            var warnings = service.warnings + service.unsetVariableWarnings
            // A param named like one of call's options cannot be given as --NAME VALUE.
            for target in service.targets {
                for param in CallArguments.shadowedParams(of: target) {
                    warnings.append(
                        Diagnostic(
                            file: service.file, mark: param.mark,
                            keyPath: "targets.\(target.name).params.\(param.name)",
                            message: "--\(param.name) is moya-cli's own option; call takes this param as "
                                + "\(param.name)=VALUE", severity: .warning))
                }
            }
            for warning in warnings { CommandContext.current.errorLine(warning.description) }
        }
        let targets = catalog.services.reduce(0) { $0 + $1.targets.count }
        let flows = catalog.services.reduce(0) { $0 + $1.flows.count }
        let services = catalog.services.count
        CommandContext.current.line(
            "ok: \(services) \(services == 1 ? "service" : "services"), \(targets) \(targets == 1 ? "target" : "targets")"
                + (flows == 0 ? "" : ", \(flows) \(flows == 1 ? "flow" : "flows")"))
    }
}
