import ArgumentParser
import MoyaRuntime

/// The `moya-cli` command and its subcommands.
struct MoyaCommand: AsyncParsableCommand {
    /// The tool's name. Each subcommand also names it as its super-command, so that a
    /// subcommand parsed on its own (see `MoyaCLI.parse`) still reads `moya-cli call` in its
    /// usage, and leaves completion-script requests to this root command.
    static let name = "moya-cli"

    static let configuration = CommandConfiguration(
        commandName: name,
        abstract: "A declarative HTTP client: requests are declared in YAML specs, in the terms of Moya.",
        discussion: """
            A spec is a YAML file that declares a service in Moya's terms: a base URL, and \
            targets with a path, a method, a task, headers, sample data and a validation type. \
            moya-cli compiles specs into requests and sends them, or answers them from their \
            samples. moya-cli-spec(5) describes the format.

            Specs are read from --specs PATH (repeatable), else from $MOYA_CLI_SPECS \
            (colon-separated), else from ./specs and $XDG_CONFIG_HOME/moya-cli/specs \
            (~/.config/moya-cli/specs) together, a service in ./specs hiding one of the same \
            name in the other. A service's own file, SERVICE.yaml, is read alone when it is \
            named after the service. Specs found in ./specs read no set environment variable \
            until you run moya-cli trust; every file a spec reads or writes must be in its folder, \
            or under --file-root.

            Stubbing: `call --stub immediate` answers from the target's sample without touching \
            the network; `--stub delayed=SECONDS` waits first; `--sample NAME` picks a named \
            sample, a status, headers and body, or a network error such as timeout.

            Exit codes: 0 success; 1 transport failure; 2 timeout; 3, 4, 5 a response that \
            failed validation with a 3xx, 4xx or 5xx status; 6 too many redirects; 7 a key path \
            not in the response; 8 a 1xx or 2xx status that failed a custom validation list; \
            9 call --all stopped before the last page; 64 usage; 65 invalid spec; 66 missing spec; 73 --record could not write; 129 hung up \
            (SIGHUP); 130 interrupted (SIGINT); 143 terminated (SIGTERM).

            Environment: MOYA_CLI_SPECS, the spec search path; HTTP_PROXY, HTTPS_PROXY and \
            NO_PROXY, the proxies; NO_COLOR, no colour; XDG_CONFIG_HOME, where specs are found \
            last; XDG_CACHE_HOME, where auth logins cache tokens; any variable a spec names as ${VAR} or ${VAR:-default}.

            Flows: a spec's flows: are steps that call targets in order, passing captured \
            values along; `run SERVICE.FLOW` runs one, and check runs them all.

            Completions: moya-cli --generate-completion-script bash|zsh|fish; completing `call` \
            offers SERVICE.TARGET names from the specs and then the target's params (and an \
            enum param's values), `run` offers SERVICE.FLOW names, `describe` offers both, and \
            `generate swift` offers SERVICE names; a mistyped command gets the nearest one.

            Examples:
              moya-cli call myservice.showUser --id 1
              moya-cli call myservice.showUser --id 1 --stub immediate
              moya-cli run myservice.userLifecycle --stub immediate
              moya-cli check specs/ --stub immediate
              moya-cli validate specs/
              moya-cli list
              moya-cli describe myservice.showUser
            """,
        version: Version.current,
        subcommands: [
            CallCommand.self, RunCommand.self, CheckCommand.self, ValidateCommand.self, ListCommand.self,
            DescribeCommand.self, GenerateCommand.self, ServeCommand.self, ImportCommand.self,
            ExportCommand.self, TrustCommand.self, InitCommand.self, MCPCommand.self, SchemaCommand.self,
            SecretsCommand.self,
        ]
    )
}

/// Where the specs are: the option every command shares.
struct SpecOptions: ParsableArguments {
    @Option(
        name: .customLong("specs"),
        help: ArgumentHelp(
            "A spec file or directory; repeat for more. Defaults to $MOYA_CLI_SPECS, else ./specs and ~/.config/moya-cli/specs.",
            valueName: "path"))
    var specs: [String] = []
    @Option(
        name: .customLong("file-root"),
        help: ArgumentHelp(
            "The folder every file a spec reads or writes must be in. Defaults to each spec's own folder.",
            valueName: "dir"))
    var fileRoot: String?
}

/// A subcommand whose work runs on its caller's actor, as this module's async functions do.
/// `AsyncParsableCommand.run()` is declared in a module where async functions run on the
/// thread pool, so a call through it would start the pool's threads even for a call answered
/// from a sample; `MoyaCLI.run` calls `execute()` instead, which stays on the main thread.
protocol CallerIsolatedCommand: AsyncParsableCommand {
    func execute() async throws
}

extension CallerIsolatedCommand {
    func run() async throws { try await execute() }
}
