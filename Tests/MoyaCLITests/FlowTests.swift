import Foundation
import MoyaCLI
import MoyaCore
import TestSupport
import XCTest

/// `moya-cli run` and flows in `check`, end to end against the in-process server's /people
/// store, jobs and cookies, and offline on the samples.
final class FlowTests: XCTestCase {
    var server: TestServer!
    let spec = CommandTests.root + "/Tests/Fixtures/flows/flows.yaml"

    override func setUpWithError() throws {
        server = try TestServer()
    }

    override func tearDown() {
        server.stop()
    }

    func moya(_ arguments: [String], environment: [String: String] = [:]) async -> (Int32, String, String) {
        await CommandTests.run(arguments, environment: ["TEST_SERVER": server.baseURL].merging(environment) { $1 })
    }

    func run(_ flow: String, _ arguments: [String] = []) async -> (Int32, String, String) {
        await moya(["run", "flows.\(flow)", "--specs", spec] + arguments)
    }

    func testLifecycleCreatesReadsAndDeletesWithEveryKindOfCapture() async {
        let (status, out, error) = await run("lifecycle")
        XCTAssertEqual(status, 0, out + error)
        XCTAssertEqual(
            timeless(out),
            """
            PASS  create  201  (T)
            PASS  read back  200  (T)
            PASS  etag  200  (T)
            PASS  location  200  (T)
            PASS  body and time  200  (T)
            PASS  cookie  200  (T)
            SKIP  no nickname  (skip: not exists {nickname})
            PASS  delete  204  (T)
            PASS  gone  404  (T)

            flows.lifecycle: 9 steps: 8 passed, 0 failed, 1 skipped in T s

            """)
        XCTAssertEqual(error, "")
        XCTAssertEqual(server.peopleIDs, [])
    }

    /// A file of flows alone, over another file's service: no baseURL, no targets.
    func testAFileMayHoldFlowsAlone() async throws {
        let folder = NSTemporaryDirectory() + "moya-cli-flows-alone-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(
            atPath: CommandTests.root + "/specs/myservice.yaml", toPath: folder + "/myservice.yaml")
        try FileManager.default.copyItem(
            atPath: CommandTests.root + "/specs/accounts.json", toPath: folder + "/accounts.json")
        try """
        service: journeys
        flows:
          readTwo:
            summary: Read two users
            steps:
              - call: myservice.showUser
                params: { id: 1 }
                expect: { status: 200, json: { $.id: 1 } }
              - call: myservice.showUser
                params: { id: 2 }

        """.write(toFile: folder + "/journeys.yaml", atomically: true, encoding: .utf8)
        let (valid, validOut, validError) = await moya(["validate", folder])
        XCTAssertEqual(valid, 0, validError)
        XCTAssertTrue(validOut.hasPrefix("ok: 2 services, "), validOut)
        let (status, out, error) = await moya([
            "run", "journeys.readTwo", "--specs", folder, "--stub", "immediate",
        ])
        XCTAssertEqual(status, 0, error)
        XCTAssertTrue(out.contains("journeys.readTwo: 2 steps: 2 passed, 0 failed, 0 skipped"), out)
        // A file with neither still needs them.
        try "service: empty\n".write(toFile: folder + "/empty.yaml", atomically: true, encoding: .utf8)
        let (invalid, _, invalidError) = await moya(["validate", folder + "/empty.yaml"])
        XCTAssertEqual(invalid, 65)
        XCTAssertTrue(invalidError.contains("baseURL: required key is missing"), invalidError)
    }

    func testTheSameFlowRunsOfflineOnTheSamples() async {
        let (status, out, error) = await run("lifecycle", ["--stub", "immediate"])
        XCTAssertEqual(status, 0, out + error)
        XCTAssertTrue(out.contains("flows.lifecycle: 9 steps: 8 passed, 0 failed, 1 skipped"), out)
        let (bundled, bundledOut, _) = await moya(["run", "myservice.userLifecycle", "--stub", "immediate"])
        XCTAssertEqual(bundled, 0)
        XCTAssertEqual(
            timeless(bundledOut),
            """
            PASS  create  201  (T)
            PASS  read back  200  (T)
            PASS  rename  200  (T)
            PASS  finally: delete  204  (T)

            myservice.userLifecycle: 4 steps: 4 passed, 0 failed, 0 skipped in T s

            """)
    }

    func testCookiesFollowRFC6265() async {
        let (status, out, error) = await run("cookieJar")
        XCTAssertEqual(status, 0, out + error)
        XCTAssertEqual(
            timeless(out),
            """
            PASS  setCookies  200  (T)
            PASS  cookies  200  (T)
            PASS  scopedCookies  200  (T)

            flows.cookieJar: 3 steps: 3 passed, 0 failed, 0 skipped in T s

            """)
    }

    /// A cookie set by a redirect is sent on the redirect's next hop and on the next step,
    /// as curl's -L -c, browsers and Tavern do; `call` sends it on the next hop too.
    func testCookiesSetDuringARedirectAreKept() async {
        let redirects = CommandTests.root + "/Tests/Fixtures/flows/redirect-cookies.yaml"
        let (status, out, error) = await moya(["run", "redirects.keepsRedirectCookies", "--specs", redirects])
        XCTAssertEqual(status, 0, out + error)
        XCTAssertEqual(
            timeless(out),
            """
            PASS  setCookie  200  (T)
            PASS  cookies  200  (T)

            redirects.keepsRedirectCookies: 2 steps: 2 passed, 0 failed, 0 skipped in T s

            """)
        let (called, body, _) = await moya(["call", "redirects.setCookie", "--session", "s1", "--specs", redirects])
        XCTAssertEqual(called, 0)
        XCTAssertEqual(body, #"{"cookie":"session=s1"}"#)
    }

    func testUntilPollsUntilItHoldsAndFailsWhenItNeverDoes() async {
        let (passed, passedOut, _) = await run("polling")
        XCTAssertEqual(passed, 0, passedOut)
        XCTAssertEqual(server.requests(for: "job-a"), 3)

        let (failed, out, error) = await run("pollingTimesOut")
        XCTAssertEqual(failed, 1)
        XCTAssertEqual(server.requests(for: "job-b"), 3)
        let lines = timeless(out).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "FAIL  job  200  (T)")
        XCTAssertTrue(
            lines.count > 1
                && lines[1].hasPrefix(
                    "      \(spec):118:26: job: until.json.$.state: still not met after 3 attempts in "),
            out)
        XCTAssertTrue(lines.count > 1 && lines[1].hasSuffix(" ms: expected \"done\", got \"running\""), out)
        XCTAssertEqual(error, "moya-cli: error: flow flows.pollingTimesOut failed\n")
    }

    func testEachRunsOncePerRowAndSkipPerRow() async {
        let (status, out, error) = await run("rows")
        XCTAssertEqual(status, 0, out + error)
        XCTAssertEqual(
            timeless(out),
            """
            PASS  people[0]  201  (T)
            PASS  people[1]  201  (T)
            PASS  friends  200  (T)
            PASS  each friend[0]  200  (T)
            PASS  each friend[1]  200  (T)
            PASS  skipped for Bob[0]  200  (T)
            SKIP  skipped for Bob[1]  (skip: {item.first} == 'Bob')

            flows.rows: 7 steps: 6 passed, 1 failed, 0 skipped in T s

            """.replacingOccurrences(of: "6 passed, 1 failed, 0 skipped", with: "6 passed, 0 failed, 1 skipped"))
        XCTAssertEqual(server.peopleIDs, [1, 2])
    }

    func testAStatusExpectationTakesAVariable() async {
        // A row's code, an integer or text, is the status expected; a variable that holds no
        // code fails its step and says so.
        let (status, out, error) = await run("statuses")
        XCTAssertEqual(status, 1, out + error)
        XCTAssertEqual(
            timeless(out),
            """
            PASS  codes[0]  200  (T)
            PASS  codes[1]  404  (T)
            PASS  codes[2]  418  (T)
            FAIL  not a code  200  (T)
                  \(spec):148:9: not a code: expect: the status {word} is 'teapot', not a status code

            flows.statuses: 4 steps: 3 passed, 1 failed, 0 skipped in T s

            """)
        XCTAssertEqual(error, "moya-cli: error: flow flows.statuses failed\n")
    }

    func testAFailurePrintsTheSpecsLiteralAndMasksASecretExpectation() async {
        // The cookie's value is s1abc. The spec's own literal s1abc prints as written; an
        // expected value built from the secret variable prints as ••••, and so does the
        // server's echo of it.
        let (status, out, _) = await run("literals")
        XCTAssertEqual(status, 1)
        XCTAssertEqual(
            timeless(out),
            """
            PASS  create  201  (T)
            FAIL  compare  200  (T)
                  \(spec):215:13: compare: expect.json.$.nothing: expected "s1abc", got nothing
                  \(spec):216:13: compare: expect.json.$.headers[?@[0] == 'X-Value'][1]: expected ••••, got "••••"

            flows.literals: 2 steps: 1 passed, 1 failed, 0 skipped in T s

            """)
    }

    func testFinallyRunsAfterAFailure() async {
        let (status, out, _) = await run("cleanup")
        XCTAssertEqual(status, 1)
        XCTAssertEqual(
            timeless(out),
            """
            PASS  create  201  (T)
            FAIL  fails  200  (T)
                  \(spec):161:27: fails: expect.status: expected 500, got 200
            SKIP  never runs  (not run after a failure)
            PASS  finally: delete  204  (T)
            SKIP  finally: needs never  (variable 'never' is not set)

            flows.cleanup: 5 steps: 2 passed, 1 failed, 2 skipped in T s

            """)
        XCTAssertEqual(server.peopleIDs, [])
    }

    func testACapturedSecretNeverPrints() async {
        for flags in [[], ["-v"], ["-vv"]] {
            let (status, out, error) = await run("secret", flags)
            XCTAssertEqual(status, 1)
            // The cookie the server set, s1abc, s2abc, …, is a secret wherever it goes.
            XCTAssertNil(
                (out + error).range(of: #"s\d+abc"#, options: .regularExpression), "\(flags): \(out)\(error)")
            XCTAssertTrue(
                out.contains("expect.json.$.headers[?@[0] == 'X-Value'][1]: expected \"nope\", got \"••••\""), out)
        }
        let (_, out, _) = await run("secret", ["--show-secrets"])
        XCTAssertNotNil(out.range(of: #"got "s\d+abc""#, options: .regularExpression), out)
    }

    func testVarsOverrideAndUnknownFlows() async {
        let (status, out, _) = await run("lifecycle", ["--var", "first=Bob"])
        XCTAssertEqual(status, 0, out)
        // A variable built from an overridden one sees the new value.
        let (greeting, greetingOut, _) = await run("greeting", ["--var", "first=Bob"])
        XCTAssertEqual(greeting, 0, greetingOut)
        let vars = NSTemporaryDirectory() + "moya-cli-vars-\(UUID().uuidString).yaml"
        try? "first: Cy\n".write(toFile: vars, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: vars) }
        let (fromFile, fromFileOut, _) = await run("greeting", ["--vars", vars, "--stub", "immediate", "-v"])
        XCTAssertEqual(fromFile, 0, fromFileOut)
        let (missing, _, error) = await run("lifecycel")
        XCTAssertEqual(missing, 64)
        XCTAssertEqual(error, "moya-cli: error: service 'flows' has no flow 'lifecycel'; did you mean 'lifecycle'?\n")
        let (badVar, _, varError) = await run("lifecycle", ["--var", "first"])
        XCTAssertEqual(badVar, 64)
        XCTAssertEqual(varError, "moya-cli: error: --var takes NAME=VALUE, not 'first'\n")
    }

    /// The first Ctrl-C lets the step in flight finish, skips the rest and runs `finally`, in
    /// the real executable, which then ends by SIGINT.
    func testCtrlCRunsFinallyAndEndsBySIGINT() throws {
        let (process, out, error) = try CommandTests.launch(
            ["run", "flows.interrupted", "--specs", spec], server: server.baseURL)
        XCTAssertTrue(server.waitForRequests(to: "/slow/"), "in the slow step")
        XCTAssertTrue(process.isRunning, "still in the slow step")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(process.terminationStatus, SIGINT)
        XCTAssertEqual(
            timeless(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)),
            """
            PASS  create  201  (T)
            PASS  slow  200  (T)
            SKIP  after  (not run after an interrupt)
            PASS  finally: delete  204  (T)

            flows.interrupted: 4 steps: 3 passed, 0 failed, 1 skipped in T s

            """)
        XCTAssertEqual(
            String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            "moya-cli: error: interrupted by SIGINT; the finally steps ran\n")
        XCTAssertEqual(server.peopleIDs, [])
    }

    func testListDescribeAndCompletionKnowFlows() async {
        let (_, list, _) = await moya(["list", "flows", "--specs", spec])
        XCTAssertTrue(
            list.contains(
                "flows.lifecycle        FLOW    9 steps              Create a person, read them back, delete them and see them gone\n"
            ),
            list)
        let (status, describe, _) = await moya(["describe", "flows.cleanup", "--specs", spec])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(
            describe,
            """
            flows.cleanup (flow)
              steps:
                1. create: createPerson first=Ann
                   capture: personId
                2. fails: showPerson id={personId}
                   expect: status
                3. never runs: user
                   capture: never
              finally:
                1. delete: deletePerson id={personId}
                2. needs never: echo value={never}

            """)
        let words = ["moya-cli", "run", "--specs", spec, "flows.c"]
        let (_, completed, _) = await moya(["---completion", "run", "--", "positional@0", "4", "7"] + words)
        XCTAssertEqual(completed, "flows.cookieJar\nflows.cleanup\n")
        // describe offers targets and flows alike.
        let describing = ["moya-cli", "describe", "--specs", spec, "flows.c"]
        let (_, described, _) = await moya(["---completion", "describe", "--", "positional@0", "4", "7"] + describing)
        XCTAssertEqual(described, "flows.createPerson\nflows.cookies\nflows.cookieJar\nflows.cleanup\n")
    }

    func testCheckRunsFlowsAsTestCases() async throws {
        let directory = NSTemporaryDirectory() + "moya-cli-flows-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        let (status, out, _) = await moya([
            "check", spec, "--only", "flows.lifecycle", "--only", "flows.cleanup", "--json", directory + "/r.json",
            "--junit", directory + "/r.xml",
        ])
        XCTAssertEqual(status, 1)
        XCTAssertEqual(
            timeless(out),
            """
            PASS  flows.lifecycle (flow)  (T)
            FAIL  flows.cleanup (flow)  (T)
                  \(spec):161:27: fails: expect.status: expected 500, got 200

            2 checks: 1 passed, 1 failed, 0 skipped in T s

            """)
        let json = try String(contentsOfFile: directory + "/r.json", encoding: .utf8)
        XCTAssertTrue(
            json.contains(#""name" : "finally: delete""#) || json.contains(#""name": "finally: delete""#), json)
        let xml = try String(contentsOfFile: directory + "/r.xml", encoding: .utf8)
        XCTAssertTrue(xml.contains("<system-out>PASS  create  201"), xml)
    }

    /// `--junit-steps`: a test case per flow step, the flow's name as the class, each step's
    /// failure on its own case, a `finally` step named so, and counts over the cases.
    func testJUnitStepsMakesACasePerStep() async throws {
        let directory = NSTemporaryDirectory() + "moya-cli-flows-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        let report = directory + "/r.xml"
        let (status, _, _) = await moya([
            "check", spec, "--only", "flows.cleanup", "--junit", report, "--junit-steps",
        ])
        XCTAssertEqual(status, 1)
        let xml = try String(contentsOfFile: report, encoding: .utf8)
            .replacing(/time="\d+\.\d{3}"/, with: "time=\"T\"")
        let file = spec
        XCTAssertEqual(
            xml,
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="moya-cli check" tests="5" failures="1" skipped="2" time="T">
              <testsuite name="flows" tests="5" failures="1" skipped="2" time="T">
                <testcase classname="flows.cleanup" name="create" time="T" file="\(file)" line="154"/>
                <testcase classname="flows.cleanup" name="fails" time="T" file="\(file)" line="158">
                  <failure message="fails: expect.status: expected 500, got 200" type="assertion">\
            \(file):161:27: fails: expect.status: expected 500, got 200</failure>
                </testcase>
                <testcase classname="flows.cleanup" name="never runs" time="T" file="\(file)" line="162">
                  <skipped message="not run after a failure"/>
                </testcase>
                <testcase classname="flows.cleanup" name="finally: delete" time="T" file="\(file)" line="166"/>
                <testcase classname="flows.cleanup" name="finally: needs never" time="T" file="\(file)" line="169">
                  <skipped message="variable &apos;never&apos; is not set"/>
                </testcase>
              </testsuite>
            </testsuites>

            """)
        let (refused, _, error) = await moya(["check", spec, "--junit-steps"])
        XCTAssertEqual(refused, 64)
        XCTAssertTrue(error.contains("--junit-steps goes with --junit FILE"), error)
    }
}

/// `auth: { login: … }`: one login shared by parallel checks, one refresh when the token goes
/// stale, and a token cache between runs.
final class LoginTests: XCTestCase {
    var server: TestServer!
    let spec = CommandTests.root + "/Tests/Fixtures/flows/login.yaml"

    override func setUpWithError() throws {
        server = try TestServer()
    }

    override func tearDown() {
        server.stop()
    }

    func check(_ arguments: [String], cache: String) async -> (Int32, String, String) {
        await CommandTests.run(
            ["check", spec] + arguments,
            environment: ["TEST_SERVER": server.baseURL, "API_PASSWORD": "pw", "XDG_CACHE_HOME": cache])
    }

    func scratch() throws -> String {
        let directory = NSTemporaryDirectory() + "moya-cli-login-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        return directory
    }

    func testParallelRequestsShareOneLoginAndOneRefresh() async throws {
        let cache = try scratch()
        let (status, out, error) = await check(["--parallel", "33", "--no-token-cache"], cache: cache)
        XCTAssertEqual(status, 0, out + error)
        XCTAssertTrue(out.contains("34 checks: 33 passed, 0 failed, 1 skipped"), out)
        // One login, then one refresh when t1 went stale after eight requests.
        XCTAssertEqual(server.requests(for: "logins"), 2)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache), [])
        XCTAssertFalse(out.contains("t1") || out.contains("t2") || error.contains("pw"), out + error)
    }

    func testTheTokenIsCachedOwnerOnlyBetweenRuns() async throws {
        let cache = try scratch()
        let (first, out, _) = await check(["--only", "login.protected", "--parallel", "4"], cache: cache)
        XCTAssertEqual(first, 0, out)
        XCTAssertEqual(server.requests(for: "logins"), 2)
        let files = try FileManager.default.contentsOfDirectory(atPath: cache + "/moya-cli")
        XCTAssertEqual(files.count, 1)
        XCTAssertTrue(files[0].hasPrefix("login-") && files[0].hasSuffix(".json"), "\(files)")
        let attributes = try FileManager.default.attributesOfItem(atPath: cache + "/moya-cli/" + files[0])
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let (second, secondOut, _) = await check(["--only", "login.protected"], cache: cache)
        XCTAssertEqual(second, 0, secondOut)
        XCTAssertEqual(server.requests(for: "logins"), 2, "the second run used the cached token")
    }

    /// A spec whose login answers from its sample with `expires_in` of `lifetime`.
    func sampleLogin(expiresIn lifetime: String) throws -> String {
        let file = try scratch() + "/lg.yaml"
        try """
        service: lg
        baseURL: http://127.0.0.1:9
        auth:
          login: { call: token, token: $.access_token, expiresIn: $.expires_in }
          cache: true
        targets:
          token:
            method: POST
            path: /token
            auth: none
            sample: { json: { access_token: tok-abc, expires_in: \(lifetime) } }
          protected:
            path: /p
            sample: { json: { ok: true } }
        """.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// Finding 11: any number a server sends as `expires_in` is taken, clamped to a year; a
    /// lifetime that is not positive says nothing. It crashed with 1e300 before.
    func testAnyExpiresInIsTakenWithoutACrash() async throws {
        for lifetime in ["1e300", "9223372036854775807", "-1e300", "-1", "0.5"] {
            let cache = try scratch()
            let spec = try sampleLogin(expiresIn: lifetime)
            let (status, out, error) = await CommandTests.run(
                ["call", "lg.protected", "--specs", spec, "--stub", "immediate"], environment: ["XDG_CACHE_HOME": cache]
            )
            XCTAssertEqual(status, 0, "\(lifetime): \(error)")
            XCTAssertEqual(out, #"{"ok":true}"#)
            let files = try FileManager.default.contentsOfDirectory(atPath: cache + "/moya-cli")
            let written = try String(contentsOfFile: cache + "/moya-cli/" + files[0], encoding: .utf8)
            let expiresAt = written.firstMatch(of: /"expiresAt":(\d+)/).flatMap { Double($0.1) }
            if lifetime.hasPrefix("-") {
                XCTAssertNil(expiresAt, written)
            } else {
                let now = Date().timeIntervalSince1970
                XCTAssertLessThanOrEqual(expiresAt ?? .infinity, now + 366 * 86_400 + 5, written)
            }
        }
    }

    /// Finding 10: a link planted at the cache path is never followed: the file it names is
    /// left as it was, and the token is not written through it. A huge file there is not read.
    func testTheTokenCacheNeverFollowsALinkNorReadsAHugeFile() async throws {
        let cache = try scratch()
        let spec = try sampleLogin(expiresIn: "60")
        let run = {
            await CommandTests.run(
                ["call", "lg.protected", "--specs", spec, "--stub", "immediate"], environment: ["XDG_CACHE_HOME": cache]
            )
        }
        let first = await run()
        XCTAssertEqual(first.0, 0, first.2)
        let directory = cache + "/moya-cli"
        let name = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: directory).first)
        let path = directory + "/" + name
        let victim = try scratch() + "/victim.txt"
        try "precious\n".write(toFile: victim, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: victim)
        let linked = await run()
        XCTAssertEqual(linked.0, 0, linked.2)
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious\n")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: path), victim)

        // 3 GB, sparse: read whole, it took 6 GB of memory.
        try FileManager.default.removeItem(atPath: path)
        XCTAssertTrue(
            FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 3 << 30)
        try handle.close()
        let huge = await run()
        XCTAssertEqual(huge.0, 0, huge.2)
        XCTAssertEqual(huge.1, #"{"ok":true}"#)
    }

    func testAFailedLoginFailsTheRequestAndSaysWhy() async throws {
        let (status, out, _) = await CommandTests.run(
            ["check", spec, "--only", "login.protected", "--no-token-cache", "--parallel", "1", "--bail"],
            environment: ["TEST_SERVER": server.baseURL, "API_PASSWORD": "wrong"])
        XCTAssertEqual(status, 1)
        XCTAssertTrue(out.contains("request: login with token failed: status 401"), out)
        XCTAssertFalse(out.contains("wrong"))
    }

    func testCallLogsInCachesAndReplaysAfterAStaleToken() async throws {
        let cache = try scratch()
        func call(_ arguments: [String]) async -> (Int32, String, String) {
            await CommandTests.run(
                ["call", "login.protected", "--specs", spec] + arguments,
                environment: ["TEST_SERVER": server.baseURL, "API_PASSWORD": "pw", "XDG_CACHE_HOME": cache])
        }
        // t1 is good for eight requests; the ninth call is refused, logs in again and replays.
        for index in 1...9 {
            let (status, out, error) = await call(["--n", String(index)])
            XCTAssertEqual(status, 0, out + error)
            XCTAssertEqual(out, index < 9 ? #"{"ok":true,"token":"t1"}"# : #"{"ok":true,"token":"t2"}"#)
        }
        XCTAssertEqual(server.requests(for: "logins"), 2)
        let (_, dry, _) = await call(["--n", "1", "--dry-run"])
        XCTAssertTrue(dry.contains("Authorization: ••••"), dry)
    }

    /// `call` sends through the runtime's one delivery, so `-v` logs its login as `run` does,
    /// each secret masked, and the token and password never print.
    func testCallLogsItsLoginAsRunDoes() async throws {
        let cache = try scratch()
        let (status, out, error) = await CommandTests.run(
            ["call", "login.protected", "--specs", spec, "--n", "1", "-v", "--no-token-cache"],
            environment: ["TEST_SERVER": server.baseURL, "API_PASSWORD": "pw", "XDG_CACHE_HOME": cache])
        XCTAssertEqual(status, 0, out + error)
        XCTAssertEqual(out, #"{"ok":true,"token":"t1"}"#)
        let requests = error.split(separator: "\n").filter { $0.hasPrefix("Request: ") }
        XCTAssertEqual(
            requests, ["Request: POST \(server.baseURL)/token", "Request: GET \(server.baseURL)/protected/1"],
            error)
        XCTAssertTrue(error.contains("  Authorization: ••••\n"), error)
        XCTAssertFalse(error.contains("pw") || error.contains("t1"), error)
    }

    func testATokenInAHeaderOfItsOwn() async throws {
        let cache = try scratch()
        let headerSpec = cache + "/header.yaml"
        try """
        service: headed
        baseURL: ${TEST_SERVER}
        auth:
          login: { call: token, params: { user: ann, password: pw }, token: $.access_token }
          header: X-Auth-Token
        targets:
          token:
            method: POST
            path: /token
            auth: none
            params: { user: string, password: string }
            task: { parameters: { user: "{user}", password: "{password}" }, encoding: json }
          protected:
            path: /protected/1
            checks: [{ expect: { json: { $.token: t1 } } }]
        """.write(toFile: headerSpec, atomically: true, encoding: .utf8)
        let (status, out, error) = await CommandTests.run(
            ["check", headerSpec, "--only", "headed.protected"],
            environment: ["TEST_SERVER": server.baseURL, "XDG_CACHE_HOME": cache])
        XCTAssertEqual(status, 0, out + error)
        XCTAssertEqual(server.requests(for: "logins"), 1)
    }

    func testALoggedLoginShowsWhereTheTokenGoesMasked() async throws {
        let cache = try scratch()
        let (status, out, error) = await CommandTests.run(
            ["run", "login.once", "--specs", spec, "-vv", "--no-token-cache"],
            environment: ["TEST_SERVER": server.baseURL, "API_PASSWORD": "pw", "XDG_CACHE_HOME": cache])
        XCTAssertEqual(status, 0, out + error)
        XCTAssertTrue(error.contains("Request: POST \(server.baseURL)/token"), error)
        XCTAssertTrue(error.contains("Request: GET \(server.baseURL)/protected/1\n"), error)
        XCTAssertTrue(error.contains("  Authorization: ••••\n"), error)
        XCTAssertTrue(error.contains(#""password":"••••""#), error)
        XCTAssertFalse(error.contains(#""password":"pw""#), error)
    }
}
