import MoyaJSON
import MoyaStreams
import XCTest

/// What `call --events json` writes of an event, and the NDJSON and JSON-text-sequence framing.
final class StreamEventTests: XCTestCase {
    func line(_ event: StreamEvent) -> String {
        var out: [UInt8] = []
        event.writeJSONLine(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func testJSONLines() throws {
        let cases: [(StreamEvent, String)] = [
            (
                StreamEvent(index: 0, event: "message", id: "7", data: "{\"a\": [1, 2]}"),
                #"{"event":"message","id":"7","data":{"a": [1, 2]}}"#
            ),
            (StreamEvent(index: 1, event: "done", data: "[DONE]"), #"{"event":"done","id":null,"data":"[DONE]"}"#),
            (StreamEvent(index: 2, data: "{\"a\":\n1}"), #"{"event":null,"id":null,"data":{"a":1}}"#),
            (
                StreamEvent(index: 3, event: "q\"\\", id: "\u{1}", data: "text"),
                #"{"event":"q\"\\","id":"\u0001","data":"text"}"#
            ),
            (
                StreamEvent(index: 4, event: "message", data: "", retry: 1500),
                #"{"event":"message","id":null,"data":"","retry":1500}"#
            ),
        ]
        for (event, expected) in cases {
            let written = line(event)
            XCTAssertEqual(written, expected + "\n")
            // Every line is one JSON text, with the data parsed where it is JSON.
            let parsed = try JSONValue(parsing: written)
            XCTAssertEqual(parsed, event.json)
        }
    }

    func decode(_ kind: StreamKind, _ chunks: [String], limit: Int = 1 << 20) throws -> [String] {
        var decoder = EventDecoder(kind: kind, limit: limit)
        var data: [String] = []
        for chunk in chunks {
            try Array(chunk.utf8).withUnsafeBytes { try decoder.decode($0) { data.append($0.data) } }
        }
        try decoder.finish { data.append($0.data) }
        return data
    }

    func testNDJSONAndJSONSequences() throws {
        XCTAssertEqual(
            try decode(.ndjson, ["{\"a\":1}\r\n\n  \n{\"b\"", ":2}\n[3]"]), ["{\"a\":1}", "{\"b\":2}", "[3]"])
        XCTAssertEqual(
            try decode(.jsonSeq, ["\u{1E}{\"a\":1}\n\u{1E}", "\u{1E}[2]\n", "\u{1E}3"]), ["{\"a\":1}", "[2]", "3"])
    }

    func testAnEventPastTheLimitIsRefused() {
        XCTAssertThrowsError(try decode(.sse, ["data: " + String(repeating: "x", count: 100)], limit: 64))
        XCTAssertThrowsError(try decode(.ndjson, [String(repeating: "x", count: 100)], limit: 64))
        XCTAssertEqual(try decode(.sse, ["data: " + String(repeating: "x", count: 50) + "\n\n"], limit: 64).count, 1)
    }

    func testKindsByContentType() {
        XCTAssertEqual(StreamKind(contentType: "text/event-stream; charset=utf-8"), .sse)
        XCTAssertEqual(StreamKind(contentType: "Application/X-NDJSON"), .ndjson)
        XCTAssertEqual(StreamKind(contentType: "application/jsonl"), .ndjson)
        XCTAssertEqual(StreamKind(contentType: "application/json-seq"), .jsonSeq)
        XCTAssertNil(StreamKind(contentType: "application/json"))
    }
}
