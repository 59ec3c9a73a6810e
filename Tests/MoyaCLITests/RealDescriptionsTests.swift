import Foundation
import MoyaCLI
import TestSupport
import XCTest

/// Everyday use, round five: what real descriptions broke after import, each in a document
/// of our own, through the user's commands.
extension ImportOpenAPITests {
    func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Imports `document` (text) into `folder`/specs/ and returns the spec's path and stderr.
    func imported(_ document: String, named name: String, in folder: String) async throws -> (
        spec: String, error: String
    ) {
        let file = folder + "/" + name
        try write(document, to: file)
        let (status, _, error) = await CommandTests.run(["import", "openapi", file, "-o", folder + "/specs/"])
        XCTAssertEqual(status, 0, error)
        let specs = try FileManager.default.contentsOfDirectory(atPath: folder + "/specs")
        let spec = try XCTUnwrap(
            specs.first { file in
                (try? String(contentsOfFile: folder + "/specs/" + file, encoding: .utf8))?.contains("\nservice: ")
                    == true
            }, "\(specs)")
        return (folder + "/specs/" + spec, error)
    }

    /// Item 1: `-o DIR/` names the spec after its service, and a call finds a service by the
    /// `service:` line of a file named anything, compiling no other file: a broken spec of
    /// another service beside it, and the OpenAPI document that bears the service's name,
    /// cost nothing.
    func testACallFindsItsServiceWhateverTheFileIsCalled() async throws {
        let folder = try temporaryDirectory()
        let document = """
            openapi: 3.0.3
            info: { title: Shop API, version: "1" }
            servers: [{ url: "https://shop.example" }]
            paths:
              /lamps:
                get:
                  operationId: listLamps
                  responses:
                    "200":
                      description: ok
                      content: { application/json: { example: [{ id: 1 }] } }

            """
        let (status, _, error) = await CommandTests.run([
            "import", "openapi", try documentFile(document, named: "shop.yaml", in: folder), "-o", folder + "/specs/",
        ])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: folder + "/specs").sorted(),
            ["shop.openapi.yaml", "shop.yaml"])
        // The spec renamed as a user names it; beside it a broken spec of another service.
        try FileManager.default.moveItem(atPath: folder + "/specs/shop.yaml", toPath: folder + "/specs/api.yaml")
        try write("service: other\nbaseURL: https://x\ntargets: [\n", to: folder + "/specs/broken.yaml")
        let (called, out, callError) = await CommandTests.run([
            "call", "shop.listLamps", "--specs", folder + "/specs", "--stub", "immediate",
        ])
        XCTAssertEqual(called, 0, callError)
        XCTAssertEqual(out, #"[{"id":1}]"#)
        // A service no file declares reads every file, and says what is wrong with them.
        let (unknown, _, unknownError) = await CommandTests.run([
            "call", "nothing.x", "--specs", folder + "/specs", "--stub", "immediate",
        ])
        XCTAssertEqual(unknown, 65)
        XCTAssertTrue(unknownError.contains("broken.yaml:4:1: error: yaml:"), unknownError)
    }

    func documentFile(_ text: String, named name: String, in folder: String) throws -> String {
        try write(text, to: folder + "/" + name)
        return folder + "/" + name
    }

    /// Items 2, 4, 5, 7: what import writes for a request is what `serve` of the same import
    /// takes: a member one `allOf` part marks read-only and another requires is sent; a body
    /// whose example breaks its schema is made from the schema; `minProperties` is met and
    /// `enum: []` makes nothing up; a multipart array part styled `deepObject` is sent as a
    /// form's array, with a warning. And serve's made-up error body says the answered status.
    func testWhatImportWritesForARequestIsWhatServeTakes() async throws {
        let folder = try temporaryDirectory()
        let document = """
            openapi: 3.0.3
            info: { title: Addons, version: "1" }
            servers: [{ url: "https://addons.example/v1" }]
            security: [{ key: [] }]
            paths:
              /addons:
                post:
                  operationId: createAddon
                  requestBody:
                    required: true
                    content:
                      application/json:
                        schema:
                          allOf:
                            - type: object
                              properties:
                                type: { type: string, readOnly: true, enum: [plan] }
                                name: { type: string }
                                labels: { type: object, minProperties: 1, additionalProperties: { type: string } }
                                never: { type: string, enum: [] }
                            - { type: object, required: [type, labels] }
                  responses:
                    "201": { description: made, content: { application/json: { schema: { type: object } } } }
                    "401":
                      description: no key
                      content:
                        application/json:
                          schema:
                            type: object
                            properties:
                              error:
                                type: object
                                required: [status, message]
                                properties:
                                  status: { type: integer, minimum: 400, maximum: 599 }
                                  message: { type: string }
              /members:
                post:
                  operationId: addMember
                  requestBody:
                    content:
                      application/json:
                        schema:
                          type: object
                          properties: { member: { type: object, properties: { id: { type: string } } } }
                        example: { member: { id: 12345 } }
                  responses: { "204": { description: added, content: { application/json: { schema: { type: object } } } } }
              /upload:
                post:
                  operationId: upload
                  requestBody:
                    content:
                      multipart/form-data:
                        schema:
                          type: object
                          properties:
                            tags: { type: array, items: { type: string } }
                        encoding:
                          tags: { style: deepObject }
                  responses: { "204": { description: stored } }
            components:
              securitySchemes:
                key: { type: apiKey, in: header, name: X-Key }

            """
        let (spec, error) = try await imported(document, named: "addons.yaml", in: folder)
        let at = "moya-cli: warning: \(folder)/addons.yaml#/paths"
        XCTAssertEqual(
            error.split(separator: "\n").filter { $0.contains("warning") }.map(String.init),
            [
                "\(at)/~1members/post/requestBody/content/application~1json: the example breaks its schema "
                    + "($.member.id: expected string, got integer); the body is made from the schema instead",
                "\(at)/~1members/post/responses/204/content: a 204 answer has no content in HTTP; its content is left out",
                "\(at)/~1upload/post/requestBody/content/multipart~1form-data/encoding/tags/style: deepObject is an "
                    + "object's style and 'tags' is not an object; it is sent as a form sends it",
            ])
        let (valid, _, validError) = await CommandTests.run(["validate", spec])
        XCTAssertEqual(valid, 0, validError)
        let written = try String(contentsOfFile: spec, encoding: .utf8)
        XCTAssertTrue(
            written.contains(#"data: "{\"labels\":{\"key1\":\"string\"},\"name\":\"string\",\"type\":\"plan\"}""#),
            written)
        XCTAssertTrue(written.contains(#"data: "{\"member\":{\"id\":\"string\"}}""#), written)

        let served = try await ServeTests.Served([spec])
        let environment = ["ADDONS_URL": served.url + "/v1", "ADDONS_KEY": "k"]
        let (checked, out, checkError) = await CommandTests.run(
            ["check", spec, "--allow-writes"], environment: environment)
        XCTAssertEqual(checked, 0, out + checkError)
        XCTAssertTrue(out.contains("\n3 checks: 3 passed, 0 failed, 0 skipped in "), out)
        // Without the key: the document's error body, its status the answered one.
        let (denied, deniedOut, _) = await CommandTests.run(
            ["call", "addons.createAddon", "--specs", folder + "/specs"],
            environment: ["ADDONS_URL": served.url + "/v1"])
        XCTAssertEqual(denied, 4)
        XCTAssertEqual(
            deniedOut,
            #"{"error":{"message":"addons.createAddon needs the header X-Key; serve --no-auth answers without it","status":401}}"#
        )
        _ = await served.stop()
    }

    /// Item 3: OpenAPI 3.1's titled enum is an enum: its values typed, its titles in the
    /// description, `serve` holding a request to them.
    func testATitledEnumIsAnEnum() async throws {
        let folder = try temporaryDirectory()
        let document = """
            openapi: 3.1.0
            info: { title: Titled, version: "1" }
            servers: [{ url: "https://titled.example" }]
            paths:
              /items:
                get:
                  operationId: listItems
                  parameters:
                    - name: sort
                      in: query
                      required: true
                      schema:
                        type: string
                        oneOf:
                          - { title: Newest first, const: newest }
                          - { title: Oldest first, const: oldest }
                  responses: { "200": { description: ok, content: { application/json: { example: [] } } } }

            """
        let (spec, error) = try await imported(document, named: "titled.yaml", in: folder)
        XCTAssertFalse(error.contains("warning"), error)
        let written = try String(contentsOfFile: spec, encoding: .utf8)
        XCTAssertTrue(
            written.contains(
                """
                      sort:
                        enum: [newest, oldest]
                        description: "Values: newest: Newest first; oldest: Oldest first"

                """), written)
        let (status, out, _) = await CommandTests.run(["describe", "titled.listItems", "--specs", folder + "/specs"])
        XCTAssertEqual(status, 0)
        XCTAssertTrue(
            out.contains(
                "    --sort  enum(newest|oldest)  required  Values: newest: Newest first; oldest: Oldest first\n"),
            out)
        let (bad, _, badError) = await CommandTests.run([
            "call", "titled.listItems", "--specs", folder + "/specs", "--sort", "random", "--stub", "immediate",
        ])
        XCTAssertEqual(bad, 64)
        XCTAssertEqual(badError, "moya-cli: error: param 'sort' expects one of newest, oldest, got \"random\"\n")
    }

    /// Item 6: a warning many operations share is printed once, at the first, with a count;
    /// `--verbose` prints every one.
    func testAWarningManyOperationsShareIsPrintedOnce() async throws {
        let folder = try temporaryDirectory()
        var paths = ""
        for index in 1...5 {
            paths += """
                  /things\(index):
                    get:
                      operationId: getThing\(index)
                      parameters: [{ name: Accept, in: header, schema: { type: string } }]
                      responses: { "204": { description: ok } }

                """
        }
        let file = try documentFile(
            "openapi: 3.0.3\ninfo: { title: Many, version: \"1\" }\nservers: [{ url: \"https://many.example\" }]\npaths:\n"
                + paths, named: "many.yaml", in: folder)
        let (status, _, error) = await CommandTests.run(["import", "openapi", file])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(
            error,
            "moya-cli: warning: \(file)#/paths/~1things1/get/parameters/0: OpenAPI ignores a header param named "
                + "'Accept'; left out (and 4 more like it; --verbose lists every one)\n")
        let (verbose, _, all) = await CommandTests.run(["import", "openapi", file, "--verbose"])
        XCTAssertEqual(verbose, 0)
        XCTAssertEqual(all.split(separator: "\n").count, 5, all)
    }
}
