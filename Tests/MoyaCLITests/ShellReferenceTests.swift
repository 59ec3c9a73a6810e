import Foundation
import MoyaCLI
import MoyaCore
import TestSupport
import XCTest

/// `--curl` and `--dry-run` print a header's credential from `${VAR}` as a shell reference:
/// the command runs as printed, and shows nothing of the secret.
final class ShellReferenceTests: XCTestCase {
    func testACredentialFromTheEnvironmentPrintsAsAReferenceAndThePrintedCommandRuns() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = NSTemporaryDirectory() + "moya-cli-references-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/ref.yaml"
        try """
        service: ref
        baseURL: ${TEST_SERVER}
        targets:
          me:
            path: /echo/me
            auth: { bearer: "${REF_TOKEN}" }
            headers:
              X-Api-Key: "${REF_KEY}"
              X-Both: "k=${REF_KEY}; t=${REF_TOKEN}"
              X-Declared: { value: "${REF_KEY}", secret: true }
              X-Literal: "a\\"b$c`d"
            params: { pin: { type: string, default: "1234", secret: true } }
            cookies: { pin: "{pin}" }
        """.write(toFile: file, atomically: true, encoding: .utf8)
        // Quotes and dollars in the secret: the shell must not read them as its own.
        let (token, key) = ("t0k\"en$HOME", "k3y'`x")
        let environment = ["TEST_SERVER": server.baseURL, "REF_TOKEN": token, "REF_KEY": key]
        let dry = await CommandTests.run(["call", "ref.me", "--specs", file, "--dry-run"], environment: environment)
        XCTAssertEqual(dry.0, 0, dry.2)
        XCTAssertEqual(
            dry.1,
            """
            GET \(server.baseURL)/echo/me
            User-Agent: moya-cli/0.1.0
            Accept: */*
            X-Api-Key: ${REF_KEY}
            X-Both: k=${REF_KEY}; t=${REF_TOKEN}
            X-Declared: ••••
            X-Literal: a"b$c`d
            Cookie: ••••
            Authorization: Bearer ${REF_TOKEN}

            """)
        let live = await CommandTests.run(["call", "ref.me", "--specs", file, "--curl"], environment: environment)
        XCTAssertEqual(live.0, 0, live.2)
        let command = try XCTUnwrap(live.2.split(separator: "\n").first.map(String.init))
        XCTAssertEqual(
            command,
            #"curl -H 'User-Agent: moya-cli/0.1.0' -H 'Accept: */*' -H "X-Api-Key: ${REF_KEY}" "#
                + #"-H "X-Both: k=${REF_KEY}; t=${REF_TOKEN}" -H 'X-Declared: ••••' -H 'X-Literal: a"b$c`d' "#
                + #"-H 'Cookie: ••••' -H "Authorization: Bearer ${REF_TOKEN}" '\#(server.baseURL)/echo/me'"#)
        for secret in [token, key] { XCTAssertFalse(live.2.contains(secret)) }

        // The command as printed, run by a shell with the variables set, sends each credential.
        let shell = try Launch.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", command + " -s"], environment: ["REF_TOKEN": token, "REF_KEY": key])
        let data = Data(shell.out.utf8)
        let echo = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let headers = try XCTUnwrap(echo["headers"] as? [[String]])
        func header(_ name: String) -> String? { headers.first { $0[0] == name }?[1] }
        XCTAssertEqual(header("Authorization"), "Bearer " + token)
        XCTAssertEqual(header("X-Api-Key"), key)
        XCTAssertEqual(header("X-Both"), "k=\(key); t=\(token)")
        XCTAssertEqual(header("X-Literal"), "a\"b$c`d")
    }
}
