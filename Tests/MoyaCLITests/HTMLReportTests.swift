import Foundation
import MoyaCLI
import MoyaCore
import TestSupport
import XCTest

/// `check --html`: the page a live run writes, opened in a real headless browser (Debian's
/// Chromium): the failed check's details are open and hold its failure and its exchange, a
/// flow's steps are listed, and no form of a secret is anywhere in the page.
final class HTMLReportTests: XCTestCase {
    var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer()
    }

    override func tearDown() {
        server.stop()
    }

    /// Chromium's path, or nil where it is not installed (required in CI).
    static func chromium() -> String? {
        let found = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        if found == nil, ProcessInfo.processInfo.environment["MOYA_SHARED_REQUIRED"] != nil {
            XCTFail("Chromium is not installed; .ci/run installs Debian's chromium")
        }
        return found
    }

    /// Runs Chromium headless on `file` with `arguments` and returns what it printed.
    static func browse(_ chromium: String, _ arguments: [String], file: String) throws -> String {
        let ran = try Launch.run(
            URL(fileURLWithPath: chromium),
            ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions"] + arguments
                + ["file://" + file], environment: nil)
        XCTAssertEqual(ran.status, 0)
        return ran.out
    }

    func testTheReportOpensInABrowserWithFailuresShownAndNoSecret() async throws {
        let folder = NSTemporaryDirectory() + "moya-cli-html-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        let secret = "k3y/s3cr3t+é v4lue"
        try """
        service: report
        baseURL: ${TEST_SERVER}
        headers: { X-Api-Key: "${API_KEY}" }
        targets:
          echo:
            method: POST
            path: /echo/report
            task: { json: { note: "<b>bold</b> & more", key: "${API_KEY}" } }
            checks:
              - name: answers
                expect: { status: 200 }
              - name: wrong method
                expect: { json: { $.method: PUT } }
        flows:
          story:
            steps:
              - name: first
                call: echo
              - name: second
                call: echo
                expect: { status: 201 }
        """.write(toFile: folder + "/report.yaml", atomically: true, encoding: .utf8)
        let report = folder + "/report.html"
        let capture = CommandTests.Capture()
        let context = CommandContext(
            environment: Environment(["TEST_SERVER": server.baseURL, "API_KEY": secret]),
            writeOut: { capture.appendOut($0) }, writeError: { capture.appendError($0) })
        let status = await MoyaCLI.run(["check", folder, "--html", report], context: context)
        XCTAssertEqual(status, 1, capture.out + capture.error)
        let page = try String(contentsOfFile: report, encoding: .utf8)

        // No secret in the file, in any form, and nothing it would fetch.
        for form in SecretForms.all(secret) {
            XCTAssertFalse(page.contains(form), "the report holds the secret as \(form)")
        }
        XCTAssertFalse(page.contains("http-equiv"), "the report refreshes or redirects")
        XCTAssertNil(page.firstMatch(of: /<(script|link|img|iframe)\b|src=|url\(/), "the report fetches something")
        XCTAssertTrue(page.contains("X-Api-Key: ${API_KEY}"), "a header's ${VAR} shows as the reference")
        XCTAssertTrue(page.contains("&lt;b&gt;bold&lt;/b&gt; &amp; more"), "bodies are escaped")
        // The request's heads as -v shows them: the transport's too, in the order sent.
        XCTAssertTrue(
            page.contains(
                "X-Api-Key: ${API_KEY}\nContent-Type: application/json\nAccept-Encoding: gzip, deflate\n"
                    + "Host: 127.0.0.1:\(server.port)\nContent-Length: "), page)

        guard let chromium = Self.chromium() else {
            print("HTMLReportTests: Chromium is not installed; the page is not opened in a browser")
            return
        }
        // The page as the browser built it: the failed check's and the failed step's details
        // open, with their failures and exchanges; the passed check's closed.
        let dom = try Self.browse(chromium, ["--dump-dom"], file: report)
        XCTAssertTrue(dom.contains("<title>moya-cli check: 1 passed, 2 failed, 0 skipped</title>"), dom)
        let failed = try XCTUnwrap(
            dom.firstMatch(of: /<details class="case failed" id="case-2" open="">(?s:.*?)<\/details>/).map {
                String($0.0)
            },
            dom)
        XCTAssertTrue(failed.contains("report.echo: wrong method"), failed)
        XCTAssertTrue(
            failed.contains("report.yaml:13:27: expect.json.$.method: expected \"PUT\", got \"POST\""), failed)
        XCTAssertTrue(failed.contains("<b>POST \(server.baseURL)/echo/report</b>"), failed)
        XCTAssertTrue(dom.contains("<details class=\"case passed\" id=\"case-1\">"), dom)
        XCTAssertTrue(dom.contains("<details class=\"step failed\" open=\"\">"), dom)
        XCTAssertTrue(dom.contains("report.yaml:21:27: second: expect.status: expected 201, got 200"), dom)
        for form in SecretForms.all(secret) {
            XCTAssertFalse(dom.contains(form), "the page holds the secret as \(form)")
        }
        // A screenshot to look at: REPORT_SCREENSHOT=path keeps one.
        if let shot = ProcessInfo.processInfo.environment["REPORT_SCREENSHOT"] {
            _ = try Self.browse(chromium, ["--screenshot=\(shot)", "--window-size=1200,1400"], file: report)
        }
    }
}
