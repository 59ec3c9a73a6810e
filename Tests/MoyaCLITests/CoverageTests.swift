import Foundation
import MoyaCLI
import MoyaCore
import MoyaJSON
import TestSupport
import XCTest

/// `--coverage` and `--coverage-min` of `check` and `run`, and `serve --coverage`, on the
/// hand-checked spec `Tests/Fixtures/coverage/shop.yaml`: every figure below is counted by
/// hand from its targets and checks.
final class CoverageTests: XCTestCase {
    var server: TestServer!
    let spec = CommandTests.root + "/Tests/Fixtures/coverage/shop.yaml"

    override func setUpWithError() throws {
        server = try TestServer()
    }

    override func tearDown() {
        server.stop()
    }

    func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "moya-cli-coverage-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        return folder
    }

    func check(_ arguments: [String], url: String? = nil) async -> (Int32, String, String) {
        await CommandTests.run(["check", spec] + arguments, environment: ["SHOP_URL": url ?? server.baseURL])
    }

    static func read(_ path: String) throws -> JSONValue {
        try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func testALiveCheckRunGivesTheHandCountedFigures() async throws {
        let file = try folder() + "/reports/coverage.json"
        let (status, out, error) = await check(["--coverage", file])
        XCTAssertEqual(status, 0, out + error)
        XCTAssertEqual(error, "")
        XCTAssertEqual(try Self.read(file), try JSONValue(parsing: Data(ShopCoverage.live.utf8)))
        // Written as people read it: indented, one key a line, a newline at the end.
        let text = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("{\n  \"version\" : 1,\n  \"percent\" : 37.5,\n"), text)
        XCTAssertTrue(text.hasSuffix("}\n"))
    }

    func testTheGateFailsWithOneLineAndAJUnitCase() async throws {
        let folder = try folder()
        let (status, _, error) = await check(["--coverage-min", "50", "--junit", folder + "/junit.xml"])
        XCTAssertEqual(status, 1)
        // 4 of 8 would reach 50%: one more. /echo leaves 400, 201 and 409; /status and /pets
        // one each, in declared order.
        XCTAssertEqual(
            error,
            "moya-cli: error: coverage 37.5% is below --coverage-min 50%: 1 more of 8 declared statuses to cover; "
                + "most uncovered: shop /echo (3), shop /status (1), shop /pets (1)\n")
        let junit = try String(contentsOfFile: folder + "/junit.xml", encoding: .utf8)
        XCTAssertTrue(
            junit.contains(
                """
                  <testsuite name="coverage" tests="1" failures="1" skipped="0" time="0.000">
                    <testcase classname="coverage" name="coverage &gt;= 50%" time="0.000">
                      <failure message="coverage 37.5% is below --coverage-min 50%: 1 more of 8 declared statuses to cover; most uncovered: shop /echo (3), shop /status (1), shop /pets (1)" type="assertion">coverage 37.5% is below --coverage-min 50%: 1 more of 8 declared statuses to cover; most uncovered: shop /echo (3), shop /status (1), shop /pets (1)</failure>
                    </testcase>
                  </testsuite>
                """), junit)
        // Exactly at the minimum passes: 3 of 8 is 37.5%.
        let (met, _, metError) = await check(["--coverage-min", "37.5", "--junit", folder + "/met.xml"])
        XCTAssertEqual(met, 0, metError)
        let passed = try String(contentsOfFile: folder + "/met.xml", encoding: .utf8)
        XCTAssertTrue(
            passed.contains(#"<testcase classname="coverage" name="coverage &gt;= 37.5%" time="0.000"/>"#), passed)
        // A file that cannot be written fails before anything is sent, as a report does.
        let (unwritable, out, unwritableError) = await check(["--coverage", "/dev/null/coverage.json"])
        XCTAssertEqual(unwritable, 73)
        XCTAssertEqual(out, "")
        XCTAssertTrue(unwritableError.hasPrefix("moya-cli: error: cannot write the report: "), unwritableError)
        let (bad, _, badError) = await check(["--coverage-min", "101"])
        XCTAssertEqual(bad, 64)
        XCTAssertTrue(badError.contains("--coverage-min takes a percentage from 0 to 100"), badError)
    }

    func testOnlyNarrowsTheRunNotWhatIsCounted() async throws {
        let file = try folder() + "/coverage.json"
        let (status, _, error) = await check(["--only", "shop.listPets", "--coverage", file])
        XCTAssertEqual(status, 0, error)
        let figures = try Self.read(file)
        // Every target of the service is still counted: only listPets' 200 is covered.
        XCTAssertEqual(figures["targets"], try JSONValue(parsing: Data(#"{"covered":1,"total":4}"#.utf8)))
        XCTAssertEqual(figures["statuses"], try JSONValue(parsing: Data(#"{"covered":1,"total":8}"#.utf8)))
        XCTAssertEqual(figures["percent"], .number(12.5))
    }

    /// The HTML report's matrix: a row per target by group, a column per status; addPet's
    /// 200, which came back undeclared, is marked.
    func testTheHTMLReportHasTheMatrix() async throws {
        let file = try folder() + "/report.html"
        let (status, _, error) = await check(["--coverage-min", "0", "--html", file])
        XCTAssertEqual(status, 0, error)
        let page = try String(contentsOfFile: file, encoding: .utf8)
        guard let start = page.range(of: "<section class=\"coverage\">"), let end = page.range(of: "</section>\n")
        else { return XCTFail(page) }
        let hit = "<td class=\"hit\" title=\"covered\">✓</td>"
        let miss = "<td class=\"miss\" title=\"not covered\">✗</td>"
        let none = "<td class=\"none\" title=\"not declared\"></td>"
        let undeclared = "<td class=\"undeclared\" title=\"came back, but the description does not declare it\">!</td>"
        func target(_ name: String, _ route: String, _ cells: [String]) -> String {
            "<tr><th class=\"target\">\(name) <span class=\"route\">\(route)</span></th>" + cells.joined() + "</tr>\n"
        }
        func group(_ name: String) -> String { "<tr class=\"group\"><th colspan=\"8\">\(name)</th></tr>\n" }
        XCTAssertEqual(
            String(page[start.lowerBound..<end.upperBound]),
            "<section class=\"coverage\"><h2>Coverage: 37.5% of declared statuses</h2>\n"
                + "<p class=\"totals\"><span>3 of 4 targets called</span> <span>3 of 8 statuses</span> "
                + "<span>3 of 4 params sent</span> <span>3 of 5 enum values</span> <span>1 of 2 body branches</span></p>\n"
                + "<table class=\"matrix\"><caption>shop: 37.5%</caption>\n"
                + "<tr><th>target</th><th>200</th><th>201</th><th>204</th><th>400</th><th>404</th><th>409</th>"
                + "<th>default</th></tr>\n"
                + group("/echo")
                + target("listPets", "GET /echo", [hit, none, none, miss, none, none, none])
                + target("addPet", "POST /echo", [undeclared, miss, none, none, none, miss, none])
                + group("/status")
                + target("answer", "GET /status/{code}", [hit, none, none, none, miss, none, hit])
                + group("/pets")
                + target("deletePet", "DELETE /pets/{id}", [none, none, miss, none, none, none, none])
                + "</table>\n</section>\n")
        // Without coverage, the page has no matrix.
        let (_, _, _) = await check(["--html", file])
        XCTAssertFalse(try String(contentsOfFile: file, encoding: .utf8).contains("matrix"))
    }

    /// `run` counts a flow's steps out of every target of the services it read: the bundled
    /// myservice flow calls createUser, showUser, updateUser and deleteUser.
    func testRunCountsAFlowsSteps() async throws {
        let file = try folder() + "/coverage.json"
        let specs = CommandTests.root + "/specs"
        let (status, _, error) = await CommandTests.run([
            "run", "myservice.userLifecycle", "--specs", specs + "/myservice.yaml", "--stub", "immediate",
            "--coverage", file,
        ])
        XCTAssertEqual(status, 0, error)
        guard case .array(let items)? = try Self.read(file)["items"] else { return XCTFail() }
        let called = items.filter { $0["called"] == .bool(true) }.compactMap { $0["target"]?.stringValue }
        XCTAssertEqual(called.sorted(), ["createUser", "deleteUser", "showUser", "updateUser"])
        XCTAssertEqual(items.count, 6)
    }

    /// An imported spec declares the document's response keys: petstore3's 19 operations
    /// declare 64 responses (`default` among them), as TraceCov counts them
    /// (bench/coverage.sh). On the samples, each target answers its success: 19 of 64.
    func testAnImportedSpecDeclaresTheDocumentsResponses() async throws {
        let corpus = try Repository.shared("openapi-real", variable: "OPENAPI_REAL")
        let folder = try folder()
        let (imported, _, importError) = await CommandTests.run([
            "import", "openapi", corpus + "/petstore3.yaml", "-o", folder + "/petstore.yaml",
        ])
        XCTAssertEqual(imported, 0, importError)
        let (status, _, error) = await CommandTests.run([
            "check", folder + "/petstore.yaml", "--stub", "immediate", "--coverage", folder + "/coverage.json",
        ])
        XCTAssertEqual(status, 0, error)
        let figures = try Self.read(folder + "/coverage.json")
        XCTAssertEqual(figures["targets"], try JSONValue(parsing: Data(#"{"covered":19,"total":19}"#.utf8)))
        XCTAssertEqual(figures["statuses"], try JSONValue(parsing: Data(#"{"covered":19,"total":64}"#.utf8)))
        guard case .array(let items)? = figures["items"],
            let update = items.first(where: { $0["target"] == .string("updatePet") }),
            case .array(let statuses)? = update["statuses"]
        else { return XCTFail("\(figures)") }
        XCTAssertEqual(statuses.compactMap { $0["status"]?.stringValue }, ["200", "400", "404", "422", "default"])
    }

    /// serve counts the requests it answered as check counts the exchanges it made: the same
    /// run, seen from both ends, gives the same figures. Against serve, each target answers
    /// its default sample unless a check asks for another: 201 for addPet, 200 for the
    /// teapot.
    func testServeCountsWhatItAnsweredAsTheClientCountsWhatItSent() async throws {
        let folder = try folder()
        let served = try await ServeTests.Served([spec, "--service", "shop", "--coverage", folder + "/serve.json"])
        let (status, _, _) = await check(["--coverage", folder + "/check.json"], url: served.url)
        // The teapot and the 503 fail: serve answers 200.
        XCTAssertEqual(status, 1)
        // A request no target answers is counted apart.
        _ = try? await ServeTests.get(served, "/nowhere")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/serve.json"), "written only when serve stops")
        let (stopped, log) = await served.stop()
        XCTAssertEqual(stopped, 0)
        XCTAssertTrue(log.hasSuffix("moya-cli: coverage 37.5% written to \(folder)/serve.json\n"), log)
        guard case .object(var fromServe) = try Self.read(folder + "/serve.json"),
            case .object(let fromCheck) = try Self.read(folder + "/check.json")
        else { return XCTFail("not objects") }
        XCTAssertEqual(fromServe.first { $0.key == "unmatched" }?.value, .integer(1))
        if let index = fromServe.firstIndex(where: { $0.key == "unmatched" }) { fromServe[index].value = .integer(0) }
        XCTAssertEqual(JSONValue.object(fromServe), JSONValue.object(fromCheck))
        // listPets' 200, answer's 200 alone (404 and default never come back), addPet's 201:
        // 3 of 8.
        let figures = try Self.read(folder + "/check.json")
        XCTAssertEqual(figures["statuses"], try JSONValue(parsing: Data(#"{"covered":3,"total":8}"#.utf8)))
        guard case .array(let items)? = figures["items"], items.count == 4 else { return XCTFail("\(figures)") }
        XCTAssertEqual(items[2]["undeclaredStatuses"], .array([]))
    }
}

extension CoverageTests {
    /// Finding 12: serve --coverage tallies a form of many values against an enum of many
    /// cases by looking each value up: 40,000 values against 5,000 cases were 200 million
    /// comparisons a request (any web page can post the form), now 40,000 look-ups.
    func testServeCountsALargeFormAgainstALargeEnumInLinearTime() async throws {
        let folder = try folder()
        let cases = (0..<5000).map { "v\($0)" }.joined(separator: ", ")
        let spec = """
            service: tags
            baseURL: http://127.0.0.1:9
            targets:
              tag:
                method: POST
                path: /tags
                params:
                  t: { type: "[enum]", enum: [\(cases)] }
                task:
                  parameters: { t: "{t}" }
                  encoding: url
                  arrays: noBrackets
                sample: { json: { ok: true } }

            """
        try spec.write(toFile: folder + "/tags.yaml", atomically: true, encoding: .utf8)
        let served = try await ServeTests.Served([folder + "/tags.yaml", "--coverage", folder + "/serve.json"])
        let form = (0..<40_000).map { "t=v\($0 % 3 * 1000)" }.joined(separator: "&")
        let start = Date()
        let response = try await ServeTests.send(
            ServeTests.Raw(
                baseURL: try XCTUnwrap(URL(string: served.url)), path: "/tags", method: .post,
                task: .requestData(Data(form.utf8)),
                headers: ["Content-Type": "application/x-www-form-urlencoded"])
        ).get()
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "the form was tallied case by case")
        XCTAssertEqual(response.statusCode, 200, ServeTests.text(response))
        let (stopped, _) = await served.stop()
        XCTAssertEqual(stopped, 0)
        let figures = try Self.read(folder + "/serve.json")
        XCTAssertEqual(figures["enumValues"], try JSONValue(parsing: Data(#"{"covered":3,"total":5000}"#.utf8)))
    }
}
