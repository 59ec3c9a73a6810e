import MoyaCore
import MoyaServe
import MoyaSpec
import XCTest

/// serve asks a request for the credentials its target sends, as Prism asks for the ones a
/// description declares: without one, a 401 whose `WWW-Authenticate` names what is missing,
/// before any 400. `--no-auth` (`asksCredentials: false`) answers anyway.
final class ServeCredentialTests: XCTestCase {
    func testARequestWithoutTheTargetsCredentialsIsUnauthorized() throws {
        let service = try compile(
            """
            service: shop
            baseURL: http://127.0.0.1:1
            auth: { bearer: "${SHOP_TOKEN:-}" }
            targets:
              list:
                params: { limit: { type: int, optional: true } }
                path: /lamps
                task: { parameters: { limit: "{limit}" }, encoding: queryString }
                sample: { json: [] }
              keyed:
                path: /keyed
                auth: none
                headers: { X-Key: "${SHOP_KEY:-}" }
                task: { parameters: { api_key: "${SHOP_QUERY_KEY:-}" }, encoding: queryString }
                sample: { json: { ok: true } }
              basic:
                path: /basic
                auth: { basic: { user: "${SHOP_USER:-}", password: "${SHOP_PASSWORD:-}" } }
                sample: { json: { ok: true } }
              open:
                path: /open
                auth: none
                sample: { json: { ok: true } }
            """)
        func answer(_ router: MockRouter, _ uri: String, _ headers: [(name: String, value: String)] = [])
            -> (status: Int, challenge: String?, detail: String)
        {
            guard
                case .respond(let status, let sent, let body) = router.answer(
                    MockRequest(method: "GET", uri: uri, headers: headers)
                ).action
            else { return (0, nil, "") }
            let detail = (try? JSONValue(parsing: Data(body)))?["detail"].flatMap { value -> String? in
                if case .string(let text) = value { text } else { nil }
            }
            return (status, sent.first { $0.name == "WWW-Authenticate" }?.value, detail ?? "")
        }
        let router = MockRouter(services: [service])
        let realm = #"realm="moya-cli serve""#
        let rows: [(uri: String, headers: [(name: String, value: String)], status: Int, challenge: String?)] = [
            ("/lamps", [], 401, "Bearer \(realm)"),
            // The 401 comes before the 400 a mistyped param would get.
            ("/lamps?limit=x", [], 401, "Bearer \(realm)"),
            ("/lamps", [("Authorization", "Basic eDp5")], 401, "Bearer \(realm)"),
            ("/lamps", [("Authorization", "Bearer t")], 200, nil),
            ("/lamps?limit=x", [("Authorization", "bearer t")], 400, nil),
            ("/keyed?api_key=k", [], 401, #"APIKey \#(realm), header="X-Key""#),
            ("/keyed", [("X-Key", "k")], 401, #"APIKey \#(realm), query="api_key""#),
            ("/keyed?api_key=k", [("x-key", "k")], 200, nil),
            ("/basic", [("Authorization", "Bearer t")], 401, "Basic \(realm)"),
            ("/basic", [("Authorization", "Basic eDp5")], 200, nil),
            ("/open", [], 200, nil),
        ]
        for row in rows {
            let got = answer(router, row.uri, row.headers)
            XCTAssertEqual(got.status, row.status, row.uri)
            XCTAssertEqual(got.challenge, row.challenge, row.uri)
        }
        XCTAssertEqual(
            answer(router, "/lamps").detail,
            "shop.list needs an Authorization header (Bearer); serve --no-auth answers without it")
        let open = MockRouter(services: [service], asksCredentials: false)
        XCTAssertEqual(answer(open, "/lamps").status, 200)
        XCTAssertEqual(answer(open, "/keyed").status, 200)
    }
}
