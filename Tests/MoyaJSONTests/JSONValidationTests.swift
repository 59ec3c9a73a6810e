import MoyaJSON
import XCTest

/// `JSONValue.isValid` agrees with the parser: the same texts pass and fail.
final class JSONValidationTests: XCTestCase {
    static let texts = [
        "{}", "[]", "0", "-0", "1.5e+3", "-12.0E-2", "\"\"", "\"a\\u00e9\\n\\\"\"", "true", "false", "null",
        " {\"a\": [1, 2, {\"b\": null}], \"c\": \"d\"} ", "[[[[]]]]", "\"é✓𝄞\"",
        "", " ", "{", "}", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "01", "1.", ".5", "1e", "-", "+1",
        "tru", "nul", "True", "\"\\x\"", "\"\\u12\"", "\"\u{1}\"", "\"unterminated", "[1 2]", "1 2", "{\"a\":}",
        "[\"a\",]", "NaN", "Infinity", "\"tab\there\"", "{\"a\":{\"b\":[true,false,null,-1.25e-7]}}",
        String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
    ]

    func testAgreesWithTheParser() {
        for text in Self.texts {
            let parses = (try? JSONValue(parsing: text)) != nil
            XCTAssertEqual(JSONValue.isValid(text), parses, text.debugDescription)
        }
        XCTAssertTrue(JSONValue.isValid("{\"n\":1}"))
        XCTAssertFalse(JSONValue.isValid("[DONE]"))
    }
}
