import MoyaBinding
import MoyaCore
import MoyaSpec
import XCTest

final class TemplateTests: XCTestCase {
    func testReferencesLiteralsAndEscapedBraces() {
        XCTAssertEqual(Template("/users/{id}").segments, [.literal("/users/"), .param("id")])
        XCTAssertEqual(Template("{{id}}").segments, [.literal("{id}")])
        XCTAssertEqual(Template("{id}").wholeParam, "id")
        XCTAssertEqual(Template(#"{"a": 1}"#).segments, [.literal(#"{"a": 1}"#)], "JSON text is not a reference")
        XCTAssertEqual(Template("a{b}c{d}").params, ["b", "d"])
        XCTAssertEqual(Template("{{x}}-{y}").description, "{{x}}-{y}")
    }

    func testAWholeScalarReferenceKeepsTheParamType() throws {
        let service = try compile(
            """
            baseURL: https://x.test
            targets:
              t:
                method: POST
                params: { id: int, ok: bool, ratio: number, name: string, note: { type: string, optional: true } }
                task:
                  json: { id: "{id}", ok: "{ok}", ratio: "{ratio}", label: "#{id}", name: "{name}", note: "{note}", lit: "{{id}}" }
            """)
        let spec = try XCTUnwrap(service.target(named: "t"))
        let target = try service.resolve(
            spec,
            with: CallOptions(arguments: [
                "id": .int(1), "ok": .bool(true), "ratio": .number(0.5), "name": .string("Ann"),
            ]))
        guard case .requestJSONEncodable(let value) = target.task else { return XCTFail() }
        XCTAssertEqual(
            (value as? JSONValue)?.serialized(),
            ##"{"id":1,"ok":true,"ratio":0.5,"label":"#1","name":"Ann","lit":"{id}"}"##,
            "an absent optional's key is left out")
    }

    func testEnvironmentInterpolationWithDefaultsAndBraces() throws {
        let service = try compile(
            """
            baseURL: ${BASE:-https://fallback.test}
            headers: { X-Key: "${KEY}", X-Both: "${A}-${B:-b}" }
            targets: { t: { path: /t } }
            """, environment: ["KEY": "s{e}cret", "A": "a"])
        XCTAssertEqual(service.baseURL, "https://fallback.test")
        let target = try service.resolve(try XCTUnwrap(service.target(named: "t")), with: CallOptions())
        XCTAssertEqual(target.headers?["X-Key"], "s{e}cret", "braces from the environment stay literal")
        XCTAssertEqual(target.headers?["X-Both"], "a-b")
        XCTAssertEqual(service.environmentSecrets.values, ["s{e}cret", "a"])
    }

    func testArrayParamsAcceptSequenceAndQuotedForms() throws {
        let service = try compile(
            """
            baseURL: https://x.test
            targets:
              t:
                params: { a: [string], b: "[int]", c: { type: [bool], default: [true, false] } }
                task: { parameters: { a: "{a}", b: "{b}", c: "{c}" }, encoding: queryString }
            """)
        let spec = try XCTUnwrap(service.target(named: "t"))
        XCTAssertEqual(spec.params.map(\.type), [.array(.string), .array(.int), .array(.bool)])
        XCTAssertEqual(try spec.params[1].value(from: ["1", "2"]), .array([.int(1), .int(2)]))
        XCTAssertThrowsError(try spec.params[1].value(from: ["x"]))
        let target = try service.resolve(
            spec, with: CallOptions(arguments: ["a": .array([.string("x y")]), "b": .array([])]))
        guard case .requestParameters(let parameters, let encoding) = target.task else { return XCTFail() }
        XCTAssertEqual((encoding as? URLEncoding)?.query(parameters), "a%5B%5D=x%20y&c%5B%5D=1&c%5B%5D=0")
    }

    func testCompositeParametersAndOrderedQueryBlocks() throws {
        let service = try compile(
            """
            baseURL: https://x.test/v1?key=1
            targets:
              t:
                method: POST
                path: /search
                task:
                  parameters: [ { z: 1 }, { a: 2 } ]
                  encoding: httpBody
                  query: { q: hello world }
            """)
        let target = try service.resolve(try XCTUnwrap(service.target(named: "t")), with: CallOptions())
        guard case .requestCompositeParameters(let body, let encoding, let query) = target.task else {
            return XCTFail()
        }
        XCTAssertEqual((encoding as? URLEncoding)?.query(body), "z=1&a=2")
        XCTAssertEqual(query["q"] as? JSONValue, .string("hello world"))
        XCTAssertEqual(URL(target: target).absoluteString, "https://x.test/v1/search?key=1")
    }

    /// A `parameters` block's values are the JSON they render to: a nested object keeps the
    /// order the spec writes, and a bound param keeps its type.
    func testParametersAreJSONValuesInTheSpecsOrder() throws {
        let service = try compile(
            """
            service: s
            baseURL: https://x.test
            targets:
              t:
                method: POST
                path: /t
                params: { n: int }
                task:
                  parameters: { b: { z: "{n}", a: 2 }, a: [1, "{n}"] }
                  encoding: json
            """)
        let target = try service.resolve(
            try XCTUnwrap(service.target(named: "t")), with: CallOptions(arguments: ["n": .int(7)]))
        guard case .requestParameters(let parameters, let encoding) = target.task else { return XCTFail() }
        let body = try encoding.encode(Request(url: URL(target: target)), with: parameters).httpBody
        XCTAssertEqual(body.map { String(decoding: $0, as: UTF8.self) }, #"{"a":[1,7],"b":{"z":7,"a":2}}"#)
    }

    /// Credentials the environment leaves unset are not sent: no `Authorization: Basic Og==`,
    /// no `Bearer `, no empty key header, no `api_key=`. Set, each is sent.
    func testUnsetCredentialsAreNotSent() throws {
        let text = """
            service: s
            baseURL: https://x.test
            targets:
              basic:
                path: /b
                auth: { basic: { user: "${API_USER:-}", password: "${API_PASSWORD:-}" } }
              bearer:
                path: /t
                auth: { bearer: "${API_TOKEN:-}" }
                headers: { X-Api-Key: "${API_KEY:-}", X-Empty: "" }
                task: { parameters: { api_key: "${API_KEY:-}", q: x }, encoding: queryString }
            """
        func sent(_ name: String, _ environment: [String: String]) throws -> (String, [String: String], String?) {
            let service = try compile(text, environment: environment)
            let target = try service.resolve(try XCTUnwrap(service.target(named: name)), with: CallOptions())
            guard case .requestParameters(let parameters, let encoding) = target.task else {
                return ("", target.headerFields.dictionary, target.authorization)
            }
            let query = (encoding as? URLEncoding)?.query(parameters) ?? ""
            return (query, target.headerFields.dictionary, target.authorization)
        }
        XCTAssertNil(try sent("basic", [:]).2)
        XCTAssertEqual(try sent("basic", ["API_USER": "ann"]).2, "Basic YW5uOg==")
        let unset = try sent("bearer", [:])
        XCTAssertEqual(unset.0, "q=x")
        XCTAssertEqual(unset.1, ["X-Empty": ""])
        XCTAssertNil(unset.2)
        let set = try sent("bearer", ["API_TOKEN": "t0k3n", "API_KEY": "k3y"])
        XCTAssertEqual(set.0, "api_key=k3y&q=x")
        XCTAssertEqual(set.1, ["X-Api-Key": "k3y", "X-Empty": ""])
        XCTAssertEqual(set.2, "Bearer t0k3n")
    }
}
