import MoyaBinding
import MoyaCompiler
import MoyaCore
import MoyaSpec
import XCTest

/// `MoyaProvider<SpecTarget>` stubs a spec target as `call --stub immediate` does: the
/// sample's status, headers and body, or its network error, not a bare 200.
final class SpecTargetStubTests: XCTestCase {
    func testAProviderOfSpecTargetsAnswersWithTheWholeSample() async throws {
        let file = NSTemporaryDirectory() + "stub-\(getpid()).yaml"
        try """
        service: stubbed
        baseURL: https://x.test
        targets:
          user:
            path: /users/{id}
            params: { id: int }
            sample: { json: { id: "{id}" } }
            samples:
              missing: { status: 404, headers: { X-Reason: gone }, json: { message: "no user {id}" } }
              offline: { error: notConnectedToInternet }
        """.write(toFile: file, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: file) }
        let service = try SpecCompiler(environment: [:]).compile(file: file)
        let spec = try XCTUnwrap(service.target(named: "user"))
        let provider = MoyaProvider<SpecTarget>(stubClosure: MoyaProvider.immediatelyStub)
        func answer(_ sample: String?) async throws -> Result<Response, MoyaError> {
            let target = try service.resolve(spec, with: CallOptions(arguments: ["id": .int(7)], sample: sample))
            return await provider.result(for: target)
        }

        let found = try await answer(nil).get()
        XCTAssertEqual(found.statusCode, 200)
        XCTAssertEqual(String(decoding: found.data, as: UTF8.self), #"{"id":7}"#)

        let missing = try await answer("missing")
        XCTAssertEqual(missing.answered?.statusCode, 404)
        XCTAssertEqual(missing.answered?.headers["X-Reason"], "gone")
        XCTAssertEqual(missing.answered.map { String(decoding: $0.data, as: UTF8.self) }, #"{"message":"no user 7"}"#)

        guard case .failure(.underlying(let error as NetworkError, _)) = try await answer("offline") else {
            return XCTFail("the offline sample is a network error")
        }
        XCTAssertEqual(error.code, .notConnectedToInternet)
    }
}
