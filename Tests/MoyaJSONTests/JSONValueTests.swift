import Foundation
import MoyaJSON
import XCTest

/// MoyaJSON on its own: parsing as RFC 8259 says, serialising back, and percent-encoding.
final class JSONValueTests: XCTestCase {
    func testParsingKeepsMemberOrderAndNumberKinds() throws {
        let value = try JSONValue(parsing: #"{"b": 1, "a": [1.5, -0, 1e2, null, true, "x"], "c": {}}"#)
        guard case .object(let members) = value else { return XCTFail("\(value)") }
        XCTAssertEqual(members.map(\.key), ["b", "a", "c"])
        XCTAssertEqual(value["b"], .integer(1))
        XCTAssertEqual(
            value["a"], .array([.number(1.5), .integer(0), .number(100), .null, .bool(true), .string("x")]))
        XCTAssertEqual(value.serialized(), #"{"b":1,"a":[1.5,0,100,null,true,"x"],"c":{}}"#)
    }

    func testStringsDecodeEveryEscapeAndSurrogatePairs() throws {
        let value = try JSONValue(parsing: #""a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00""#)
        XCTAssertEqual(value, .string("a\"\\/\u{8}\u{c}\n\r\té😀"))
        XCTAssertEqual(value.serialized(escapeSlashes: false), #""a\"\\/\b\f\n\r\té😀""#)
        XCTAssertEqual(JSONValue.string("</").serialized(), #""<\/""#)
    }

    /// Malformed documents say what is wrong and where, and nothing deeper than 512 levels is
    /// read.
    func testMalformedDocumentsAreRefusedWithAnOffset() {
        for text in ["", "{", "[1,]", #"{"a" 1}"#, "01", "1.", "tru", #""\x""#, "[1] 2"] {
            XCTAssertThrowsError(try JSONValue(parsing: text), text) { error in
                XCTAssertTrue("\(error)".contains(" at byte "), "\(text): \(error)")
            }
        }
        // A lone surrogate is valid JSON that names no character: it reads as U+FFFD.
        XCTAssertEqual(try JSONValue(parsing: #""\ud800x""#), .string("\u{FFFD}x"))
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        XCTAssertThrowsError(try JSONValue(parsing: deep))
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        XCTAssertNoThrow(try JSONValue(parsing: fine))
    }

    func testPathsAndEditing() throws {
        let value = try JSONValue(parsing: #"{"user": {"friends": [{"name": "Ron"}]}}"#)
        XCTAssertEqual(value.value(atPath: ["user", "friends", "0", "name"]), .string("Ron"))
        XCTAssertNil(value.value(atPath: ["user", "enemies"]))
        let edited = try value.setting(.string("Hermione"), at: try JSONEditStep.parse("user.friends[0].name"))
        XCTAssertEqual(edited.serialized(), #"{"user":{"friends":[{"name":"Hermione"}]}}"#)
    }

    func testPercentEncodingRoundTrips() {
        let text = "a b/ü?&=%"
        let encoded = PercentEncoding.encode(text, keeping: PercentEncoding.isUnreserved)
        XCTAssertEqual(encoded, "a%20b%2F%C3%BC%3F%26%3D%25")
        XCTAssertEqual(PercentEncoding.decode(Substring(encoded)), text)
        XCTAssertEqual(PercentEncoding.decode("a+b", plusIsSpace: true), "a b")
        XCTAssertEqual(PercentEncoding.decode("100%"), "100%")
    }

    /// With a limit, writing stops at the first element boundary past it: a prefix of the
    /// whole text, whatever the value's depth and width.
    func testSerializingStopsPastALimit() throws {
        let value = try JSONValue(parsing: #"{"a":[1,2,3],"b":{"c":"d"},"e":4}"#)
        XCTAssertEqual(value.serialized(limit: 10), #"{"a":[1,2,3]"#)
        XCTAssertEqual(value.serialized(limit: 1_000), value.serialized())
        XCTAssertEqual(value.serialized(pretty: true, limit: 0), "{")
        XCTAssertEqual(value.serialized(pretty: true, limit: 1), "{\n  \"a\" : [")
        let whole = value.serialized(pretty: true)
        for limit in 0..<whole.utf8.count {
            XCTAssertTrue(whole.hasPrefix(value.serialized(pretty: true, limit: limit)))
        }
    }
}
