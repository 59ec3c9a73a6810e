import Foundation
import MoyaCLI
import MoyaCore
import TestSupport
import XCTest

/// The last ways a request or a mock differed from the description (issue 58): each shape a
/// document can ask for is sent as OpenAPI says, and `serve` holds requests to the document.
extension ImportOpenAPITests {
    var kennel: String { fixtures + "/kennel-3.0.spec.yaml" }

    var kennelForms: String { fixtures + "/kennel-3.1.spec.yaml" }

    func testTheKennelImportsAsItsGoldenFile() async throws {
        try await assertImport(fixtures + "/kennel-3.0.yaml", golden: kennel, warnings: [])
        try await assertRoundTrip(fixtures + "/kennel-3.0.yaml")
        try await assertImport(fixtures + "/kennel-3.1.yaml", golden: kennelForms, warnings: [])
        try await assertRoundTrip(fixtures + "/kennel-3.1.yaml")
    }

    static let color = #"{"R":100,"G":"a b"}"#

    /// Object params, and exploded label and matrix arrays, are written as OpenAPI's style
    /// table has them (RFC 6570's expansions): simple, label and matrix in a path, exploded or
    /// not; a query's form and pipeDelimited; a header's simple exploded; a cookie's form,
    /// exploded (`repeated=a1; repeated=b2`) or not (`joined=a1,b2`). connexion 3.3 reads none
    /// of the object forms (it answers 400 "'R,100,G,a b' is not of type 'object'"), so the bytes
    /// are held to the table here, and `serve` reads each back.
    func testObjectsAndArraysAreSentAsTheStyleTableHasThem() async throws {
        let color = Self.color
        let rows: [(call: [String], lines: [String])] = [
            (
                ["kennel.simpleObjects", "plain=\(color)", "exploded=\(color)"],
                ["GET https://api.kennel.example/v1/simple/R,100,G,a%20b/R=100,G=a%20b"]
            ),
            (
                ["kennel.labelObjects", "plain=\(color)", "exploded=\(color)", "--array", "a1", "--array", "b.2"],
                ["GET https://api.kennel.example/v1/label/.R,100,G,a%20b/.R=100.G=a%20b/.a1.b%2E2"]
            ),
            (
                ["kennel.matrixObjects", "plain=\(color)", "exploded=\(color)", "--array", "a1", "--array", "b2"],
                ["GET https://api.kennel.example/v1/matrix/;plain=R,100,G,a%20b/;R=100;G=a%20b/;array=a1;array=b2"]
            ),
            (
                [
                    "kennel.objectsElsewhere", "color=\(color)", "piped=\(color)", "X-Color=\(color)", "--joined", "a1",
                    "--joined", "b 2", "--repeated", "a1", "--repeated", "b2", "shade=\(color)", "--show-secrets",
                ],
                [
                    "GET https://api.kennel.example/v1/elsewhere?color=R%2C100%2CG%2Ca%20b&piped=R%7C100%7CG%7Ca%20b",
                    "User-Agent: moya-cli/0.1.0", "Accept: */*", "X-Color: R=100,G=a b",
                    "Cookie: joined=a1,b%202; repeated=a1; repeated=b2; shade=R,100,G,a%20b",
                ]
            ),
        ]
        for row in rows {
            let (status, out, error) = await CommandTests.run(["call"] + row.call + ["--specs", kennel, "--dry-run"])
            XCTAssertEqual(status, 0, error)
            XCTAssertEqual(Array(out.split(separator: "\n").prefix(row.lines.count).map(String.init)), row.lines)
        }

        // An object's member that is not a scalar is refused before anything is sent.
        let (refused, _, refusal) = await CommandTests.run(
            ["call", "kennel.simpleObjects", "--specs", kennel, "--dry-run", #"plain={"R":[1]}"#, "exploded={}"])
        XCTAssertEqual(refused, 64)
        XCTAssertEqual(
            refusal,
            "moya-cli: error: param 'plain' member 'R' is not a string, number or boolean; OpenAPI's styles write "
                + "only flat objects\n")

        // serve reads each style back: every call through it is answered 200.
        let served = try await ServeTests.Served([kennel])
        let live = ["KENNEL_URL": served.url + "/v1"]
        for row in rows {
            let (status, _, error) = await CommandTests.run(
                ["call"] + row.call + ["--specs", kennel], environment: live)
            XCTAssertEqual(status, 0, "\(row.call): \(error)")
        }
        // A value not written in its style is a 400 that says so.
        let odd = try await ServeTests.get(served, "/v1/label/.R/.R=1/.a")
        XCTAssertEqual(odd.statusCode, 400)
        XCTAssertTrue(
            ServeTests.text(odd).contains("param 'plain' in the path is not written in its style (label)"),
            ServeTests.text(odd))
        let log = await served.stop().log
        XCTAssertEqual(log.split(separator: "\n").filter { $0.contains("  400  ") }.count, 1, log)
    }

    /// A multipart body is sent with whatever method the document gives it (GET here), and
    /// OpenAPI 3.1's `encoding` style writes a part as a form entry's value is written: an
    /// object's `height,40,weight,20`, a pipeDelimited array's `a|b`.
    func testMultipartBodiesAreSentAsTheDocumentSays() async throws {
        let (status, out, error) = await CommandTests.run([
            "call", "kennel.searchByForm", "--specs", kennel, "--dry-run", "term=dogs", "page=2",
        ])
        XCTAssertEqual(status, 0, error)
        let boundary = try XCTUnwrap(out.firstMatch(of: /boundary=([^\n]+)/)?.1)
        // The body's lines end in CR LF, as multipart's do.
        XCTAssertEqual(
            out.replacing("\r\n", with: "\n"),
            """
            GET https://api.kennel.example/v1/search
            User-Agent: moya-cli/0.1.0
            Accept: */*
            Content-Type: multipart/form-data; boundary=\(boundary)

            --\(boundary)
            Content-Disposition: form-data; name="page"

            2
            --\(boundary)
            Content-Disposition: form-data; name="term"

            dogs
            --\(boundary)--


            """)

        let (formed, formOut, formError) = await CommandTests.run([
            "call", "kennelForms.registerDog", "--specs", kennelForms, "--dry-run", "name=Rex",
            #"size={"height":40,"weight":20}"#, "--tags", "a", "--tags", "b",
        ])
        XCTAssertEqual(formed, 0, formError)
        let parts = formOut.replacing("\r\n", with: "\n").split(separator: "--moya.boundary").dropFirst().map {
            $0.split(separator: "\n").map(String.init)
        }
        XCTAssertEqual(
            parts.map { Array($0.dropFirst()) },
            [
                [#"Content-Disposition: form-data; name="name""#, "Rex"],
                [#"Content-Disposition: form-data; name="size""#, "height,40,weight,20"],
                [#"Content-Disposition: form-data; name="tags""#, "a|b"], [],
            ])

        // serve reads both back.
        let served = try await ServeTests.Served([kennel, kennelForms])
        let (live, _, liveError) = await CommandTests.run(
            ["call", "kennel.searchByForm", "--specs", kennel, "term=dogs"],
            environment: ["KENNEL_URL": served.url + "/v1"])
        XCTAssertEqual(live, 0, liveError)
        let (registered, _, registerError) = await CommandTests.run(
            [
                "call", "kennelForms.registerDog", "--specs", kennelForms, "name=Rex",
                #"size={"height":40,"weight":20}"#, "--tags", "a", "--tags", "b",
            ], environment: ["KENNEL_FORMS_URL": served.url + "/v1"])
        XCTAssertEqual(registered, 0, registerError)
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
    /// out; `call` sends both defaults. serve's 400 is in the media type the target's error
    /// responses declare.
    func testServeNeedsARequiredParamThatHasADefault() async throws {
        let served = try await ServeTests.Served([kennel])
        let missing = try await ServeTests.get(served, "/v1/report")
        XCTAssertEqual(missing.statusCode, 400)
        // In the media type the document gives its errors, not application/problem+json.
        XCTAssertEqual(missing.headers["Content-Type"], "application/json")
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
            let (status, out, error) = await CommandTests.run(["import", "openapi", corpus + "/" + file])
            XCTAssertEqual(status, 0, error)
            let lines = out.split(separator: "\n")
            XCTAssertEqual(lines.first { $0.hasPrefix("service: ") }, "service: \(service)", file)
            let variable = service.replacing(/[A-Z]/) { "_" + $0.output }.uppercased() + "_URL"
            XCTAssertTrue(
                lines.first { $0.hasPrefix("baseURL: ") }?.contains("${\(variable):-") == true, "\(file): \(variable)")
        }
    }
}

extension ImportOpenAPITests {
    /// Every operation of every document in the shared corpus and the OpenAPI Initiative's
    /// examples is a target: Python's YAML parser counts the document's operations and the
    /// spec's targets, independently of import.
    func testEveryOperationIsATarget() async throws {
        let folders = [try Self.requireRealCorpus(), try Self.requireExamples()]
        let count = """
            import json, sys, yaml
            def load(path):
                with open(path, encoding="utf-8") as handle:
                    return json.load(handle) if path.endswith(".json") else yaml.safe_load(handle)
            methods = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}
            document, spec = load(sys.argv[1]), load(sys.argv[2])
            operations = sum(1 for item in (document.get("paths") or {}).values() for key in item if key in methods)
            print(operations, len(spec.get("targets") or {}))
            """
        var documents = 0
        for folder in folders {
            let names = try FileManager.default.contentsOfDirectory(atPath: folder)
                .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }.sorted()
            for name in names {
                let directory = try temporaryDirectory()
                let spec = directory + "/spec.yaml"
                let (status, _, error) = await CommandTests.run(
                    ["import", "openapi", folder + "/" + name, "-o", spec])
                XCTAssertEqual(status, 0, "\(name): \(error.suffix(500))")
                let (counted, out, countError) = try CommandTests.runProcess(
                    ["-c", count, folder + "/" + name, spec], executable: "python3")
                XCTAssertEqual(counted, 0, countError)
                let numbers = out.split(separator: " ").map { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
                XCTAssertEqual(numbers.count, 2, out)
                XCTAssertEqual(numbers.first ?? nil, numbers.last ?? nil, "\(name): operations, targets")
                documents += 1
            }
        }
        XCTAssertEqual(documents, 19)
    }
}
