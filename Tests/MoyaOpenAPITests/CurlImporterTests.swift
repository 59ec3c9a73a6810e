import Foundation
import TestSupport
import XCTest

@testable import MoyaOpenAPI

/// `import curl`'s reading of shell text, held to bash's: bash runs each file with `curl`
/// defined as a function that prints its arguments, so the words bash would hand curl are
/// compared with the words the importer reads. And every curl command of Insomnia's importer
/// fixtures is accounted for: a target, or a line saying why not.
final class CurlImporterTests: XCTestCase {
    /// Tricky shell text a user pastes: quotes of every kind, continuations, comments,
    /// separators, ANSI-C escapes.
    static let texts = [
        #"curl 'a b' "c \"d\" \$e" f\ g"#,
        "curl -H $'X: it\\'s\\t\\x41\\u00e9\\n' \\\n  --data-raw '{\"k\": [1]}' # a comment\ncurl x;curl y",
        #"curl "https://h/p?q=1&r=2" -d 'a=1' && curl -X PUT https://h/q"#,
        "curl -u 'ann:pw' https://h/\ncurl -F 'f=@x.txt;type=text/plain' https://h/up",
        #"curl $'\101\x42' '' """#,
    ]

    func testWordsAreBashs() throws {
        try Repository.requirePrograms(["bash"])
        var texts = Self.texts
        if let fixtures = try? Repository.shared("collections", variable: "MOYA_COLLECTIONS") {
            let folder = fixtures + "/insomnia-fixtures/curl"
            for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() {
                texts.append(try String(contentsOfFile: folder + "/" + name, encoding: .utf8))
            }
        }
        for text in texts {
            let expected = try Self.bashWords(text)
            let commands = ShellWords.commands(text).commands.filter { $0.words.first?.text == "curl" }
            XCTAssertEqual(commands.map { $0.words.dropFirst().map(\.text) }, expected, text)
        }
    }

    /// One difference from bash, on purpose: a file saved with CRLF line ends reads as if
    /// it had LF ones, where bash would keep each `\r` in the line's last word.
    func testCarriageReturnsEndLines() {
        let commands = ShellWords.commands("curl -u 'ann:pw' https://h/\r\ncurl https://h/up\r\n").commands
        XCTAssertEqual(
            commands.map { $0.words.map(\.text) }, [["curl", "-u", "ann:pw", "https://h/"], ["curl", "https://h/up"]])
        XCTAssertEqual(commands.map(\.line), [1, 2])
    }

    /// The arguments of each `curl` in `text` as bash passes them.
    static func bashWords(_ text: String) throws -> [[String]] {
        let script = #"curl() { for a in "$@"; do printf '%s\0' "$a"; done; printf '\1'; }; echo() { :; }; "#
        let file = NSTemporaryDirectory() + "curl-words-\(getpid()).sh"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = try Launch.run(
            URL(fileURLWithPath: "/bin/bash"), ["-c", script + "source " + file], environment: ["LC_ALL": "C.UTF-8"])
        return run.out.split(separator: "\u{1}", omittingEmptySubsequences: false).dropLast().map { record in
            record.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
    }

    /// Every request of Insomnia's curl fixtures is a target or a line of the report, and each
    /// target's method, URL and body are those of Insomnia's expected output.
    func testInsomniasFixturesAreAccountedFor() throws {
        let shared = try Repository.shared("collections", variable: "MOYA_COLLECTIONS")
        let inputs = shared + "/insomnia-fixtures/curl"
        let outputs = shared + "/insomnia-fixtures/outputs-2024-03/curl"
        let names = try FileManager.default.contentsOfDirectory(atPath: inputs).filter { $0.hasSuffix("-input.sh") }
        XCTAssertEqual(names.count, 14)
        for name in names.sorted() {
            let stem = name.dropLast("-input.sh".count).replacing("skip-squished", with: "squished")
            let text = try String(contentsOfFile: inputs + "/" + name, encoding: .utf8)
            let result = CurlImporter.importText(text, file: name, service: "t")
            let data = try Data(contentsOf: URL(fileURLWithPath: outputs + "/\(stem)-output.json"))
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let requests = (object["resources"] as? [[String: Any]] ?? []).filter {
                $0["_type"] as? String == "request"
            }
            // No silent drop: each request Insomnia reads is a target or a reported line.
            let reported = result.report.notCarried.filter { $0.what == "request" }.count
            XCTAssertEqual(result.report.targets + reported, requests.count, "\(name): \(result.report.lines)")
            var methods: [String] = []
            for request in requests where (request["url"] as? String ?? "") != "" {
                methods.append(request["method"] as? String ?? "")
            }
            let written = result.spec.split(separator: "\n").filter { $0.hasPrefix("    method: ") }.count
            XCTAssertEqual(methods.filter { $0 != "GET" }.count, written, "\(name):\n\(result.spec)")
        }
    }
}
