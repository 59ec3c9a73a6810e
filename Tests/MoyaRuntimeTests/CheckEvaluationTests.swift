import MoyaCore
import MoyaJSONPath
import MoyaRuntime
import MoyaSpec
import XCTest

/// What a check's JSON assertions say about one response, compared whole: `count` on a path
/// that reaches several values counts them, and no message reads the same on both sides.
final class CheckEvaluationTests: XCTestCase {
    let body = #"{"items":[{"id":2,"tags":["a","b"]},{"id":3,"tags":["c","d"]}],"total":1.0,"code":"2"}"#

    func failures(_ path: String, _ predicate: MoyaSpec.Predicate) throws -> [String] {
        let mark = Mark(line: 1, column: 1)
        let assertion = Assertion(
            subject: .json(try JSONPath(parsing: path)), predicate: predicate, keyPath: "expect.json.\(path)",
            mark: mark)
        let check = CheckSpec(name: "c", assertions: [assertion], mark: mark)
        let response = Response(statusCode: 200, data: Data(body.utf8))
        return check.failures(of: response, seconds: 0, validation: .none, sample: nil).map(\.message)
    }

    func testCountOnAPathThatReachesSeveralValuesCountsThem() throws {
        typealias Case = (path: String, predicate: MoyaSpec.Predicate, expected: [String])
        let cases: [Case] = [
            ("$.items[*].id", .count(2), []),
            ("$.items[*].id", .count(3), ["expected count 3, got 2 values"]),
            ("$.items[*].tags", .count(2), []),
            ("$.items[*].tags[*]", .count(4), []),
            ("$.items[?@.id > 2]", .count(1), []),
            ("$.items[?@.id > 9]", .count(0), []),
            ("$.items[?@.id > 9]", .count(1), ["expected count 1, got 0 values"]),
            ("$.items[*].id", .not(.count(2)), ["expected not count 2, got 2 values"]),
            ("$.items[*].id", .all([.count(2), .type(.integer)]), []),
            ("$.items[*].id", .all([.count(2), .compare(.gt, 2)]), ["expected > 2, got 2"]),
            ("$.items[*].id", .all([.count(3), .type(.integer)]), ["expected count 3, got 2 values"]),
            ("$.items[*].id", .type(.integer), []),
            // A singular path's value is what `count` looks at.
            ("$.items", .count(2), []),
            ("$.items[0].id", .count(2), ["expected count 2, got 2, an integer with no count"]),
            ("$.code", .equals(.integer(2)), [#"expected 2, got "2""#]),
        ]
        for (path, predicate, expected) in cases {
            XCTAssertEqual(try failures(path, predicate), expected, "\(path) \(predicate)")
        }
    }
}
