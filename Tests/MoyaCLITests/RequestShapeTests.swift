import Foundation
import MoyaCLI
import MoyaCore
import TestSupport
import XCTest

/// The last ways a request or a mock differed from the description (issue 58): each shape a
/// document can ask for is sent as OpenAPI says, and `serve` holds requests to the document.
extension ImportOpenAPITests {
    var kennel: String { fixtures + "/kennel-3.0.spec.yaml" }

    func testTheKennelImportsAsItsGoldenFile() async throws {
        try await assertImport(fixtures + "/kennel-3.0.yaml", golden: kennel, warnings: [])
        try await assertRoundTrip(fixtures + "/kennel-3.0.yaml")
    }

    /// A binary body beside query params is a file param, and the query goes with it, in the
    /// URL: the file's bytes are the body.
    func testABinaryBodyBesideAQueryIsAFile() async throws {
        let directory = try temporaryDirectory()
        let photo = directory + "/photo.jpg"
        try Data([0xFF, 0xD8, 0x00, 0x7F]).write(to: URL(fileURLWithPath: photo))
        let server = try TestServer()
        let (status, out, error) = await CommandTests.run(
            [
                "call", "kennel.uploadPhoto", "--specs", kennel, "dogId=7", "caption=a b", "--tags", "x", "--tags", "y",
                "file=\(photo)",
            ], environment: ["KENNEL_URL": server.baseURL])
        XCTAssertEqual(status, 0, error)
        let echo = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any], out)
        XCTAssertEqual(echo["method"] as? String, "POST")
        XCTAssertEqual(echo["uri"] as? String, "/dogs/7/photo?caption=a%20b&tags=x&tags=y")
        XCTAssertEqual(echo["bodyBase64"] as? String, "/9gAfw==")
    }

    /// A required param with a schema default must be sent to `serve`: a default is what a
    /// client sends, not what a server may assume. An optional one with a default may be left
    /// out; `call` sends both defaults.
    func testServeNeedsARequiredParamThatHasADefault() async throws {
        let served = try await ServeTests.Served([kennel])
        let missing = try await ServeTests.get(served, "/v1/report")
        XCTAssertEqual(missing.statusCode, 400)
        XCTAssertTrue(
            ServeTests.text(missing).contains(
                #""detail" : "the request does not fit kennel.report (GET /v1/report): param 'format' in query 'format' is required""#
            ), ServeTests.text(missing))
        let given = try await ServeTests.send(
            ServeTests.Raw(
                baseURL: try XCTUnwrap(URL(string: served.url)), path: "/v1/report",
                task: .requestParameters(parameters: ["format": "csv"], encoding: URLEncoding.queryString))
        ).get()
        XCTAssertEqual(given.statusCode, 200, ServeTests.text(given))
        let (status, out, error) = await CommandTests.run(
            ["call", "kennel.report", "--specs", kennel, "--dry-run"], environment: ["KENNEL_URL": served.url + "/v1"])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(out.split(separator: "\n").first, "GET \(served.url)/v1/report?format=json&limit=10")
        let (live, _, liveError) = await CommandTests.run(
            ["call", "kennel.report", "--specs", kennel], environment: ["KENNEL_URL": served.url + "/v1"])
        XCTAssertEqual(live, 0, liveError)
    }

    /// A service is named from its title's first words, less the words every API's title has,
    /// else from its server's host; the `${…_URL}` variable follows the name.
    func testServiceNamesAreShort() async throws {
        let corpus = try Self.requireRealCorpus()
        let expected = [
            "asana.yaml": "asana", "box.json": "box", "museum.yaml": "redoclyMuseum", "petstore3.yaml": "petstore",
            "sendgrid.json": "emailActivity", "spotify.yaml": "spotify", "stackexchange.yaml": "stackExchange",
            "twilio-api-v2010.json": "twilio", "twilio-lookups-v2.json": "twilioLookups", "xkcd.yaml": "xkcd",
        ]
        for (file, service) in expected.sorted(by: { $0.key < $1.key }) {
            let (status, out, error) = try CommandTests.runProcess(["import", "openapi", corpus + "/" + file])
            XCTAssertEqual(status, 0, error)
            let lines = out.split(separator: "\n")
            XCTAssertEqual(lines.first { $0.hasPrefix("service: ") }, "service: \(service)", file)
            let variable = service.replacing(/[A-Z]/) { "_" + $0.output }.uppercased() + "_URL"
            XCTAssertTrue(
                lines.first { $0.hasPrefix("baseURL: ") }?.contains("${\(variable):-") == true, "\(file): \(variable)")
        }
    }
}
