import MoyaCompiler
import MoyaCore
import MoyaServe
import MoyaSpec
import XCTest

/// `serve` holds requests and answers to the spec's schemas: a JSON body that breaks the
/// target's `requestSchema:` gets a 400 problem naming each place, and a sample that breaks
/// its schema is never sent.
final class ServeContractTests: XCTestCase {
    func answer(_ router: MockRouter, _ method: String, _ uri: String, body: String = "") -> (Int, String) {
        let answer = router.answer(
            MockRequest(
                method: method, uri: uri, headers: body.isEmpty ? [] : [("Content-Type", "application/json")],
                body: Array(body.utf8)))
        guard case .respond(let status, _, let bytes) = answer.action else { return (0, "") }
        return (status, String(decoding: bytes, as: UTF8.self))
    }

    func testRequestBodiesAndSamplesMeetTheirSchemas() throws {
        let service = try SpecCompiler(environment: [:]).compile(file: fixturesDirectory + "/schemas/serve.yaml")
        let router = MockRouter(services: [service])

        let (created, pet) = answer(router, "POST", "/pets", body: #"{"name":"Rex","age":3}"#)
        XCTAssertEqual(created, 201, pet)
        XCTAssertEqual(pet, #"{"id":1,"name":"Rex"}"#)

        let (refused, problem) = answer(router, "POST", "/pets", body: #"{"name":"","age":-1}"#)
        XCTAssertEqual(refused, 400)
        XCTAssertEqual(
            problem,
            """
            {
              "type" : "about:blank",
              "title" : "Bad Request",
              "status" : 400,
              "detail" : "the request body does not meet the schema of pets.createPet: $.name: expected at least 1 character, got 0; $.age: expected >= 0, got -1",
              "target" : "pets.createPet",
              "errors" : [
                {
                  "in" : "body",
                  "path" : "$.name",
                  "detail" : "expected at least 1 character, got 0"
                },
                {
                  "in" : "body",
                  "path" : "$.age",
                  "detail" : "expected >= 0, got -1"
                }
              ]
            }

            """)

        // A target with secret params: each violation names its keyword, not the value.
        let (login, withheld) = answer(router, "POST", "/login", body: #"{"user":"eve","password":"hunter2"}"#)
        XCTAssertEqual(login, 400)
        XCTAssertFalse(withheld.contains("hunter2") || withheld.contains("eve"), withheld)
        XCTAssertTrue(
            withheld.contains(
                #""detail" : "the request body does not meet the schema of pets.logIn: "#
                    + #"$.user: breaks its schema's enum (the value is not shown); "#
                    + #"$.password: breaks its schema's minLength (the value is not shown)""#), withheld)

        // The sample fills a string id where the schema wants an integer: never sent.
        let (broken, why) = answer(router, "GET", "/pets/7")
        XCTAssertEqual(broken, 500)
        XCTAssertEqual(
            why,
            """
            {
              "type" : "about:blank",
              "title" : "Internal Server Error",
              "status" : 500,
              "detail" : "the sample 'default' of pets.showPet breaks its schema: $.id: expected integer, got string",
              "target" : "pets.showPet"
            }

            """)
    }
}
