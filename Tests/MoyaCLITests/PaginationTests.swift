import Foundation
import MoyaCLI
import MoyaCore
import TestSupport
import XCTest

/// `call --all` against the in-process server's `/pages/STYLE` routes, and offline through
/// named samples: whole outputs, each style, the limits and every way pages stop.
final class PaginationTests: XCTestCase {
    var server: TestServer!
    let specs = CommandTests.root + "/Tests/Fixtures/pages"

    override func setUpWithError() throws {
        server = try TestServer()
    }

    override func tearDown() {
        server.stop()
    }

    struct Outcome {
        var status: Int32
        var out: String
        var error: String
    }

    func call(_ arguments: [String]) async -> Outcome {
        let capture = CommandTests.Capture()
        let context = CommandContext(
            environment: Environment(["TEST_SERVER": server.baseURL]),
            writeOut: { capture.appendOut($0) },
            writeError: { capture.appendError($0) })
        let status = await MoyaCLI.run(["call"] + arguments + ["--specs", specs], context: context)
        return Outcome(status: status, out: String(decoding: capture.outBytes, as: UTF8.self), error: capture.error)
    }

    /// The array `--all` prints for items 1…`count`.
    func array(_ ids: ClosedRange<Int>) -> String {
        "[\n" + ids.map { "  {\"id\":\($0)}" }.joined(separator: ",\n") + "\n]\n"
    }

    func testEveryStyleFollowsEveryPageInOrder() async {
        for target in ["linked", "inBody", "cursor", "numbered"] {
            let outcome = await call(["pages.\(target)", "--all"])
            XCTAssertEqual(outcome.status, 0, "\(target): \(outcome.error)")
            XCTAssertEqual(outcome.out, array(1...10), target)
            XCTAssertEqual(outcome.error, "", target)
        }
    }

    func testLinesPrintOneItemALineAndASinglePageIsWhole() async {
        let lines = await call(["pages.cursor", "--all", "--lines", "--size", "4"])
        XCTAssertEqual(lines.status, 0, lines.error)
        XCTAssertEqual(lines.out, (1...10).map { "{\"id\":\($0)}\n" }.joined())

        let one = await call(["pages.linked", "--all", "--size", "20"])
        XCTAssertEqual(one.out, array(1...10))
        let none = await call(["pages.inBody", "--all", "--total", "0"])
        XCTAssertEqual(none.status, 0, none.error)
        XCTAssertEqual(none.out, "[]\n")
    }

    func testMaxPagesStopsWithALineAndStatusZero() async {
        let outcome = await call(["pages.linked", "--all", "--max-pages", "2"])
        XCTAssertEqual(outcome.status, 0, outcome.error)
        XCTAssertEqual(outcome.out, array(1...6))
        XCTAssertEqual(
            outcome.error, "moya-cli: pages.linked: stopped after 2 pages (--max-pages), and there are more\n")
        let exact = await call(["pages.linked", "--all", "--max-pages", "4"])
        XCTAssertEqual(exact.error, "", "the fourth page is the last, so nothing is left")
    }

    func testCrossOriginStopsUnlessAllowed() async {
        let outcome = await call(["pages.away", "--all"])
        XCTAssertEqual(outcome.status, 9)
        XCTAssertEqual(outcome.out, "[\n  1\n]\n", "the first page's items stay, the array closed")
        XCTAssertEqual(
            outcome.error,
            "moya-cli: error: pages.away: page 1: the next URL in its Link header leads to "
                + "http://localhost:\(server.port), off the target's origin http://127.0.0.1:\(server.port); "
                + "--allow-cross-origin follows it\n")
        let allowed = await call(["pages.away", "--all", "--allow-cross-origin", "--lines"])
        XCTAssertEqual(allowed.status, 0, allowed.error)
        XCTAssertEqual(allowed.out, "1\n" + (1...10).map { "{\"id\":\($0)}\n" }.joined())
    }

    func testARepeatedNextPageStops() async {
        // The first page counts as asked for: a link back to it is never fetched again.
        let outcome = await call(["pages.loop", "--all"])
        XCTAssertEqual(outcome.status, 9)
        XCTAssertEqual(outcome.out, "[\n  1\n]\n")
        XCTAssertEqual(
            outcome.error,
            "moya-cli: error: pages.loop: page 1: its next page repeats one already asked for, so the pages never end\n"
        )
        XCTAssertFalse(server.waitForRequests(to: "/pages/loop", count: 2, timeout: 0.3), "the first page again")
    }

    /// Trust round four, finding 7: a page on another origin gets no credential, whatever
    /// carried it (`auth:`, a secret header, a `${VAR}` header), and https never leads to http.
    func testCredentialsNeverCrossOrigins() async throws {
        let capture = CommandTests.Capture()
        let context = CommandContext(
            environment: Environment(["TEST_SERVER": server.baseURL, "PAGES_TOKEN": "t0ken-of-pages"]),
            writeOut: { capture.appendOut($0) }, writeError: { capture.appendError($0) })
        let status = await MoyaCLI.run(
            ["call", "pages.awayEcho", "--all", "--allow-cross-origin", "--lines", "--specs", specs, "--show-secrets"],
            context: context)
        XCTAssertEqual(status, 0, capture.error)
        let names = String(decoding: capture.outBytes, as: UTF8.self).split(separator: "\n").compactMap {
            line -> String? in
            guard case .array(let pair)? = try? JSONValue(parsing: Data(line.utf8)),
                case .string(let name)? = pair.first
            else { return nil }
            return name.lowercased()
        }
        XCTAssertEqual(
            Set(names), ["host", "user-agent", "accept", "accept-encoding", "x-plain"],
            String(decoding: capture.outBytes, as: UTF8.self))

        let tls = try TestServer(tls: TestServer.tlsConfiguration(fixtures: CommandTests.root + "/Tests/Fixtures/tls"))
        defer { tls.stop() }
        let downgrade = CommandTests.Capture()
        let downgraded = await MoyaCLI.run(
            [
                "call", "pages.downgrade", "--all", "--allow-cross-origin", "--specs", specs, "--cacert",
                CommandTests.root + "/Tests/Fixtures/tls/ca.pem",
            ],
            context: CommandContext(
                environment: Environment(["TEST_SERVER": tls.baseURL]), writeOut: { downgrade.appendOut($0) },
                writeError: { downgrade.appendError($0) }))
        XCTAssertEqual(downgraded, 9)
        XCTAssertEqual(
            downgrade.error,
            "moya-cli: error: pages.downgrade: page 1: the next URL in its Link header leads from https to "
                + "http://127.0.0.1:\(tls.port), a downgrade that is never followed\n")
    }

    func testStubsFollowNamedSamples() async {
        let outcome = await call(["pages.stubbed", "--all", "--stub", "immediate", "--lines"])
        XCTAssertEqual(outcome.status, 0, outcome.error)
        XCTAssertEqual(outcome.out, "1\n2\n3\n4\n5\n")
        let short = await call(["pages.stubbedShort", "--all", "--stub", "immediate"])
        XCTAssertEqual(short.status, 9)
        XCTAssertEqual(short.out, "[\n  1\n]\n")
        XCTAssertEqual(
            short.error,
            "moya-cli: error: pages.stubbedShort: page 2: a stub answers page 2 from the sample 'page2', "
                + "and the target has none; add it under samples:\n")
    }

    func testAFailedPageSaysWhichAndKeepsTheItemsBefore() async {
        let outcome = await call(["pages.broken", "--all"])
        XCTAssertEqual(outcome.status, 5)
        XCTAssertEqual(outcome.out, "[\n  1\n]\n")
        XCTAssertEqual(
            outcome.error,
            "moya-cli: error: pages.broken: page 2: status 503 did not pass validation: successCodes (200-299)\n")
    }

    func testVerboseLogsEachPage() async {
        let outcome = await call(["pages.linked", "--all", "-v", "--size", "4"])
        XCTAssertEqual(outcome.status, 0, outcome.error)
        let requests = outcome.error.split(separator: "\n").filter { $0.hasPrefix("Request: ") }
        XCTAssertEqual(
            requests,
            [
                "Request: GET \(server.baseURL)/pages/link?size=4&total=10",
                "Request: GET \(server.baseURL)/pages/link?page=2&total=10&size=4",
                "Request: GET \(server.baseURL)/pages/link?page=3&total=10&size=4",
            ], outcome.error)
    }

    func testRefusals() async {
        let notPaged = await call(["pages.notPaged", "--all"])
        XCTAssertEqual(notPaged.status, 64)
        XCTAssertEqual(
            notPaged.error, "moya-cli: error: pages.notPaged has no paginate:, so --all has no pages to follow\n")
        let withOutput = await call(["pages.linked", "--all", "-o", "x.json"])
        XCTAssertEqual(withOutput.status, 64)
        XCTAssertTrue(withOutput.error.contains("--all prints the items of every page, and cannot go with --output"))
        let alone = await call(["pages.linked", "--lines"])
        XCTAssertEqual(alone.status, 64)
        XCTAssertTrue(alone.error.contains("--lines goes with --all"), alone.error)
        let zero = await call(["pages.linked", "--all", "--max-pages", "0"])
        XCTAssertEqual(zero.status, 64)
        XCTAssertTrue(zero.error.contains("--max-pages takes a number from 1, not 0"), zero.error)
    }

    func testDescribeSaysHowPagesAreFollowed() async throws {
        var lines: [String] = []
        for target in ["linked", "inBody", "cursor", "numbered"] {
            let (_, out, _) = await CommandTests.run(["describe", "pages.\(target)", "--specs", specs])
            lines += out.split(separator: "\n").filter { $0.hasPrefix("  pages: ") }.map(String.init)
        }
        XCTAssertEqual(
            lines,
            [
                "  pages: next: link, items the body", "  pages: next: url at $.next, items $.data",
                "  pages: next: cursor from $.meta.next_cursor, items $.items",
                "  pages: next: page + 1, to an empty page, items $.results[*]",
            ])
        let (_, json, _) = await CommandTests.run(["describe", "pages.cursor", "--json", "--specs", specs])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let paginate = try XCTUnwrap(object["paginate"] as? [String: Any])
        XCTAssertEqual(paginate["items"] as? String, "$.items")
        XCTAssertEqual(paginate["next"] as? [String: String], ["param": "cursor", "from": "$.meta.next_cursor"])
    }

    // MARK: - Checks and flows

    func testChecksAndFlowStepsReadMergedPages() async throws {
        let folder = NSTemporaryDirectory() + "moya-cli-pages-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        try """
        service: paged
        baseURL: ${TEST_SERVER}
        targets:
          numbered:
            params:
              total: { type: int, default: 10 }
              size: { type: int, default: 3 }
              page: { type: int, default: 1 }
            path: /pages/number
            task: { parameters: { total: "{total}", size: "{size}", page: "{page}" } }
            paginate: { items: $.results, next: { param: page, increment: 1 } }
            checks:
              - name: every item
                pages: all
                expect: { json: { "$[*]": { count: 10 }, "$[9].id": 10 } }
              - name: two pages
                pages: 2
                expect: { json: { "$[*]": { count: 6 } } }
              - name: one page without pages
                expect: { json: { "$.results[*]": { count: 3 } } }
              - name: too few
                pages: 1
                expect: { json: { "$[*]": { count: 10 } } }
          away:
            path: /pages/away
            paginate: { next: link }
            checks:
              - name: off the origin
                pages: all
        flows:
          lastId:
            steps:
              - call: numbered
                pages: all
                capture: { last: { json: "$[-1].id" } }
              - call: numbered
                params: { size: "{last}" }
                expect: { json: { "$.results[*]": { count: 10 } } }
        """.write(toFile: folder + "/paged.yaml", atomically: true, encoding: .utf8)
        let capture = CommandTests.Capture()
        let context = CommandContext(
            environment: Environment(["TEST_SERVER": server.baseURL]),
            writeOut: { capture.appendOut($0) }, writeError: { capture.appendError($0) })
        let status = await MoyaCLI.run(["check", folder], context: context)
        XCTAssertEqual(status, 1)
        let port = server.port
        XCTAssertEqual(
            timeless(capture.out),
            """
            PASS  paged.numbered: every item  (T)
            PASS  paged.numbered: two pages  (T)
            PASS  paged.numbered: one page without pages  (T)
            FAIL  paged.numbered: too few  (T)
                  \(folder)/paged.yaml:23:27: expect.json.$[*]: expected count 10, got 3 values
            FAIL  paged.away: off the origin  (T)
                  \(folder)/paged.yaml:28:9: request: page 1: the next URL in its Link header leads to \
            http://localhost:\(port), off the target's origin http://127.0.0.1:\(port); --allow-cross-origin follows it
            PASS  paged.lastId (flow)  (T)

            6 checks: 4 passed, 2 failed, 0 skipped in T s

            """)
        XCTAssertEqual(capture.error, "moya-cli: error: 2 of 6 checks failed\n")
    }

    /// The output with times replaced by `T`, so that it can be compared whole.
    func timeless(_ text: String) -> String {
        text.replacingOccurrences(of: #"\(\d+ ms\)"#, with: "(T)", options: .regularExpression)
            .replacingOccurrences(of: #"in \d+\.\d{3} s"#, with: "in T s", options: .regularExpression)
    }

    /// Trust round four, finding 12: a check's pages are held to 64 MiB together, as one body
    /// is; the walk stops there, and the check fails saying so.
    func testACheckHoldsItsPagesToTheBodyLimit() async throws {
        let folder = NSTemporaryDirectory() + "moya-cli-pages-limit-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        // 3 MiB a page, 30 pages: 90 MiB in all.
        try """
        service: huge
        baseURL: ${TEST_SERVER}
        targets:
          linked:
            path: /pages/link
            task: { parameters: { total: 90, size: 3, pad: 1048576 } }
            paginate: { next: link }
            checks:
              - name: every item
                pages: all
        """.write(toFile: folder + "/huge.yaml", atomically: true, encoding: .utf8)
        let capture = CommandTests.Capture()
        let context = CommandContext(
            environment: Environment(["TEST_SERVER": server.baseURL]),
            writeOut: { capture.appendOut($0) }, writeError: { capture.appendError($0) })
        let status = await MoyaCLI.run(["check", folder], context: context)
        XCTAssertEqual(status, 1, capture.error)
        XCTAssertTrue(
            capture.out.contains(
                "/huge.yaml:9:9: request: page 22: the pages come to more than 64 MiB, the most that is held in memory\n"
            ),
            capture.out)
        XCTAssertFalse(server.waitForRequests(to: "/pages/link", count: 23, timeout: 0.2), "read past the limit")
    }
}
