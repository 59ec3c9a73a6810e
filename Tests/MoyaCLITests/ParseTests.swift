import ArgumentParser
import MoyaCore
import MoyaRuntime
import XCTest

@testable import MoyaCLI

/// `MoyaCLI.parse` parses a line that starts with a subcommand by that subcommand alone. It
/// must give the very command the root parse gives, and leave everything else to the root.
final class ParseTests: XCTestCase {
    func testSubcommandLinesParseDirectlyToWhatTheRootGives() throws {
        let lines: [[String]] = [
            ["call", "myservice.showUser", "--id", "1", "--stub", "immediate"],
            ["call", "myservice.showUser", "id=1", "-vv", "--timeout", "2", "-o", "user.json", "--", "--raw"],
            [
                "call", "svc.target", "--name", "a", "--name", "b", "-H", "X-A: 1", "--retry", "2", "--retry-all",
                "--pin", "sha256//47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=", "--color", "never", "-i", "--specs",
                "one", "--specs", "two",
            ],
            ["call", "svc.target", "--sample", "unauthorized", "--dry-run", "--show-secrets", "--curl"],
            [
                "check", "specs", "--only", "myservice.*", "--parallel", "3", "--shard", "1/2", "--junit", "r.xml",
                "--bail", "--stub", "immediate",
            ],
            ["validate", "a.yaml", "b.yaml"],
            ["list", "myservice", "--json"],
            ["describe", "myservice.showUser", "--json", "--specs", "specs"],
        ]
        for line in lines {
            let text = line.joined(separator: " ")
            let direct = try XCTUnwrap(MoyaCLI.parseDirectly(line), text)
            let root = try MoyaCommand.parseAsRoot(line)
            XCTAssertTrue(type(of: direct) == type(of: root), text)
            XCTAssertEqual(dumped(direct), dumped(root), text)
        }
    }

    func testBuiltInOutputIsLeftToTheRoot() throws {
        for line in [
            ["call", "svc.target", "--version"], ["call", "svc.target", "--help"], ["call", "-h"],
            ["check", "--generate-completion-script", "bash"], ["check", "--generate-completion-script=zsh"],
            ["list", "--experimental-dump-help"], ["help", "call"], ["--version"],
        ] {
            XCTAssertNil(MoyaCLI.parseDirectly(line), line.joined(separator: " "))
        }
        // After `--`, the same words are params.
        XCTAssertNotNil(MoyaCLI.parseDirectly(["call", "svc.target", "--", "--version"]))
        XCTAssertThrowsError(try MoyaCLI.parse(["call", "svc.target", "--version"])) { error in
            XCTAssertEqual(MoyaCommand.fullMessage(for: error), Version.current)
        }
    }

    func testRejectedLinesReadAsFromTheRoot() {
        for line in [["call"], ["call", "svc.target", "--timeout", "soon"], ["check", "--parallel", "0"]] {
            let text = line.joined(separator: " ")
            XCTAssertNil(MoyaCLI.parseDirectly(line), text)
            XCTAssertThrowsError(try MoyaCLI.parse(line), text) { error in
                let message = MoyaCommand.fullMessage(for: error)
                XCTAssertTrue(message.contains("moya-cli \(line[0])"), message)
                XCTAssertEqual(message, self.rootMessage(line), text)
            }
        }
    }

    private func rootMessage(_ line: [String]) -> String {
        do {
            _ = try MoyaCommand.parseAsRoot(line)
            return ""
        } catch {
            return MoyaCommand.fullMessage(for: error)
        }
    }

    private func dumped(_ command: any ParsableCommand) -> String {
        var text = ""
        dump(command, to: &text)
        return text
    }

    func testOnlyALiveCallWarmsTheTransport() throws {
        XCTAssertTrue(CallCommand.mayGoLive(["call", "svc.target", "--id", "1"], environment: [:]))
        XCTAssertTrue(
            CallCommand.mayGoLive(["call", "svc.target", "--", "--stub", "x"], environment: [:]), "after --, a param")
        for line in [
            ["call", "svc.target", "--stub", "immediate"], ["call", "svc.target", "--stub=immediate"],
            ["call", "svc.target", "--sample", "missing"], ["call", "svc.target", "--dry-run"],
            ["call", "svc.target", "--help"], ["check", "specs"], ["validate"], [],
        ] {
            XCTAssertFalse(CallCommand.mayGoLive(line, environment: [:]), line.joined(separator: " "))
        }
        // A spec's own `stub:` is read from its top-level lines, in a directory or a file.
        let directory = NSTemporaryDirectory() + "warm-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        for (name, stub) in [("offline", "immediate  # no server"), ("slow", "{ delayed: 1 }"), ("live", "never")] {
            try "service: \(name)\nbaseURL: https://x.test\nstub: \(stub)\ntargets:\n  t: { path: /t }\n".write(
                toFile: "\(directory)/\(name).yaml", atomically: true, encoding: .utf8)
        }
        let file = directory + "/offline.yaml"
        XCTAssertFalse(CallCommand.mayGoLive(["call", "offline.t", "--specs", directory], environment: [:]))
        XCTAssertFalse(CallCommand.mayGoLive(["call", "--specs", file, "offline.t"], environment: [:]))
        XCTAssertFalse(CallCommand.mayGoLive(["call", "slow.t"], environment: ["MOYA_CLI_SPECS": directory]))
        XCTAssertTrue(CallCommand.mayGoLive(["call", "live.t", "--specs", directory], environment: [:]))
        XCTAssertTrue(CallCommand.mayGoLive(["call", "other.t", "--specs", file], environment: [:]))
    }
}
