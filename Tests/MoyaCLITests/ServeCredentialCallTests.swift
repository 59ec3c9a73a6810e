import MoyaCLI
import TestSupport
import XCTest

/// Through the socket: serve answers a call without its target's credential with a 401, which
/// `call` reports as a client error (exit 4), and answers it once the variable is set.
extension ServeTests {
    func testServeAsksACallForItsCredential() async throws {
        let served = try await Served([specs, "--env", "local"])
        let (refused, _, refusal) = await CommandTests.run(
            ["call", "github.userProfile", "--name", "ann", "--specs", specs, "--env", "local"],
            environment: ["MOYA_SERVE_URL": served.url])
        XCTAssertEqual(refused, 4, refusal)
        XCTAssertTrue(refusal.contains("401"), refusal)
        let (status, out, error) = await CommandTests.run(
            ["call", "github.userProfile", "--name", "ann", "--specs", specs, "--env", "local"],
            environment: ["MOYA_SERVE_URL": served.url, "GITHUB_TOKEN": "t"])
        XCTAssertEqual(status, 0, error)
        XCTAssertTrue(out.contains(#""login":"ann""#), out)
        let (_, log) = await served.stop()
        XCTAssertTrue(log.contains("GET /github/users/ann  github.userProfile"), log)
        XCTAssertTrue(log.contains("401"), log)
    }
}
