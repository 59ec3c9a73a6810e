import Foundation
import MoyaCLI
import TestSupport
import XCTest

/// Flows against what a server or a user can do to them: secrets a step captures, huge
/// captured values, and Ctrl-C during rows.
final class HostileFlowTests: XCTestCase {
    var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer()
    }

    override func tearDown() {
        server.stop()
    }

    /// A spec with `flows`, against the test server, in a file of its own.
    func spec(_ flows: String) throws -> String {
        let file = NSTemporaryDirectory() + "hostile-flow-\(UUID().uuidString).yaml"
        try """
        service: hf
        baseURL: ${TEST_SERVER}
        targets:
          login:
            method: POST
            path: /token
            params: { user: string, password: { type: string, secret: true } }
            task: { parameters: { user: "{user}", password: "{password}" }, encoding: json }
          createPerson:
            method: POST
            path: /people
            params: { first: string }
            task: { parameters: { first: "{first}" }, encoding: json }
          deletePerson:
            method: DELETE
            path: /people/{id}
            params: { id: int }
          slow:
            path: /slow/{ms}
            params: { ms: int }
          stream:
            path: /stream/{count}
            params: { count: int }
          json:
            path: /json
        flows:
        \(flows)
        """.write(toFile: file, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: file) }
        return file
    }

    /// Finding 9: under -vv, the response a secret capture is taken from is not printed: its
    /// body is left out, and a captured header is masked.
    func testTheResponseASecretIsCapturedFromNeverPrints() async throws {
        let file = try spec(
            """
              secrets:
                steps:
                  - call: login
                    params: { user: ann, password: pw }
                    capture: { token: { json: $.access_token, secret: true } }
                  - call: createPerson
                    params: { first: Ann }
                    capture: { tag: { header: ETag, secret: true }, id: $.id }
                finally:
                  - call: deletePerson
                    params: { id: "{id}" }
            """)
        let (status, out, error) = await CommandTests.run(
            ["run", "hf.secrets", "--specs", file, "-vv"], environment: ["TEST_SERVER": server.baseURL])
        XCTAssertEqual(status, 0, out + error)
        XCTAssertFalse(error.contains("access_token"), error)
        XCTAssertTrue(error.contains("bytes, not shown: a secret is taken from it>"), error)
        XCTAssertFalse(error.contains("\"v1\""), error)
        XCTAssertTrue(error.contains("ETag: ••••"), error)
        // A step that captures no secret logs its response as before.
        XCTAssertTrue(error.contains("\"id\":1") || error.contains("\"id\" : 1"), error)
    }

    /// Finding 17: a 7.9 MB value captured as a secret does not slow the steps after it. Each
    /// took 19 s before, as every form of the secret was worked out for every step.
    func testAHugeSecretCaptureLeavesLaterStepsFast() async throws {
        let file = try spec(
            """
              huge:
                steps:
                  - call: stream
                    params: { count: 7900000 }
                    capture: { blob: { body: true, secret: true } }
                  - { call: json, expect: { status: 200 } }
                  - { call: json, expect: { status: 200 } }
                  - { call: json, expect: { status: 200 } }
            """)
        let start = Date()
        let (status, out, error) = await CommandTests.run(
            ["run", "hf.huge", "--specs", file, "-v"], environment: ["TEST_SERVER": server.baseURL])
        XCTAssertEqual(status, 0, out + error)
        XCTAssertLessThan(Date().timeIntervalSince(start), 30, "the three steps took a minute before")
        XCTAssertFalse(out.contains("sssssss"), out)
    }

    /// Finding 15: the first Ctrl-C stops an `each` step before its next row, runs `finally`
    /// and ends by SIGINT; before, every remaining row ran.
    func testCtrlCStopsTheRowsOfAnEachStep() throws {
        let rows = (1...40).map(String.init).joined(separator: ", ")
        let file = try spec(
            """
              rows:
                steps:
                  - call: slow
                    each: [\(rows)]
                    params: { ms: 200 }
                finally:
                  - call: json
            """)
        let (process, out, error) = try CommandTests.launch(
            ["run", "hf.rows", "--specs", file], server: server.baseURL)
        XCTAssertTrue(server.waitForRequests(to: "/slow/", count: 2), "in the rows")
        XCTAssertTrue(process.isRunning)
        let interrupted = Date()
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertLessThan(Date().timeIntervalSince(interrupted), 3, "40 rows of 200 ms ran on before")
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(process.terminationStatus, SIGINT)
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let passed = printed.split(separator: "\n").filter { $0.hasPrefix("PASS  slow[") }.count
        XCTAssertLessThan(passed, 10, printed)
        XCTAssertTrue(printed.contains("PASS  finally: json  200"), printed)
        XCTAssertEqual(
            String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            "moya-cli: error: interrupted by SIGINT; the finally steps ran\n")
    }
}
