import MoyaCLI
import MoyaCommandSupport
import MoyaCore
import MoyaSpec
import XCTest

/// Per-target help, completions, examples in every help, and the exit-code table in the docs.
extension CommandTests {
    func testCallTargetHelpListsTheTargetsParams() async {
        let calls = Self.root + "/Tests/Fixtures/calls"
        let server = ["TEST_SERVER": "http://127.0.0.1:1"]
        let (status, out, _) = await run(["call", "calls.flaky", "--help", "--specs", calls], environment: server)
        XCTAssertEqual(status, 0)
        XCTAssertTrue(out.hasPrefix("OVERVIEW: Send a target's request"), out)
        XCTAssertTrue(out.contains("\nTARGET:\n  calls.flaky: Fails the first n requests"), out)
        XCTAssertTrue(out.contains("--key    string  required      Counts requests apart from other tests."), out)
        XCTAssertTrue(out.contains("--how    string  default: 503  A status, drop or slow."), out)

        let (plain, general, _) = await run(["call", "--help"])
        XCTAssertEqual(plain, 0)
        XCTAssertFalse(general.contains("TARGET:"))

        let (missing, _, error) = await run(
            ["call", "calls.nosuch", "-h", "--specs", calls], environment: server)
        XCTAssertEqual(missing, 64)
        XCTAssertTrue(error.hasPrefix("moya-cli: error: service 'calls' has no target 'nosuch'"), error)
    }

    func testEverySubcommandsHelpHasExamples() async {
        for command in ["call", "validate", "list", "describe"] {
            let (status, out, _) = await run([command, "--help"])
            XCTAssertEqual(status, 0)
            XCTAssertTrue(out.contains("Examples:\n  moya-cli \(command)"), command)
        }
    }

    func testCompletionScriptsAndTargetCompletion() async {
        for shell in ["bash", "zsh", "fish"] {
            let (status, out, _) = await run(["--generate-completion-script", shell])
            XCTAssertEqual(status, 0, shell)
            XCTAssertTrue(out.contains("---completion call -- positional@0"), shell)
        }
        // Shells pass the words up to the one being completed.
        let words = ["moya-cli", "call", "--specs", specs, "myservice.sh"]
        let (status, out, _) = await run(["---completion", "call", "--", "positional@0", "4", "12"] + words)
        XCTAssertEqual(status, 0)
        XCTAssertEqual(out, "myservice.showUser\nmyservice.showAccounts\n")
        let (_, all, _) = await run(
            ["---completion", "call", "--", "positional@0", "2", "0", "moya-cli", "call", ""],
            environment: ["MOYA_CLI_SPECS": specs])
        XCTAssertTrue(all.contains("github.zen\n"), all)
        XCTAssertTrue(all.contains("translator.translate\n"), all)
    }

    func testExitCodeTableIsDocumented() throws {
        let readme = try String(contentsOfFile: Self.root + "/README.md", encoding: .utf8)
        let manual = try String(contentsOfFile: Self.root + "/man/moya-cli.1", encoding: .utf8)
        for status in ExitStatus.allCases {
            XCTAssertTrue(readme.contains("| \(status.rawValue) | \(status.summary) |"), "README: \(status)")
            XCTAssertTrue(manual.contains(".It \(status.rawValue)\n\(status.summary)"), "man page: \(status)")
        }
        // docs/exit-codes.md lists every status, code and name, in order, and no other.
        let codes = try String(contentsOfFile: Self.root + "/docs/exit-codes.md", encoding: .utf8)
        let rows = codes.split(separator: "\n").compactMap { line -> String? in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, Int32(cells[0]) != nil else { return nil }
            return cells[0] + " " + cells[1]
        }
        XCTAssertEqual(rows, ExitStatus.allCases.map { "\($0.rawValue) `\($0)`" })
    }
}
