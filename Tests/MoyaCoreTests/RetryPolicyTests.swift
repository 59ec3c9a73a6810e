import MoyaCore
import XCTest

final class RetryPolicyTests: XCTestCase {
    func testOnlyIdempotentMethodsUnlessAll() {
        let policy = RetryPolicy(limit: 2)
        for method in [Method.get, .head, .put, .delete, .options, .trace] {
            XCTAssertTrue(policy.allows(method), method.rawValue)
        }
        XCTAssertFalse(policy.allows(.post))
        XCTAssertFalse(policy.allows(.patch))
        XCTAssertTrue(RetryPolicy(limit: 2, retriesAllMethods: true).allows(.post))
        XCTAssertFalse(RetryPolicy(limit: 0).allows(.get))
    }

    func testBackoffDoublesWithJitterUpToTheCap() {
        let policy = RetryPolicy(limit: 10, baseDelay: 0.5, maximumDelay: 8)
        var generator = SystemRandomNumberGenerator()
        for (attempt, backoff) in [(1, 0.5), (2, 1.0), (3, 2.0), (4, 4.0), (5, 8.0), (9, 8.0)] {
            for _ in 0..<50 {
                let delay = policy.delay(beforeRetry: attempt, retryAfter: nil, using: &generator)
                XCTAssertGreaterThanOrEqual(delay, backoff / 2, "attempt \(attempt)")
                XCTAssertLessThanOrEqual(delay, backoff, "attempt \(attempt)")
            }
        }
    }

    func testRetryAfterIsHonouredAndCapped() {
        let policy = RetryPolicy(limit: 1, maximumRetryAfter: 30)
        var generator = SystemRandomNumberGenerator()
        XCTAssertEqual(policy.delay(beforeRetry: 1, retryAfter: 3, using: &generator), 3)
        XCTAssertEqual(policy.delay(beforeRetry: 1, retryAfter: 3600, using: &generator), 30)
        XCTAssertEqual(policy.delay(beforeRetry: 1, retryAfter: 0, using: &generator), 0)
    }

    func testRetryAfterValues() {
        // 1994-11-06T08:49:37Z is 784111777 seconds after 1970.
        let now = 784_111_777.0
        XCTAssertEqual(RetryPolicy.retryAfterSeconds("120", now: now), 120)
        XCTAssertEqual(RetryPolicy.retryAfterSeconds(" 7 ", now: now), 7)
        XCTAssertEqual(RetryPolicy.retryAfterSeconds("Sun, 06 Nov 1994 08:49:47 GMT", now: now), 10)
        XCTAssertEqual(RetryPolicy.retryAfterSeconds("Sun, 06 Nov 1994 08:49:00 GMT", now: now), 0, "past dates wait 0")
        XCTAssertEqual(RetryPolicy.retryAfterSeconds("Thu, 01 Jan 1970 00:00:00 GMT", now: 0), 0)
        XCTAssertEqual(RetryPolicy.retryAfterSeconds("Sat, 29 Feb 2020 00:00:00 GMT", now: 1_582_934_400), 0)
        XCTAssertNil(RetryPolicy.retryAfterSeconds("-1", now: now))
        XCTAssertNil(RetryPolicy.retryAfterSeconds("soon", now: now))
        XCTAssertNil(RetryPolicy.retryAfterSeconds("Sun, 06 Nov 1994 25:49:37 GMT", now: now))
    }
}
