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

        let timedOut = await call(["calls.flaky", "key=i", "--n", "5", "--how", "slow", "--timeout", "0.2"])
        XCTAssertEqual(timedOut.status, 2)
    }

    func testRetryAfterARefusedConnectionThenExits1() async {
        let outcome = await call(
            ["calls.plain", "--retry", "1"], environment: ["TEST_SERVER": "http://127.0.0.1:1"])
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(retryLines(outcome), 1, outcome.error)
        XCTAssertTrue(
            outcome.error.hasSuffix("moya-cli: error: calls.plain: the connection was refused (127.0.0.1:1)\n"),
            outcome.error)
    }

    func testSpecRetryAndTheFlagWins() async {
        let spec = await call(["calls.flakyRetried", "key=j"])
        XCTAssertEqual(spec.status, 0, spec.error)
        XCTAssertEqual(server.requests(for: "j"), 2)
        let flag = await call(["calls.flakyRetried", "key=k", "--retry", "0"])
        XCTAssertEqual(flag.status, 5)
        XCTAssertEqual(server.requests(for: "k"), 1)
    }

    /// An upload retried twice opens its file three times and leaves none of them open.
    func testRetriedUploadsLeaveNoFileOpen() async throws {
        let file = try temporaryFile(String(repeating: "u", count: 300_000))
        func openDescriptors() -> Int {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return entries.filter {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == file
            }.count
        }
        let outcome = await call(["calls.flakyUpload", "key=upload-fd", "file=" + file, "--retry", "2"])
        XCTAssertEqual(outcome.status, 0, outcome.error)
        XCTAssertEqual(server.requests(for: "upload-fd"), 3)
        XCTAssertEqual(openDescriptors(), 0, "no descriptor of the upload is left open")
    }

    func testRetryOptionsAreChecked() async {
        for arguments in [["--retry", "-1"], ["--retry", "many"], ["--timeout", "0"], ["--key", "x"]] {
            let outcome = await call(["calls.plain"] + arguments)
            XCTAssertEqual(outcome.status, 64, "\(arguments)")
            XCTAssertTrue(outcome.error.hasPrefix("moya-cli: error: "), outcome.error)
        }
    }

    // MARK: - TLS

    func withTLSServer(
        requiringClientCertificate: Bool = false, _ body: (TestServer) async throws -> Void
    ) async throws {
        let tls = try TestServer(
            tls: TestServer.tlsConfiguration(
                fixtures: tlsFixtures, requiringClientCertificate: requiringClientCertificate))
        defer { tls.stop() }
        try await body(tls)
    }

    func testAnExpiredCertificateSaysSo() async throws {
        let tls = try TestServer(tls: TestServer.tlsConfiguration(fixtures: tlsFixtures, certificate: "expired"))
        defer { tls.stop() }
        // Trusted or not, the date is what is wrong.
        for trust in [[], ["--cacert", tlsFixtures + "/expired.pem"]] {
            let outcome = await call(["calls.plain"] + trust, environment: ["TEST_SERVER": tls.baseURL])
            XCTAssertEqual(outcome.status, 1)
            XCTAssertEqual(
                outcome.error,
                "moya-cli: error: calls.plain: TLS failed: the certificate for 127.0.0.1 expired on 2020-01-02 "
                    + "(127.0.0.1:\(tls.port))\n")
        }
    }

    func testHTTPSToAPlainHTTPServerSaysSo() async {
        let outcome = await call(["calls.plain"], environment: ["TEST_SERVER": "https://127.0.0.1:\(server.port)"])
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(
            outcome.error,
            "moya-cli: error: calls.plain: TLS failed: the server at 127.0.0.1:\(server.port) did not answer TLS; "
                + "is it plain HTTP?\n")
    }

    func testTLSNeedsATrustedCertificate() async throws {
        try await withTLSServer { tls in
            let env = ["TEST_SERVER": tls.baseURL]
            let untrusted = await call(["calls.plain"], environment: env)
            XCTAssertEqual(untrusted.status, 1)
            XCTAssertEqual(
                untrusted.error,
                "moya-cli: error: calls.plain: TLS failed: the certificate for 127.0.0.1 is not trusted "
                    + "(127.0.0.1:\(tls.port))\n")

            let trusted = await call(["calls.plain", "--cacert", tlsFixtures + "/ca.pem"], environment: env)
            XCTAssertEqual(trusted.status, 0, trusted.error)
            XCTAssertEqual(try trusted.echo()["uri"] as? String, "/echo/plain")

            let insecure = await call(["calls.plain", "--insecure"], environment: env)
            XCTAssertEqual(insecure.status, 0, insecure.error)
            XCTAssertTrue(insecure.error.hasPrefix("moya-cli: warning: --insecure:"), "loud on stderr")
        }
    }

    func testPinsAcceptOnlyThePinnedKey() async throws {
        let pin = try String(contentsOfFile: tlsFixtures + "/server.pin", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let other = "sha256//" + Data(repeating: 7, count: 32).base64EncodedString()
        try await withTLSServer { tls in
            let env = ["TEST_SERVER": tls.baseURL]
            let ca = ["--cacert", tlsFixtures + "/ca.pem"]
            let pinned = await call(["calls.plain", "--pin", other, "--pin", "sha256//" + pin] + ca, environment: env)
            XCTAssertEqual(pinned.status, 0, pinned.error)

            let wrong = await call(["calls.plain", "--pin", other] + ca, environment: env)
            XCTAssertEqual(wrong.status, 1)
            XCTAssertEqual(
                wrong.error,
                "moya-cli: error: calls.plain: the server's public key (sha256//\(pin)) matches no --pin "
                    + "(127.0.0.1:\(tls.port))\n")

            let insecureButPinned = await call(["calls.plain", "--insecure", "--pin", other], environment: env)
            XCTAssertEqual(insecureButPinned.status, 1, "a pin holds even with --insecure")
        }
        let malformed = await call(["calls.plain", "--pin", "md5//abc"])
        XCTAssertEqual(malformed.status, 64)
    }

    func testClientCertificates() async throws {
        try await withTLSServer(requiringClientCertificate: true) { tls in
            let env = ["TEST_SERVER": tls.baseURL]
            let ca = ["--cacert", tlsFixtures + "/ca.pem"]
            let without = await call(["calls.plain"] + ca, environment: env)
            XCTAssertEqual(without.status, 1, without.error)
            let with = await call(
                ["calls.plain", "--cert", tlsFixtures + "/client.pem", "--key", tlsFixtures + "/client.key"] + ca,
                environment: env)
            XCTAssertEqual(with.status, 0, with.error)
        }
        let missing = await call(["calls.plain", "--cacert", "/nonexistent/ca.pem"])
        XCTAssertEqual(missing.status, 64)
        XCTAssertEqual(missing.error.split(separator: "\n").first, "moya-cli: error: cannot read '/nonexistent/ca.pem'")
    }

    func testBadProxyIsATransportFailure() async {
        let outcome = await call(["calls.plain", "--proxy", "socks5://127.0.0.1:1"])
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.error.contains("is not an http://HOST[:PORT] URL"), outcome.error)
    }
}

extension CallCommandTests {
    /// A secret in the URL must not leak through any failure path: refused connections with
    /// retries, failed statuses, logs and curl commands around them.
    func testSecretsStayRedactedOnEveryErrorPath() async {
        let refused = await call(
            ["calls.secretPath", "--token", "s3cr3t", "-vv", "--curl", "--retry", "1"],
            environment: ["TEST_SERVER": "http://127.0.0.1:1"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.error.contains("token=••••"), refused.error)
        XCTAssertFalse(refused.error.contains("s3cr3t"), refused.error)

        let failed = await call(["calls.secretPath", "--token", "s3cr3t", "--code", "503", "-v", "-i"])
        XCTAssertEqual(failed.status, 5)
        XCTAssertFalse(failed.error.contains("s3cr3t"), failed.error)

        let shown = await call(
            ["calls.secretPath", "--token", "s3cr3t", "--curl", "--show-secrets"],
            environment: ["TEST_SERVER": "http://127.0.0.1:1"])
        XCTAssertTrue(shown.error.contains("token=s3cr3t"), "--show-secrets turns redaction off")
    }
}
