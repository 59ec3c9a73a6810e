import ArgumentParser
import MoyaCore
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
        try OpenAPIHelper.run(["export", service, output ?? "-"] + paths)
    }
}

/// `moya-cli-openapi`, which does `import openapi` and `export openapi`. OpenAPIKit is large,
/// and linked into moya-cli its metadata made every command start about 5 ms later
/// (bench/RESULTS.md), so it lives in a program of its own, installed beside moya-cli, and
/// moya-cli replaces itself with it once the command line has been read.
enum OpenAPIHelper {
    static let name = "moya-cli-openapi"

    /// Runs the helper in this process's place; returns only by throwing.
    static func run(_ arguments: [String]) throws(CommandFailure) {
        let context = CommandContext.current
        // In a process that does not end with the command (tests, a host program), replacing
        // the process would end the host.
        guard context.exitsWhenDone else {
            throw CommandFailure("\(arguments[0]) openapi runs only in the moya-cli executable", status: .usage)
        }
        guard let helper = locate(context.environment) else {
            throw CommandFailure(
                "\(name) is not beside moya-cli or on PATH; make install installs both", status: .transportFailure)
        }
        let argv = ([helper] + arguments).map { strdup($0) } + [nil]
        execv(helper, argv)
        throw CommandFailure(
            "cannot run \(helper): \(String(cString: strerror(errno)))", status: .transportFailure)
    }

    /// `$MOYA_CLI_OPENAPI`, else the helper beside this executable, else on `PATH`.
    static func locate(_ environment: Environment) -> String? {
        if let path = environment["MOYA_CLI_OPENAPI"], !path.isEmpty { return path }
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if length > 0 {
            let executable = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let slash = executable.lastIndex(of: "/") {
                let beside = executable[..<slash] + "/" + name
                if access(beside, X_OK) == 0 { return String(beside) }
            }
        }
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            let candidate = directory + "/" + name
            if access(candidate, X_OK) == 0 { return String(candidate) }
        }
        return nil
    }
}
