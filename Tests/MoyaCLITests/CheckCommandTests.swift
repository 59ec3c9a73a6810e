import Foundation
import MoyaCLI
import MoyaCore
import TestSupport
import XCTest

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `moya-cli check` end to end against the in-process server: predicates that pass and fail,
/// every report format read back, sharding, --bail, --only and stubbing.
final class CheckCommandTests: XCTestCase {
    var server: TestServer!
    let fixtures = CommandTests.root + "/Tests/Fixtures/checks"

    override func setUpWithError() throws {
        server = try TestServer()
    }

    override func tearDown() {
        server.stop()
    }

    func check(_ arguments: [String], environment: [String: String] = [:]) async -> (Int32, String, String) {
        let capture = CommandTests.Capture()
        var env = ["TEST_SERVER": server.baseURL]
        env.merge(environment) { $1 }
        let context = CommandContext(
            environment: Environment(env), writeOut: { capture.appendOut($0) },
            writeError: { capture.appendError($0) })
        let status = await MoyaCLI.run(["check"] + arguments, context: context)
        return (status, capture.out, capture.error)
    }

    func scratch() throws -> String {
        let directory = NSTemporaryDirectory() + "moya-cli-check-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        return directory
    }

    /// The output with times replaced by `T`, so that it can be compared whole.
    func timeless(_ text: String) -> String {
        text.replacingOccurrences(of: #"\(\d+ ms\)"#, with: "(T)", options: .regularExpression)
            .replacingOccurrences(of: #"in \d+\.\d{3} s"#, with: "in T s", options: .regularExpression)
            .replacingOccurrences(of: #"got \d+\.\d+s"#, with: "got Ts", options: .regularExpression)
    }

    func testALiveCheckThatNamesASampleAsksForIt() async throws {
        let spec = try scratch() + "/prefer.yaml"
        try """
        service: prefer
        baseURL: ${TEST_SERVER}
        targets:
          echo:
            path: /echo
            samples:
              missing: { status: 404 }
            checks:
              - name: asks for the sample
                sample: missing
                expect: { body: { contains: '["Prefer","example=missing"]' } }
              - name: asks for none
                expect: { body: { not: { contains: Prefer } } }
          preferring:
            path: /echo
            headers: { Prefer: respond-async }
            samples:
              missing: { status: 404 }
            checks:
              - name: keeps its own preference
                sample: missing
                expect: { body: { contains: '["Prefer","respond-async"]' } }
        """.write(toFile: spec, atomically: true, encoding: .utf8)
        let (status, out, error) = await check([spec])
        XCTAssertEqual(status, 0, out + error)
        XCTAssertTrue(out.contains("PASS  prefer.echo: asks for none"), out)
        // Offline, the sample answers and nothing is sent.
        let (stubbed, stubbedOut, _) = await check([spec, "--stub", "immediate"])
        XCTAssertEqual(stubbed, 1, stubbedOut)
        XCTAssertTrue(stubbedOut.contains("FAIL  prefer.echo: asks for the sample"), stubbedOut)
    }

    func testPassingChecksOfEveryPredicate() async {
        let (status, out, error) = await check([fixtures + "/passing.yaml"])
        XCTAssertEqual(status, 0, out + error)
        XCTAssertEqual(
            timeless(out),
            """
            PASS  passing.user: every predicate  (T)
            PASS  passing.user: status classes and lists  (T)
            PASS  passing.user: a status list  (T)
            PASS  passing.echo: params reach the request  (T)
            PASS  passing.missing: an expected 404  (T)
            PASS  passing.plain  (T)

            6 checks: 6 passed, 0 failed, 0 skipped in T s

            """)
        XCTAssertEqual(error, "")
    }

    func testFailuresShowTheAssertionExpectedActualAndLine() async {
        let file = fixtures + "/failing.yaml"
        let (status, out, error) = await check([file])
        XCTAssertEqual(status, 1)
        XCTAssertEqual(error, "moya-cli: error: 4 of 5 checks failed\n")
        XCTAssertEqual(
            timeless(out),
            """
            FAIL  failing.user: wrong values  (T)
                  \(file):11:19: expect.status: expected 201, got 200
                  \(file):12:22: expect.headers.Content-Type: expected to contain "xml", got "application/json"
                  \(file):14:13: expect.json.$.id: expected 2, got 1
                  \(file):15:13: expect.json.$.first_name: expected to match /^R/, got "Harry"
                  \(file):16:13: expect.json.$.score: expected < 5, got 9.5
                  \(file):17:13: expect.json.$.tags: expected count 1, got []
                  \(file):18:13: expect.json.$.friends[*].name: expected type integer, got "Ron"
                  \(file):19:13: expect.json.$.nope: expected to exist, got nothing
                  \(file):20:17: expect.body: expected not to contain "Harry", got "{\\"id\\":1,\\"first_name\\":\\"Harry\\",\\"last_name\\":\\"Potter\\",\\"score\\":9.5,\\"...
            FAIL  failing.user: drifted  (T)
                  \(file):23:26: expect.matchesSample: $.id: expected string, got integer
                  \(file):23:26: expect.matchesSample: $.email: missing
            FAIL  failing.slow: too slow  (T)
                  \(file):28:28: expect.maxTime: expected <= 0.1s, got Ts
            FAIL  failing.broken  (T)
                  \(file):29:3: validation: expected a status that passes successCodes (200-299), got 500
            SKIP  failing.needsParams  (no checks, and it needs params: id)

            5 checks: 0 passed, 4 failed, 1 skipped in T s

            """)
    }

    func testAnExpectedValueFromTheEnvironmentIsMaskedAndLiteralsAreNot() async throws {
        let file = try scratch() + "/env.yaml"
        try """
        service: env
        baseURL: ${TEST_SERVER}
        targets:
          user:
            path: /json
            checks:
              - name: names
                expect:
                  headers: { Set-Cookie: session=abc }
                  json: { $.first_name: "${EXPECTED_NAME}", $.last_name: Harry }

        """.write(toFile: file, atomically: true, encoding: .utf8)
        // The environment's value and a cookie's are secrets, and print as ••••, as does the
        // server's text that holds one; the spec's literal Harry prints as written.
        let (status, out, _) = await check([file], environment: ["EXPECTED_NAME": "Potter"])
        XCTAssertEqual(status, 1)
        XCTAssertEqual(
            timeless(out),
            """
            FAIL  env.user: names  (T)
                  \(file):9:22: expect.headers.Set-Cookie: expected ••••, got nothing
                  \(file):10:19: expect.json.$.first_name: expected ••••, got "Harry"
                  \(file):10:53: expect.json.$.last_name: expected "Harry", got "••••"

            1 check: 0 passed, 1 failed, 0 skipped in T s

            """)
    }

    func testGitHubAnnotationsPointAtTheAssertion() async {
        let file = fixtures + "/failing.yaml"
        let (_, out, _) = await check([file, "--only", "failing.broken"], environment: ["GITHUB_ACTIONS": "true"])
        XCTAssertTrue(
            out.contains(
                "::error file=\(file),line=29,col=3::failing.broken: validation: expected a status that passes "
                    + "successCodes (200-299), got 500\n"), out)
        let (_, plain, _) = await check([file, "--only", "failing.broken"])
        XCTAssertFalse(plain.contains("::error"))
    }

    func testTransportFailuresFailTheCheck() async {
        let (status, out, _) = await check(
            [fixtures + "/passing.yaml", "--only", "passing.plain"], environment: ["TEST_SERVER": "http://127.0.0.1:1"])
        XCTAssertEqual(status, 1)
        XCTAssertTrue(out.contains("passing.yaml:50:3: request: the connection was refused (127.0.0.1:1)\n"), out)
    }

    // MARK: - Reports

    /// A report that cannot be written fails the command before any check runs, not after
    /// the whole run (73); a folder that is not there yet is made for it.
    func testReportDestinationsAreCheckedBeforeAnythingIsSent() async throws {
        let directory = try scratch()
        let (made, _, _) = await check([fixtures + "/passing.yaml", "--junit", directory + "/out/ci/x.xml"])
        XCTAssertEqual(made, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory + "/out/ci/x.xml"))

        try "x".write(toFile: directory + "/file", atomically: true, encoding: .utf8)
        let (status, out, error) = await check([fixtures + "/passing.yaml", "--junit", directory + "/file/x.xml"])
        XCTAssertEqual(status, 73)
        XCTAssertEqual(out, "", "no check ran")
        XCTAssertEqual(
            error,
            "moya-cli: error: cannot write the report: cannot write \(directory)/file/x.xml: \(directory)/file is not "
                + "a folder\n")

        let (intoFolder, folderOut, folderError) = await check([fixtures + "/passing.yaml", "--json", directory])
        XCTAssertEqual(intoFolder, 73)
        XCTAssertEqual(folderOut, "")
        XCTAssertEqual(
            folderError, "moya-cli: error: cannot write the report: cannot write \(directory): it is a directory\n")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory).sorted(), ["file", "out"],
            "nothing left behind")
    }

    func testJUnitReportParsesBack() async throws {
        let directory = try scratch()
        let report = directory + "/report.xml"
        let (status, _, _) = await check([fixtures + "/failing.yaml", fixtures + "/passing.yaml", "--junit", report])
        XCTAssertEqual(status, 1)
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: report))
        let root = try XCTUnwrap(document.rootElement())
        XCTAssertEqual(root.name, "testsuites")
        XCTAssertEqual(root.attribute(forName: "tests")?.stringValue, "11")
        XCTAssertEqual(root.attribute(forName: "failures")?.stringValue, "4")
        XCTAssertEqual(root.attribute(forName: "skipped")?.stringValue, "1")
        let suites = root.elements(forName: "testsuite")
        XCTAssertEqual(suites.map { $0.attribute(forName: "name")?.stringValue }, ["failing", "passing"])
        let cases = suites.flatMap { $0.elements(forName: "testcase") }
        XCTAssertEqual(cases.count, 11)
        let failures = cases.filter { !$0.elements(forName: "failure").isEmpty }
        XCTAssertEqual(
            failures.map { $0.attribute(forName: "name")?.stringValue ?? "" },
            ["wrong values", "drifted", "too slow", "broken"])
        let drifted = try XCTUnwrap(failures[1].elements(forName: "failure").first)
        XCTAssertEqual(
            drifted.attribute(forName: "message")?.stringValue,
            "expect.matchesSample: $.id: expected string, got integer")
        XCTAssertTrue(
            drifted.stringValue?.contains("failing.yaml:23:26: expect.matchesSample: $.email: missing") == true)
        XCTAssertEqual(cases.filter { !$0.elements(forName: "skipped").isEmpty }.count, 1)
        XCTAssertEqual(failures[0].attribute(forName: "classname")?.stringValue, "failing.user")
    }

    func testTAPShape() async {
        let (status, out, error) = await check([fixtures + "/failing.yaml", "--tap"])
        XCTAssertEqual(status, 1)
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(Array(lines.prefix(2)), ["TAP version 14", "1..5"])
        let points = lines.filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }
        XCTAssertEqual(
            points,
            [
                "not ok 1 - failing.user: wrong values", "not ok 2 - failing.user: drifted",
                "not ok 3 - failing.slow: too slow", "not ok 4 - failing.broken",
                "ok 5 - failing.needsParams # SKIP no checks, and it needs params: id",
            ])
        // Every failure has a YAML block: indented, opened with --- and closed with ...
        XCTAssertEqual(lines.filter { $0 == "  ---" }.count, 4)
        XCTAssertEqual(lines.filter { $0 == "  ..." }.count, 4)
        XCTAssertTrue(lines.contains { $0.hasPrefix("    - \"") && $0.contains("expect.json.$.id: expected 2, got 1") })
        XCTAssertTrue(error.contains("FAIL  failing.user: wrong values"), "the usual lines go to stderr")
    }

    func testJSONReport() async throws {
        let directory = try scratch()
        let report = directory + "/report.json"
        let (status, _, _) = await check([fixtures + "/failing.yaml", "--json", report])
        XCTAssertEqual(status, 1)
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let summary = try XCTUnwrap(object["summary"] as? [String: Any])
        XCTAssertEqual(summary["total"] as? Int, 5)
        XCTAssertEqual(summary["failed"] as? Int, 4)
        let checks = try XCTUnwrap(object["checks"] as? [[String: Any]])
        XCTAssertEqual(checks.map { $0["status"] as? String }, ["failed", "failed", "failed", "failed", "skipped"])
        let failures = try XCTUnwrap(checks[1]["failures"] as? [[String: Any]])
        XCTAssertEqual(failures.first?["message"] as? String, "$.id: expected string, got integer")
        XCTAssertEqual(failures.first?["line"] as? Int, 23)
    }

    // MARK: - Selection and running

    func testShardsCoverEveryCheckOnce() async throws {
        let directory = try scratch()
        var seen: [String] = []
        for index in 1...3 {
            let report = directory + "/shard\(index).json"
            _ = await check(
                [fixtures + "/passing.yaml", fixtures + "/failing.yaml", "--shard", "\(index)/3", "--json", report])
            let object = try XCTUnwrap(
                JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
            let checks = try XCTUnwrap(object["checks"] as? [[String: Any]])
            seen += checks.map { "\($0["target"] ?? "")/\($0["name"] ?? "")" }
        }
        let all = directory + "/all.json"
        _ = await check([fixtures + "/passing.yaml", fixtures + "/failing.yaml", "--json", all])
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: all))) as? [String: Any])
        let everything = try XCTUnwrap(object["checks"] as? [[String: Any]]).map {
            "\($0["target"] ?? "")/\($0["name"] ?? "")"
        }
        XCTAssertEqual(everything.count, 11)
        XCTAssertEqual(seen.sorted(), everything.sorted(), "every check exactly once across the shards")
        let (bad, _, _) = await check(["--shard", "4/3"])
        XCTAssertEqual(bad, 64)
    }

    func testBailStopsAtTheFirstFailure() async {
        let (status, out, _) = await check([fixtures + "/failing.yaml", "--bail", "--parallel", "1"])
        XCTAssertEqual(status, 1)
        XCTAssertTrue(out.contains("FAIL  failing.user: wrong values"))
        XCTAssertTrue(out.contains("SKIP  failing.user: drifted  (not run after a failure (--bail))"), out)
        XCTAssertTrue(out.contains("5 checks: 0 passed, 1 failed, 4 skipped"), out)
    }

    func testOnlySelectsTargetsByPattern() async {
        let (status, out, _) = await check([fixtures + "/passing.yaml", "--only", "passing.m*", "--only", "*.echo"])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(
            timeless(out),
            "PASS  passing.echo: params reach the request  (T)\nPASS  passing.missing: an expected 404  (T)\n\n"
                + "2 checks: 2 passed, 0 failed, 0 skipped in T s\n")
    }

    func testOnlyPatternsThatMatchNothingAreUsageErrors() async {
        let (status, out, error) = await check([
            fixtures + "/passing.yaml", "--only", "passing.user", "--only", "pasing.*", "--only", "*.nope",
        ])
        XCTAssertEqual(status, 64)
        XCTAssertEqual(out, "")
        XCTAssertEqual(
            error, "moya-cli: error: --only 'pasing.*', '*.nope' match no target or flow; see moya-cli list\n")
    }

    func testResultWordsAreColouredOnATerminalUnlessNoColor() async throws {
        let spec = try scratch() + "/colours.yaml"
        try """
        service: colours
        baseURL: ${TEST_SERVER}
        targets:
          ok: { path: /status/200 }
          bad: { path: /status/500 }
          needs: { path: "/users/{id}", params: { id: int } }
        """.write(toFile: spec, atomically: true, encoding: .utf8)
        func run(_ environment: [String: String], terminal: Bool, flags: [String] = []) async -> String {
            let capture = CommandTests.Capture()
            let context = CommandContext(
                environment: Environment(["TEST_SERVER": server.baseURL].merging(environment) { $1 }),
                writeOut: { capture.appendOut($0) }, writeError: { capture.appendError($0) },
                outputIsTerminal: terminal)
            _ = await MoyaCLI.run(["check", spec, "--parallel", "1"] + flags, context: context)
            return timeless(capture.out)
        }
        let coloured = await run([:], terminal: true)
        XCTAssertEqual(
            coloured,
            """
            \u{1B}[32mPASS\u{1B}[0m  colours.ok  (T)
            \u{1B}[31mFAIL\u{1B}[0m  colours.bad  (T)
                  \(spec):5:3: validation: expected a status that passes successCodes (200-299), got 500
            \u{1B}[33mSKIP\u{1B}[0m  colours.needs  (no checks, and it needs params: id)

            3 checks: 1 passed, 1 failed, 1 skipped in T s

            """)
        let plain = coloured.replacingOccurrences(of: #"\x{1B}\[\d+m"#, with: "", options: .regularExpression)
        XCTAssertNotEqual(plain, coloured)
        let noColor = await run(["NO_COLOR": "1"], terminal: true)
        XCTAssertEqual(noColor, plain)
        let dumb = await run(["TERM": "dumb"], terminal: true)
        XCTAssertEqual(dumb, plain)
        let piped = await run([:], terminal: false)
        XCTAssertEqual(piped, plain)
        let forced = await run([:], terminal: false, flags: ["--color", "always"])
        XCTAssertEqual(forced, coloured)
        let never = await run([:], terminal: true, flags: ["--color", "never"])
        XCTAssertEqual(never, plain)
    }

    func testStubbedChecksRunOnTheSamples() async {
        let specs = CommandTests.root + "/specs"
        let (status, out, _) = await check([specs, "--stub", "immediate", "--only", "myservice.showUser"])
        XCTAssertEqual(status, 0, out)
        XCTAssertTrue(out.contains("PASS  myservice.showUser: user 1 exists"), out)
        XCTAssertTrue(out.contains("PASS  myservice.showUser: unknown user"), out)
        // Offline, the sample of failing.yaml's user has the wrong shape for its own live checks,
        // but matches itself.
        let (drift, driftOut, _) = await check([fixtures + "/failing.yaml", "--stub", "immediate", "--only", "*.user"])
        XCTAssertEqual(drift, 1)
        XCTAssertFalse(driftOut.contains("matchesSample"), driftOut)
    }

    func testInvalidAndMissingSpecs() async {
        let (invalid, _, error) = await check([CommandTests.root + "/Tests/Fixtures/invalid/bad-checks.yaml"])
        XCTAssertEqual(invalid, 65)
        XCTAssertTrue(error.contains("bad-checks.yaml:14:21: error: targets.showUser.checks[0]"), error)
        let (missing, _, _) = await check(["/nonexistent/specs"])
        XCTAssertEqual(missing, 66)
    }

    func testSecretsAreRedactedInFailuresAndReports() async throws {
        let directory = try scratch()
        let spec = directory + "/secret.yaml"
        try """
        service: secret
        baseURL: ${TEST_SERVER}
        targets:
          echo:
            path: /echo/x
            headers: { User-Agent: "${API_KEY}" }
            checks:
              - name: leaks
                expect: { body: { contains: nothing-like-this } }
        """.write(toFile: spec, atomically: true, encoding: .utf8)
        let report = directory + "/report.xml"
        let (status, out, _) = await check([spec, "--junit", report], environment: ["API_KEY": "k3y-s3cr3t"])
        XCTAssertEqual(status, 1)
        XCTAssertTrue(out.contains("••••"), out)
        XCTAssertFalse(out.contains("k3y-s3cr3t"), out)
        XCTAssertFalse(try String(contentsOfFile: report, encoding: .utf8).contains("k3y-s3cr3t"))
    }

    func testLiveProgressLineOnlyOnATerminal() async throws {
        let terminal = try PseudoTerminal()
        let output = Pipe()
        let context = CommandContext.descriptors(
            output: output.fileHandleForWriting.fileDescriptor, error: terminal.follower,
            environment: Environment(["TEST_SERVER": server.baseURL]))
        let status = await MoyaCLI.run(["check", fixtures + "/passing.yaml", "--parallel", "1"], context: context)
        XCTAssertEqual(status, 0)
        try output.fileHandleForWriting.close()
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let progress = terminal.drain()
        XCTAssertTrue(progress.contains("[1/6] checking…"), progress)
        XCTAssertTrue(progress.contains("[5/6] checking…"), progress)
        XCTAssertTrue(progress.hasSuffix("\r\u{1B}[K"), "the line is cleared at the end")
        XCTAssertFalse(out.contains("checking"), "stdout has only the results")
        XCTAssertTrue(out.contains("6 checks: 6 passed"), out)
        let (_, piped, error) = await check([fixtures + "/passing.yaml"])
        XCTAssertFalse(piped.contains("checking") || error.contains("checking"))
    }
}
