import Foundation
import MoyaCLI
import MoyaCore
import MoyaRuntime
import TestSupport
import XCTest

/// Secrets that every encoder changes, in every position, searched for in every output and
/// report in every form an encoder could give them.
final class SecretTests: XCTestCase {
    var server: TestServer!
    let specs = CommandTests.root + "/Tests/Fixtures/secrets"
    /// The secrets: a base64 key, one with a space and form characters, one with JSON's.
    static let param = "ab+c/d="
    static let spaced = "p@ss w0rd&x"
    static let environment = #""q\u/x"#

    override func setUpWithError() throws {
        server = try TestServer()
    }

    override func tearDown() {
        server.stop()
    }

    /// Every form of `secret` that must never be printed: computed here with Foundation,
    /// apart from the code under test.
    static func forms(of secret: String) -> [String] { SecretForms.encoded(secret) }

    func assertNoSecret(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for secret in [Self.param, Self.spaced, Self.environment, "static-s3cret-key"] {
            for form in Self.forms(of: secret) where text.contains(form) {
                XCTFail("\(what) shows \(secret) as \(form):\n\(text)", file: file, line: line)
            }
        }
    }

    func run(_ arguments: [String]) async -> (status: Int32, out: String, error: String) {
        await CommandTests.run(
            arguments + ["--specs", specs],
            environment: ["TEST_SERVER": server.baseURL, "SECRET_ENV": Self.environment])
    }

    /// Finding 5: `${VAR}` in a param's default, an enum's value, a summary or a description
    /// never prints its value, in any command that shows them; describe and help show the
    /// reference as written.
    func testEnvironmentValuesInParamsAndProsePrintAsWritten() async throws {
        let file = NSTemporaryDirectory() + "env-defaults-\(getpid()).yaml"
        try """
        service: envs
        baseURL: http://127.0.0.1:9
        targets:
          t:
            summary: "uses ${ENV_SECRET} here"
            description: "desc ${ENV_SECRET}"
            params:
              a: { type: string, default: "${ENV_SECRET}" }
              b: { enum: { one: "${ENV_SECRET}", two: plain } }
            path: /x
            task: { parameters: { a: "{a}", b: "{b}" }, encoding: queryString }
        """.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let value = "EnvDefaultSecret4242"
        let commands: [[String]] = [
            ["call", "envs.t", "--b", "one", "--dry-run"], ["call", "envs.t", "--b", "one", "--dry-run", "--json"],
            ["call", "envs.t", "--b", "one", "--curl"], ["describe", "envs.t"], ["describe", "envs.t", "--json"],
            ["list"], ["list", "--json"], ["call", "envs.t", "--help"],
        ]
        for command in commands {
            let (_, out, error) = await CommandTests.run(
                command + ["--specs", file], environment: ["ENV_SECRET": value])
            XCTAssertFalse((out + error).contains(value), "\(command): \(out)\(error)")
            let shown = out + error
            XCTAssertTrue(shown.contains("${ENV_SECRET}") || shown.contains("••••"), "\(command): \(shown)")
        }
        let (_, dryRun, _) = await CommandTests.run(
            ["call", "envs.t", "--b", "one", "--dry-run", "--specs", file], environment: ["ENV_SECRET": value])
        XCTAssertEqual(dryRun.split(separator: "\n").first, "GET http://127.0.0.1:9/x?a=••••&b=••••")
        let (_, described, _) = await CommandTests.run(
            ["describe", "envs.t", "--specs", file], environment: ["ENV_SECRET": value])
        XCTAssertTrue(described.hasPrefix("envs.t: uses ${ENV_SECRET} here\n  desc ${ENV_SECRET}\n"), described)
        XCTAssertTrue(described.contains("default: ${ENV_SECRET}"), described)
        // A value given on the command line is not a secret: it is the user's own.
        let (_, given, _) = await CommandTests.run(
            ["call", "envs.t", "--a", "mine", "--b", "two", "--dry-run", "--specs", file],
            environment: ["ENV_SECRET": value])
        XCTAssertEqual(given.split(separator: "\n").first, "GET http://127.0.0.1:9/x?a=mine&b=plain")
    }

    let calls: [[String]] = [
        ["secrets.form", "--token", SecretTests.param],
        ["secrets.json"],
        ["secrets.json", "--token", SecretTests.param],
        ["secrets.bearer"],
        ["secrets.basic", "--password", SecretTests.spaced],
    ]

    func testDryRunsPrintMasksOnly() async {
        for call in calls {
            for flags in [["--dry-run"], ["--dry-run", "--json"]] {
                let outcome = await run(["call"] + call + flags)
                XCTAssertEqual(outcome.status, 0, outcome.error)
                XCTAssertTrue(outcome.out.contains("••••"), outcome.out)
                assertNoSecret(outcome.out + outcome.error, (call + flags).joined(separator: " "))
            }
        }
    }

    func testTheMaskStandsExactlyWhereEachSecretWas() async {
        let form = await run(["call", "secrets.form", "--token", Self.param, "--dry-run"])
        XCTAssertEqual(
            form.out,
            """
            POST \(server.baseURL)/echo/••••?e=••••&q=••••
            User-Agent: moya-cli/\(Version.current)
            Accept: */*
            X-Env-Key: k-${SECRET_ENV}
            X-Static-Key: ••••
            X-Token: ••••
            Content-Type: application/x-www-form-urlencoded; charset=utf-8

            env=••••&plain=visible&token=••••

            """)
        let json = await run(["call", "secrets.json", "--dry-run", "--json"])
        XCTAssertEqual(
            json.out,
            #"{"method":"POST","url":"\#(server.baseURL)/echo/json","headers":{"User-Agent":"moya-cli/\#(Version.current)","Accept":"*/*","X-Env-Key":"k-${SECRET_ENV}","#
                + #""X-Static-Key":"••••","#
                + #""Content-Type":"application/json"},"body":"{\"token\":\"••••\",\"env\":\"••••\","#
                + #"\"nested\":{\"list\":[\"••••\",\"x••••y\"]}}"}"# + "\n")
    }

    func testLogsAndCurlPrintMasksOnly() async {
        for call in calls {
            let outcome = await run(["call"] + call + ["-vv", "--curl"])
            XCTAssertEqual(outcome.status, 0, outcome.error)
            XCTAssertTrue(outcome.error.contains("Request: POST") || outcome.error.contains("Request: GET"))
            XCTAssertTrue(outcome.error.contains("Response body: "), "the server's echo is logged, scrubbed")
            assertNoSecret(outcome.error, (call + ["-vv"]).joined(separator: " "))
        }
    }

    func testShowSecretsShowsThem() async {
        let outcome = await run(["call", "secrets.form", "--token", Self.param, "--dry-run", "--show-secrets"])
        XCTAssertTrue(outcome.out.contains("/echo/ab%2Bc%2Fd%3D?e=%22q%5Cu/x&q=ab%2Bc/d%3D"), outcome.out)
        XCTAssertTrue(outcome.out.contains("X-Env-Key: k-\(Self.environment)"), outcome.out)
    }

    func testDescribeAndHelpNeverShowValues() async {
        for arguments in [
            ["describe", "secrets.json"], ["describe", "secrets.json", "--json"], ["describe", "secrets.form"],
            ["call", "secrets.json", "--help"],
        ] {
            let outcome = await run(arguments)
            XCTAssertEqual(outcome.status, 0, outcome.error)
            assertNoSecret(outcome.out + outcome.error, arguments.joined(separator: " "))
        }
        let help = await run(["describe", "secrets.json"])
        XCTAssertTrue(help.out.contains("--token  string  default: ••••"), help.out)
        XCTAssertTrue(help.out.contains("X-Env-Key: k-${SECRET_ENV}"), help.out)
        XCTAssertTrue(help.out.contains("X-Static-Key: ••••"), help.out)
    }

    func testErrorsNeverRepeatASecret() async {
        let usage = await run(["call", "secrets.form", "--token", Self.param, "--token", Self.spaced])
        XCTAssertEqual(usage.status, 64)
        assertNoSecret(usage.error, "a usage error")
    }

    func testCheckLinesAndReportsPrintMasksOnly() async throws {
        let directory = NSTemporaryDirectory() + "moya-cli-secrets-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outcome = await run([
            "check", "--junit", directory + "/junit.xml", "--json", directory + "/report.json",
        ])
        XCTAssertEqual(outcome.status, 1, outcome.error)
        XCTAssertTrue(outcome.out.contains("FAIL  secrets.form"), outcome.out)
        XCTAssertTrue(outcome.out.contains("••••"), "the actual values are shown, scrubbed: \(outcome.out)")
        assertNoSecret(outcome.out + outcome.error, "check's lines")
        for report in ["junit.xml", "report.json"] {
            let text = try String(contentsOfFile: directory + "/" + report, encoding: .utf8)
            assertNoSecret(text, report)
        }
        let tap = await run(["check", "--tap"])
        assertNoSecret(tap.out + tap.error, "TAP")
    }
}
