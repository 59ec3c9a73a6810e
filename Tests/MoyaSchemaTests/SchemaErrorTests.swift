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
    /// `uniqueItems` is decided by hashing, not by comparing every pair: an array of 200,000
    /// items (40 billion pairs) is checked, and equal values of another spelling (`1` and
    /// `1.0`, members in another order) are still the same item.
    func testUniqueItemsOfAHugeArray() throws {
        let validator = SchemaValidator(schema: .object([("uniqueItems", .bool(true))]))
        var items = (0..<200_000).map { JSONValue.integer($0) }
        XCTAssertTrue(validator.isValid(.array(items)))
        items.append(.number(199_999))
        XCTAssertEqual(
            validator.errors(in: .array(items)).map(\.description),
            ["$: expected unique items, got 199999 at 199999 and 200000"])
        let objects = try JSONValue(parsing: #"[{"a":1,"b":[1,"x"]},{"b":[1,"x"],"a":1.0}]"#)
        XCTAssertFalse(validator.isValid(objects))
        XCTAssertTrue(validator.isValid(try JSONValue(parsing: #"[{"a":1},{"a":"1"},[1],["1"],"e\u0301","é"]"#)))
    }

    /// A body that breaks its schema everywhere gets the first 100 errors, not one per item.
    func testErrorsStopAtTheLimit() {
        let validator = SchemaValidator(schema: .object([("items", .object([("type", .string("string"))]))]))
        let errors = validator.errors(in: .array((0..<50_000).map { JSONValue.integer($0) }))
        XCTAssertEqual(errors.count, SchemaValidator.errorLimit)
        XCTAssertEqual(errors.first?.description, "$[0]: expected string, got integer")
        XCTAssertEqual(errors.last?.description, "$[99]: expected string, got integer")
    }

    /// A recursive `oneOf` whose every level tries both branches doubles the work per level
    /// of the body: 2^40 evaluations for this small one. The budget counts schema steps, so
    /// the value fails, on any machine, instead of hanging the run.
    func testARecursiveOneOfFailsWithinItsStepBudget() throws {
        let schema = try JSONValue(
            parsing: """
                {"$ref": "#/$defs/n", "$defs": {"n": {"oneOf": [
                  {"title": "one", "properties": {"a": {"$ref": "#/$defs/n"}}},
                  {"title": "two", "properties": {"a": {"$ref": "#/$defs/n"}}}
                ]}}}
                """)
        var body = JSONValue.object([])
        for _ in 0..<40 { body = .object([("a", body)]) }
        let validator = SchemaValidator(schema: schema)
        XCTAssertFalse(validator.isValid(body))
        let limit = SchemaValidator.stepLimit(for: body)
        XCTAssertEqual(
            validator.errors(in: body).map(\.description),
            [
                "$: validating this value takes more than \(limit) schema steps (oneOf and anyOf multiply them); "
                    + "it is taken as invalid"
            ])
        // Ten levels are 2^10 steps: validated, whatever the outcome.
        var small = JSONValue.object([])
        for _ in 0..<10 { small = .object([("a", small)]) }
        XCTAssertFalse(validator.errors(in: small).contains { $0.message.contains("schema steps") })
    }

    /// A schema `pattern` runs as an NFA, in time linear in the value: the patterns that made
    /// Swift's backtracking `Regex` take seconds are decided at once, with the same answers
    /// `Regex` gives on the rest.
    func testPatternsMatchInLinearTime() throws {
        let digits = String(repeating: "1", count: 25_000)
        let cases: [(pattern: String, text: String, matches: Bool)] = [
            ("[0-9]+-[0-9]+$", digits, false),
            ("[0-9]+-[0-9]+$", digits + "-2", true),
            ("^(a+)+$", String(repeating: "a", count: 5_000) + "b", false),
            ("^(a|aa)+$", String(repeating: "a", count: 5_000), true),
            ("^(a|a?)+b$", String(repeating: "a", count: 5_000), false),
            ("^[A-Z][a-z]*$", "Harry", true), ("^[A-Z][a-z]*$", "harry", false),
            ("^\\d{3}-\\d{4}$", "555-1234", true), ("^\\d{3}-\\d{4}$", "555-12345", false),
            ("\\p{Lu}\\p{Ll}+", "xÄpfel", true), ("^\\P{L}+$", "12-3", true),
            ("^[^\\s@]+@[^\\s@]+\\.[a-z]{2,}$", "ann@example.com", true),
            ("^[^\\s@]+@[^\\s@]+\\.[a-z]{2,}$", "ann@example", false),
            ("colou?r", "The color", true), ("^(?:ab|cd){2}$", "abcd", true), ("^(?:ab|cd){2}$", "abc", false),
            ("a.c", "a\nc", false), ("^$", "", true), ("x*", "", true), ("[\\u0041-\\u005a]{2}", "aBCd", true),
            ("^\\w+$", "snake_case9", true), ("^\\w+$", "kebab-case", false), ("a{2,3}", "caab", true),
            ("a{2,3}b", "cab", false), ("{", "a{b", true), ("^a|b$", "xxb", true),
        ]
        for row in cases {
            let validator = SchemaValidator(schema: .object([("pattern", .string(row.pattern))]))
            XCTAssertEqual(
                validator.isValid(.string(row.text)), row.matches, "\(row.pattern) on \(row.text.prefix(20))")
            if row.text.count < 100 {
                let regex = try Regex(row.pattern)
                XCTAssertEqual(row.text.contains(regex), row.matches, "Regex: \(row.pattern)")
            }
        }
    }

    /// A pattern the Pike VM cannot run (a back-reference needs backtracking) runs under a
    /// budget of steps, and a catastrophic one fails its value with the count.
    func testACatastrophicPatternFailsWithinItsBudget() {
        let validator = SchemaValidator(schema: .object([(key: "pattern", value: .string("^(a+)+\\1$"))]))
        XCTAssertEqual(
            validator.errors(in: .string(String(repeating: "a", count: 30) + "!")).map(\.description),
            ["$: the pattern /^(a+)+\\1$/ backtracks past 1003100 steps on this value; simplify it"])
        XCTAssertTrue(validator.isValid(.string("aaaa")))
        // Without the back-reference it is the Pike VM's, which never backtracks.
        let linear = SchemaValidator(schema: .object([(key: "pattern", value: .string("^(a+)+$"))]))
        XCTAssertEqual(
            linear.errors(in: .string(String(repeating: "a", count: 30) + "!")).map(\.description),
            [#"$: expected to match /^(a+)+$/, got "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!""#])
    }

    /// Each error carries its keyword, its instance path and its schema path, typed: no one
    /// splits a path to find the keyword.
    func testAnErrorCarriesItsKeywordAndBothPaths() throws {
        let schema = try JSONValue(
            parsing: #"{"type": "object", "required": ["id"], "properties": {"name": {"type": "string"}}}"#)
        let errors = CompiledSchema(schema: schema).errors(in: try JSONValue(parsing: #"{"name": 3}"#))
        XCTAssertEqual(errors.map(\.keyword), ["required", "type"])
        XCTAssertEqual(errors.map(\.instancePath), ["$", "$.name"])
        XCTAssertEqual(errors.map(\.schemaPath), ["#/required", "#/properties/name/type"])
        XCTAssertEqual(CompiledSchema(schema: .bool(false)).errors(in: .null).map(\.keyword), ["schema"])
    }

    /// `unevaluatedProperties: false` beside an `anyOf`, in an OpenAPI document's component,
    /// which the scan of the document does not reach (its `components` are not a schema's
    /// keyword): the properties the branch that holds evaluates are evaluated. A real
    /// document's payment source; Python's jsonschema agrees.
    func testUnevaluatedPropertiesInAComponentSeeAnyOfsBranch() throws {
        let document = try JSONValue(
            parsing: #"""
                {"openapi": "3.1.0", "components": {"schemas": {"Source": {
                  "unevaluatedProperties": false,
                  "anyOf": [
                    {"properties": {"object": {"const": "card"}, "number": {"type": "string"}}, "required": ["number"]},
                    {"properties": {"object": {"const": "bank"}, "iban": {"type": "string"}}, "required": ["iban"]}]}}}}
                """#)
        for frozen in [true, false] {
            let instance = try JSONValue(parsing: #"{"object": "card", "number": "4242"}"#)
            let stray = try JSONValue(parsing: #"{"object": "card", "number": "4242", "cvc": 1}"#)
            let reference = JSONValue.object([
                (key: "$ref", value: .string("https://example.com/doc.json#/components/schemas/Source"))
            ])
            if frozen {
                let schema = CompiledSchema(
                    schema: reference,
                    documents: [.init(uri: "https://example.com/doc.json", value: document, dialect: .draft2020_12)])
                XCTAssertEqual(schema.errors(in: instance).map(\.description), [])
                XCTAssertEqual(schema.errors(in: stray).map(\.description), ["$.cvc: unexpected property"])
            } else {
                let registry = SchemaRegistry()
                registry.add(document, uri: "https://example.com/doc.json")
                let validator = SchemaValidator(schema: reference, registry: registry)
                XCTAssertEqual(validator.errors(in: instance).map(\.description), [])
                XCTAssertEqual(validator.errors(in: stray).map(\.description), ["$.cvc: unexpected property"])
            }
        }
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
        // Swagger 2.0's `x-nullable`, read in 3.0's dialect, lets null through as `nullable` does.
        let swagger = try JSONValue(parsing: #"{"type": "string", "x-nullable": true}"#)
        XCTAssertTrue(SchemaValidator(schema: swagger, dialect: .openAPI30).isValid(.null))
        XCTAssertFalse(SchemaValidator(schema: swagger, dialect: .draft2020_12).isValid(.null))
        // As OpenAPI 3.0.3 has it, `nullable` lets null through `type` alone: an `enum` without
        // null, or an `allOf` whose schema has a type, still refuses it.
        for text in [
            #"{"type": "string", "nullable": true, "enum": ["a"]}"#,
            #"{"nullable": true, "allOf": [{"type": "object"}]}"#,
        ] {
            XCTAssertFalse(
                SchemaValidator(schema: try JSONValue(parsing: text), dialect: .openAPI30).isValid(.null), text)
        }
        let listed = try JSONValue(parsing: #"{"type": "string", "nullable": true, "enum": ["a", null]}"#)
        XCTAssertTrue(SchemaValidator(schema: listed, dialect: .openAPI30).isValid(.null))
    }
}
