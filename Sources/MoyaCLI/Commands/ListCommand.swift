import ArgumentParser
import MoyaCompiler
import MoyaHTTP
import MoyaSpec

/// `moya-cli list`: the services and targets the specs declare.
struct ListCommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        _superCommandName: MoyaCommand.name,
        abstract: "List services, their targets and their flows.",
        discussion: """
            Examples:
              moya-cli list
              moya-cli list github
              moya-cli list --json
            """
    )

    @Argument(help: "Only this service.")
    var service: String?

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @OptionGroup var specOptions: SpecOptions

    func execute() async throws {
        let services: [ServiceSpec]
        if let service {
            services = [try specOptions.loadService(named: service)]
        } else {
            services = try specOptions.loadCatalog().services
        }
        let context = CommandContext.current
        if json {
            context.line(JSONValue.array(services.map(Self.json)).serialized(pretty: true, escapeSlashes: false))
            return
        }
        var rows: [[String]] = []
        for service in services {
            for target in service.targets {
                rows.append([
                    "\(service.name).\(target.name)", target.method.rawValue, target.path.description,
                    TerminalText.escapingControls(target.summary ?? ""),
                ])
            }
            for flow in service.flows {
                let steps = flow.steps.count + flow.finally.count
                rows.append([
                    "\(service.name).\(flow.name)", "FLOW", "\(steps) \(steps == 1 ? "step" : "steps")",
                    TerminalText.escapingControls(flow.summary ?? ""),
                ])
            }
        }
        for line in TextTable.render(rows) { context.line(line) }
        let library = specOptions.library()
        // The folders read that stay trusted through their edits (`trust --always`).
        let always = Set(SpecTrust(environment: context.environment).alwaysTrusted())
        let lasting = library.searchPaths.filter { path in FileRoot.realPath(path).map(always.contains) ?? false }
        if !lasting.isEmpty { context.line("") }
        for path in lasting {
            context.line("\(path) is trusted always: its specs read the environment whatever their edits")
        }
        // Read from the default folders, layered: where each service came from.
        guard service == nil, library.layered, library.searchPaths.count > 1 else { return }
        context.line("")
        for path in library.searchPaths {
            let names = services.filter { $0.file.hasPrefix(path + "/") }.map(\.name)
            context.line("from \(path): " + (names.isEmpty ? "no service" : names.joined(separator: ", ")))
        }
    }

    static func json(_ service: ServiceSpec) -> JSONValue {
        .object([
            (key: "service", value: .string(service.name)),
            (key: "file", value: .string(service.file)),
            (key: "baseURL", value: .string(service.baseURL)),
            (
                key: "targets",
                value: .array(
                    service.targets.map { target in
                        .object([
                            (key: "name", value: .string(target.name)),
                            (key: "method", value: .string(target.method.rawValue)),
                            (key: "path", value: .string(target.path.description)),
                            (key: "summary", value: target.summary.map(JSONValue.string) ?? .null),
                        ])
                    })
            ),
            (
                key: "flows",
                value: .array(
                    service.flows.map { flow in
                        .object([
                            (key: "name", value: .string(flow.name)),
                            (key: "steps", value: .integer(flow.steps.count + flow.finally.count)),
                            (key: "summary", value: flow.summary.map(JSONValue.string) ?? .null),
                        ])
                    })
            ),
        ])
    }
}
