import MoyaCore
import MoyaServe
import MoyaSpec
import XCTest

/// `serve`'s router on requests that try to leak a secret into its log, break its framing, or
/// make its 404s expensive: the router is a pure function, so these run in-process.
final class HostileServeRouterTests: XCTestCase {
    static let spec = """
        service: h
        baseURL: http://127.0.0.1:4010/h
        targets:
          token:
            path: /tokens/{t}
            params: { t: { type: string, secret: true } }
            sample: { headers: { Content-Length: "999", Transfer-Encoding: chunked, X-T: "{t}" }, json: { ok: true } }
          login:
            method: POST
            path: /login
            params: { user: string, password: { type: string, secret: true } }
            task: { parameters: { user: "{user}", password: "{password}" }, encoding: json }
            sample: { json: { ok: true } }
          form:
            method: POST
            path: /form
            params: { user: string, password: { type: string, secret: true } }
            task: { parameters: { user: "{user}", password: "{password}" }, encoding: httpBody }
            sample: { json: { ok: true } }
        """

    func router() throws -> MockRouter {
        MockRouter(services: [try compile(Self.spec)])
    }

    func request(_ method: String, _ uri: String, _ body: String = "", type: String? = nil) -> MockRequest {
        MockRequest(
            method: method, uri: uri, headers: type.map { [("Content-Type", $0)] } ?? [], body: Array(body.utf8))
    }

    /// Finding 6: a secret path param is masked in the log line of a 200, a 405 and a 400,
    /// and in the 405's detail.
    func testASecretPathSegmentNeverReachesTheLog() throws {
        let router = try router()
        let ok = router.answer(request("GET", "/h/tokens/PathSecretAAA1"))
        XCTAssertEqual(ok.status, 200)
        XCTAssertEqual(ok.loggedURI, "/h/tokens/••••")
        let wrongMethod = router.answer(request("DELETE", "/h/tokens/PathSecretAAA1"), verbose: true)
        XCTAssertEqual(wrongMethod.status, 405)
        XCTAssertEqual(wrongMethod.loggedURI, "/h/tokens/••••")
        XCTAssertFalse(wrongMethod.loggedResponseBody?.contains("PathSecretAAA1") ?? true)
        let shown = router.answer(request("GET", "/h/tokens/PathSecretAAA1"), showSecrets: true)
        XCTAssertEqual(shown.loggedURI, "/h/tokens/PathSecretAAA1")
    }

    /// Finding 7: under -v, a secret target's body shows only what its shape places and is
    /// not secret: another shape, another key or JSON sent to a form is masked or left out.
    func testASecretTargetsBodyIsMaskedWhateverItsShape() throws {
        let router = try router()
        let cases: [(MockRequest, String)] = [
            (
                request("POST", "/h/login", #"{"user":"ann","password":"BodySecret1"}"#, type: "application/json"),
                #"{"user":"ann","password":"••••"}"#
            ),
            (
                request(
                    "POST", "/h/login", #"{"user":"ann","password":{"n":"BodySecret2"},"extra":"BodySecret3"}"#,
                    type: "application/json"),
                #"{"user":"ann","password":"••••","extra":"••••"}"#
            ),
            (
                request("POST", "/h/login", #"["BodySecret4"]"#, type: "application/json"),
                #""••••""#
            ),
            (
                request("POST", "/h/form", #"{"user":"ann","password":"BodySecret5"}"#, type: "application/json"),
                "(39 bytes, not shown: the target has secret params)"
            ),
            (
                request(
                    "POST", "/h/form", "user=ann&password=BodySecret6&x=BodySecret7",
                    type: "application/x-www-form-urlencoded"),
                "user=ann&password=••••&x=••••"
            ),
        ]
        for (request, logged) in cases {
            let answer = router.answer(request, verbose: true)
            XCTAssertEqual(answer.loggedRequestBody, logged, String(decoding: request.body, as: UTF8.self))
        }
    }

    /// Finding 20: a sample's own framing headers are dropped, and a line break that a path
    /// value puts into a header is a 500 problem, not a broken response.
    func testFramingIsTheServersOwn() throws {
        let router = try router()
        guard case .respond(let status, let headers, let body) = router.answer(request("GET", "/h/tokens/abc")).action
        else { return XCTFail("no response") }
        XCTAssertEqual(status, 200)
        XCTAssertEqual(headers.map(\.name), ["Content-Type", "X-T"])
        XCTAssertEqual(String(decoding: body, as: UTF8.self), #"{"ok":true}"#)

        let broken = router.answer(request("GET", "/h/tokens/a%0D%0AX-Evil:%201"), verbose: true)
        XCTAssertEqual(broken.status, 500)
        XCTAssertTrue(broken.loggedResponseBody?.contains("has a header X-T that cannot be sent") ?? false)

        // HEAD keeps the body, whose length the server sends without it.
        guard case .respond(_, _, let headBody) = router.answer(request("HEAD", "/h/tokens/abc")).action else {
            return XCTFail("no response")
        }
        XCTAssertEqual(headBody.count, 11)
    }

    /// Finding 16: a 404 on 2,000 targets names the routes nearest by edit distance, found
    /// through the pair index; the whole list is compared.
    func testClosestRoutesOnTwoThousandTargets() throws {
        var text = "service: big\nbaseURL: http://127.0.0.1:4010\ntargets:\n"
        for index in 0..<2000 {
            text += "  t\(index):\n    path: /resource\(index)/items/{id}\n    params: { id: int }\n"
        }
        let router = MockRouter(services: [try compile(text)])
        let answer = router.answer(request("GET", "/resourc1500/itemz/7"))
        XCTAssertEqual(answer.status, 404)
        guard case .respond(_, _, let body) = answer.action, let json = try? JSONValue(parsing: Data(body)) else {
            return XCTFail("no problem")
        }
        // What the edit distance over every route gives (worked out apart, in Python's terms).
        XCTAssertEqual(
            json["closest"],
            .array([
                .string("GET /resource500/items/{id}"), .string("GET /resource1500/items/{id}"),
                .string("GET /resource50/items/{id}"),
            ]))
    }

    /// Trust round four, finding 9: a form or an XML body of many distinct keys is read whole
    /// (in linear time; bench/hostile-work.sh measures it), and a key it requires is found
    /// among them, or missing, as in a small one.
    func testAFormOrXMLOfManyKeysIsReadWhole() throws {
        let router = MockRouter(
            services: [
                try compile(
                    """
                    service: b
                    baseURL: http://127.0.0.1:4010
                    targets:
                      post:
                        method: POST
                        path: /body
                        requestSchema:
                          type: object
                          required: [name, last]
                          properties: { name: { type: string }, count: { type: integer }, last: { type: string } }
                        sample: { json: { ok: true } }
                    """)
            ], atRoot: true)
        let keys = (0..<20_000).map { "k\($0)=v\($0)" }.joined(separator: "&")
        for (type, body, status) in [
            ("application/x-www-form-urlencoded", "name=a&count=3&" + keys + "&last=z", 200),
            ("application/x-www-form-urlencoded", "name=a&count=x&" + keys, 400),
            (
                "application/xml",
                "<r><name>a</name><count>3</count>" + (0..<20_000).map { "<k\($0)>v</k\($0)>" }.joined()
                    + "<last>z</last></r>", 200
            ),
        ] {
            let answer = router.answer(
                MockRequest(method: "POST", uri: "/body", headers: [("Content-Type", type)], body: Array(body.utf8)))
            guard case .respond(let got, _, let text) = answer.action else { return XCTFail("no response") }
            XCTAssertEqual(got, status, String(decoding: text, as: UTF8.self))
            if status == 400 {
                let problem = String(decoding: text, as: UTF8.self)
                XCTAssertTrue(
                    problem.contains("$: missing required property 'last'; $.count: expected integer"), problem)
            }
        }
    }
}
