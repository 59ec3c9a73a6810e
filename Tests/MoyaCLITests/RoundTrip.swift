import MoyaCLI
import XCTest

extension XCTestCase {
    /// import(document) == import(export(import(document))), but for the first comment line,
    /// which names the document read, and for where each schema `$ref` points: every schema
    /// must come back, but the exported document holds it at a place of its own (an
    /// operation's, not a shared response's). `spec` is the first import's spec file,
    /// where the caller has written it.
    func assertRoundTrip(
        _ document: String, spec: String? = nil, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let directory = NSTemporaryDirectory() + "roundtrip-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: directory + "/specs", withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        let written: String
        if let spec {
            written = spec
        } else {
            written = directory + "/specs/imported.yaml"
            let (status, _, error) = await CommandTests.run(["import", "openapi", document, "-o", written])
            XCTAssertEqual(status, 0, error, file: file, line: line)
        }
        let first = try String(contentsOfFile: written, encoding: .utf8)
        let service = String(first.firstMatch(of: /\nservice: (\w+)\n/)?.1 ?? "")

        let exported = directory + "/exported.json"
        let (exportStatus, _, exportError) = await CommandTests.run([
            "export", "openapi", service, "--specs", (written as NSString).deletingLastPathComponent, "-o", exported,
        ])
        XCTAssertEqual(exportStatus, 0, exportError, file: file, line: line)
        let (again, second, againError) = await CommandTests.run(["import", "openapi", exported])
        XCTAssertEqual(again, 0, againError, file: file, line: line)
        func lines(_ spec: String) -> [Substring] {
            spec.replacing(/\$ref: ("[^"]*"|[^\s}]*)/, with: "$ref: ...")
                .split(separator: "\n", omittingEmptySubsequences: false).dropFirst().map { $0 }
        }
        let (firstLines, secondLines) = (lines(first), lines(second))
        // The first line that differs, rather than two whole specs of the corpus's size.
        let differing = zip(firstLines, secondLines).first { $0 != $1 }
        XCTAssertTrue(
            firstLines.count == secondLines.count && differing == nil,
            "\(document): the round trip differs: \(differing.map { "\($0)\n\($1)" } ?? "in length")",
            file: file, line: line)
    }
}
