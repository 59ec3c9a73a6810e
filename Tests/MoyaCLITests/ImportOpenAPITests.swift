import MoyaCLI
import MoyaCore
import TestSupport
import XCTest

/// `moya-cli import openapi`, run as a user runs it: the whole spec it writes is compared
/// with a golden file in Tests/Fixtures/openapi (CI fails on drift), and the spec validates and
/// passes `check --stub immediate`.
final class ImportOpenAPITests: XCTestCase {
    var fixtures: String { CommandTests.root + "/Tests/Fixtures/openapi" }
    /// The OpenAPI Initiative's examples, from the shared copy beside the repository, or from
    /// `$OPENAPI_EXAMPLES`.
    static func requireExamples() throws -> String {
        try Repository.shared("openapi-examples", variable: "OPENAPI_EXAMPLES")
    }

    func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "import-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// Imports `document`, compares the spec and the warnings with the goldens beside it, and
    /// checks the spec validates and passes its checks on the samples.
    func assertImport(
        _ document: String, golden: String, warnings: [String], file: StaticString = #filePath,
        line: UInt = #line
    ) async throws {
        // Run in the golden's folder, so that its schemas' `$ref`s name the document beside it.
        let folder = (golden as NSString).deletingLastPathComponent
        let (status, out, error) = try CommandTests.runProcess(["import", "openapi", document], in: folder)
        XCTAssertEqual(status, 0, error, file: file, line: line)
        let expected = try String(contentsOfFile: golden, encoding: .utf8)
        XCTAssertEqual(
            out, expected, "regenerate with: moya-cli import openapi \(document) -o \(golden)", file: file, line: line)
        XCTAssertEqual(error.split(separator: "\n").map(String.init), warnings, file: file, line: line)

        // The same bytes again, through -o.
        let directory = try temporaryDirectory()
        let written = directory + "/spec.yaml"
        let (again, _, _) = await CommandTests.run(["import", "openapi", document, "-o", written])
        XCTAssertEqual(again, 0, file: file, line: line)
        // The same, but for the folders in each `$ref`, which name the document from the
        // spec's own folder.
        let spec = try String(contentsOfFile: written, encoding: .utf8)
        XCTAssertEqual(
            spec.replacing(/\$ref: ("?)[^"#\s]*\/([^\/"#\s]*#)/) { "$ref: \($0.1)\($0.2)" }, out, file: file, line: line
        )

        let (valid, validOut, validError) = await CommandTests.run(["validate", written])
        XCTAssertEqual(valid, 0, validError, file: file, line: line)
        XCTAssertTrue(validOut.hasPrefix("ok: 1 service"), validOut, file: file, line: line)
        let (checked, checkOut, _) = await CommandTests.run(["check", written, "--stub", "immediate"])
        XCTAssertEqual(checked, 0, checkOut, file: file, line: line)
    }

    func testOpenAPI30InYAML() async throws {
        let document = fixtures + "/shop-3.0.yaml"
        try await assertImport(
            document, golden: fixtures + "/shop-3.0.spec.yaml",
            warnings: [
                "moya-cli: warning: \(document)#/paths/~1lamps/post/responses/201/links/self: link 'self' has no place in a spec; left out",
                "moya-cli: warning: \(document)#/paths/~1lamps/post/callbacks/restocked: callback 'restocked' has no place in a spec; left out",
            ])
    }

    func testOpenAPI31InJSON() async throws {
        let document = fixtures + "/forms-3.1.json"
        try await assertImport(
            document, golden: fixtures + "/forms-3.1.spec.yaml",
            warnings: [
                "moya-cli: warning: \(document)#/servers/0/url: '/api' is relative; it is taken from http://127.0.0.1:4010, where moya-cli serve listens",
                "moya-cli: warning: \(document)#/components/securitySchemes/oauth: OAuth flows have no place in a spec; the token is read from FORMS_OAUTH_TOKEN as a bearer token",
            ])
    }

    /// The OpenAPI Initiative's examples, which these tests did not write: each imports,
    /// validates and passes its checks on the samples.
    func testTheOpenAPIInitiativeExamples() async throws {
        let examples = try Self.requireExamples()
        let names = try FileManager.default.contentsOfDirectory(atPath: examples)
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }.sorted()
        XCTAssertEqual(names.count, 9)
        for name in names {
            let directory = try temporaryDirectory()
            let written = directory + "/spec.yaml"
            let (status, _, error) = await CommandTests.run([
                "import", "openapi", examples + "/" + name, "-o", written,
            ])
            XCTAssertEqual(status, 0, "\(name): \(error)")
            let (valid, _, validError) = await CommandTests.run(["validate", written])
            XCTAssertEqual(valid, 0, "\(name): \(validError)")
            let (checked, checkOut, _) = await CommandTests.run(["check", written, "--stub", "immediate"])
            XCTAssertEqual(checked, 0, "\(name): \(checkOut)")

            // Served from its samples, the spec's live checks give what its stubbed ones give.
            let text = try String(contentsOfFile: written, encoding: .utf8)
            guard let match = text.firstMatch(of: /\nbaseURL: "\$\{([A-Z_]+):-[a-z]+:\/\/[^\/"]*([^"]*)\}"/) else {
                continue
            }
            // The examples' checks carry no credentials; serve's 401s are tested on their own.
            // Against serve, the user sends the checks of writes live too.
            let served = try await ServeTests.Served([written, "--no-auth"])
            let environment = [String(match.1): served.url + match.2]
            let (live, liveOut, liveError) = await CommandTests.run(
                ["check", written, "--allow-writes", "--allow-deletes"], environment: environment)
            XCTAssertEqual(live, 0, "\(name): \(liveOut) \(liveError)")
            XCTAssertEqual(ServeTests.untimed(liveOut), ServeTests.untimed(checkOut), name)
            let stopped = await served.stop()
            XCTAssertEqual(stopped.status, 0)
        }
    }

    func testADocumentThatIsNotOpenAPIIsOneLineAndExit65() async throws {
        let directory = try temporaryDirectory()
        let file = directory + "/swagger.yaml"
        try "swagger: '1.2'\ninfo: { title: x, version: '1' }\npaths: {}\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        let (status, out, error) = await CommandTests.run(["import", "openapi", file])
        XCTAssertEqual(status, 65)
        XCTAssertEqual(out, "")
        XCTAssertEqual(error, "moya-cli: error: \(file): Swagger 1.2 is not supported; this reads Swagger 2.0\n")
        let other = directory + "/other.yaml"
        try "info: { title: x, version: '1' }\npaths: {}\n".write(toFile: other, atomically: true, encoding: .utf8)
        let (otherStatus, _, otherError) = await CommandTests.run(["import", "openapi", other])
        XCTAssertEqual(otherStatus, 65)
        XCTAssertEqual(
            otherError,
            "moya-cli: error: \(other): no 'openapi' or 'swagger' version; this reads OpenAPI 3.0, 3.1 and 3.2, and Swagger 2.0\n"
        )
        let (missing, _, missingError) = await CommandTests.run(["import", "openapi", directory + "/none.yaml"])
        XCTAssertEqual(missing, 66)
        XCTAssertEqual(missingError, "moya-cli: error: cannot read \(directory)/none.yaml\n")
    }

    /// Trust round four, finding 20: the checks import writes for writes run on samples only:
    /// a live run skips each with one line, `--allow-writes` and `--allow-deletes` send them,
    /// and a check the user wrote runs as written.
    /// `-o` into a folder that is not there yet makes it, and the spec there reads its copy of
    /// the document beside it; a path through a file is refused with exit 73, and a failed
    /// import removes the folders it made.
    func testOutputIntoANewFolderMakesIt() async throws {
        let directory = try temporaryDirectory()
        let document = """
            openapi: 3.0.3
            info: { title: Store, version: "1" }
            servers: [{ url: "http://127.0.0.1:9/v1" }]
            paths:
              /items:
                get:
                  operationId: listItems
                  responses:
                    "200":
                      description: ok
                      content: { application/json: { schema: { $ref: "#/components/schemas/Items" } } }
            components:
              schemas:
                Items: { type: array, items: { type: string } }
            """
        try document.write(toFile: directory + "/store.yaml", atomically: true, encoding: .utf8)
        let (status, _, error) = await CommandTests.run(
            ["import", "openapi", "store.yaml", "-o", "new/specs/store.spec.yaml"], in: directory)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(
            error,
            "moya-cli: copied store.yaml to new/specs/store.yaml, beside the spec: a spec reads files only in its folder\n"
        )
        let (checked, _, checkError) = await CommandTests.run(
            ["validate", "new/specs/store.spec.yaml"], in: directory)
        XCTAssertEqual(checked, 0, checkError)

        let (through, _, throughError) = await CommandTests.run(
            ["import", "openapi", "store.yaml", "-o", "store.yaml/spec.yaml"], in: directory)
        XCTAssertEqual(through, 73)
        XCTAssertEqual(throughError, "moya-cli: error: cannot write store.yaml/spec.yaml: store.yaml is not a folder\n")

        // A failed import leaves no folder behind.
        try "openapi: 3.0.3\npaths: [".write(toFile: directory + "/broken.yaml", atomically: true, encoding: .utf8)
        let (failed, _, _) = await CommandTests.run(
            ["import", "openapi", "broken.yaml", "-o", "gone/deeper/spec.yaml"], in: directory)
        XCTAssertNotEqual(failed, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/gone"))
    }

    func testImportedChecksOfWritesRunOnSamplesUnlessAllowed() async throws {
        let directory = try temporaryDirectory()
        let document = """
            openapi: 3.0.3
            info: { title: Store, version: "1" }
            servers: [{ url: "http://127.0.0.1:9/v1" }]
            paths:
              /items:
                get: { operationId: listItems, responses: { "200": { description: ok } } }
                post: { operationId: addItem, responses: { "201": { description: made } } }
              /items/{id}:
                delete:
                  operationId: removeItem
                  parameters: [{ name: id, in: path, required: true, schema: { type: integer }, example: 7 }]
                  responses: { "204": { description: gone } }
            """
        try document.write(toFile: directory + "/store.yaml", atomically: true, encoding: .utf8)
        let (imported, _, importError) = await CommandTests.run(
            ["import", "openapi", "store.yaml", "-o", "store.spec.yaml"], in: directory)
        XCTAssertEqual(imported, 0, importError)
        let spec = try String(contentsOfFile: directory + "/store.spec.yaml", encoding: .utf8)
        XCTAssertTrue(
            spec.contains(
                "  addItem:\n    method: POST\n    path: /items\n    sample: { status: 201 }\n    checks:\n      - name: example\n        live: false\n"
            ), spec)
        XCTAssertTrue(
            spec.contains("    checks:\n      - name: example\n        params: { id: 7 }\n        live: false\n"), spec)

        // Live, against serve: the read runs, the writes are skipped, each saying why.
        let served = try await ServeTests.Served([directory + "/store.spec.yaml", "--no-auth"])
        let environment = ["STORE_URL": served.url + "/v1"]
        let (live, liveOut, liveError) = await CommandTests.run(
            ["check", directory + "/store.spec.yaml", "--color", "never"], environment: environment)
        XCTAssertEqual(live, 0, liveError)
        XCTAssertEqual(
            ServeTests.untimed(liveOut),
            ServeTests.untimed(
                """
                PASS  store.listItems  (1 ms)
                SKIP  store.addItem: example  (live: false: it sends POST, which changes data, so it runs on samples only; --allow-writes sends it live)
                SKIP  store.removeItem: example  (live: false: it sends DELETE, which changes data, so it runs on samples only; --allow-deletes sends it live)

                3 checks: 1 passed, 0 failed, 2 skipped in 0.1 s

                """))
        let (writes, writesOut, _) = await CommandTests.run(
            ["check", directory + "/store.spec.yaml", "--allow-writes", "--color", "never"], environment: environment)
        XCTAssertEqual(writes, 0, writesOut)
        XCTAssertTrue(writesOut.contains("PASS  store.addItem: example"), writesOut)
        XCTAssertTrue(writesOut.contains("SKIP  store.removeItem: example"), writesOut)
        let (all, allOut, _) = await CommandTests.run(
            ["check", directory + "/store.spec.yaml", "--allow-writes", "--allow-deletes", "--color", "never"],
            environment: environment)
        XCTAssertEqual(all, 0, allOut)
        XCTAssertTrue(allOut.contains("3 checks: 3 passed"), allOut)
        _ = await served.stop()

        // Stubbed, every check runs on its sample.
        let (stubbed, stubbedOut, _) = await CommandTests.run([
            "check", directory + "/store.spec.yaml", "--stub", "immediate",
        ])
        XCTAssertEqual(stubbed, 0, stubbedOut)
        XCTAssertTrue(stubbedOut.contains("3 checks: 3 passed"), stubbedOut)
    }

    /// Trust round four, finding 19: what a spec cannot hold (a header name with a space, a
    /// port past 65535, a scheme that is not http or https, which the openapi fuzz target
    /// found) is left out with a warning, and what import writes validates.
    func testImportWritesWhatValidates() async throws {
        let directory = try temporaryDirectory()
        let document = """
            openapi: 3.0.3
            info: { title: odd, version: "1" }
            servers: [{ url: "http://api.example.com:99999/v1" }, { url: "htt:s://api.example.com" }]
            paths:
              /a:
                get:
                  operationId: getA
                  parameters:
                    - { name: X Trace, in: header, schema: { type: string } }
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          examples:
                            plain: { value: { a: 2 } }
                            "k{id}": { value: { a: 1 } }
              /search:
                get:
                  operationId: search
                  parameters:
                    - { name: page, in: query, schema: { type: integer, minimum: 2 } }
                  responses:
                    "200":
                      description: ok
                      content: { application/json: { schema: { type: array, items: { type: string } } } }
            """
        try document.write(toFile: directory + "/odd.yaml", atomically: true, encoding: .utf8)
        let (imported, _, importError) = await CommandTests.run(
            ["import", "openapi", "odd.yaml", "-o", "odd.spec.yaml"], in: directory)
        XCTAssertEqual(imported, 0, importError)
        XCTAssertEqual(
            importError,
            "moya-cli: warning: odd.yaml#/servers/0/url: 'http://api.example.com:99999/v1' has port 99999, past 65535; "
                + "the base URL is http://127.0.0.1:4010, where moya-cli serve listens\n"
                + "moya-cli: warning: odd.yaml#/servers/1/url: 'htt:s://api.example.com' is not an http or https URL; "
                + "left out\n"
                + "moya-cli: warning: odd.yaml#/paths/~1a/get/parameters/0: header param 'X Trace' has a name a header "
                + "cannot have; left out\n"
                + "moya-cli: note: odd.yaml#/paths/~1search/get: paginate: { next: { param: page, increment: 1 } }, "
                + "since the query param 'page' numbers the pages\n")
        let (valid, validOut, validError) = await CommandTests.run(["validate", "odd.spec.yaml"], in: directory)
        XCTAssertEqual(valid, 0, validError)
        XCTAssertEqual(validOut + validError, "ok: 1 service, 2 targets\n")
        // A page param's first page meets its rules (the openapi fuzz target found `default: 1`
        // beside `minimum: 2`).
        let spec = try String(contentsOfFile: directory + "/odd.spec.yaml", encoding: .utf8)
        XCTAssertTrue(spec.contains("page: { type: int, default: 2, optional: true, minimum: 2 }"), spec)
    }
}
