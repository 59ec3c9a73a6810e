import MoyaCore
import MoyaSchema
import XCTest

/// What a failed validation says: one line per violation, the instance's JSON path first.
final class SchemaErrorTests: XCTestCase {
    func testEachViolationIsOneLineAtItsJSONPath() throws {
        let schema = try JSONValue(
            parsing: """
                {
                  "type": "object",
                  "required": ["id", "items"],
                  "properties": {
                    "id": { "type": "integer" },
                    "items": { "type": "array", "items": { "$ref": "#/$defs/item" }, "maxItems": 3 },
                    "name": { "type": "string", "minLength": 2, "pattern": "^[A-Z]" }
                  },
                  "additionalProperties": false,
                  "$defs": { "item": { "type": "object", "properties": { "id": { "type": "integer" } } } }
                }
                """)
        let instance = try JSONValue(
            parsing: #"{"items": [{"id": 1}, {"id": "x"}, {}, {"id": 2.5}], "name": "a", "odd key": true}"#)
        let validator = SchemaValidator(schema: schema)
        XCTAssertFalse(validator.isValid(instance))
        XCTAssertEqual(
            validator.errors(in: instance).map(\.description),
            [
                "$: missing required property 'id'",
                "$.items[1].id: expected integer, got string",
                "$.items[3].id: expected integer, got number",
                "$.items: expected at most 3 items, got 4",
                "$.name: expected at least 2 characters, got 1",
                "$.name: expected to match /^[A-Z]/, got \"a\"",
                "$['odd key']: unexpected property",
            ])
        XCTAssertEqual(
            validator.errors(in: instance).map(\.schemaPath),
            [
                "#/required", "#/$defs/item/properties/id/type", "#/$defs/item/properties/id/type",
                "#/properties/items/maxItems", "#/properties/name/minLength", "#/properties/name/pattern",
                "#/additionalProperties",
            ])
        XCTAssertEqual(validator.errors(in: try JSONValue(parsing: #"{"id": 1, "items": []}"#)), [])
    }

    /// A pattern that backtracks without end on server text fails within its budget, as a
    /// check's `matches` does, rather than hang the run.
    func testACatastrophicPatternFailsWithinItsBudget() {
        let validator = SchemaValidator(schema: .object([(key: "pattern", value: .string("^(a+)+$"))]))
        let start = ContinuousClock.now
        XCTAssertEqual(
            validator.errors(in: .string(String(repeating: "a", count: 30) + "!")).map(\.description),
            ["$: the pattern /^(a+)+$/ took longer than 100 ms on this value; simplify it"])
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(5))
        XCTAssertTrue(
            SchemaValidator(schema: .object([(key: "pattern", value: .string("^(a+)+$"))])).isValid(.string("aaa")))
    }

    /// OpenAPI 3.0's dialect: `nullable`, and draft 4's boolean `exclusiveMinimum`.
    func testOpenAPI30Dialect() throws {
        let schema = try JSONValue(
            parsing: #"{"type": "integer", "nullable": true, "minimum": 0, "exclusiveMinimum": true}"#)
        let validator = SchemaValidator(schema: schema, dialect: .openAPI30)
        XCTAssertTrue(validator.isValid(.null))
        XCTAssertTrue(validator.isValid(.integer(1)))
        XCTAssertEqual(validator.errors(in: .integer(0)).map(\.description), ["$: expected > 0, got 0"])
        XCTAssertFalse(SchemaValidator(schema: schema, dialect: .draft4).isValid(.null))
    }
}
