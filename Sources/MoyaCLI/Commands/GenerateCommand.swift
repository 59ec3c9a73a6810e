import ArgumentParser
import MoyaCommandSupport
import MoyaGenerate
import MoyaHTTP
import MoyaSpec

/// `moya-cli generate`: code from specs.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        _superCommandName: MoyaCommand.name,
        abstract: "Generate code from a spec.",
        subcommands: [GenerateSwiftCommand.self]
    )
}

/// `moya-cli generate swift SERVICE`: the service as a Moya `TargetType` enum.
struct GenerateSwiftCommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "swift",
        abstract: "Write a service as a Swift enum that conforms to Moya's TargetType.",
        discussion: """
            One case per target, its params as typed associated values; baseURL, path, \
            method, task, headers, validationType and sampleData as a Moya user writes them. \
            ${VAR} is read from the environment when the code runs, never written into it. \
            The file builds against moya-cli's Moya module (see docs/moya.md), and each case \
            builds the request `call` sends for the same values. Targets' schemas become \
            Codable models, and a target with a response schema gets a typed call: \
            `let pet: Pet = try await provider.request(.showPet(id: 1))`.

            Examples:
              moya-cli generate swift myservice
              moya-cli generate swift github -o Sources/API/GitHub.swift --access public
            """
    )

    @Argument(help: "The service.", completion: .custom(GenerateSwiftCommand.completeServices))
    var service: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the file here instead of to stdout.", valueName: "file"))
    var output: String?

    @Option(help: "The access level of what is generated: public or internal.")
    var access: SwiftGenerator.Access = .internal

    @OptionGroup var specOptions: SpecOptions

    func execute() async throws {
        let context = CommandContext.current
        let spec = try specOptions.loadService(named: service, readingEnvironment: false)
        var command = "moya-cli generate swift \(service)"
        if access == .public { command += " --access public" }
        let (source, warnings) = SwiftGenerator(access: access, command: command).generate(spec)
        for warning in warnings { context.errorLine("moya-cli: warning: \(service).\(warning)") }
        guard let output else {
            context.writeOut(Array(source.utf8))
            return
        }
        // The folders above it are made, as every other output's are (`gen/` for `gen/X.swift`),
        // and taken back when the file is not written.
        let made: [String]
        switch FileSystem.makeFolders(above: output) {
        case .success(let folders): made = folders
        case .failure(let failure): throw UsageError(failure.message)
        }
        do {
            try PendingFile.write(Array(source.utf8), to: output)
        } catch {
            FileSystem.removeFolders(made)
            throw UsageError("cannot write \(output): \(error.message)")
        }
    }

    /// Completes `SERVICE` from the specs the command line (or the environment) names.
    @Sendable static func completeServices(_ words: [String], _: Int, _ prefix: String) -> [String] {
        SpecOptions.completions(words, prefix) { [$0.name] }
    }
}

extension SwiftGenerator.Access: ExpressibleByArgument {}
