import Foundation
import MoyaCLI
import MoyaCore
import TestSupport
import XCTest

/// Input chosen to crash or hang a careless implementation: each gets a clear error, in
/// bounded time, through the commands a user runs.
final class HostileInputTests: XCTestCase {
    func run(_ arguments: [String], environment: [String: String] = [:]) async -> (Int32, String, String) {
        await CommandTests.run(arguments, environment: environment)
    }

    func scratch() throws -> String {
        let directory = NSTemporaryDirectory() + "moya-cli-hostile-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        return directory
    }

    func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    func testDeepNestingIsASpecErrorNotAStackOverflow() async throws {
        let directory = try scratch()
        let file = directory + "/deep.yaml"
        try write("baseURL: http://x\ntargets: " + String(repeating: "[", count: 100_000), to: file)
        let (status, _, error) = await run(["validate", file])
        XCTAssertEqual(status, 65)
        XCTAssertTrue(error.hasPrefix("\(file):"), error)
        XCTAssertTrue(error.contains("error: yaml: "), error)

        let balanced = directory + "/balanced.yaml"
        try write(
            "baseURL: http://x\ntargets: " + String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
            to: balanced)
        let (deepStatus, _, deepError) = await run(["validate", balanced])
        XCTAssertEqual(deepStatus, 65)
        XCTAssertTrue(
            deepError.contains("error: yaml: sequences and mappings nest more than 512 levels deep"), deepError)
    }

    func testHugeNumbersAreUsageErrors() async throws {
        let specs = CommandTests.root + "/specs"
        for arguments in [
            ["--timeout", "1e16"], ["--connect-timeout", "nan"], ["--stub", "delayed=1e16"], ["--timeout", "0"],
        ] {
            let (status, out, error) = await run(
                ["call", "myservice.showUser", "--id", "1", "--specs", specs] + arguments)
            XCTAssertEqual(status, 64, arguments.joined(separator: " "))
            XCTAssertEqual(out, "")
            XCTAssertTrue(error.hasPrefix("moya-cli: error: "), error)
        }
    }

    func testPrettyPrintingCopesWithAByteOrderMark() async throws {
        let directory = try scratch()
        try write(
            """
            baseURL: http://x
            targets:
              t:
                sample: { headers: { Content-Type: application/json }, body: "\\uFEFF{\\"a\\":[1,{}]}" }
            """, to: directory + "/svc.yaml")
        let (status, out, error) = await run(["call", "svc.t", "--stub", "immediate", "--pretty", "--specs", directory])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(out, "{\n    \"a\": [\n        1,\n        {}\n    ]\n}\n")
    }

    func testSymlinkLoopsInASpecDirectoryEnd() async throws {
        let directory = try scratch()
        try FileManager.default.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: true)
        try write("baseURL: http://x\ntargets: { t: { path: /t } }\n", to: directory + "/sub/one.yaml")
        try FileManager.default.createSymbolicLink(atPath: directory + "/self", withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: directory + "/sub/up", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(
            atPath: directory + "/again.yaml", withDestinationPath: "sub/one.yaml")
        let (status, out, error) = await run(["validate", directory])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(out, "ok: 1 service, 1 target\n", "the file reached three ways is read once")
    }

    func testAFIFOGivenAsASpecIsNamed() async throws {
        let fifo = try scratch() + "/spec.yaml"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let (status, _, error) = await run(["validate", fifo])
        XCTAssertEqual(status, 66)
        XCTAssertEqual(error, "moya-cli: error: \(fifo) is a FIFO, not a spec file or directory\n")
    }

    func testASpecErrorNeverPrintsAnEnvironmentValue() async throws {
        let file = try scratch() + "/leak.yaml"
        try write("baseURL: http://x\ntargets:\n  t:\n    method: \"${TOKEN}\"\n", to: file)
        let (status, _, error) = await run(["validate", file], environment: ["TOKEN": "s3cr3t-t0ken"])
        XCTAssertEqual(status, 65)
        XCTAssertFalse(error.contains("s3cr3t"), error)
        XCTAssertTrue(error.contains(#"unknown HTTP method "${TOKEN}""#), error)
    }

    func testControlCharactersInSummariesAreEscaped() async throws {
        let directory = try scratch()
        try write(
            "baseURL: http://x\ntargets:\n  t:\n    summary: \"clear \\e[2J title \\e]0;pwned\\a\"\n    path: /t\n",
            to: directory + "/svc.yaml")
        let (status, out, _) = await run(["describe", "svc.t", "--specs", directory])
        XCTAssertEqual(status, 0)
        XCTAssertTrue(out.hasPrefix("svc.t: clear \\u{1b}[2J title \\u{1b}]0;pwned\\u{7}\n"), out)
        let (_, list, _) = await run(["list", "--specs", directory])
        XCTAssertFalse(list.contains("\u{1B}"), list)
    }

    /// `^(a+)+$` cannot backtrack on MoyaRegex's Pike VM, so it simply does not match; a
    /// pattern that must backtrack (lookaround) stops at a count of steps, not a time, so the
    /// output is the same on a loaded machine.
    func testACatastrophicPatternFailsTheCheckWithinItsBudget() async throws {
        let directory = try scratch()
        try write(
            """
            baseURL: http://x
            targets:
              t:
                sample: \(String(repeating: "a", count: 30))!
                checks:
                  - name: linear
                    expect: { body: { matches: "^(a+)+$" } }
                  - name: backtracks
                    expect: { body: { matches: "^(?=(a|aa)+b)" } }
            """, to: directory + "/svc.yaml")
        let (status, out, _) = await run(["check", directory, "--stub", "immediate"])
        XCTAssertEqual(status, 1)
        let lines = out.split(separator: "\n").map(String.init).filter {
            !$0.hasPrefix("FAIL") && !$0.hasPrefix("2 checks")
        }
        XCTAssertEqual(
            lines,
            [
                "      \(directory)/svc.yaml:7:25: expect.body: expected to match /^(a+)+$/, got \"\(String(repeating: "a", count: 30))!\"",
                "      \(directory)/svc.yaml:9:25: expect.body: the pattern /^(?=(a|aa)+b)/ backtracks past 1003100 steps "
                    + "on this value; simplify it",
            ])
    }

    func testACustomValidationFailureWithA2xxStatusExits8() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let directory = try scratch()
        try write(
            "baseURL: ${TEST_SERVER}\ntargets:\n  t:\n    path: /status/200\n    validation: [201]\n",
            to: directory + "/svc.yaml")
        let (status, _, error) = await run(
            ["call", "svc.t", "--specs", directory], environment: ["TEST_SERVER": server.baseURL])
        XCTAssertEqual(status, 8, error)
        XCTAssertEqual(error, "moya-cli: error: svc.t: status 200 did not pass validation: 201\n")
    }

    func testAUsageErrorIsOneLineThenTheUsage() async {
        let (status, out, error) = await run(["call"])
        XCTAssertEqual(status, 64)
        XCTAssertEqual(out, "")
        XCTAssertEqual(
            error,
            """
            moya-cli: error: Missing expected argument '<service.target|url>'
            Usage: moya-cli call [<options>] <service.target|url> [<params> ...]
              See 'moya-cli call --help' for more information.

            """)
    }
}
