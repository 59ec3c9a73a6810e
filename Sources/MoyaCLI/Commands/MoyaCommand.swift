import ArgumentParser

/// The `moya-cli` command and its subcommands.
struct MoyaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moya-cli",
        abstract: "A declarative HTTP client: requests are declared in YAML specs, in the terms of Moya.",
        discussion: """
            Specs are read from --specs PATH (repeatable), else from $MOYA_CLI_SPECS \
            (colon-separated), else from ./specs.

            Examples:
              moya-cli validate specs/
              moya-cli list
              moya-cli describe myservice.showUser
            """,
        version: "0.1.0",
        subcommands: [CallCommand.self, ValidateCommand.self, ListCommand.self, DescribeCommand.self]
    )
}

/// Where the specs are: the option every command shares.
struct SpecOptions: ParsableArguments {
    @Option(
        name: .customLong("specs"),
        help: ArgumentHelp(
            "A spec file or directory; repeat for more. Defaults to $MOYA_CLI_SPECS, else ./specs.", valueName: "path"))
    var specs: [String] = []
}
