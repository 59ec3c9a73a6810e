import Foundation
import TestSupport
import XCTest

/// `mcp --http` as docs/mcp.md deploys it, through the official Python SDK's client: two
/// instances behind haproxy (round-robin, the session stick table for 2025-11-25), and OAuth
/// with the keys found from the issuer alone (Tests/Fixtures/mcp/http-deployment.py).
final class MCPDeploymentTests: XCTestCase {
    func deployment(_ parts: [String]) throws -> String {
        try MCPSession.require(
            ["python3", "-c", "from mcp import ClientSession; ClientSession.discover"], "the Python MCP SDK")
        let (env, python) = Launch.onPath("python3")
        let ran = try Launch.run(
            env,
            python + [
                MCPSession.root + "/Tests/Fixtures/mcp/http-deployment.py", MCPSession.executable.path,
                MCPSession.root + "/specs/myservice.yaml",
            ] + parts, environment: nil)
        XCTAssertEqual(ran.status, 0)
        return ran.out
    }

    func testTwoInstancesBehindHAProxyAnswerAsOne() throws {
        try MCPSession.require(["haproxy", "-v"], "haproxy (apt install haproxy)")
        // Out of the assertion: a skip thrown inside its autoclosure counts as a failure.
        let output = try deployment(["haproxy"])
        XCTAssertEqual(
            output,
            """
            haproxy 2026-07-28: 100 calls, 0 errors, both instances answered: True
            haproxy 2025-11-25: 100 calls, 0 errors

            """)
    }

    func testOAuthWithKeysFoundFromTheIssuer() throws {
        try MCPSession.require(
            ["python3", "-c", "import jwt, cryptography"], "PyJWT and cryptography (pip install pyjwt cryptography)")
        let metadata = "resource_metadata=\"https://mcp.example.test/.well-known/oauth-protected-resource/mcp\""
        let output = try deployment(["oauth"])
        XCTAssertEqual(
            output,
            """
            oauth: 3 calls with a token, 0 errors
            oauth PS256: 200
            oauth RS512: 200
            oauth EdDSA: 200
            oauth no token: 401 Bearer \(metadata)
            oauth wrong audience: 401 Bearer error="invalid_token", error_description="the token is not for https://mcp.example.test/mcp (its aud)", \(metadata)
            oauth expired: 401 Bearer error="invalid_token", error_description="the token has expired", \(metadata)

            """)
    }
}
