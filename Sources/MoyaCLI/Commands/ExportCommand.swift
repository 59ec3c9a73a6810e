import ArgumentParser
import MoyaCompiler
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
        subcommands: [
            ExportOpenAPICommand.self, ExportArazzoCommand.self, ExportPostmanCommand.self, ExportHTTPCommand.self,
        ]
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

/// `moya-cli export arazzo SERVICE`: a service's flows as an Arazzo 1.1 document.
struct ExportArazzoCommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "arazzo",
        abstract: "Write a service's flows as an Arazzo 1.1.0 document over its OpenAPI export.",
        discussion: """
            Each flow is a workflow: its vars the inputs, each step a step calling its target's \
            operation, its params the step's parameters and request body, with variables as \
            runtime expressions; expect is successCriteria, capture outputs, until and retry a \
            retry action, finally steps come last. What Arazzo cannot say (a type: predicate, \
            each, skip, a secret capture) goes in x-moya extensions, which other tools ignore and \
            import arazzo reads back: export then import gives the same flows. With -o FILE, the \
            service's OpenAPI export is written beside it as SERVICE.openapi.json, the document's \
            source description; without, the document goes to stdout and names that file.

            Examples:
              moya-cli export arazzo myservice -o flows/myservice.arazzo.yaml
            """
    )

    @Argument(help: "The service.", completion: .custom(GenerateSwiftCommand.completeServices))
    var service: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the document here instead of to stdout.", valueName: "file"))
    var output: String?

    @OptionGroup var specOptions: SpecOptions

    func execute() async throws {
        let paths = SpecLibrary.searchPaths(specs: specOptions.specs, environment: CommandContext.current.environment)
        try HelperProgram.openAPI.run(["export-arazzo", service, output ?? "-"] + paths, for: "export arazzo")
    }
}

/// `moya-cli export postman SERVICE`: a service as a Postman v2.1 collection.
struct ExportPostmanCommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "postman",
        abstract: "Write a service as a Postman v2.1 collection, in JSON.",
        discussion: """
            Each target is a request of the same name; a path param that is a whole segment \
            is a :name path variable, another param is {{name}}, its default in the request's \
            url.variable; each param's type, default and description go in x-moya-params, \
            which Postman ignores and import postman reads; each ${VAR} is a collection \
            variable with the spec's default, a credential's always empty; auth: is the \
            collection's or the request's auth; samples are saved responses. With -o FILE, each \
            environment is written beside it as SERVICE.ENV.postman_environment.json \
            (credentials empty secrets), never over a different file. What a collection cannot \
            hold (checks, timeouts, login auth) is listed on stderr. import postman of the \
            export, with --environment for each, gives back the same targets.

            Examples:
              moya-cli export postman myservice -o myservice.postman_collection.json
            """
    )

    @Argument(help: "The service.", completion: .custom(GenerateSwiftCommand.completeServices))
    var service: String

    @Option(
        name: .shortAndLong, help: ArgumentHelp("Write the collection here instead of to stdout.", valueName: "file"))
    var output: String?

    @OptionGroup var specOptions: SpecOptions

    func execute() async throws {
        let paths = SpecLibrary.searchPaths(specs: specOptions.specs, environment: CommandContext.current.environment)
        try HelperProgram.openAPI.run(["export-postman", service, output ?? "-"] + paths, for: "export postman")
    }
}

/// `moya-cli export http SERVICE`: a service as a `.http` file.
struct ExportHTTPCommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "http",
        abstract: "Write a service as a .http file (JetBrains HTTP Client, REST Client, httpyac).",
        discussion: """
            Each target is a request named by # @name under a ### title; a param is {{name}}, \
            its default an @name = value line in the request's region; each ${VAR} with a \
            default is an @VAR line at the top. With -o FILE and environments in the spec, \
            http-client.env.json is written beside FILE (never over a different one). A \
            credential is only its {{VAR}} placeholder, to set in \
            http-client.private.env.json. import http of the export gives back the same \
            targets.

            Examples:
              moya-cli export http myservice -o requests/myservice.http
            """
    )

    @Argument(help: "The service.", completion: .custom(GenerateSwiftCommand.completeServices))
    var service: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the file here instead of to stdout.", valueName: "file"))
    var output: String?

    @OptionGroup var specOptions: SpecOptions

    func execute() async throws {
        let paths = SpecLibrary.searchPaths(specs: specOptions.specs, environment: CommandContext.current.environment)
        try HelperProgram.openAPI.run(["export-http", service, output ?? "-"] + paths, for: "export http")
    }
}
