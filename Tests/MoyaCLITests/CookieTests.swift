import MoyaCLI
import MoyaCore
import XCTest

/// A target's `cookies:`, OpenAPI's cookie params: `call` sends them as one `Cookie` header,
/// printed masked, and `serve` reads them back from it.
extension ServeTests {
    func testCookiesAreSentAsOneHeaderAndServeReadsThem() async throws {
        let directory = NSTemporaryDirectory() + "cookies-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let spec = directory + "/prefs.yaml"
        try """
        service: prefs
        baseURL: ${PREFS_URL:-http://127.0.0.1:1}
        targets:
          show:
            params:
              theme: string
              lang: { type: string, optional: true }
            path: /preferences
            headers: { Cookie: seen=1 }
            cookies: { theme: "{theme}", lang: "{lang}", SESSION: "${PREFS_SESSION:-}" }
            sample: { json: { theme: "{theme}", lang: "{lang}" } }

        """.write(toFile: spec, atomically: true, encoding: .utf8)
        let given = ["--theme", "dark mode; x=1", "--lang", "é"]

        // Printed masked whole, as a credential header; the secret is nowhere in the output.
        let secret = ["PREFS_SESSION": "s3cr3t"]
        let (masked, maskedOut, _) = await CommandTests.run(
            ["call", "prefs.show", "--specs", spec, "--dry-run"] + given, environment: secret)
        XCTAssertEqual(masked, 0)
        XCTAssertEqual(maskedOut.split(separator: "\n").last, "Cookie: ••••")
        XCTAssertFalse(maskedOut.contains("s3cr3t"))
        let (shown, shownOut, _) = await CommandTests.run(
            ["call", "prefs.show", "--specs", spec, "--dry-run", "--show-secrets"] + given, environment: secret)
        XCTAssertEqual(shown, 0)
        XCTAssertEqual(
            shownOut.split(separator: "\n").last,
            "Cookie: seen=1; theme=dark%20mode%3B%20x=1; lang=%C3%A9; SESSION=s3cr3t")

        // Through serve: each value decoded back, an absent one left out.
        let served = try await ServeTests.Served([spec, "--no-auth"])
        let live = ["PREFS_URL": served.url]
        let (status, out, error) = await CommandTests.run(
            ["call", "prefs.show", "--specs", spec] + given, environment: live)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(out, #"{"theme":"dark mode; x=1","lang":"é"}"#)
        let (bare, bareOut, _) = await CommandTests.run(
            ["call", "prefs.show", "--specs", spec, "--theme", "light"], environment: live)
        XCTAssertEqual(bare, 0)
        XCTAssertEqual(bareOut, #"{"theme":"light"}"#)

        // A request without the cookie is a problem that names it.
        let missing = try await Self.get(served, "/preferences")
        XCTAssertEqual(missing.statusCode, 400)
        XCTAssertTrue(
            Self.text(missing).contains(
                #""detail" : "the request does not fit prefs.show (GET /preferences): param 'theme' in cookie theme is required""#
            ), Self.text(missing))
        let stopped = await served.stop()
        XCTAssertEqual(stopped.status, 0)
    }
}
