import MoyaCore
import MoyaServe
import MoyaSpec
import XCTest

/// An array in a path is OpenAPI's simple style, as `call` sends it: items between literal
/// commas, each percent-decoded. A target with its own base URL is served under that URL's
/// path.
final class PathArrayServeTests: XCTestCase {
    func testServeReadsArraysInPathsAndTargetsWithTheirOwnBaseURL() throws {
        let service = try compile(
            """
            service: arrays
            baseURL: http://127.0.0.1:1/v1
            targets:
              items:
                params: { ids: "[int]" }
                path: /items/{ids}
                sample: { json: { ids: "{ids}" } }
              labels:
                params: { names: "[string]" }
                path: /labels/.{names}
                sample: { json: { names: "{names}" } }
              upload:
                baseURL: http://127.0.0.1:1/upload/v2
                method: POST
                path: /files
                sample: { status: 201 }
            """)
        let router = MockRouter(services: [service])
        func answer(_ method: String, _ uri: String) -> (Int, String) {
            guard
                case .respond(let status, _, let body) = router.answer(
                    MockRequest(method: method, uri: uri, headers: [])
                ).action
            else { return (0, "") }
            return (status, String(decoding: body, as: UTF8.self))
        }
        let rows: [(method: String, uri: String, status: Int, body: String)] = [
            ("GET", "/v1/items/1,2", 200, #"{"ids":[1,2]}"#),
            ("GET", "/v1/items/7", 200, #"{"ids":[7]}"#),
            ("GET", "/v1/items/1,x", 400, ""),
            ("GET", "/v1/labels/.a%2Cb,c", 200, #"{"names":["a,b","c"]}"#),
            // The target's own base URL, not the service's.
            ("POST", "/upload/v2/files", 201, ""),
            ("POST", "/v1/files", 404, ""),
        ]
        for row in rows {
            let (status, body) = answer(row.method, row.uri)
            XCTAssertEqual(status, row.status, row.uri)
            if row.status == 200 { XCTAssertEqual(body, row.body, row.uri) }
        }
    }
}
