import MoyaCompiler
import MoyaCore
import MoyaServe
import MoyaSpec
import XCTest

/// `serve`'s router as the pure function it is: each row a request and the whole answer it
/// gets, in-process. ServeTests keeps the socket tests: the contract loop, delays and network
/// errors, signals, `--watch`, the log and a busy port.
final class MockRouterTests: XCTestCase {
    struct Row {
        var method = "GET"
        var uri: String
        var headers: [(name: String, value: String)] = []
        var body = ""
        var status: Int
        /// The whole body; a row that gives `contains` instead checks a part of it.
        var text: String = ""
        var contains: String? = nil
        var expectedHeaders: [String: String] = [:]
    }

    func testEachRequestGetsItsWholeAnswer() throws {
        let service = try SpecCompiler(environment: [:]).compile(file: fixturesDirectory + "/serve/shop.yaml")
        // Credentials have their own test (ServeCredentialTests).
        let router = MockRouter(services: [service], asksCredentials: false)
        let rows: [Row] = [
            Row(
                uri: "/api/v2/items/7", status: 200, text: #"{"id":7,"name":"Lamp"}"#,
                expectedHeaders: ["Content-Type": "application/json"]),
            // A literal segment wins over a param.
            Row(uri: "/api/v2/items/mine", status: 200, text: #"[{"id":1}]"#),
            Row(
                uri: "/api/v2/items/export.csv", status: 200, text: "id,name\n1,Lamp\n",
                expectedHeaders: ["Content-Type": "text/csv; charset=utf-8"]),
            Row(
                uri: "/api/v2/items?q=desk%20lamp&limit=5&tags%5B%5D=a&tags%5B%5D=b", status: 200,
                text: #"{"q":"desk lamp","limit":5,"tags":["a","b"]}"#),
            Row(
                method: "POST", uri: "/api/v2/items", headers: [("Content-Type", "application/json")],
                body: #"{"item":{"name":"desk","price":9.5}}"#, status: 201, text: #"{"name":"desk","price":9.5}"#,
                expectedHeaders: ["Location": "/api/v2/items/desk"]),
            Row(
                method: "POST", uri: "/api/v2/login", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: "user=ann&password=hunter22", status: 200, text: #"{"user":"ann","token":"t-hunter22"}"#),
            Row(
                uri: "/api/v2/me", headers: [("X-User", "user=bob")], status: 200, text: "hello bob",
                expectedHeaders: ["Content-Type": "text/plain; charset=utf-8"]),
            Row(
                uri: "/api/v2/items/3", headers: [("Prefer", "return=minimal, example=gone")], status: 410,
                text: #"{"message":"item 3 is gone"}"#, expectedHeaders: ["Preference-Applied": "example=gone"]),
            // The target's error sample (`gone`) is JSON: its problems are answered as JSON too.
            Row(
                uri: "/api/v2/items/abc", status: 400,
                text: """
                    {
                      "type" : "about:blank",
                      "title" : "Bad Request",
                      "status" : 400,
                      "detail" : "the request does not fit shop.showItem (GET /api/v2/items/{id}): param 'id' in the path expects an int, got \\"abc\\"",
                      "target" : "shop.showItem",
                      "errors" : [
                        {
                          "param" : "id",
                          "in" : "the path",
                          "detail" : "expects an int, got \\"abc\\""
                        }
                      ]
                    }

                    """, expectedHeaders: ["Content-Type": "application/json"]),
            Row(
                uri: "/api/v2/itemz/7", status: 404,
                text: """
                    {
                      "type" : "about:blank",
                      "title" : "Not Found",
                      "status" : 404,
                      "detail" : "no target answers GET /api/v2/itemz/7",
                      "closest" : [
                        "GET /api/v2/items/{id}",
                        "GET /api/v2/items",
                        "POST /api/v2/items"
                      ]
                    }

                    """),
            Row(method: "DELETE", uri: "/api/v2/items/7", status: 405, expectedHeaders: ["Allow": "GET"]),
            Row(
                method: "POST", uri: "/api/v2/items", headers: [("Content-Type", "application/json")],
                body: #"{"item":{"#, status: 400,
                contains:
                    #""detail" : "the request does not fit shop.create (POST /api/v2/items): the body is not JSON: expected a string key at byte 9""#
            ),
            Row(uri: "/api/v2/me", status: 400, contains: "param 'user' in header X-User is required"),
            Row(
                uri: "/api/v2/items/3", headers: [("Prefer", "example=missing")], status: 400,
                contains: "shop.showItem has no sample 'missing' (asked for with Prefer: example=missing); it has gone"),
        ]
        for row in rows {
            let answer = router.answer(
                MockRequest(method: row.method, uri: row.uri, headers: row.headers, body: Array(row.body.utf8)))
            guard case .respond(let status, let headers, let body) = answer.action else {
                XCTFail("\(row.method) \(row.uri): no response")
                continue
            }
            XCTAssertEqual(status, row.status, "\(row.method) \(row.uri)")
            let text = String(decoding: body, as: UTF8.self)
            if let part = row.contains {
                XCTAssertTrue(text.contains(part), "\(row.method) \(row.uri): \(text)")
            } else if row.status != 405 {
                XCTAssertEqual(text, row.text, "\(row.method) \(row.uri)")
            }
            for (name, value) in row.expectedHeaders {
                XCTAssertEqual(
                    headers.first { $0.name.lowercased() == name.lowercased() }?.value, value,
                    "\(row.method) \(row.uri) \(name)")
            }
        }
    }
}
