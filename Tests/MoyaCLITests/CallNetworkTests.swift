import Foundation
import MoyaCLI
import MoyaCore
import TestSupport
import XCTest

/// `call --retry`, the spec's `retry`, TLS options and pins, against the in-process server.
extension CallCommandTests {
    var tlsFixtures: String { CommandTests.root + "/Tests/Fixtures/tls" }

    func retryLines(_ outcome: Outcome) -> Int {
        outcome.error.split(separator: "\n").filter { $0.contains("; retrying in ") }.count
    }

    // MARK: - Retries

    func testRetryRetries503And429UntilTheyPass() async throws {
        let retried = await call(["calls.flaky", "key=a", "--n", "2", "--retry", "3"])
        XCTAssertEqual(retried.status, 0, retried.error)
        XCTAssertEqual(server.requests(for: "a"), 3)
        XCTAssertEqual(retryLines(retried), 2, retried.error)
        XCTAssertTrue(retried.error.contains("moya-cli: calls.flaky: status 503; retrying in 0.0 s (retry 1)"))

        let tooMany = await call(["calls.flaky", "key=b", "--n", "2", "--how", "429", "--retry", "1"])
        XCTAssertEqual(tooMany.status, 4, "the last 429 stands when the retries run out")
        XCTAssertEqual(server.requests(for: "b"), 2)

        let once = await call(["calls.flaky", "key=c", "--n", "1"])
        XCTAssertEqual(once.status, 5, "no --retry, no retry")
        XCTAssertEqual(server.requests(for: "c"), 1)
    }

    func testRetryLeavesOtherStatusesAlone() async {
        let outcome = await call(["calls.flaky", "key=d", "--n", "1", "--how", "500", "--retry", "3"])
        XCTAssertEqual(outcome.status, 5)
        XCTAssertEqual(server.requests(for: "d"), 1)
    }

    func testRetryOnlyIdempotentMethodsUnlessRetryAll() async {
        let post = await call(["calls.flakyPost", "key=e", "--n", "1", "--retry", "2"])
        XCTAssertEqual(post.status, 5, "POST is not retried")
        XCTAssertEqual(server.requests(for: "e"), 1)
        let all = await call(["calls.flakyPost", "key=f", "--n", "1", "--retry", "2", "--retry-all"])
        XCTAssertEqual(all.status, 0, all.error)
        XCTAssertEqual(server.requests(for: "f"), 2)
    }

    func testRetryAfterDroppedConnectionsAndTimeouts() async {
        let dropped = await call(["calls.flaky", "key=g", "--n", "1", "--how", "drop", "--retry", "1"])
        XCTAssertEqual(dropped.status, 0, dropped.error)
        XCTAssertEqual(server.requests(for: "g"), 2)

        let slow = await call([
            "calls.flaky", "key=h", "--n", "1", "--how", "slow", "--retry", "1", "--timeout", "0.3",
        ])
        XCTAssertEqual(slow.status, 0, slow.error)
        XCTAssertEqual(server.requests(for: "h"), 2)
        XCTAssertEqual(retryLines(slow), 1)

        let shown = await call(
            ["calls.secretPath", "--token", "s3cr3t", "--curl", "--show-secrets"],
            environment: ["TEST_SERVER": "http://127.0.0.1:1"])
        XCTAssertTrue(shown.error.contains("token=s3cr3t"), "--show-secrets turns redaction off")
    }
}
