import MoyaSpec
import XCTest

final class YAMLLoaderTests: XCTestCase {
    func testMarksAreOneBasedAndStylesKept() throws {
        let root = try XCTUnwrap(try YAMLLoader.load(Array("a: 1\nb:\n  - 'x'\n".utf8)))
        guard case .mapping(let pairs) = root.content else { return XCTFail() }
        XCTAssertEqual(pairs[0].key.mark, Mark(line: 1, column: 1))
        XCTAssertEqual(pairs[0].value.mark, Mark(line: 1, column: 4))
        guard case .sequence(let items) = pairs[1].value.content else { return XCTFail() }
        XCTAssertEqual(items[0].mark, Mark(line: 3, column: 5))
        guard case .scalar("x", .quoted) = items[0].content else { return XCTFail() }
    }

    func testEmptyDocumentIsNil() throws {
        XCTAssertNil(try YAMLLoader.load([]))
    }

    func testSecondDocumentAndAliasBombsAreRefused() {
        XCTAssertThrowsError(try YAMLLoader.load(Array("a: 1\n---\nb: 2\n".utf8)))
        var bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...7 {
            let previous = level == 1 ? "a" : "l\(level - 1)"
            bomb +=
                "l\(level): &l\(level) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]\n"
        }
        XCTAssertThrowsError(try YAMLLoader.load(Array(bomb.utf8))) { error in
            XCTAssertTrue((error as? YAMLSyntaxError)?.problem.contains("aliases expand") == true)
        }
    }

    func testInvalidUTF8IsASyntaxErrorNotACrash() {
        XCTAssertThrowsError(try YAMLLoader.load([0x61, 0x3A, 0x20, 0xFF, 0xFE]))
    }
}

extension YAMLLoaderTests {
    /// A `!!str` tag is found where the text has it, after text outside ASCII too: libyaml
    /// counts a node's place in characters, not bytes.
    func testAStringTagAfterTextOutsideASCII() throws {
        let text = "a: \"héllo wörld ✓ 𝄞\"\nb: !!str 12\nc: 12\nd: '!x'\ne: x!\n"
        guard case .mapping(let pairs)? = try YAMLLoader.load(Array(text.utf8))?.content else {
            return XCTFail("not a mapping")
        }
        let styles = pairs.map { pair -> String in
            guard case .scalar(_, let style) = pair.value.content else { return "?" }
            return "\(style)"
        }
        XCTAssertEqual(styles, ["quoted", "tagged", "plain", "quoted", "plain"])
    }
}
