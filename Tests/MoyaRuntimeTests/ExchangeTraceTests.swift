import MoyaCore
import XCTest

@testable import MoyaRuntime

/// How the HTML report shows bodies: JSON masked then pretty, text scrubbed, cut on a
/// character at the limit with the rest counted.
final class ExchangeTraceTests: XCTestCase {
    func testBodiesAreMaskedPrettyAndCut() {
        let redactor = Redactor(secretValues: ["s3cr3t-token"])
        XCTAssertEqual(
            ExchangeTrace.body(Data(#"{"token":"s3cr3t-token","n":1}"#.utf8), redactor: redactor),
            "{\n  \"token\" : \"••••\",\n  \"n\" : 1\n}")
        XCTAssertEqual(
            ExchangeTrace.body(Data("the token is s3cr3t-token".utf8), redactor: redactor), "the token is ••••")
        XCTAssertNil(ExchangeTrace.body(Data(), redactor: redactor))
        XCTAssertEqual(ExchangeTrace.body(Data([0xFF, 0xFE]), redactor: redactor), "<2 bytes of binary data>")

        // Cut on a character: "é" is two bytes, and is never split.
        let long = String(repeating: "a", count: ExchangeTrace.bodyLimit - 1) + "é" + "bc"
        XCTAssertEqual(
            ExchangeTrace.cut(long, bodyBytes: 2051),
            String(repeating: "a", count: ExchangeTrace.bodyLimit - 1) + "\n… cut here: the body is 2051 bytes")
        XCTAssertEqual(ExchangeTrace.cut("short", bodyBytes: 5), "short")

        // A deep, wide JSON body is written only as far as the preview keeps: its whole
        // indented text would be hundreds of megabytes.
        let deep =
            String(repeating: "[", count: 500) + String(repeating: "1,", count: 100_000) + "1"
            + String(repeating: "]", count: 500)
        let preview = ExchangeTrace.body(Data(deep.utf8), redactor: redactor) ?? ""
        XCTAssertLessThan(preview.utf8.count, ExchangeTrace.bodyLimit + 100)
        XCTAssertTrue(preview.hasSuffix("\n… cut here: the body is \(deep.utf8.count) bytes"))

        // JSON past the pretty limit is shown as it came, scrubbed, then cut.
        let big = "[\"s3cr3t-token\"" + String(repeating: ",1", count: ExchangeTrace.prettyLimit) + "]"
        let shown = ExchangeTrace.body(Data(big.utf8), redactor: redactor) ?? ""
        XCTAssertTrue(shown.hasPrefix("[\"••••\",1,1"), String(shown.prefix(40)))
        XCTAssertTrue(shown.hasSuffix("\n… cut here: the body is \(big.utf8.count) bytes"))
    }
}
