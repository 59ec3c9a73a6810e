import Foundation
import MoyaCLI
import MoyaCore
import TestSupport
import XCTest

/// Every way a server can misbehave, through `call -o FILE` as a user runs it: each ends in
/// bounded time with its documented exit code, one `moya-cli: error:` line and no file left.
final class FaultTests: XCTestCase {
    var server: FaultServer!
    let specs = CommandTests.root + "/Tests/Fixtures/faults"
    var directory = ""

    override func setUpWithError() throws {
        server = try FaultServer()
        directory = NSTemporaryDirectory() + "moya-cli-faults-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        server.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    struct Outcome {
        var status: Int32
        var error: String
        var seconds: Double
        var files: [String]
    }

    /// Runs `call faults.fault --kind KIND -o FILE --timeout 2` and reports what it left.
    func fault(_ kind: String, _ extra: [String] = [], server base: String? = nil) async -> Outcome {
        let start = ContinuousClock.now
        let (status, _, error) = await CommandTests.run(
            ["call", "faults.fault", "--kind", kind, "-o", directory + "/out", "--timeout", "2", "--specs", specs]
                + extra,
            environment: ["TEST_SERVER": base ?? server.baseURL])
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return Outcome(status: status, error: error, seconds: seconds, files: files)
    }

    /// The fault ends with `status` and exactly `message` within the timeout plus a second,
    /// leaving no file.
    func assertFault(
        _ kind: String, _ extra: [String] = [], server base: String? = nil, status: Int32, message: String,
        file: StaticString = #filePath, line: UInt = #line
    ) async {
        let outcome = await fault(kind, extra, server: base)
        XCTAssertEqual(outcome.status, status, outcome.error, file: file, line: line)
        XCTAssertEqual(outcome.error, "moya-cli: error: faults.fault: \(message)\n", file: file, line: line)
        XCTAssertLessThan(outcome.seconds, 3, "ends within the timeout plus a second", file: file, line: line)
        XCTAssertEqual(outcome.files, [], "no file is left", file: file, line: line)
    }

    var address: String { "127.0.0.1:\(server.port)" }

    func testRefused() async {
        await assertFault(
            "refused", server: "http://127.0.0.1:1", status: 1, message: "the connection was refused (127.0.0.1:1)")
    }

    func testResetAfterAccept() async {
        await assertFault("reset", status: 1, message: "the connection was reset (\(address))")
    }

    func testResetMidBody() async {
        await assertFault("reset-mid-body", status: 1, message: "the connection was reset (\(address))")
    }

    func testTruncatedChunkedEncoding() async {
        await assertFault(
            "truncated-chunked", status: 1,
            message: "the server's response is malformed: the connection closed in the middle of it (\(address))")
    }

    func testSlowHead() async {
        await assertFault(
            "slow-head", status: 2, message: "no complete response from http://\(address)/slow-head within 2 s")
    }

    func testDripFedBody() async {
        await assertFault("drip", status: 2, message: "no complete response from http://\(address)/drip within 2 s")
    }

    func testGarbageStatusLine() async {
        await assertFault(
            "garbage-status", status: 1,
            message: "the server's response is malformed: its status line is not HTTP (\(address))")
    }

    func testNoStatusLine() async {
        await assertFault(
            "no-status", status: 1,
            message: "the server's response is malformed: its status line is not HTTP (\(address))")
    }

    func testHugeHeader() async {
        await assertFault(
            "huge-header", status: 1, message: "the server's response is malformed: its head is too large (\(address))")
    }

    func testTenThousandHeaders() async {
        await assertFault(
            "many-headers", status: 1,
            message: "the server's response is malformed: its head is too large (\(address))")
    }

    func testRedirectLoop() async {
        await assertFault("redirect-loop", status: 6, message: "the redirects go round in a cycle (\(address))")
    }

    func testCorruptGzip() async {
        await assertFault(
            "corrupt-gzip", status: 1, message: "the response body's gzip or deflate data is corrupt (\(address))")
    }

    func testNegativeContentLength() async {
        await assertFault(
            "negative-length", status: 1,
            message: "the server's response is malformed: its Content-Length is invalid (\(address))")
    }

    /// A date no calendar reaches is no `Retry-After` at all: the usual backoff applies.
    func testAbsurdRetryAfter() async {
        let outcome = await fault("absurd-retry-after", ["--retry", "1"])
        XCTAssertEqual(outcome.status, 4, outcome.error)
        let lines = outcome.error.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, outcome.error)
        XCTAssertTrue(
            lines.first?.hasPrefix("moya-cli: faults.fault: status 429; retrying in 0.") == true, outcome.error)
        XCTAssertEqual(
            lines.last, "moya-cli: error: faults.fault: status 429 did not pass validation: successCodes (200-299)")
        XCTAssertLessThan(outcome.seconds, 3)
        XCTAssertEqual(outcome.files, [])
    }

    func test503Then200UnderRetry() async throws {
        let outcome = await fault("flaky-503", ["--retry", "1"])
        XCTAssertEqual(outcome.status, 0, outcome.error)
        XCTAssertTrue(outcome.error.hasPrefix("moya-cli: faults.fault: status 503; retrying in "), outcome.error)
        XCTAssertEqual(outcome.files, ["out"])
        XCTAssertEqual(try String(contentsOfFile: directory + "/out", encoding: .utf8), #"{"ok":true}"#)
    }

    /// A body already printed cannot be taken back, so a timeout part-way through one is not
    /// retried: stdout holds one partial body, not two.
    func testAStreamedBodyIsNotRetriedOnceItHasStarted() async {
        let (status, out, error) = await CommandTests.run(
            ["call", "faults.fault", "--kind", "drip", "--timeout", "1", "--retry", "2", "--specs", specs],
            environment: ["TEST_SERVER": server.baseURL])
        XCTAssertEqual(status, 2)
        XCTAssertEqual(
            error, "moya-cli: error: faults.fault: no complete response from http://\(address)/drip within 1 s\n")
        XCTAssertFalse(out.isEmpty, "the part that came was printed")
        XCTAssertTrue(out.allSatisfy { $0 == "x" }, out)
    }
}
