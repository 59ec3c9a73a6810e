import Foundation
import TestSupport
import XCTest

/// `call SERVICE.TARGET --<TAB>` in bash, zsh and fish: each shell loads the script the
/// built moya-cli writes, is given a command line, and what it offers is compared.
final class ShellCompletionTests: XCTestCase {
    /// A spec with one param of each kind completion treats apart.
    static let spec = """
        service: hb
        baseURL: http://127.0.0.1:9
        targets:
          get:
            path: /get
            params:
              page: { type: int, description: Which page }
              format: { enum: { json: j, xml: x }, optional: true }
              verbose: { type: bool, optional: true }
              tags: { type: "[string]", optional: true }
              key: { type: string, optional: true }
            task:
              parameters: { page: "{page}", format: "{format}", verbose: "{verbose}", tags: "{tags}", key: "{key}" }
            sample: "{}"

        """

    private var folder = ""

    override func setUp() async throws {
        folder = NSTemporaryDirectory() + "completion-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/zsh", withIntermediateDirectories: true)
        try Self.spec.write(toFile: folder + "/hb.yaml", atomically: true, encoding: .utf8)
        for (shell, file) in [("bash", "moya-cli.bash"), ("zsh", "zsh/_moya-cli"), ("fish", "moya-cli.fish")] {
            let (status, script, _) = await CommandTests.run(["--generate-completion-script", shell])
            XCTAssertEqual(status, 0, shell)
            try script.write(toFile: folder + "/" + file, atomically: true, encoding: .utf8)
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    func testBashOffersATargetsParams() throws {
        let complete = { (line: String) in
            try self.offered([
                "bash", Repository.fixtures + "/completion/complete.bash", self.folder + "/moya-cli.bash", line,
            ])
        }
        try expectParams(complete)
    }

    func testZshOffersATargetsParams() throws {
        let zsh = try Self.shell("zsh")
        let complete = { (line: String) in
            try self.offered([zsh, "-f", Repository.fixtures + "/completion/complete.zsh", self.folder + "/zsh", line])
        }
        try expectParams(complete)
    }

    func testFishOffersATargetsParams() throws {
        let fish = try Self.shell("fish")
        let complete = { (line: String) in
            try self.offered([
                fish, "--no-config", "-c", "source $argv[1]; complete -C $argv[2]", self.folder + "/moya-cli.fish",
                line,
            ])
        }
        try expectParams(targetNames: false, complete)
        // fish shows each param's type and description beside it.
        let lines = try offered(
            [
                fish, "--no-config", "-c", "source $argv[1]; complete -C $argv[2]", folder + "/moya-cli.fish",
                "moya-cli call hb.get --specs hb.yaml --pa",
            ],
            keepingDescriptions: true)
        XCTAssertEqual(lines, ["--page\tint, required: Which page"])
    }

    /// What every shell offers: the params not given yet (an array's again) beside `call`'s
    /// options, an enum's keys and a bool's values after its name, and nothing for a param
    /// that shares an option's name (`key`, given as key=VALUE).
    private func expectParams(targetNames: Bool = true, _ complete: (String) throws -> [String]) throws {
        let call = "moya-cli call hb.get --specs hb.yaml "
        XCTAssertEqual(try complete(call + "--f").sorted(), ["--file-root", "--force", "--form", "--format"])
        XCTAssertEqual(try complete(call + "--t").sorted(), ["--tags", "--timeout"])
        XCTAssertEqual(try complete(call + "--format "), ["json", "xml"])
        XCTAssertEqual(try complete(call + "--verbose t"), ["true"])
        let offered = try complete(call + "--page 2 --tags a --")
        for param in ["--format", "--verbose", "--tags", "--stub", "--dry-run"] {
            XCTAssertTrue(offered.contains(param), "\(param) in \(offered)")
        }
        XCTAssertFalse(offered.contains("--page"), "\(offered)")
        XCTAssertEqual(offered.filter { $0 == "--key" }.count, 1, "\(offered)")
        // The target's name is still completed from the specs. (fish 3.6 cannot run the
        // argument parser's target completion under `complete -C`, only at a prompt.)
        if targetNames {
            XCTAssertEqual(try complete("moya-cli call --specs hb.yaml hb.g"), ["hb.get"])
        }
    }

    /// What a shell prints for a command line, run in the spec's folder with the built
    /// moya-cli first on PATH; fish's descriptions are dropped unless kept.
    private func offered(_ command: [String], keepingDescriptions: Bool = false) throws -> [String] {
        let bin = CommandTests.executable.deletingLastPathComponent().path
        let (status, out, error) = try CommandTests.runProcess(
            ["30"] + command, environment: ["PATH": bin + ":/usr/bin:/bin", "HOME": folder],
            at: URL(fileURLWithPath: "/usr/bin/timeout"), in: folder)
        XCTAssertEqual(status, 0, error)
        return out.split(separator: "\n").map { line in
            keepingDescriptions ? String(line) : String(line.prefix { $0 != "\t" })
        }
    }

    /// A shell's path; missing, the test is skipped, or fails where CI sets
    /// MOYA_SHARED_REQUIRED and has installed it.
    private static func shell(_ name: String) throws -> String {
        let path = "/usr/bin/" + name
        if FileManager.default.isExecutableFile(atPath: path), !Repository.optionalAbsent { return path }
        let message = "\(name) is not installed; its completion is not tried"
        if ProcessInfo.processInfo.environment["MOYA_SHARED_REQUIRED"] != nil, !Repository.optionalAbsent {
            XCTFail(message)
        }
        throw XCTSkip(message)
    }
}
