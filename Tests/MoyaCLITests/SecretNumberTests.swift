import Foundation
import MoyaCLI
import MoyaCore
import TestSupport
import XCTest

/// Trust round four, finding 3: a digits-only secret a server echoes as a JSON number is masked
/// in `check`'s failure lines and in its HTML, JSON and JUnit reports, as a string would be.
final class SecretNumberTests: XCTestCase {
    func testASecretEchoedAsANumberIsMaskedInChecksAndReports() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = NSTemporaryDirectory() + "moya-cli-secret-number-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
        service: bank
        baseURL: ${TEST_SERVER}
        targets:
          pin:
            path: /number/{pin}
            params: { pin: { type: string, secret: true, default: "${BANK_PIN}" } }
            checks:
              - name: echoed
                expect: { json: { $.echoed: 1 } }
              - name: shape
                expect: { schema: { type: object, properties: { echoed: { type: string } } } }
        """.write(toFile: folder + "/bank.yaml", atomically: true, encoding: .utf8)
        let (status, out, error) = await CommandTests.run(
            [
                "check", folder, "--junit", folder + "/junit.xml", "--json", folder + "/report.json", "--html",
                folder + "/report.html", "--color", "never",
            ], environment: ["TEST_SERVER": server.baseURL, "BANK_PIN": "90210"])
        XCTAssertEqual(status, 1, error)
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.replacing(/\(\d+ ms\)/, with: "(N ms)").replacing(/in [0-9.]+ s/, with: "in N s")
        }
        XCTAssertEqual(
            lines.joined(separator: "\n"),
            """
            FAIL  bank.pin: echoed  (N ms)
                  \(folder)/bank.yaml:9:27: expect.json.$.echoed: expected 1, got "••••"
            FAIL  bank.pin: shape  (N ms)
                  \(folder)/bank.yaml:11:27: expect.schema: $.echoed: expected string, got integer

            2 checks: 0 passed, 2 failed, 0 skipped in N s

            """)
        for report in ["junit.xml", "report.json", "report.html"] {
            let text = try String(contentsOfFile: folder + "/" + report, encoding: .utf8)
            XCTAssertFalse(text.contains("90210"), "\(report):\n\(text)")
            XCTAssertTrue(text.contains("••••"), report)
        }
        let html = try String(contentsOfFile: folder + "/report.html", encoding: .utf8)
        XCTAssertTrue(
            html.contains("&quot;echoed&quot; : &quot;••••&quot;") || html.contains("\"echoed\" : \"••••\""), html)
    }
}
