import MoyaCLI
import XCTest

extension XCTestCase {
    /// The imported check of `target` holds against the server, and fails once `expected` in
    /// the spec at `folder/specs/shop.yaml` is replaced by `other`: the assertions an import
    /// carries are run, and can fail.
    func assertImportedCheckHoldsAndCanFail(
        _ target: String, folder: String, replacing expected: String, with other: String,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let path = folder + "/specs/shop.yaml"
        let arguments = ["check", "specs/shop.yaml", "--env", "local", "--only", target]
        let (checked, report, checkError) = await CommandTests.run(arguments, in: folder)
        XCTAssertEqual(checked, 0, report + checkError, file: file, line: line)
        let spec = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(spec.contains(expected), spec, file: file, line: line)
        try spec.replacing(expected, with: other).write(toFile: path, atomically: true, encoding: .utf8)
        let (failed, failure, _) = await CommandTests.run(arguments, in: folder)
        XCTAssertEqual(failed, 1, failure, file: file, line: line)
    }
}
