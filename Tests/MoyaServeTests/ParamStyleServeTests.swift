import MoyaCore
import MoyaServe
import MoyaSpec
import XCTest

/// serve reads an array in the form `call` sends it, and only that form: `style` and
/// `explode` for a param that has them, the block's `arrays` for one that has not.
final class ParamStyleServeTests: XCTestCase {
    func testServeReadsTheFormCallSendsAndOnlyThat() throws {
        let service = try compile(
            """
            service: styles
            baseURL: http://127.0.0.1:1
            targets:
              search:
                params:
                  tags: { type: "[string]", optional: true }
                  fields: { type: "[string]", optional: true, style: form, explode: false, uniqueItems: true }
                  ids: { type: "[int]", optional: true, style: pipeDelimited }
                  flag: { type: bool, optional: true, allowEmptyValue: true }
                  n: { type: int, optional: true }
                  limit: { type: int, optional: true, minimum: 1, maximum: 100 }
                path: /search
                task:
                  parameters: { tags: "{tags}", fields: "{fields}", ids: "{ids}", flag: "{flag}", n: "{n}", limit: "{limit}" }
                  encoding: queryString
                  arrays: noBrackets
                  bools: literal
                sample: { json: { tags: "{tags}", fields: "{fields}", ids: "{ids}", flag: "{flag}", n: "{n}" } }
              legacy:
                params:
                  tags: { type: "[string]" }
                path: /legacy
                task: { parameters: { tags: "{tags}" }, encoding: queryString }
                sample: { json: { tags: "{tags}" } }
            """)
        let router = MockRouter(services: [service])
        func answer(_ uri: String) -> (Int, String) {
            guard
                case .respond(let status, _, let body) = router.answer(
                    MockRequest(method: "GET", uri: uri, headers: [])
                ).action
            else { return (0, "") }
            return (status, String(decoding: body, as: UTF8.self))
        }
        let rows: [(uri: String, status: Int, body: String)] = [
            (
                "/search?tags=a&tags=b%20c&fields=x%2Cy&ids=1%7C2&flag=true", 200,
                #"{"tags":["a","b c"],"fields":["x","y"],"ids":[1,2],"flag":true}"#
            ),
            // An empty value is one empty item, as RFC 6570 expands `[""]`, or where that does
            // not fit (an int's), no items, as clients send an empty list.
            ("/search?fields=", 200, #"{"fields":[""]}"#),
            // `uniqueItems`: no item twice.
            ("/search?fields=x%2Cx", 400, ""),
            ("/search?ids=", 200, #"{"ids":[]}"#),
            // Brackets are not the form this block writes: the key is not the param's.
            ("/search?tags%5B%5D=a", 200, "{}"),
            // The pipe-delimited param split at its separator only.
            ("/search?ids=1,2", 400, ""),
            // A block with the default arrays reads `tags[]`, and only that.
            ("/legacy?tags%5B%5D=a&tags%5B%5D=b", 200, #"{"tags":["a","b"]}"#),
            ("/legacy?tags=a", 400, ""),
            // An optional param sent empty is left out where it allows that (OpenAPI's
            // allowEmptyValue); else an empty value is read as its type reads it.
            ("/search?flag=", 200, "{}"),
            ("/search?n=", 400, ""),
            // An integer past Int is an integer, taken as its digits; a fraction is not.
            ("/search?n=-123456789012345678901234567890", 200, #"{"n":"-123456789012345678901234567890"}"#),
            ("/search?n=1.5", 400, ""),
            // Past `Int`, past every bound.
            ("/search?limit=-56020031521670545408", 400, ""),
            ("/search?limit=56020031521670545408", 400, ""),
            ("/search?limit=100", 200, "{}"),
        ]
        for row in rows {
            let (status, body) = answer(row.uri)
            XCTAssertEqual(status, row.status, row.uri)
            if row.status == 200 { XCTAssertEqual(body, row.body, row.uri) }
        }
    }

    /// A JSON body's integral number past `Int` (`-1.0012e+28`, an integer to JSON Schema)
    /// fits an `int` param, as the digits of the double it parses to; a fraction does not.
    func testServeTakesBigIntegralNumbersInJSONBodies() throws {
        let service = try compile(
            """
            service: ips
            baseURL: http://127.0.0.1:1
            targets:
              add:
                method: POST
                params: { count: int, rate: { type: number, optional: true } }
                path: /ips
                task: { parameters: { count: "{count}", rate: "{rate}" }, encoding: json }
                sample: { json: { count: "{count}", rate: "{rate}" } }
            """)
        let router = MockRouter(services: [service])
        let rows: [(body: String, status: Int, answer: String)] = [
            (#"{"count":-1.001204642225228e+28}"#, 200, #"{"count":"-10012046422252279401598156800"}"#),
            // The largest double, past what Foundation's Decimal holds: its exact digits.
            (
                #"{"count":1.7976931348623157e+308}"#, 200,
                #"{"count":"179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368"}"#
            ),
            (#"{"count":3}"#, 200, #"{"count":3}"#),
            // A number param takes the largest double as it is.
            (#"{"count":3,"rate":1.7976931348623157e+308}"#, 200, #"{"count":3,"rate":1.7976931348623157e+308}"#),
            (#"{"count":1.5}"#, 400, ""),
        ]
        for row in rows {
            let request = MockRequest(
                method: "POST", uri: "/ips", headers: [("Content-Type", "application/json")], body: Array(row.body.utf8)
            )
            guard case .respond(let status, _, let body) = router.answer(request).action else {
                XCTFail(row.body)
                continue
            }
            XCTAssertEqual(status, row.status, row.body)
            if row.status == 200 { XCTAssertEqual(String(decoding: body, as: UTF8.self), row.answer, row.body) }
        }
    }
}
