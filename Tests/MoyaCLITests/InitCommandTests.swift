import Foundation
import TestSupport
import XCTest

/// `moya-cli init`: a first spec written into the user's spec folder, which a call then sends
/// from any folder; or the example specs copied there, as `make install` puts them beside
/// moya-cli (here `MOYA_CLI_EXAMPLES`, the repository's `specs`); nothing overwritten.
final class InitCommandTests: XCTestCase {
    var home = ""

    override func setUpWithError() throws {
        home = NSTemporaryDirectory() + "moya-cli-init-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: home)
    }

    func testAFirstSpecIsWrittenAndCalled() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let environment = ["HOME": home, "XDG_CONFIG_HOME": ""]
        let (status, out, error) = await CommandTests.run(
            ["init", "shop", "--base-url", server.baseURL + "/echo"], environment: environment)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(out, "")
        let file = home + "/.config/moya-cli/specs/shop.yaml"
        XCTAssertEqual(
            error,
            "moya-cli: wrote \(file)\nnext: moya-cli call shop.root, then add targets (docs/tutorial.md), or save a "
                + "request with moya-cli call \(server.baseURL)/echo/PATH --save shop.NAME\n")
        XCTAssertEqual(
            try String(contentsOfFile: file, encoding: .utf8),
            """
            # A first spec: `moya-cli call shop.root` sends GET / to the base URL. Add targets
            # below (docs/spec-format.md), or save requests into this file with
            # `moya-cli call URL ... --save shop.NAME`.
            service: shop
            baseURL: "\(server.baseURL)/echo"
            targets:
              root:
                summary: The API's root
                path: /

            """)
        let (called, echo, callError) = await CommandTests.run(["call", "shop.root"], environment: environment)
        XCTAssertEqual(called, 0, callError)
        XCTAssertTrue(echo.contains(#""uri":"\/echo\/""#), echo)

        // Nothing is overwritten, and a base URL the compiler refuses writes nothing.
        let (again, _, againError) = await CommandTests.run(
            ["init", "shop", "--base-url", "https://other.example"], environment: environment)
        XCTAssertEqual(again, 73)
        XCTAssertEqual(againError, "moya-cli: error: \(file) is there already; --force replaces it\n")
        let (bad, _, badError) = await CommandTests.run(
            ["init", "bad", "--base-url", "ftp://x"], environment: environment)
        XCTAssertEqual(bad, 64)
        XCTAssertTrue(badError.hasSuffix("moya-cli: error: init bad: nothing was written\n"), badError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/.config/moya-cli/specs/bad.yaml"))
        let (half, _, halfError) = await CommandTests.run(["init", "shop2"], environment: environment)
        XCTAssertEqual(half, 64)
        XCTAssertEqual(halfError, "moya-cli: error: init SERVICE needs --base-url URL, and --base-url a SERVICE\n")
    }

    func testTheExamplesAreCopiedAndTheReadmesExampleWorks() async throws {
        let folder = home + "/.config/moya-cli/specs"
        let environment = ["HOME": home, "XDG_CONFIG_HOME": "", "MOYA_CLI_EXAMPLES": CommandTests.root + "/specs"]
        let (status, _, error) = await CommandTests.run(["init"], environment: environment)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(
            error,
            "moya-cli: wrote accounts.json, github.yaml, httpbin.yaml, myservice.yaml, translator.yaml in \(folder)\n"
                + "next: moya-cli list, then moya-cli call myservice.showUser --id 1 --stub immediate\n")
        for name in ["accounts.json", "github.yaml", "httpbin.yaml", "myservice.yaml", "translator.yaml"] {
            XCTAssertEqual(
                FileManager.default.contents(atPath: folder + "/" + name),
                FileManager.default.contents(atPath: CommandTests.root + "/specs/" + name), name)
        }
        let (called, out, callError) = await CommandTests.run(
            ["call", "myservice.showUser", "--id", "1", "--stub", "immediate"], environment: environment, in: home)
        XCTAssertEqual(called, 0, callError)
        XCTAssertEqual(out, #"{"id":1,"first_name":"Harry","last_name":"Potter"}"#)
        // README's first examples, from a folder that is not the repository's: all but the live
        // ones and serve, which runs until stopped.
        let readme = try String(contentsOfFile: CommandTests.root + "/README.md", encoding: .utf8)
        let block = try XCTUnwrap(readme.split(separator: "```sh\n").dropFirst().first?.split(separator: "```").first)
        let lines = block.split(separator: "\n").filter { !$0.contains("# live") && !$0.contains("live API") }
        XCTAssertEqual(lines.count, 8, "\(lines)")
        for line in lines where !line.hasPrefix("moya-cli serve") {
            let command = line.split(separator: "#").first ?? line
            let words = command.split(separator: " ").dropFirst().map(String.init)
            let (ran, _, ranError) = await CommandTests.run(words, environment: environment, in: home)
            XCTAssertEqual(ran, 0, "\(line): \(ranError)")
        }
        // A second run keeps what is there.
        try "# mine\n".write(toFile: folder + "/github.yaml", atomically: true, encoding: .utf8)
        let (again, _, againError) = await CommandTests.run(["init"], environment: environment)
        XCTAssertEqual(again, 0, againError)
        XCTAssertTrue(againError.contains("moya-cli: kept \(folder)/github.yaml: it is there already"), againError)
        XCTAssertEqual(try String(contentsOfFile: folder + "/github.yaml", encoding: .utf8), "# mine\n")
        // Without examples beside moya-cli, it says where they would be.
        let (none, _, noneError) = await CommandTests.run(
            ["init"], environment: ["HOME": home, "MOYA_CLI_EXAMPLES": home + "/nowhere"])
        XCTAssertEqual(none, 66)
        XCTAssertTrue(noneError.contains("no example specs beside moya-cli"), noneError)
    }
}
