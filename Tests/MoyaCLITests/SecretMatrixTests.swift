import Foundation
import MoyaCLI
import MoyaCompiler
import MoyaCore
import MoyaServe
import MoyaSpec
import Synchronization
import TestSupport
import XCTest

/// Every output crossed with every source of a secret, in every encoding: one table.
///
/// Each row is an output (`-v`, `-vv`, `--curl`, `--dry-run`, `describe`, help, the reports,
/// a flow's log, serve's log, `--record`, errors) and the sources it carries. A row's text
/// must hold no form of any secret. Where the command takes `--show-secrets`, the same run
/// with it must show each of the row's sources, so that every cell is proven to be reached,
/// not only missed.
final class SecretMatrixTests: XCTestCase {
    /// Where a secret is bound, with its value.
    enum Source: String, CaseIterable {
        case param = "pa+r/am=1 é"
        case header = "he@der/v+2"
        case environment = #"en"v\u/3"#
        case bearer = "be/ar+er=4"
        case headerOption = "da/sh+h=5"
        case authorizationOption = "au/th+6"
        case cookie = "c00kie-in-body"
        case capture = "r3fresh-t0ken-secret"
        case login = "acc3ss-t0ken"
        case served = "se/rve+9 x"
    }

    struct Row {
        let output: String
        let sources: [Source]
        /// Whether the commands take `--show-secrets`.
        let showable: Bool
        /// Whether the text must show the mask: false for an output that names no value.
        var masks = true
        /// The row's text, with `--show-secrets` or without.
        let run: (_ showing: Bool) async throws -> String
    }

    var server: TestServer!
    var folder = ""

    override func setUpWithError() throws {
        server = try TestServer()
        folder = NSTemporaryDirectory() + "moya-cli-secret-matrix-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: CommandTests.root + "/Tests/Fixtures/secret-matrix/vault.yaml", toPath: folder + "/vault.yaml")
    }

    override func tearDown() {
        server.stop()
        stores?.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Where VAULT_ENV and VAULT_BEARER come from: the environment, or with `stores`, the
    /// store the user's `secrets.yaml` names for them.
    var stores: SecretStores?

    var environment: [String: String] {
        guard let stores else {
            return [
                "TEST_SERVER": server.baseURL, "VAULT_ENV": Source.environment.rawValue,
                "VAULT_BEARER": Source.bearer.rawValue,
            ]
        }
        return stores.environment.merging(
            ["TEST_SERVER": server.baseURL, "XDG_CONFIG_HOME": stores.folder + "/config"]) { $1 }
    }

    /// The user's `secrets.yaml` naming `store` for VAULT_ENV and VAULT_BEARER, and the store
    /// holding their values, started with its real program.
    func use(_ store: String) throws {
        let stores = try SecretStores()
        self.stores = stores
        let config = stores.folder + "/config/moya-cli"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        let values = [("VAULT_ENV", Source.environment.rawValue), ("VAULT_BEARER", Source.bearer.rawValue)]
        var lines = ["secrets:"]
        for (name, value) in values {
            switch store {
            case "pass":
                lines.append("  \(name): { pass: vault/\(name) }")
            case "keyring":
                lines.append("  \(name): { keyring: { service: vault, name: \(name) } }")
            case "dotenv":
                lines.append("  \(name): { dotenv: vault.env }")
            default:
                // The value in a file the program prints, so that no spec text holds it.
                try value.write(toFile: config + "/\(name).txt", atomically: true, encoding: .utf8)
                lines.append("  \(name): { command: [cat, \"\(config)/\(name).txt\"] }")
            }
        }
        switch store {
        case "pass":
            try stores.startPass()
            for (name, value) in values { try stores.insertPass("vault/\(name)", value) }
        case "keyring":
            try stores.startKeyring()
            for (name, value) in values { try stores.storeKeyring([("service", "vault"), ("name", name)], value) }
        case "dotenv":
            let file = values.map { "\($0.0)='\($0.1)'" }.joined(separator: "\n")
            try file.write(toFile: config + "/vault.env", atomically: true, encoding: .utf8)
        default: break
        }
        try lines.joined(separator: "\n").write(toFile: config + "/secrets.yaml", atomically: true, encoding: .utf8)
    }

    /// Runs `moya-cli` on the matrix spec: stdout and stderr together, or with `logOnly`,
    /// stderr alone. A live call's stdout is the body the server sent, the data the user
    /// asked for, which is printed as it came.
    func moya(
        _ arguments: [String], showing: Bool = false, environment extra: [String: String] = [:], logOnly: Bool = false
    ) async -> String {
        let words = arguments + ["--specs", folder] + (showing ? ["--show-secrets"] : [])
        let (_, out, error) = await CommandTests.run(words, environment: environment.merging(extra) { $1 })
        return logOnly ? error : out + error
    }

    /// The calls a log row makes: every source a single call can carry.
    func calls(_ flags: [String], showing: Bool) async -> String {
        let logOnly = !flags.contains("--dry-run")
        var text = await moya(
            ["call", "vault.echo", "--code", Source.param.rawValue] + flags, showing: showing, logOnly: logOnly)
        text += await moya(["call", "vault.bearer"] + flags, showing: showing, logOnly: logOnly)
        text += await moya(
            [
                "call", "vault.plain", "-H", "X-Api-Key: \(Source.headerOption.rawValue)", "-H",
                "Authorization: Bearer \(Source.authorizationOption.rawValue)",
            ] + flags, showing: showing, logOnly: logOnly)
        return text
    }

    /// Every form of `secret` that must never be printed: Foundation's encodings (see
    /// `SecretTests.forms`), and JSON's `\u` spelling of each character and of each character
    /// that is not a letter or digit.
    static func forms(of secret: String) -> [String] { SecretForms.all(secret) }

    func leaks(in text: String) -> [String] {
        Source.allCases.flatMap { source in
            Self.forms(of: source.rawValue).filter { text.contains($0) }.map { "\(source) as \($0)" }
        }
    }

    func shown(_ source: Source, in text: String) -> Bool {
        Self.forms(of: source.rawValue).contains { text.contains($0) }
    }

    var rows: [Row] {
        let allCall: [Source] = [.param, .header, .environment, .bearer, .headerOption, .authorizationOption, .login]
        return [
            Row(output: "-v", sources: allCall.filter { $0 != .login }, showable: true) { showing in
                await self.calls(["-v"], showing: showing)
            },
            Row(output: "-vv", sources: allCall, showable: true) { showing in
                await self.calls(["-vv"], showing: showing)
            },
            Row(output: "--curl", sources: allCall.filter { $0 != .login }, showable: true) { showing in
                await self.calls(["--curl"], showing: showing)
            },
            Row(output: "--dry-run", sources: allCall.filter { $0 != .login }, showable: true) { showing in
                await self.calls(["--dry-run"], showing: showing)
            },
            Row(output: "--dry-run --json", sources: allCall.filter { $0 != .login }, showable: true) { showing in
                await self.calls(["--dry-run", "--json"], showing: showing)
            },
            Row(output: "describe", sources: [.header], showable: false) { _ in
                var text = ""
                for target in ["vault.echo", "vault.bearer", "vault.mint"] {
                    text += await self.moya(["describe", target])
                    text += await self.moya(["describe", target, "--json"])
                }
                return text + (await self.moya(["list"])) + (await self.moya(["list", "--json"]))
            },
            Row(output: "help", sources: [.header], showable: false) { _ in
                await self.moya(["call", "vault.echo", "--help"])
                    + (await self.moya(["call", "vault.bearer", "--help"]))
            },
            Row(
                output: "check lines and reports", sources: [.param, .header, .environment],
                showable: true
            ) { showing in
                let junit = self.folder + "/junit-\(showing).xml"
                let json = self.folder + "/report-\(showing).json"
                let lines = await self.moya(["check", "--junit", junit, "--json", json], showing: showing)
                let tap = await self.moya(["check", "--tap"], showing: showing)
                let reports = try [junit, json].map { try String(contentsOfFile: $0, encoding: .utf8) }.joined()
                return lines + tap + reports
            },
            Row(output: "a flow's lines and log", sources: [.capture, .cookie, .login, .header], showable: true) {
                showing in
                await self.moya(["run", "vault.relay", "-vv"], showing: showing)
            },
            Row(output: "serve's log", sources: [.served], showable: true) { showing in
                try await self.serveLog(showing: showing)
            },
            Row(output: "--record", sources: [.param, .header, .environment, .login], showable: false) { _ in
                let before = try String(contentsOfFile: self.folder + "/vault.yaml", encoding: .utf8)
                var text = await self.moya(
                    ["call", "vault.echo", "--code", Source.param.rawValue, "--record"], logOnly: true)
                text += await self.moya(["call", "vault.mint", "--record"], logOnly: true)
                let after = try String(contentsOfFile: self.folder + "/vault.yaml", encoding: .utf8)
                // What the recording added: the rest of the file is the spec as written.
                let added = Set(after.split(separator: "\n")).subtracting(before.split(separator: "\n"))
                XCTAssertTrue(after.contains("••••"), after)
                return text + added.sorted().joined(separator: "\n")
            },
            Row(output: "errors", sources: [], showable: true, masks: false) { showing in
                var text = await self.moya(["call", "vault.denied", "--code", Source.param.rawValue], showing: showing)
                text += await self.moya(
                    ["call", "vault.echo", "--code", Source.param.rawValue], showing: showing,
                    environment: ["TEST_SERVER": "http://127.0.0.1:9"])
                text += await self.moya(
                    ["call", "vault.echo", "--code", Source.param.rawValue, "--code", Source.served.rawValue],
                    showing: showing)
                return text
            },
        ]
    }

    /// serve's `-v` log while moya-cli's own client sends it a secret param: serve in-process on
    /// port 0, the client pointed at it.
    func serveLog(showing: Bool) async throws -> String {
        let log = Mutex<[String]>([])
        let service = try SpecCompiler(environment: Environment(environment)).compile(file: folder + "/vault.yaml")
        let served = try await MockHTTPServer(
            router: MockRouter(services: [service]), host: "127.0.0.1", port: 0,
            options: MockHTTPServer.Options(
                verbose: true, showSecrets: showing, log: { line in log.withLock { $0.append(line) } }))
        let url = "http://127.0.0.1:\(served.port)"
        _ = await moya(["call", "vault.echo", "--code", Source.served.rawValue], environment: ["TEST_SERVER": url])
        _ = await served.stop(grace: 5)
        return log.withLock { $0.joined(separator: "\n") }
    }

    /// The rows to run. serve reads no store, since it sends nothing: its log masks the
    /// values it knows (secret params, its environment), so with a store's values it is left out.
    var runRows: [Row] { stores == nil ? rows : rows.filter { $0.output != "serve's log" } }

    func testNoOutputShowsAnySecretInAnyForm() async throws {
        for row in runRows {
            let text = try await row.run(false)
            XCTAssertTrue(!row.masks || text.contains("••••"), "\(row.output) masks nothing:\n\(text)")
            for leak in leaks(in: text) {
                XCTFail("\(row.output) shows \(leak):\n\(text)")
            }
        }
    }

    func testEachCellIsReached() async throws {
        for row in runRows where row.showable {
            let text = try await row.run(true)
            for source in row.sources where !shown(source, in: text) {
                XCTFail("\(row.output) with --show-secrets does not show \(source):\n\(text)")
            }
        }
    }
}

/// The matrix again with VAULT_ENV and VAULT_BEARER from each store instead of the
/// environment, named in the user's `secrets.yaml`: a value read from a store is a secret in
/// every output as an environment value is.
extension SecretMatrixTests {
    func testSecretsFromPassInEveryOutput() async throws {
        try use("pass")
        try await testNoOutputShowsAnySecretInAnyForm()
        try await testEachCellIsReached()
    }

    func testSecretsFromTheKeyringInEveryOutput() async throws {
        try use("keyring")
        try await testNoOutputShowsAnySecretInAnyForm()
        try await testEachCellIsReached()
    }

    func testSecretsFromADotenvFileInEveryOutput() async throws {
        try use("dotenv")
        try await testNoOutputShowsAnySecretInAnyForm()
        try await testEachCellIsReached()
    }

    func testSecretsFromACommandInEveryOutput() async throws {
        try use("command")
        try await testNoOutputShowsAnySecretInAnyForm()
        try await testEachCellIsReached()
    }
}
