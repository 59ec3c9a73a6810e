import MoyaCompiler
import MoyaHTTP
import MoyaSpec
import XCTest

/// `${NAME}` and `${NAME:-default}` compile to segments that name their variable, set or at
/// its default: a default is spec text where a call sends and prints it, and a reference
/// where generated code and exports read it. One compile, no mode.
final class EnvironmentReferenceTests: XCTestCase {
    static let spec = """
        service: refs
        baseURL: ${REFS_URL:-https://api.example.com}
        targets:
          get:
            path: /items/{id}
            params: { id: int }
            headers: { Accept: "${ACCEPT:-application/json}", X-Key: "${KEY}", X-Path: "${P:-{id}}" }

        """

    func headers(_ environment: Environment) throws -> [String: Template] {
        let service = try SpecCompiler(environment: environment).compile(Array(Self.spec.utf8), file: "refs.yaml")
        let target = try XCTUnwrap(service.target(named: "get"))
        return Dictionary(uniqueKeysWithValues: service.headers(of: target).map { ($0.name, $0.value) })
    }

    func testAnUnsetVariableStandsAtItsDefaultAsSpecText() throws {
        let headers = try headers(.none)
        let accept = try XCTUnwrap(headers["Accept"])
        XCTAssertEqual(accept.segments, [.environmentDefault(name: "ACCEPT", value: "application/json")])
        // Sent and printed as written: literal, no environment value, nothing secret.
        XCTAssertEqual(accept.literalText, "application/json")
        XCTAssertFalse(accept.readsEnvironment)
        XCTAssertFalse(accept.isOnlyEnvironment)
        XCTAssertEqual(accept.description, "application/json")
        // Read as a reference by what generates code or exports.
        XCTAssertTrue(accept.namesVariables)
        XCTAssertTrue(accept.isOnlyVariables)
        XCTAssertEqual(accept.segments.first?.variable?.name, "ACCEPT")
        // Unset with no default: an empty value of the variable.
        XCTAssertEqual(headers["X-Key"]?.segments, [.environment(name: "KEY", value: "")])
        // A default with a brace stays text, its `{id}` a reference to the param.
        XCTAssertEqual(headers["X-Path"]?.segments, [.param("id")])
    }

    func testASetVariableIsItsValueAndNamesIt() throws {
        let headers = try headers(["ACCEPT": "text/plain", "KEY": "k-1"])
        let accept = try XCTUnwrap(headers["Accept"])
        XCTAssertEqual(accept.segments, [.environment(name: "ACCEPT", value: "text/plain")])
        XCTAssertNil(accept.literalText)
        XCTAssertTrue(accept.readsEnvironment)
        XCTAssertTrue(accept.namesVariables)
        XCTAssertEqual(headers["X-Key"]?.segments, [.environment(name: "KEY", value: "k-1")])
    }

    func testABaseURLAtItsDefaultIsCheckedAndKeepsItsSource() throws {
        let service = try SpecCompiler(environment: .none).compile(Array(Self.spec.utf8), file: "refs.yaml")
        XCTAssertEqual(service.baseURL, "https://api.example.com")
        XCTAssertEqual(
            service.baseURLSource.segments, [.environmentDefault(name: "REFS_URL", value: "https://api.example.com")])
        let broken = Self.spec.replacing("https://api.example.com", with: "not a url")
        XCTAssertThrowsError(try SpecCompiler(environment: .none).compile(Array(broken.utf8), file: "refs.yaml")) {
            XCTAssertEqual(
                ($0 as? SpecError)?.diagnostics.map(\.description),
                [
                    "refs.yaml:2:10: error: baseURL: \"${REFS_URL:-not a url}\" is not an absolute http, https, ws or wss URL, "
                        + "such as https://api.example.com"
                ])
        }
    }
}
