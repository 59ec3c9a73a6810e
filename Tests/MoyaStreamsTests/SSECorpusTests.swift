import Foundation
import MoyaStreams
import TestSupport
import XCTest

/// The SSE decoder against httpx-sse's (PyPI 0.4.x) on a corpus of event streams: every edge
/// case of the WHATWG rules written out, and generated streams that mix them, each cut into
/// chunks at awkward places (between CR and LF, inside a byte order mark or a UTF-8 sequence).
final class SSECorpusTests: XCTestCase {
    /// A stream and the chunk size it is fed in.
    struct Case {
        var bytes: [UInt8]
        var chunk: Int
    }

    /// The edge cases, each one stream.
    static let written: [String] = [
        "data: one\n\n",
        "data: one\r\n\r\n",
        "data: one\r\r",
        "data: a\ndata: b\n\n",
        "data: a\r\ndata: b\rdata: c\n\n",
        "data:no space\n\n",
        "data:  two spaces\n\n",
        "data\n\n",
        "data:\n\n",
        "data:\ndata:\n\n",
        ": comment\ndata: x\n\n",
        ":\n:\ndata: x\n\n",
        "event: add\ndata: 1\n\n",
        "event: add\n\n",
        "event: add\n\ndata: 2\n\n",
        "id: 7\ndata: x\n\ndata: y\n\n",
        "id: 7\n\ndata: y\n\n",
        "id: 1\u{0}2\ndata: x\n\n",
        "id: 5\ndata: x\n\nid\ndata: y\n\n",
        "id: 5\ndata: x\n\nid:\ndata: y\n\n",
        "retry: 3000\ndata: x\n\n",
        "retry: 3a\ndata: x\n\n",
        "retry: -1\ndata: x\n\n",
        "retry: +5\ndata: x\n\n",
        "retry:\ndata: x\n\n",
        "retry: 10\n\ndata: x\n\n",
        "retry:  5\ndata: x\n\n",
        "data: x\n\ndata: never dispatched",
        "data: x\n\ndata: never dispatched\n",
        "data: x",
        "\u{FEFF}data: bom\n\n",
        "\u{FEFF}\u{FEFF}data: two boms\n\n",
        "unknown: field\ndata: x\n\n",
        "DATA: upper\ndata: x\n\n",
        "data : spaced name\ndata: x\n\n",
        "data: a:b:c\n\n",
        "data: ünïcödé ✓ 𝄞\n\n",
        "event: ünï\ndata: x\n\n",
        "\n\n\ndata: leading blanks\n\n",
        "data: x\n\n\n\n",
        "data: {\"json\": [1, 2]}\n\n",
        "data: [DONE]\n\n",
        "event:message\ndata: x\n\n",
        "event: \ndata: x\n\n",
        "data: x\r\n\r\ndata: y\n\n",
        "data: a\r\r\ndata: b\n\n",
        "id: α\ndata: x\n\n",
        "data: tab\there\n\n",
        " data: leading space name\n\ndata: x\n\n",
        "data: x\n\r\n",
    ]

    /// Streams with bytes that are not UTF-8, which both decoders replace.
    static let invalid: [[UInt8]] = [
        Array("data: ".utf8) + [0xFF, 0xFE] + Array("\n\n".utf8),
        Array("data: ".utf8) + [0xE2, 0x82] + Array("x\n\n".utf8),
        Array("event: ".utf8) + [0xC0, 0x80] + Array("\ndata: x\n\n".utf8),
        [0xEF, 0xBB] + Array("data: half bom\n\n".utf8),
    ]

    /// Lines the generated streams are made of.
    static let pieces: [String] = [
        "data: hello", "data:", "data", "data:  spaced", "data: {\"n\": 1}", "event: update", "event:",
        "id: 42", "id", "id: a\u{0}b", "retry: 1500", "retry: x1", ": keep-alive", ":", "foo: bar", "",
        "", "", "data: é✓𝄞", "data: a:b", "DATA: x", "event : y", "retry: 07",
    ]
    static let ends = ["\n", "\r", "\r\n"]

    /// The corpus: the written cases at several chunk sizes, the invalid ones, and 200 streams
    /// generated from `pieces` with mixed line ends.
    static func corpus() -> [Case] {
        var cases: [Case] = []
        for (number, text) in written.enumerated() {
            cases.append(Case(bytes: Array(text.utf8), chunk: [1, 2, 3, 1000][number % 4]))
        }
        for bytes in invalid { cases.append(Case(bytes: bytes, chunk: 1)) }
        var random = SplitMix(seed: 78)
        for _ in 0..<200 {
            var text = random.next(below: 5) == 0 ? "\u{FEFF}" : ""
            for _ in 0..<(3 + random.next(below: 14)) {
                text += pieces[random.next(below: pieces.count)] + ends[random.next(below: ends.count)]
            }
            cases.append(Case(bytes: Array(text.utf8), chunk: 1 + random.next(below: 9)))
        }
        return cases
    }

    /// The events the decoder reads from `bytes`, fed `chunk` bytes at a time.
    static func decode(_ bytes: [UInt8], chunk: Int) throws -> [[String: String?]] {
        var decoder = EventDecoder(kind: .sse, limit: 1 << 20)
        var events: [[String: String?]] = []
        let record: (StreamEvent) -> Void = { event in
            events.append([
                "event": event.event, "id": event.id, "data": event.data, "retry": event.retry.map { "\($0)" },
            ])
        }
        var start = 0
        while start < bytes.count {
            let end = min(start + chunk, bytes.count)
            try bytes[start..<end].withUnsafeBytes { try decoder.decode($0, dispatch: record) }
            start = end
        }
        try decoder.finish(dispatch: record)
        return events
    }

    func testAgreesWithHTTPXSSE() throws {
        try Repository.requirePrograms(["python3"])
        let check = try Launch.run(Launch.onPath("python3").0, ["python3", "-c", "import httpx_sse"], environment: nil)
        guard check.status == 0 else { throw Repository.unavailable("httpx-sse not installed; .ci/run installs it") }
        let corpus = Self.corpus()
        XCTAssertGreaterThanOrEqual(corpus.count, 100)
        let input = try JSONSerialization.data(
            withJSONObject: corpus.map { ["bytes": Data($0.bytes).base64EncodedString(), "chunk": $0.chunk] })
        let reference = try Launch.run(
            Launch.onPath("python3").0, ["python3", Repository.fixtures + "/streams/httpx_sse_events.py"],
            environment: nil, input: input)
        XCTAssertEqual(reference.status, 0, reference.error)
        let expected = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(reference.out.utf8)) as? [[[String: Any]]])
        XCTAssertEqual(expected.count, corpus.count)
        var events = 0
        for (number, (item, theirs)) in zip(corpus, expected).enumerated() {
            let ours = try Self.decode(item.bytes, chunk: item.chunk)
            let converted: [[String: String?]] = theirs.map { event in
                [
                    "event": event["event"] as? String, "id": event["id"] as? String,
                    "data": event["data"] as? String, "retry": (event["retry"] as? Int).map { "\($0)" },
                ]
            }
            events += ours.count
            XCTAssertEqual(
                ours, converted,
                "stream \(number): \(String(decoding: item.bytes, as: UTF8.self).debugDescription)")
        }
        // Every stream read, and the departures httpx-sse makes from the rules counted.
        XCTAssertGreaterThan(events, 150)
        XCTAssertTrue(reference.error.contains("dispatch without data"), reference.error)
    }
}

/// A small deterministic generator, so the corpus is the same on every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(below bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(z % UInt64(bound))
    }
}
