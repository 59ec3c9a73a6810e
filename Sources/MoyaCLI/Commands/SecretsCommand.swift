import ArgumentParser
import MoyaCommandSupport
import MoyaRuntime
import MoyaSpec

/// `moya-cli secrets`: where specs' secrets come from.
struct SecretsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secrets",
        _superCommandName: MoyaCommand.name,
        abstract: "Check where specs' secrets come from.",
        subcommands: [SecretsCheckCommand.self]
    )
}

/// `moya-cli secrets check [SERVICE]`: reads every declared source and says, per variable,
/// where its value came from and how long it is, never the value.
struct SecretsCheckCommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Read every secret's source, and print where each value came from and its length, never the value.",
        discussion: """
            Each ${NAME} a spec's secrets: (or your ~/.config/moya-cli/secrets.yaml) names a \
            source for is read as a call would read it: from the environment when it is set, \
            else from pass, the keyring, a dotenv file or a command, under the same trust rules. \
            One line per service and variable: where the value came from and its length, or why \
            it could not be read. Exits 0 when every one was read, else with the first \
            failure's status: 66 for a source that has nothing, 69 for one that failed, 77 for \
            a folder that is not trusted. See docs/secrets.md.

            Examples:
              moya-cli secrets check
              moya-cli secrets check github
            """
    )

    @Argument(help: "Only this service's secrets.", completion: .custom(GenerateSwiftCommand.completeServices))
    var service: String?

    @OptionGroup var specOptions: SpecOptions

    func execute() async throws {
        let context = CommandContext.current
        let services =
            try service.map { [try specOptions.loadService(named: $0)] } ?? specOptions.loadCatalog().services
        let vault = specOptions.secretVault()
        var rows: [[String]] = []
        var failures: [SecretFailure] = []
        for service in services {
            for name in service.secretSources.keys.sorted() {
                guard let source = service.secretSources[name] else { continue }
                if vault.refusal(of: source, for: service) == nil, let value = context.environment[name] {
                    rows.append([service.name, name, "the environment, over \(source)", Self.length(value)])
                    continue
                }
                do {
                    let value = try vault.read(name, from: source, for: service, needer: nil)
                    rows.append([service.name, name, source.description, Self.length(value)])
                } catch {
                    failures.append(error)
                    rows.append([service.name, name, source.description, "not read: \(error.reason)"])
                }
            }
        }
        guard !rows.isEmpty else {
            context.line("no secrets: no spec names a source" + (service.map { " in service \($0)" } ?? ""))
            return
        }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let padded = (0..<3).map { row[$0] + String(repeating: " ", count: widths[$0] - row[$0].count) }
            context.line((padded + [row[3]]).joined(separator: "  "))
        }
        if let first = failures.first {
            throw FailureSummary(
                "\(failures.count) of \(rows.count) secrets could not be read; the first: \(first.message)", of: first)
        }
    }

    private static func length(_ value: String) -> String {
        value.count == 1 ? "1 character" : "\(value.count) characters"
    }
}
