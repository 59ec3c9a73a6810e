import ArgumentParser
import MoyaHTTP
import MoyaSpec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `moya-cli export`: other descriptions of an API from a spec.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        _superCommandName: MoyaCommand.name,
        abstract: "Write another description of an API from a spec.",
        subcommands: [ExportOpenAPICommand.self]
    )
}

/// `moya-cli export openapi SERVICE`: a service as an OpenAPI 3.1 document.
struct ExportOpenAPICommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Write a service as an OpenAPI 3.1 document, in JSON.",
        discussion: """
            Each target is an operation (its name the operationId) with its params as \
            parameters and request bodies; its samples are examples, by status; the statuses \
            its checks expect are responses; auth: and API-key headers are security schemes. \
            No value from the environment is written. The document passes OpenAPIKit's \
            validation, and importing it gives back a spec that import openapi wrote.

            Examples:
              moya-cli export openapi myservice -o openapi.json
              moya-cli import openapi api.yaml -o specs/api.yaml && moya-cli export openapi api
            """
    )

    @Argument(help: "The service.", completion: .custom(GenerateSwiftCommand.completeServices))
    var service: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the document here instead of to stdout.", valueName: "file"))
    var output: String?

    @OptionGroup var specOptions: SpecOptions

    func execute() async throws {
        let paths = SpecLibrary.searchPaths(specs: specOptions.specs, environment: CommandContext.current.environment)
        try HelperProgram.openAPI.run(["export", service, output ?? "-"] + paths, for: "export openapi")
    }
}
