import MoyaBinding
import MoyaCompiler
import MoyaCore
import MoyaRuntime
import MoyaSpec
import XCTest

/// A secret is a property of a bound value: the printable request is rendered from the values
/// one resolve bound, each secret as the mask, in whatever encoding it was sent.
final class SecretValuesTests: XCTestCase {
    func compile(_ yaml: String) throws -> ServiceSpec {
        let file = NSTemporaryDirectory() + "secrets-\(getpid())-\(UUID().uuidString).yaml"
        try yaml.write(toFile: file, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: file) }
        return try SpecCompiler(environment: ["API_KEY": "k-env-123"]).compile(file: file)
    }

    func testThePrintableFormIsRenderedFromTheBoundValuesWithTheirSecrecy() throws {
        let service = try compile(
            """
            service: vault
            baseURL: https://vault.test
            auth: { basic: { user: ann, password: "s3cret-pw" } }
            targets:
              put:
                method: POST
                path: /items/{name}
                params:
                  name: string
                  pin: { type: string, secret: true }
                  tags: { type: "[string]", secret: true }
                headers: { X-Key: "${API_KEY}", X-Name: "{name}" }
                task:
                  parameters: { name: "{name}", pin: "{pin}", note: "pin {pin} for {name}", tags: "{tags}" }
                  encoding: json
                  query: { pin: "{pin}" }
            """)
        let target = try XCTUnwrap(service.target(named: "put"))
        let options = CallOptions(
            arguments: ["name": .string("box a"), "pin": .string("4 2/1"), "tags": .array([.string("x&y")])])
        let prepared = try PreparedCall.prepare(target, of: service, with: options, printsRequest: false)

        XCTAssertEqual(prepared.call.target.binding.maskedParams, ["pin", "tags"])
        XCTAssertEqual(prepared.call.target.binding.values["name"], .string("box a"))

        let sent = try prepared.request()
        XCTAssertEqual(sent.url.absoluteString, "https://vault.test/items/box%20a?pin=4%202/1")
        XCTAssertEqual(
            sent.body.flatMap { if case .data(let data) = $0 { String(decoding: data, as: UTF8.self) } else { nil } },
            #"{"name":"box a","note":"pin 4 2\/1 for box a","pin":"4 2\/1","tags":["x&y"]}"#)

        let shown = try prepared.printable()
        XCTAssertEqual(shown.url, "https://vault.test/items/box%20a?pin=••••")
        XCTAssertEqual(shown.body, .text(#"{"name":"box a","note":"pin •••• for box a","pin":"••••","tags":["••••"]}"#))
        let headers = Dictionary(uniqueKeysWithValues: shown.headers.map { ($0.name, $0.value) })
        // A header's credential from the environment prints as its reference.
        XCTAssertEqual(headers["X-Key"], "${API_KEY}")
        XCTAssertEqual(headers["X-Name"], "box a")
        XCTAssertEqual(headers["Authorization"], "••••")

        // What was bound is what both forms are rendered from: the masked target is the same
        // target, its secrets as the placeholder, with nothing bound again.
        let masked = try prepared.call.target.masked()
        XCTAssertEqual(masked.binding.values, prepared.call.target.binding.values)
        XCTAssertEqual(masked.headerFields["X-Key"], Redactor.reference(to: "API_KEY"))
        XCTAssertEqual(masked.path, "/items/box%20a")
        XCTAssertEqual(prepared.secrets.values.isSuperset(of: ["4 2/1", "x&y", "k-env-123"]), true)
    }
}
