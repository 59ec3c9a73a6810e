import ArgumentParser
import MoyaSpec

/// `moya-cli schema`: prints the spec format's JSON Schema.
struct SchemaCommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        _superCommandName: MoyaCommand.name,
        abstract: "Print the JSON Schema of the spec format, for editors.",
        discussion: """
            Prints the spec format's JSON Schema (draft 2020-12), the same bytes as \
            schema/moya-cli-spec.schema.json. With it, the YAML language server (VS Code, \
            JetBrains, Neovim) completes and checks a spec as it is written: save it beside your \
            specs and start a spec with a line naming it.

            Examples:
              moya-cli schema > moya-cli-spec.schema.json
              # yaml-language-server: $schema=moya-cli-spec.schema.json
            """
    )

    func execute() async throws {
        CommandContext.current.line(SpecSchema.text)
    }
}
