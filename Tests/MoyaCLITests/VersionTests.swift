import Foundation
import MoyaCLI
import MoyaRuntime
import XCTest

/// The version lives in `Version.current`; `--version`, the man page and the changelog must
/// all say the same.
final class VersionTests: XCTestCase {
    func testVersionPrintsTheOneVersion() async {
        let (status, out, error) = await CommandTests.run(["--version"])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(out, Version.current + "\n")
    }

    func testTheManPageAndChangelogAgree() throws {
        let changelog = try String(contentsOfFile: CommandTests.root + "/CHANGELOG.md", encoding: .utf8)
        let heading = changelog.split(separator: "\n").first { $0.hasPrefix("## ") }
        XCTAssertEqual(heading.map(String.init), "## \(Version.current) (unreleased)")
        let page = try String(contentsOfFile: CommandTests.root + "/man/moya-cli.1", encoding: .utf8)
        XCTAssertTrue(page.contains("\n.Os moya-cli \(Version.current)\n"), "the man page's footer names the version")
    }
}
