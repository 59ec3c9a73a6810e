import Foundation
import MoyaCore
import Synchronization
import TestSupport
import XCTest

/// `Authenticator` and `AuthenticationPlugin` from Swift: concurrent requests during a refresh
/// share one login, and each refused request is replayed once with the new token.
final class AuthenticatorTests: XCTestCase {
    struct Protected: TargetType {
        var baseURL: URL
        var index: Int
        var path: String { "/protected/\(index)" }
        var method: MoyaCore.Method { .get }
        var task: MoyaCore.Task { .requestPlain }
        var headers: [String: String]? { nil }
    }

    struct Login: TargetType {
        var baseURL: URL
        var path: String { "/token" }
        var method: MoyaCore.Method { .post }
        var task: MoyaCore.Task {
            .requestParameters(parameters: ["user": "ann", "password": "pw"], encoding: JSONEncoding.default)
        }
        var headers: [String: String]? { nil }
    }

    func testConcurrentRequestsDuringARefreshShareOneLogin() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let base = try XCTUnwrap(URL(string: server.baseURL))
        let session = Session()
        let loginProvider = MoyaProvider<Login>(session: session)
        let authenticator = Authenticator {
            let response = try await loginProvider.request(Login(baseURL: base))
            let json = try JSONValue(parsing: response.data)
            guard case .string(let token)? = json["access_token"] else { throw MoyaError.jsonMapping(response) }
            return Authenticator.Credential(token: token)
        }
        let provider = MoyaProvider<Protected>(session: session, plugins: [AuthenticationPlugin()])

        let statuses = await withTaskGroup(of: Int.self) { group in
            for index in 0..<32 {
                group.addTask {
                    let result = await provider.result(
                        for: Protected(baseURL: base, index: index), authenticatedBy: authenticator)
                    return (try? result.get().statusCode) ?? -1
                }
            }
            var statuses: [Int] = []
            for await status in group { statuses.append(status) }
            return statuses
        }
        XCTAssertEqual(statuses, Array(repeating: 200, count: 32))
        // The first login, and one refresh after t1 went stale eight requests in.
        let logins = await authenticator.logins
        XCTAssertEqual(logins, 2)
        XCTAssertEqual(server.requests(for: "logins"), 2)
        let current = try await authenticator.credential()
        XCTAssertEqual(current.token, "t2")
        await session.shutdown()
    }

    func testAFreshCredentialIsReusedAndAnExpiredOneRenewed() async throws {
        let counter = Counter()
        let authenticator = Authenticator(
            cached: Authenticator.Credential(token: "old", expiry: Date(timeIntervalSinceNow: -1))
        ) {
            Authenticator.Credential(token: "new\(counter.next())", expiry: Date(timeIntervalSinceNow: 60))
        }
        let first = try await authenticator.credential()
        XCTAssertEqual(first.token, "new1")
        let again = try await authenticator.credential()
        XCTAssertEqual(again.token, "new1")
        let refreshed = try await authenticator.refresh(after: first)
        XCTAssertEqual(refreshed.token, "new2")
        // A request refused with the older token gets the current one without a login.
        let replayed = try await authenticator.refresh(after: first)
        XCTAssertEqual(replayed.token, "new2")
        let logins = await authenticator.logins
        XCTAssertEqual(logins, 2)
    }

    final class Counter: Sendable {
        let value = Mutex(0)
        func next() -> Int {
            value.withLock {
                $0 += 1; return $0
            }
        }
    }
}
