import Foundation
import MoyaCore
import TestSupport
import XCTest

@testable import MoyaJSONPath
@testable import MoyaSpec

/// RFC 9535's compliance test suite, read from the shared copy beside the repository
/// (`../shared/jsonpath-cts/cts.json`), or from `$JSONPATH_CTS`.
final class JSONPathComplianceTests: XCTestCase {
    static let suitePath: String? = {
        let candidates = [
            ProcessInfo.processInfo.environment["JSONPATH_CTS"],
            repositoryRoot + "/../shared/jsonpath-cts/cts.json",
        ]
        return candidates.compactMap { $0 }.first { FileManager.default.fileExists(atPath: $0) }
    }()

    /// Every case: an invalid selector must be rejected; a valid one must give the expected
    /// nodes, or one of the expected orders where member order is not fixed.
    func testEveryComplianceCasePasses() throws {
        guard let path = Self.suitePath, !Repository.optionalAbsent else {
            let message = "the compliance suite is not at ../shared/jsonpath-cts/cts.json; set JSONPATH_CTS"
            // CI sets MOYA_SHARED_REQUIRED, so the suite cannot go missing there unnoticed.
            if ProcessInfo.processInfo.environment["MOYA_SHARED_REQUIRED"] != nil, !Repository.optionalAbsent {
                return XCTFail(message)
            }
            throw XCTSkip(message)
        }
        let suite = try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: path)))
        guard case .array(let cases)? = suite["tests"] else { return XCTFail("cts.json has no tests array") }
        var failures: [String] = []
        for testCase in cases {
            guard case .string(let name)? = testCase["name"], case .string(let selector)? = testCase["selector"]
            else { continue }
            let parsed = Result { () throws(JSONPathError) in try JSONPath(parsing: selector) }
            if testCase["invalid_selector"] == .bool(true) {
                if case .success = parsed { failures.append("\(name): \(selector) should be rejected") }
                continue
            }
            let path: JSONPath
            switch parsed {
            case .success(let success): path = success
            case .failure(let error):
                failures.append("\(name): \(selector) was rejected: \(error)")
                continue
            }
            guard let document = testCase["document"] else { continue }
            let found = JSONValue.array(path.values(in: document))
            var expected: [JSONValue] = []
            if let result = testCase["result"] { expected = [result] }
            if case .array(let alternatives)? = testCase["results"] { expected = alternatives }
            if !expected.contains(found) {
                failures.append("\(name): \(selector) gave \(found.serialized())")
            }
        }
        XCTAssertEqual(cases.count, 703)
        XCTAssertEqual(failures, [], "\(cases.count - failures.count) of \(cases.count) cases pass")
    }

    /// The paths checks used before RFC 9535 still mean what they meant.
    func testEarlierPathsKeepTheirMeaning() throws {
        let document = try JSONValue(
            parsing: #"{"id": 1, "friends": [{"name": "Ann", "id": 2}, {"name": "Bo", "id": 3}], "a.b": true}"#)
        let cases: [(String, String)] = [
            ("$.id", "[1]"),
            ("$.friends[0].name", #"["Ann"]"#),
            ("$.friends[-1].name", #"["Bo"]"#),
            ("$.friends[*].id", "[2,3]"),
            ("$['a.b']", "[true]"),
            ("$.friends[?@.id > 2].name", #"["Bo"]"#),
            ("$..name", #"["Ann","Bo"]"#),
            ("$.friends[?match(@.name, 'A.*')].id", "[2]"),
        ]
        for (path, expected) in cases {
            XCTAssertEqual(
                JSONValue.array(try JSONPath(parsing: path).values(in: document)).serialized(), expected, path)
        }
        XCTAssertTrue(try JSONPath(parsing: "$.friends[0]['name']").isSingular)
        XCTAssertFalse(try JSONPath(parsing: "$.friends[*]").isSingular)
    }

    /// A pattern that makes a backtracking engine take exponential time is matched in linear
    /// time: I-Regexp runs on MoyaRegex's Pike VM.
    func testABacktrackingFilterIsMatchedInLinearTime() throws {
        let path = try JSONPath(parsing: "$[?match(@, '(a|aa)+b')]")
        let document = JSONValue.array([.string(String(repeating: "a", count: 5_000)), .string("aab")])
        XCTAssertEqual(JSONValue.array(path.values(in: document)).serialized(), #"["aab"]"#)
    }

    /// Errors say what is wrong and where.
    /// A path's literal patterns, in filters at any depth, are compiled when it is read; one
    /// read from the document is compiled by the evaluation that meets it.
    func testLiteralPatternsAreCompiledWithThePath() throws {
        let path = try JSONPath(
            parsing: #"$[?match(@.a, 'a.*') && !search(@.b, '[0-9]+')][?@.c[?match(@, 'x|y')]][?match(@.d, @.e)]"#)
        XCTAssertEqual(Set(path.patterns.byText.keys), ["a.*", "[0-9]+", "x|y"])
        let document = try JSONValue(parsing: Data(#"[{"a":"abc","b":"no","c":[[]],"d":"q","e":"q"}]"#.utf8))
        XCTAssertEqual(path.values(in: document), [])
        let dynamic = try JSONPath(parsing: #"$[?match(@.d, @.e)]"#)
        XCTAssertEqual(dynamic.values(in: document).count, 1)
        XCTAssertTrue(dynamic.patterns.byText.isEmpty)
        XCTAssertEqual(path, try JSONPath(parsing: path.description), "the compiled patterns are not its identity")
    }

    func testErrorsNameThePlace() {
        let cases: [(String, String)] = [
            ("id", "a JSON path starts with $"),
            ("$.a[x]", "at character 5: expected a quoted name, *, an index, a slice or a filter"),
            ("$[?@.a]]", "at character 8: unexpected ']'"),
            (
                "$[?length(@.*) == 1]",
                "at character 4: length() needs a value: a literal, a singular query or length/count/value()"
            ),
            ("$[01]", "at character 3: an integer has no leading zeros"),
            // A header's name in shorthand: the hint writes it in brackets.
            (
                "$.headers.Content-Type",
                "at character 18: unexpected '-Type'; a name with '-' needs brackets: write $.headers['Content-Type']"
            ),
            (
                "$.a.x-y.b[0]",
                "at character 6: unexpected '-y.b[0]'; a name with '-' needs brackets: write $.a['x-y'].b[0]"
            ),
            ("$..x-y", "at character 5: unexpected '-y'"),
        ]
        for (path, expected) in cases {
            XCTAssertThrowsError(try JSONPath(parsing: path), path) { error in
                XCTAssertEqual("\(error)", expected, path)
            }
        }
    }
}
