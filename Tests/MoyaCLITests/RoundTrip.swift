import MoyaCLI
import XCTest

extension XCTestCase {
    /// import(document) == import(export(import(document))), but for the first comment line,
    /// which names the document read. `imported` is the first import's spec, where the
    /// caller has it.
    func assertRoundTrip(
        _ document: String, imported: String? = nil, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let directory = NSTemporaryDirectory() + "roundtrip-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        let first: String
        if let imported {
            first = imported
        } else {
            let (status, written, error) = try CommandTests.runProcess(["import", "openapi", document])
            XCTAssertEqual(status, 0, error, file: file, line: line)
            first = written
        }
        let service = String(first.firstMatch(of: /\nservice: (\w+)\n/)?.1 ?? "")
        try first.write(toFile: directory + "/\(service).yaml", atomically: true, encoding: .utf8)

        let exported = directory + "/exported.json"
        let (exportStatus, _, exportError) = try CommandTests.runProcess([
            "export", "openapi", service, "--specs", directory, "-o", exported,
        ])
        XCTAssertEqual(exportStatus, 0, exportError, file: file, line: line)
        let (again, second, againError) = try CommandTests.runProcess(["import", "openapi", exported])
        XCTAssertEqual(again, 0, againError, file: file, line: line)
        let firstLines = first.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
        let secondLines = second.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
        // The first line that differs, rather than two whole specs of the corpus's size.
        let differing = zip(firstLines, secondLines).first { $0 != $1 }
        XCTAssertTrue(
            firstLines.count == secondLines.count && differing == nil,
            "\(document): the round trip differs: \(differing.map { "\($0)\n\($1)" } ?? "in length")",
            file: file, line: line)
    }
}
