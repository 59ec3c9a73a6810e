import Moya
import MyService
import TestSupport
import XCTest

/// Moya's Basic Usage target, compiled in Swift 5 mode, sent through `Moya` as a Moya user
/// sends it: stubbed from its samples, and live against the in-process server.
final class MyServiceTests: XCTestCase {
    private struct User: Decodable, Equatable {
        let id: Int
        let first_name: String
        let last_name: String
    }

    /// A provider that sends every target to `server`, the way a Moya user points a
    /// provider at a staging host.
    private func liveProvider(_ server: TestServer, plugins: [PluginType] = []) -> MoyaProvider<MyService> {
        let base = server.baseURL
        return MoyaProvider<MyService>(
            endpointClosure: { target in
                Endpoint(
                    url: base + target.path, sampleResponseClosure: { .networkResponse(200, target.sampleData) },
                    method: target.method, task: target.task, httpHeaderFields: target.headers)
            }, plugins: plugins)
    }

    func testAnImmediateStubWithNoCallbackQueueCompletesBeforeRequestReturns() throws {
        let provider = MoyaProvider<MyService>(stubClosure: MoyaProvider.immediatelyStub)
        var received: Result<Response, MoyaError>?
        provider.request(.showUser(id: 7)) { received = $0 }
        let response = try XCTUnwrap(received).get()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(try response.map(User.self), User(id: 7, first_name: "Harry", last_name: "Potter"))
        XCTAssertEqual(response.request?.url?.absoluteString, "https://api.myservice.com/users/7")
        XCTAssertEqual(response.request?.value(forHTTPHeaderField: "Content-Type"), "application/json")
        XCTAssertNil(response.response)
    }

    func testTheAccountsSampleComesFromTheBundledFile() throws {
        let provider = MoyaProvider<MyService>(stubClosure: MoyaProvider.immediatelyStub)
        var received: Result<Response, MoyaError>?
        provider.request(.showAccounts) { received = $0 }
        let accounts = try XCTUnwrap(try XCTUnwrap(received).get().mapJSON() as? [[String: Any]])
        XCTAssertEqual(accounts.compactMap { $0["name"] as? String }, ["Checking", "Savings"])
    }

    func testLiveTargetsSendTheirMethodPathParametersAndHeaders() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let provider = liveProvider(server)

        let created = try await provider.request(.createUser(firstName: "Ann", lastName: "Lee")).map(Echo.self)
        XCTAssertEqual(created.method, "POST")
        XCTAssertEqual(created.uri, "/users")
        XCTAssertEqual(created.body, #"{"first_name":"Ann","last_name":"Lee"}"#)
        XCTAssertEqual(created.values(of: "Content-Type"), ["application/json"])
        // Alamofire's default headers, which URLSession adds to a Moya request.
        XCTAssertEqual(created.values(of: "Accept-Encoding"), ["gzip, deflate"])
        XCTAssertEqual(created.values(of: "Accept-Language").count, 1)
        XCTAssertTrue(created.values(of: "User-Agent").first?.contains("Moya/15.0") == true, "\(created.headers)")

        let updated = try await provider.request(.updateUser(id: 3, firstName: "Ann Marie", lastName: "Lee"))
            .map(Echo.self)
        XCTAssertEqual(updated.method, "POST")
        XCTAssertEqual(updated.uri, "/users/3?first_name=Ann%20Marie&last_name=Lee")
        XCTAssertEqual(updated.body, "")
    }
}
