import MoyaRegex
import XCTest

final class RegularExpressionTests: XCTestCase {
    /// Searching: what each piece of the syntax matches, as ECMA-262 says.
    func testSearchMatchesAsECMAScriptDoes() throws {
        let cases: [(pattern: String, text: String, matches: Bool)] = [
            ("^H", "Harry", true), ("^H", "harry", false), ("^H", "", false),
            ("ar+y$", "Harry", true), ("^$", "", true), ("a|b", "xbx", true),
            ("^a{2,3}$", "aaa", true), ("^a{2,3}$", "aaaa", false), ("^a{2,}$", "aaaaa", true),
            ("x{", "x{", true), ("^\\d+$", "123", true), ("^\\d+$", "١٢٣", false),
            ("^\\w+$", "snake_case9", true), ("^\\s$", "\u{3000}", true), ("^.$", "\n", false),
            ("^[^a-c]$", "d", true), ("^[^a-c]$", "b", false), ("^[\\d-]+$", "12-3", true),
            ("^\\p{Lu}\\p{Ll}+$", "Émile", true), ("^\\P{L}$", "1", true), ("\\u0041", "A", true),
            ("\\u{1F600}", "😀", true), ("^\\x41$", "A", true), ("\\cJ", "\n", true), ("^\\.$", ".", true),
            ("\\bcat\\b", "a cat!", true), ("\\bcat\\b", "concat", false), ("\\Bcat", "concat", true),
            ("^(a+)+$", String(repeating: "a", count: 30) + "!", false),
            ("(?i)^straße$", "STRAßE", true), ("(?i)[a-z]+", "ABC", true),
            ("^(?:ab)*c$", "ababc", true), ("^(a*)*b$", "aaab", true), ("^(a*)*b$", "aaa", false),
        ]
        for item in cases {
            let regex = try RegularExpression(item.pattern)
            XCTAssertEqual(try regex.matches(in: item.text), item.matches, "/\(item.pattern)/ on \(item.text)")
        }
    }

    /// Back-references and lookaround backtrack; the rest never does.
    func testBackReferencesAndLookaround() throws {
        let cases: [(pattern: String, text: String, matches: Bool)] = [
            ("^(\\w+) \\1$", "bye bye", true), ("^(\\w+) \\1$", "bye hi", false),
            ("^(?<word>\\w+)-\\k<word>$", "ab-ab", true), ("(?i)^(a)\\1$", "aA", true),
            ("^(?=.*\\d)(?=.*[a-z]).{6,}$", "abc123", true), ("^(?=.*\\d)(?=.*[a-z]).{6,}$", "abcdef", false),
            ("^(?!admin$)\\w+$", "admin", false), ("^(?!admin$)\\w+$", "admins", true),
            ("(?<=\\$)\\d+", "cost: $42", true), ("(?<=\\$)\\d+", "cost: 42", false), ("(?<!-)\\b\\d+", "-4", false),
            ("^(a*)*\\1b$", "aab", true),
        ]
        for item in cases {
            let regex = try RegularExpression(item.pattern)
            XCTAssertTrue(regex.backtracks, item.pattern)
            XCTAssertEqual(try regex.matches(in: item.text), item.matches, "/\(item.pattern)/ on \(item.text)")
        }
        XCTAssertFalse(try RegularExpression("^(a+)+$").backtracks)
        XCTAssertFalse(try RegularExpression("\\bword\\b").backtracks)
    }

    /// Groups are the ones a backtracking engine reports: the preferred alternative, greedy or
    /// lazy as written, whichever matcher runs.
    func testGroupsAreLeftmostFirst() throws {
        let cases: [(pattern: String, text: String, groups: [String?])] = [
            ("(a|ab)(c|bcd)(d*)", "abcd", ["abcd", "a", "bcd", ""]),
            ("/users/(\\d+)$", "/api/users/42", ["/users/42", "42"]),
            ("a(b+?)", "abbb", ["ab", "b"]), ("a(b+)", "abbb", ["abbb", "bbb"]),
            ("(x)?y", "y", ["y", nil]), ("(?<id>\\d+)", "id 7", ["7", "7"]),
            ("(\\w)\\1", "abccd", ["cc", "c"]), ("(?=(\\w+))\\w", "hey", ["h", "hey"]),
            ("é(.)", "café!", ["é!", "!"]),
        ]
        for item in cases {
            let match = try XCTUnwrap(try RegularExpression(item.pattern).firstMatch(in: item.text), item.pattern)
            XCTAssertEqual(match.groups.map { $0.map(String.init) }, item.groups, "/\(item.pattern)/ on \(item.text)")
        }
        XCTAssertNil(try RegularExpression("z").firstMatch(in: "abc"))
    }

    func testWholeMatch() throws {
        XCTAssertTrue(try RegularExpression("a.c").matchesWhole("abc"))
        XCTAssertFalse(try RegularExpression("a.c").matchesWhole("abcd"))
        XCTAssertFalse(try RegularExpression("b").matchesWhole("abc"))
        XCTAssertTrue(try RegularExpression("(a|ab)c").matchesWhole("abc"))
        XCTAssertTrue(try RegularExpression("(\\w+)-\\1").matchesWhole("ab-ab"))
    }

    /// A backtracking pattern stops at a count of steps: the same answer every time, on any
    /// machine, with the step count in the message.
    func testABacktrackingPatternRunsOutOfStepsTheSameWayEveryTime() throws {
        let regex = try RegularExpression("^(?=(a|aa)+b)")
        let text = String(repeating: "a", count: 60)
        let limit = RegularExpression.stepLimit(forLength: 60)
        for _ in 0..<3 {
            XCTAssertThrowsError(try regex.matches(in: text)) { error in
                XCTAssertEqual(
                    "\(error)", "the pattern /^(?=(a|aa)+b)/ backtracks past \(limit) steps on this value; simplify it")
            }
        }
        // A long text that matches nothing is still searched in full at every start.
        let long = String(repeating: "ab ", count: 20_000)
        XCTAssertFalse(try RegularExpression("(\\w+)\\1\\1").matches(in: long))
    }

    /// Compiling says what is wrong and where.
    func testSyntaxErrorsSayWhatAndWhere() {
        let cases: [(String, String)] = [
            ("(", "an unclosed '(' at offset 1"),
            (")", "an unmatched ')' at offset 0"),
            ("[a", "an unclosed '[' at offset 2"),
            ("a**", "'*' follows another quantifier at offset 3"),
            ("*", "'*' has nothing to repeat at offset 1"),
            ("a{3,1}", "{3,1} is backwards at offset 6"),
            ("(a)\\2", "\\2 refers to a group that does not exist"),
            ("\\k<x>", "\\k<x> names no group"),
            ("[z-a]", "a backwards range at offset 4"),
            ("\\q", "'\\q' is not an escape this engine knows at offset 2"),
            ("(?x)a", "an unknown group '(?x' at offset 3"),
            ("\\p{Greek}", "'Greek' is not a Unicode general category at offset 8"),
            ("a{1000}{2}", "'{' follows another quantifier at offset 10"),
            (String(repeating: "(", count: 70), "groups nest too deeply at offset 65"),
            ("(a{1000}){30}", "the pattern is too large: over 20000 steps"),
        ]
        for (pattern, message) in cases {
            XCTAssertThrowsError(try RegularExpression(pattern), pattern) { error in
                XCTAssertEqual("\(error)", message, pattern)
            }
        }
        // A reference to a group that opens later is allowed, and reads nothing.
        XCTAssertTrue(try RegularExpression("^\\1(a)$").matches(in: "a"))
    }
}
