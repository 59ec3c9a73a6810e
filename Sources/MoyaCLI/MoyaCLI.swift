import ArgumentParser
import MoyaCommandSupport
import MoyaHTTP
import MoyaRuntime
import MoyaSpec
import MoyaTransport

/// Runs moya-cli: parses the arguments, runs the command, prints any failure and returns the
/// exit status. The executable and the tests both come through here.
public enum MoyaCLI {
    /// Runs one command line (without the program name) in `context`.
    public static func run(
        _ arguments: [String], context: CommandContext = .process, isolation: isolated (any Actor)? = #isolation
    ) async -> Int32 {
        // A command reads each file once (`SpecFiles`); the servers, which run until stopped
        // and read a spec when it changes, keep none.
        let keepsFiles = !["serve", "mcp"].contains(arguments.first ?? "")
        let files = keepsFiles ? SpecFiles.current ?? SpecFiles() : nil
        return await CommandContext.$current.withValue(context) {
            // Capturing the isolated parameter isolates this closure to it, so the command runs
            // on the caller's actor; without it, the closure would run on the thread pool.
            _ = isolation
            do {
                try await SpecFiles.$current.withValue(files) {
                    _ = isolation
                    try await runCommand(arguments, context: context, isolation: isolation)
                }
                return ExitStatus.success.rawValue
            } catch let problem as any Problem {
                // The one presenter, which moya-cli-tools shares: the details, then one line,
                // then the status of the problem's kind.
                let report = FailureReport(problem)
                for line in report.lines { context.errorLine(line) }
                return report.status.rawValue
            } catch {
                return report(error, context: context)
            }
        }
    }

    /// The command line's one job: a completion, a script, a target's help, or a command.
    private static func runCommand(
        _ arguments: [String], context: CommandContext, isolation: isolated (any Actor)? = #isolation
    ) async throws {
        // What ArgumentParser would print for it, without building the command tree: its
        // reflection and dynamic casts scan the binary's conformance records, which was most
        // of `--version`'s time (bench/RESULTS.md, "Start-up").
        if arguments == ["--version"] {
            context.line(Version.current)
            return
        }
        if let lines = paramCompletions(arguments) {
            for line in lines { context.line(line) }
            return
        }
        if let script = ShellCompletion.requestedScript(arguments) {
            context.writeOut(Array(script.utf8))
            return
        }
        if let unknown = unknownCommand(arguments) { throw UsageError(unknown) }
        if let help = try targetHelp(arguments) {
            context.line(help)
            return
        }
        // A call that may go out warms the transport on another core meanwhile.
        let warmUp = CallCommand.mayGoLive(arguments, environment: context.environment) ? TransportWarmUp() : nil
        do {
            var command = try parse(arguments)
            if let subcommand = command as? any CallerIsolatedCommand {
                try await subcommand.execute()
            } else if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if let warmUp { await context.release(warmUp) }
            throw error
        }
        if let warmUp { await context.release(warmUp) }
    }

    /// The signal the executable ends by after `run` returned `status`: SIGINT, SIGTERM or
    /// SIGHUP when one arrived and the command ended because of it, after its cleanup. Ending
    /// by the signal, with its default action, is what lets a shell stop a loop on Ctrl-C.
    public static func endingSignal(for status: Int32) -> Int32? {
        Interrupts.endingSignal(for: status)
    }

    /// Parses a command line. A line that starts with a subcommand's name and asks for none of
    /// the argument parser's built-in output (help, version, completion scripts) is parsed by
    /// that subcommand alone, which gives the same command for less: parsing from the root
    /// builds the subcommand's whole argument set an extra time, to look for pass-through
    /// arguments, and tries the line as a completion-script request, two parses of its own;
    /// together they were about 0.8 ms of a 5 ms stubbed call. A subcommand names `moya-cli`
    /// as its super-command, which is what leaves completion scripts to the root. Whatever
    /// the direct parse rejects is parsed again from the root, so usage errors and help read
    /// exactly as they always have.
    static func parse(_ arguments: [String]) throws -> any ParsableCommand {
        if let command = parseDirectly(arguments) { return command }
        return try MoyaCommand.parseAsRoot(arguments)
    }

    /// The subcommand named first on the line, parsed on its own; nil when the line asks for
    /// built-in output or the subcommand rejects it.
    static func parseDirectly(_ arguments: [String]) -> (any ParsableCommand)? {
        guard let name = arguments.first,
            let subcommand = MoyaCommand.configuration.subcommands.first(where: {
                $0.configuration.commandName == name
            }),
            !arguments.prefix(while: { $0 != "--" }).contains(where: isBuiltInFlag)
        else { return nil }
        return try? subcommand.parseAsRoot(Array(arguments.dropFirst()))
    }

    /// The options the argument parser answers itself, in any command's line.
    private static func isBuiltInFlag(_ argument: String) -> Bool {
        let name = argument.prefix { $0 != "=" }
        return ["-h", "--help", "-help", "--version", "--generate-completion-script", "--experimental-dump-help"]
            .contains(name)
    }

    /// The words a completion script asks for with `---params SHELL INDEX WORD…`; nil for
    /// any other line.
    static func paramCompletions(_ arguments: [String]) -> [String]? {
        guard arguments.first == ShellCompletion.entry else { return nil }
        guard arguments.count >= 3, let shell = ShellCompletion.Shell(rawValue: arguments[1]),
            let index = Int(arguments[2])
        else { return [] }
        return ShellCompletion.candidates(shell: shell, index: index, words: Array(arguments.dropFirst(3)))
    }

    /// The failure for a line whose first word is not a command: `calll` is told "did you
    /// mean 'call'?". Nil when the first word is a command or an option.
    static func unknownCommand(_ arguments: [String]) -> String? {
        guard let word = arguments.first, !word.hasPrefix("-") else { return nil }
        let names = MoyaCommand.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        guard !names.contains(word) else { return nil }
        let commands = names.dropLast().joined(separator: ", ")
        if let nearest = Suggestion.nearest(to: word, in: names) {
            return "'\(word)' is not a moya-cli command; did you mean '\(nearest)'?"
        }
        return "'\(word)' is not a moya-cli command; the commands are \(commands)"
    }

    /// `call SERVICE.TARGET --help`: the command's help followed by the target's params, types,
    /// defaults and descriptions, read from its spec. Nil for any other command line.
    static func targetHelp(_ arguments: [String]) throws -> String? {
        guard arguments.first == "call" else { return nil }
        let options = arguments.dropFirst().prefix { $0 != "--" }
        guard options.contains(where: { $0 == "--help" || $0 == "-h" }) else { return nil }
        let rest = arguments.dropFirst().filter { $0 != "--help" && $0 != "-h" }
        guard let call = try? CallCommand.parse(Array(rest)) else { return nil }
        let (service, target) = try call.specOptions.loadTarget(call.target, lazily: true)
        let description = TargetDescription(service: service, target: target)
        var help = MoyaCommand.helpMessage(for: CallCommand.self)
        while help.last == "\n" { help.removeLast() }
        return help + "\n\nTARGET:\n"
            + description.lines.map { "  " + $0 }.joined(separator: "\n")
    }

    private static func report(_ error: any Error, context: CommandContext) -> Int32 {
        let code = MoyaCommand.exitCode(for: error)
        let message = MoyaCommand.fullMessage(for: error)
        if code == .success {
            if !message.isEmpty { context.line(message) }
            return 0
        }
        // Usage errors lead with the same `moya-cli: error:` as every other failure; the
        // argument parser's help lines follow.
        let prefix = "Error: "
        var text = message.hasPrefix(prefix) ? "moya-cli: error: " + message.dropFirst(prefix.count) : message
        // One line says what is wrong, then the usage: the parser's "Help:" lines repeat the
        // argument's help between the two, which `--help` already shows.
        text = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("Help:") && !$0.hasPrefix("       ") }.joined(separator: "\n")
        if !text.isEmpty { context.errorLine(text) }
        return code == .validationFailure ? ExitStatus.usage.rawValue : code.rawValue
    }
}
