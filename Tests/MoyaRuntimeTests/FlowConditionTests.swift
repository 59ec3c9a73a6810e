import MoyaCore
import MoyaRuntime
import XCTest

@testable import MoyaSpec

/// `skip:` conditions: how they read and when they hold.
final class FlowConditionTests: XCTestCase {
    func testConditionsHold() throws {
        var variables = FlowVariables()
        variables.set("env", to: .string("prod"))
        variables.set("count", to: .integer(3))
        variables.set("user", to: .object([("role", .string("admin")), ("tags", .array([.string("a")]))]))
        variables.set("force", to: .bool(true))
        let cases: [(String, Bool)] = [
            ("{env} == prod", true),
            ("{env} != prod", false),
            ("{count} == 3", true),
            ("{count} == '3'", true),
            ("{user.role} == admin and {count} != 0", true),
            ("{user.tags.0} == a", true),
            ("not exists {missing}", true),
            ("exists {user.role}", true),
            ("exists {user.nope}", false),
            ("{env} == dev or ({force} and not {count} == 4)", true),
            ("{force}", true),
            ("{env}", false),
            ("{missing} == null", false),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(variables.holds(try FlowCondition(parsing: text)), expected, text)
        }
    }

    func testMalformedConditionsSayWhy() {
        let cases: [(String, String)] = [
            ("{a} = 1", "'=' must be '=='"),
            ("{a} ==", "the condition ends too early"),
            ("({a} == 1", "expected ')'"),
            ("exists 3", "'exists' takes a reference such as {userId}"),
            ("{a} == 1 2", "unexpected '2'"),
            ("'open", "an unclosed quote"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try FlowCondition(parsing: text), text) { error in
                XCTAssertEqual("\(error)", expected, text)
            }
        }
    }

    func testTemplatesKeepTypesAndReachInside() throws {
        var variables = FlowVariables()
        variables.set("id", to: .integer(7))
        variables.set("user", to: .object([("address", .object([("city", .string("Oslo"))]))]))
        XCTAssertEqual(try variables.render(VariableTemplate("{id}")).value, .integer(7))
        XCTAssertEqual(try variables.render(VariableTemplate("user {id}")).value, .string("user 7"))
        XCTAssertEqual(try variables.render(VariableTemplate("{user.address.city}")).value, .string("Oslo"))
        XCTAssertEqual(try variables.render(VariableTemplate("{{id}}")).value, .string("{id}"))
        XCTAssertThrowsError(try variables.render(VariableTemplate("{nope}"))) { error in
            XCTAssertEqual("\(error)", "variable 'nope' is not set")
        }
        guard case .string(let uuid) = try variables.render(VariableTemplate("{$uuid}")).value else {
            return XCTFail("{$uuid} is not a string")
        }
        XCTAssertEqual(uuid.count, 36)
        guard case .integer = try variables.render(VariableTemplate("{$timestamp}")).value else {
            return XCTFail("{$timestamp} is not an integer")
        }
    }
}
