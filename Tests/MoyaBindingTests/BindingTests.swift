import MoyaBinding
import MoyaCompiler
import MoyaCore
import MoyaSpec
import XCTest

/// Values bound after compiling (`ServiceSpec.binding(_:)`): written where the spec keeps its
/// references apart, secret, and typed and checked as they are bound, the value never shown.
final class BindingTests: XCTestCase {
    static let spec = """
        service: late
        baseURL: "${LATE_HOST}"
        secrets:
          LATE_HOST: { dotenv: .env }
          LATE_PAGE: { dotenv: .env }
          LATE_KEY: { dotenv: .env }
        targets:
          list:
            path: /items
            headers: { X-Key: "${LATE_KEY}" }
            params:
              page: { type: int, default: "${LATE_PAGE}" }
        """

    func compiled() throws -> ServiceSpec {
        try SpecCompiler(environment: Environment([:])).compile(Array(Self.spec.utf8), file: "late.yaml")
    }

    func testBoundValuesAreWrittenInAndSecret() throws {
        let service = try compiled()
        XCTAssertEqual(service.unsetVariables.map(\.name), ["LATE_HOST", "LATE_PAGE", "LATE_KEY"])
        XCTAssertNil(service.targets[0].params[0].defaultValue, "typed when bound")
        let bound = try service.binding(["LATE_HOST": "http://127.0.0.1:9", "LATE_PAGE": "3", "LATE_KEY": "k3y"])
        XCTAssertEqual(bound.baseURL, "http://127.0.0.1:9")
        XCTAssertEqual(bound.targets[0].params[0].defaultValue, .int(3))
        XCTAssertEqual(bound.unsetVariables, [])
        XCTAssertTrue(bound.environmentSecrets.contains(value: "k3y"))
        let target = try bound.resolve(bound.targets[0], with: CallOptions())
        XCTAssertEqual(target.headers?["X-Key"], "k3y")
        XCTAssertEqual(target.baseURL.absoluteString, "http://127.0.0.1:9")
    }

    func testAValueThatDoesNotFitSaysWhereAndHidesIt() throws {
        let service = try compiled()
        for (values, message) in [
            (
                ["LATE_HOST": "not a url", "LATE_PAGE": "1"],
                "baseURL (late.yaml:2:10) with the value of ${LATE_HOST}: the URL is not an absolute http, https, ws or wss URL, "
                    + "such as https://api.example.com"
            ),
            (
                ["LATE_HOST": "http://127.0.0.1:9", "LATE_PAGE": "s3cret"],
                "targets.list.params.page.default (late.yaml:12:35): expects an int, got the value of ${LATE_PAGE}"
            ),
        ] {
            XCTAssertThrowsError(try service.binding(values)) { error in
                XCTAssertEqual((error as? BindingFailure)?.message, message)
            }
        }
    }
}
