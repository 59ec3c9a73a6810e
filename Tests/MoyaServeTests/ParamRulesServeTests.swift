import MoyaCore
import MoyaServe
import MoyaSpec
import XCTest

/// serve holds a request's params to their rules, as `call` holds its arguments: a value that
/// breaks one is a 400 naming the param, where it was, and the rule; a secret's value is never
/// repeated.
final class ParamRulesServeTests: XCTestCase {
    func testServeHoldsParamsToTheirRules() throws {
        let service = try compile(
            """
            service: rules
            baseURL: http://127.0.0.1:1
            targets:
              list:
                params:
                  limit: { type: int, optional: true, minimum: 1, maximum: 100 }
                  name: { type: string, optional: true, pattern: "^[a-z]+$" }
                  ids: { type: "[int]", optional: true, maxItems: 2, minimum: 0 }
                  token: { type: string, optional: true, secret: true, minLength: 8 }
                path: /list
                task:
                  parameters: { limit: "{limit}", name: "{name}", ids: "{ids}", token: "{token}" }
                  encoding: queryString
                  arrays: noBrackets
                sample: { json: { ok: true } }
            """)
        let router = MockRouter(services: [service])
        func answer(_ uri: String) -> (Int, String) {
            guard
                case .respond(let status, _, let body) = router.answer(
                    MockRequest(method: "GET", uri: uri, headers: [])
                ).action
            else { return (0, "") }
            let detail = (try? JSONValue(parsing: Data(body)))?["detail"].flatMap { value -> String? in
                if case .string(let text) = value { text } else { nil }
            }
            return (status, detail ?? "")
        }
        let prefix = "the request does not fit rules.list (GET /list): "
        let rows: [(uri: String, status: Int, detail: String)] = [
            ("/list?limit=100&name=abc&ids=0&ids=2&token=12345678", 200, ""),
            (
                "/list?limit=500", 400,
                prefix + "param 'limit' in query 'limit' breaks its rules: expected <= 100, got 500"
            ),
            (
                "/list?name=ABC", 400,
                prefix + #"param 'name' in query 'name' breaks its rules: expected to match /^[a-z]+$/, got "ABC""#
            ),
            (
                "/list?ids=1&ids=2&ids=3", 400,
                prefix + "param 'ids' in query 'ids' breaks its rules: expected at most 2 items, got 3"
            ),
            (
                "/list?ids=-1", 400,
                prefix + "param 'ids' in query 'ids' breaks its rules: item 0: expected >= 0, got -1"
            ),
            (
                "/list?token=short", 400,
                prefix + "param 'token' in query 'token' breaks its rules: breaks its minLength rule"
            ),
        ]
        for row in rows {
            let (status, detail) = answer(row.uri)
            XCTAssertEqual(status, row.status, row.uri)
            if row.status == 400 { XCTAssertEqual(detail, row.detail, row.uri) }
        }
    }
}
