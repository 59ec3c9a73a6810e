import ArgumentParser
import MoyaCompiler
import MoyaSpec

/// `moya-cli trust [PATH]`: lets a spec folder found in the working directory read the
/// environment (see `SpecTrust`).
struct TrustCommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust",
        _superCommandName: MoyaCommand.name,
        abstract: "Let the specs of a folder found in the working directory read environment variables.",
        discussion: """
            moya-cli reads ./specs when no --specs, MOYA_CLI_SPECS or user folder names the specs. \
            Such a folder may be someone else's, a cloned repository's: until you trust it, its \
            specs read no environment variable that is set (a token meant for your own specs, \
            say), and a ${VAR} that names one is refused. Trusting records the folder and a \
            SHA-256 of its spec files in $XDG_STATE_HOME/moya-cli/trusted \
            (~/.local/state/moya-cli/trusted); when a spec file changes, the folder must be \
            trusted again. With --always, a folder of your own (no one else may write it) stays \
            trusted through its edits; `moya-cli list` names such folders.

            Examples:
              moya-cli trust
              moya-cli trust path/to/specs
              moya-cli trust --always specs
              moya-cli trust --revoke
            """
    )

    @Argument(help: "The spec folder.")
    var path = "specs"

    @Flag(help: "Forget the folder instead.")
    var revoke = false

    @Flag(help: "Keep trusting the folder, your own, whatever changes in its specs.")
    var always = false

    func execute() async throws {
        let context = CommandContext.current
        let trust = SpecTrust(environment: context.environment)
        if revoke {
            let had = try trust.revoke(path)
            context.errorLine(had ? "moya-cli: \(path) is no longer trusted" : "moya-cli: \(path) was not trusted")
            return
        }
        let (real, files) = try trust.trust(path, always: always)
        let count = files == 1 ? "1 spec file" : "\(files) spec files"
        context.errorLine(
            always
                ? "moya-cli: trusted \(real) always (\(count)); its specs read the environment whatever changes in "
                    + "them, while it is yours alone to write"
                : "moya-cli: trusted \(real) (\(count)); its specs read the environment until one of them changes")
    }
}
