import MoyaCompiler
import MoyaCore
import MoyaRuntime
import MoyaSpec
import XCTest

/// `CallPolicy.decide`, the one place a call's time limit, retries, redirects and stubbing
/// are worked out: the command line, then the target, then the service, then the defaults.
final class CallPolicyTests: XCTestCase {
    func service() throws -> ServiceSpec {
        let file = NSTemporaryDirectory() + "policy-\(getpid()).yaml"
        try """
        service: policy
        baseURL: https://x.test
        timeout: 5
        retry: 2
        stub: { delayed: 0.5 }
        targets:
          plain: { path: /plain }
          own: { path: /own, timeout: 1, retry: 0, followRedirects: false }
        """.write(toFile: file, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: file) }
        return try SpecCompiler(environment: [:]).compile(file: file)
    }

    func testEachSettingComesFromTheCommandLineThenTheTargetThenTheService() throws {
        let service = try service()
        let plain = try XCTUnwrap(service.target(named: "plain"))
        let own = try XCTUnwrap(service.target(named: "own"))
        let none = CallPolicy.Overrides()
        let flags = CallPolicy.Overrides(
            timeout: 9, connectTimeout: 3, retry: 4, retriesAllMethods: true, followsRedirects: false,
            redirectLimit: 2, stub: .never)
        typealias Case = (CallPolicy.Overrides, TargetSpec?, ServiceSpec?, CallPolicy)
        let cases: [Case] = [
            (
                none, plain, service,
                CallPolicy(
                    timeout: 5, connectTimeout: 10, retry: RetryPolicy(limit: 2), followsRedirects: true,
                    redirectLimit: 10, stub: .delayed(seconds: 0.5))
            ),
            (
                none, own, service,
                CallPolicy(
                    timeout: 1, connectTimeout: 10, retry: nil, followsRedirects: false, redirectLimit: 10,
                    stub: .delayed(seconds: 0.5))
            ),
            (
                flags, own, service,
                CallPolicy(
                    timeout: 9, connectTimeout: 3, retry: RetryPolicy(limit: 4, retriesAllMethods: true),
                    followsRedirects: false, redirectLimit: 2, stub: .never)
            ),
            (
                CallPolicy.Overrides(retry: 0), plain, service,
                CallPolicy(
                    timeout: 5, connectTimeout: 10, retry: nil, followsRedirects: true, redirectLimit: 10,
                    stub: .delayed(seconds: 0.5))
            ),
            (
                none, nil, nil,
                CallPolicy(
                    timeout: nil, connectTimeout: 10, retry: nil, followsRedirects: true, redirectLimit: 10,
                    stub: .never)
            ),
        ]
        for (index, (overrides, target, service, expected)) in cases.enumerated() {
            XCTAssertEqual(CallPolicy.decide(overrides, target: target, service: service), expected, "case \(index)")
        }
    }

    func testTheSummaryIsWhatDescribePrints() throws {
        let service = try service()
        let own = try XCTUnwrap(service.target(named: "own"))
        XCTAssertEqual(
            CallPolicy.decide(CallPolicy.Overrides(), target: own, service: service).summary,
            ["timeout: 1s", "followRedirects: false", "stub: delayed 0.5s"])
    }

    func testARequestAndASessionTakeThePolicysSettings() throws {
        let policy = CallPolicy(
            timeout: 2, connectTimeout: 3, retry: RetryPolicy(limit: 1), followsRedirects: false, redirectLimit: 4,
            stub: .never)
        var request = Request(url: try XCTUnwrap(URL(string: "https://x.test/")))
        policy.apply(to: &request)
        XCTAssertEqual(request.timeout, 2)
        XCTAssertEqual(request.retry, RetryPolicy(limit: 1))
        XCTAssertEqual(request.followsRedirects, false)
        var configuration = Session.Configuration()
        policy.apply(to: &configuration)
        XCTAssertEqual(configuration.connectTimeout, 3)
        XCTAssertEqual(configuration.redirectLimit, 4)
        XCTAssertEqual(configuration.followsRedirects, false)
    }
}
