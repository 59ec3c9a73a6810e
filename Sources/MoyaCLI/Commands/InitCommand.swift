import ArgumentParser
import MoyaCommandSupport
import MoyaCompiler
import MoyaHTTP
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `moya-cli init [SERVICE --base-url URL]`: a first spec in the user's spec folder, or the
/// installed example specs, and what to run next.
struct InitCommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        _superCommandName: MoyaCommand.name,
        abstract: "Write a first spec, or the example specs, into your spec folder.",
        discussion: """
            With SERVICE and --base-url, writes SERVICE.yaml with one target, root (GET /), \
            into the folder moya-cli reads from anywhere ($XDG_CONFIG_HOME/moya-cli/specs, \
            ~/.config/moya-cli/specs), or --specs DIR. Without them, copies the example specs \
            make install put in PREFIX/share/moya-cli/examples (myservice, github, httpbin, \
            translator), so that the README's examples work from any folder. A file already \
            there is kept, unless --force. Says what to run next.

            Examples:
              moya-cli init
              moya-cli init shop --base-url https://api.shop.example
            """
    )

    @Argument(help: "The new service's name: a letter, then letters, digits, '_' or '-'.")
    var service: String?

    @Option(name: .customLong("base-url"), help: ArgumentHelp("The new service's base URL.", valueName: "url"))
    var baseURL: String?

    @Option(help: ArgumentHelp("Write into this folder instead of your spec folder.", valueName: "dir"))
    var specs: String?

    @Flag(help: "Replace a file that is already there.")
    var force = false

    /// The environment variable that names the examples' folder instead.
    static let examplesVariable = "MOYA_CLI_EXAMPLES"

    func execute() async throws {
        let context = CommandContext.current
        let folder = try self.folder(context.environment)
        switch (service, baseURL) {
        case (let service?, let baseURL?):
            try writeFirstSpec(service, baseURL: baseURL, into: folder)
        case (nil, nil):
            try copyExamples(into: folder)
        default:
            throw UsageError("init SERVICE needs --base-url URL, and --base-url a SERVICE")
        }
    }

    /// `--specs DIR`, else the user's spec folder.
    func folder(_ environment: Environment) throws -> String {
        if let specs { return specs.hasSuffix("/") && specs.count > 1 ? String(specs.dropLast()) : specs }
        guard let user = SpecLibrary.defaultPaths(environment: environment).dropFirst().first else {
            throw UsageError(
                "init needs a folder for specs: set HOME or XDG_CONFIG_HOME, or give --specs DIR")
        }
        return user
    }

    func writeFirstSpec(_ service: String, baseURL: String, into folder: String) throws {
        let context = CommandContext.current
        guard ParamSpec.isValidName(service) else {
            throw UsageError(
                "'\(TerminalText.escapingControls(service))' is not a valid service name; use letters, digits, '_' "
                    + "and '-', starting with a letter")
        }
        let file = folder + "/" + service + ".yaml"
        let text = """
            # A first spec: `moya-cli call \(service).root` sends GET / to the base URL. Add targets
            # below (docs/spec-format.md), or save requests into this file with
            # `moya-cli call URL ... --save \(service).NAME`.
            service: \(service)
            baseURL: \(JSONValue.string(baseURL).serialized(escapeSlashes: false))
            targets:
              root:
                summary: The API's root
                path: /

            """
        // Held to the compiler first: a base URL it refuses is said so, and nothing is written.
        do {
            _ = try SpecCompiler(environment: Environment([:])).compile(Array(text.utf8), file: file)
        } catch {
            throw UsageError(
                "init \(service): nothing was written", details: error.diagnostics.map(\.description))
        }
        try write(Array(text.utf8), to: file)
        context.errorLine("moya-cli: wrote \(file)")
        context.errorLine(
            "next: moya-cli call \(service).root, then add targets (docs/tutorial.md), or save a request with "
                + "moya-cli call \(baseURL)/PATH --save \(service).NAME")
    }

    func copyExamples(into folder: String) throws {
        let context = CommandContext.current
        guard let examples = Self.examples(context.environment) else {
            throw FileFailure.missing(
                "no example specs beside moya-cli (PREFIX/share/moya-cli/examples): make install puts them there; "
                    + "or give SERVICE --base-url URL for a spec of your own")
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: examples)) ?? []).filter {
            ($0.hasSuffix(".yaml") || $0.hasSuffix(".json")) && FileSystem.kind(examples + "/" + $0) == .file
        }.sorted()
        var written: [String] = []
        for name in names {
            let file = folder + "/" + name
            if !force, FileSystem.kind(file) != .missing {
                context.errorLine("moya-cli: kept \(file): it is there already (--force replaces it)")
                continue
            }
            let bytes: [UInt8]
            do {
                bytes = try FileSystem.contents(examples + "/" + name)
            } catch {
                throw FileFailure.missing("cannot read \(examples)/\(name)")
            }
            try write(bytes, to: file)
            written.append(name)
        }
        if !written.isEmpty { context.errorLine("moya-cli: wrote \(written.joined(separator: ", ")) in \(folder)") }
        context.errorLine("next: moya-cli list, then moya-cli call myservice.showUser --id 1 --stub immediate")
    }

    /// Writes `bytes` whole, making the folder when it is not there yet.
    func write(_ bytes: [UInt8], to file: String) throws {
        if !force, FileSystem.kind(file) != .missing {
            throw FileFailure.unwritable("\(file) is there already; --force replaces it")
        }
        let made: [String]
        switch FileSystem.makeFolders(above: file) {
        case .success(let folders): made = folders
        case .failure(let failure): throw FileFailure.unwritable(failure.message)
        }
        do {
            try PendingFile.write(bytes, to: file)
        } catch {
            FileSystem.removeFolders(made)
            throw FileFailure.unwritable("cannot write \(file): \(error.message)")
        }
    }

    /// `$MOYA_CLI_EXAMPLES`, else `share/moya-cli/examples` under the prefix moya-cli is
    /// installed in (`PREFIX/bin/moya-cli`); nil when neither is a folder.
    static func examples(_ environment: Environment) -> String? {
        if let given = environment[examplesVariable], !given.isEmpty {
            return SpecLibrary.isFolder(given) ? given : nil
        }
        guard let executable = HelperProgram.runningExecutable() else { return nil }
        let parts = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast(2)
        let folder = parts.joined(separator: "/") + "/share/moya-cli/examples"
        return SpecLibrary.isFolder(folder) ? folder : nil
    }
}
