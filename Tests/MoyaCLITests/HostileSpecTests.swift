import Foundation
import MoyaCLI
import MoyaCore
import TestSupport
import XCTest

/// A spec is code from someone else (a cloned repository's `specs/`): the files it reads and
/// writes stay in its folder, and it reads none of the user's environment until the user
/// trusts its folder. Each test takes the path a user takes.
final class HostileSpecTests: XCTestCase {
    var server: TestServer!
    var folder = ""

    override func setUpWithError() throws {
        server = try TestServer()
        folder = NSTemporaryDirectory() + "moya-cli-hostile-spec-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/repo/specs", withIntermediateDirectories: true)
    }

    override func tearDown() {
        server.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    func write(_ text: String, to path: String) throws {
        try text.write(toFile: folder + "/" + path, atomically: true, encoding: .utf8)
    }

    func read(_ path: String) -> String? {
        try? String(contentsOfFile: folder + "/" + path, encoding: .utf8)
    }

    /// The message a path outside the spec's folder gets.
    func outside(_ written: String, _ resolved: String) -> String {
        "\(folder)/repo/specs/\(written) (\(resolved)) is outside \(folder)/repo/specs, the spec's folder, where "
            + "the files a spec reads and writes must be; --file-root DIR allows another folder"
    }

    // MARK: - The file root

    /// Every file a spec names, read or written, must be in its folder: a body, an upload, a
    /// multipart file, a sample, a schema's `$ref` and a download. Refused where it is written,
    /// naming the flag that would allow it, before anything is sent.
    func testTheFilesASpecNamesStayInItsFolder() async throws {
        try write("secret", to: "repo/private.txt")
        try write("{}", to: "repo/outside.json")
        let spec = folder + "/repo/specs/evil.yaml"
        try write(
            """
            service: evil
            baseURL: \(server.baseURL)
            targets:
              send:
                method: POST
                task: { data: { file: ../private.txt } }
              up:
                method: POST
                task: { upload: /etc/passwd }
              parts:
                method: POST
                task: { multipart: [ { name: f, file: ../private.txt } ] }
              sample:
                sample: { file: ../private.txt }
              schema:
                schema: { $ref: ../outside.json }
              save:
                task: { download: ../../x.bin }

            """, to: "repo/specs/evil.yaml")
        let (status, out, error) = await CommandTests.run(["validate", spec])
        XCTAssertEqual(status, 65)
        XCTAssertEqual(out, "")
        XCTAssertEqual(
            error,
            [
                "\(spec):6:27: error: targets.send.task.data.file: "
                    + outside("../private.txt", "\(folder)/repo/private.txt"),
                "\(spec):9:21: error: targets.up.task.upload: /etc/passwd is outside \(folder)/repo/specs, the spec's "
                    + "folder, where the files a spec reads and writes must be; --file-root DIR allows another folder",
                "\(spec):12:43: error: targets.parts.task.multipart[0].file: "
                    + outside("../private.txt", "\(folder)/repo/private.txt"),
                "\(spec):14:21: error: targets.sample.sample.file: "
                    + outside("../private.txt", "\(folder)/repo/private.txt"),
                "\(spec):16:13: error: targets.schema.schema: $ref: \(folder)/repo/outside.json is outside \(folder)/repo/specs, "
                    + "the spec's folder, where the files a spec reads and writes must be; --file-root DIR allows another folder",
                "\(spec):18:23: error: targets.save.task.download: " + outside("../../x.bin", "\(folder)/x.bin"),
                "moya-cli: error: invalid spec: 6 problems in 1 file",
            ].joined(separator: "\n") + "\n")

        // The user widens the root: the download then writes where the spec says.
        let saving = folder + "/repo/specs/save.yaml"
        try write(
            "service: save\nbaseURL: \(server.baseURL)\ntargets:\n  save:\n    path: /bytes/10\n"
                + "    task: { download: ../saved.bin }\n", to: "repo/specs/save.yaml")
        let (refused, _, refusal) = await CommandTests.run(["call", "save.save", "--specs", saving])
        XCTAssertEqual(refused, 65, refusal)
        XCTAssertNil(read("repo/saved.bin"))
        let (allowed, _, allowedError) = await CommandTests.run([
            "call", "save.save", "--specs", saving, "--file-root", folder + "/repo",
        ])
        XCTAssertEqual(allowed, 0, allowedError)
        XCTAssertEqual(FileManager.default.contents(atPath: folder + "/repo/saved.bin")?.count, 10)
    }

    /// Inside the root, a link is resolved before the check, a download never writes through
    /// one, and `/proc`, devices and FIFOs are never read, whatever root the user names.
    func testLinksProcAndFIFOsAreNeverFollowedOrRead() async throws {
        try write("keep", to: "repo/victim.txt")
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/repo/specs/out.bin", withDestinationPath: folder + "/repo/victim.txt")
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/repo/specs/inside.txt", withDestinationPath: folder + "/repo/victim.txt")
        XCTAssertEqual(mkfifo(folder + "/repo/specs/pipe.json", 0o600), 0)
        let spec = folder + "/repo/specs/links.yaml"
        try write(
            """
            service: links
            baseURL: \(server.baseURL)
            targets:
              save:
                path: /bytes/10
                task: { download: out.bin }
              linked:
                method: POST
                task: { data: { file: inside.txt } }
              environ:
                method: POST
                task: { data: { file: /proc/self/environ } }
              pipe:
                schema: { $ref: pipe.json }

            """, to: "repo/specs/links.yaml")
        let (status, _, error) = await CommandTests.run(["validate", spec, "--file-root", "/"])
        XCTAssertEqual(status, 65)
        let lines = error.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            lines,
            [
                "\(spec):6:23: error: targets.save.task.download: \(folder)/repo/specs/out.bin is a symbolic link, "
                    + "which a spec's file is never written through",
                "\(spec):12:27: error: targets.environ.task.data.file: /proc/self/environ is a file of /proc or /sys, "
                    + "which a spec never reads",
                "\(spec):14:13: error: targets.pipe.schema: $ref: pipe.json is a FIFO, not a regular file",
                "moya-cli: error: invalid spec: 3 problems in 1 file",
            ])
        XCTAssertEqual(read("repo/victim.txt"), "keep")
        // A link is judged by where it leads: out of the spec's folder, refused; inside the
        // root the user names, read.
        let (refused, _, refusal) = await CommandTests.run(["call", "links.linked", "--specs", spec])
        XCTAssertEqual(refused, 65)
        XCTAssertTrue(
            refusal.contains(
                "targets.linked.task.data.file: \(folder)/repo/specs/inside.txt (\(folder)/repo/victim.txt) is outside"),
            refusal)
        let (sent, out, sentError) = await CommandTests.run([
            "call", "links.linked", "--specs", spec, "--file-root", folder + "/repo",
        ])
        XCTAssertEqual(sent, 0, sentError)
        XCTAssertTrue(out.contains(#""body":"keep""#), out)
    }

    // MARK: - Trust

    /// `./specs` found in the working directory reads no set variable until the user trusts
    /// the folder, and again after a spec file changes; named with --specs, it is the user's.
    func testSpecsFoundInTheWorkingDirectoryReadNoEnvironmentUntilTrusted() async throws {
        try write(
            """
            service: gh
            baseURL: \(server.baseURL)
            auth: { bearer: "${GITHUB_TOKEN}" }
            targets:
              user:
                path: /user

            """, to: "repo/specs/gh.yaml")
        let repo = folder + "/repo"
        let environment = ["GITHUB_TOKEN": "ghp_users0wnToken", "XDG_STATE_HOME": folder + "/state", "HOME": folder]
        let reason =
            "./specs was found in the working directory and is not trusted, so its specs read no environment "
            + "variable; run 'moya-cli trust specs' once you have read them"
        let refusal =
            "specs/gh.yaml:3:17: error: auth.bearer: ${GITHUB_TOKEN}: \(reason)\nmoya-cli: error: \(reason)\n"
        let (refused, out, error) = await CommandTests.run(
            ["call", "gh.user", "--dry-run"], environment: environment, in: repo)
        XCTAssertEqual(refused, 77)
        XCTAssertEqual(out, "")
        XCTAssertEqual(error, refusal)

        // Named explicitly, the folder is the user's choice.
        let (named, namedOut, namedError) = await CommandTests.run(
            ["call", "gh.user", "--dry-run", "--specs", "specs"], environment: environment, in: repo)
        XCTAssertEqual(named, 0, namedError)
        XCTAssertTrue(namedOut.hasSuffix("Authorization: Bearer ${GITHUB_TOKEN}\n"), namedOut)

        let (trusted, _, trustError) = await CommandTests.run(["trust"], environment: environment, in: repo)
        XCTAssertEqual(trusted, 0)
        XCTAssertEqual(
            trustError,
            "moya-cli: trusted \(repo)/specs (1 spec file); its specs read the environment until one of them changes\n")
        let (sent, sentOut, sentError) = await CommandTests.run(
            ["call", "gh.user", "--dry-run"], environment: environment, in: repo)
        XCTAssertEqual(sent, 0, sentError)
        XCTAssertTrue(sentOut.hasSuffix("Authorization: Bearer ${GITHUB_TOKEN}\n"), sentOut)

        // A changed file asks again.
        try write(
            (read("repo/specs/gh.yaml") ?? "") + "  other:\n    path: /other\n", to: "repo/specs/gh.yaml")
        let (changed, _, changedError) = await CommandTests.run(
            ["call", "gh.user", "--dry-run"], environment: environment, in: repo)
        XCTAssertEqual(changed, 77)
        XCTAssertTrue(
            changedError.contains(
                "${GITHUB_TOKEN}: a spec in ./specs changed since you trusted the folder, so its specs read no "
                    + "environment variable; run 'moya-cli trust specs' again once you have read them"),
            changedError)
    }

    /// `trust --always`: the user's own folder stays trusted through its edits, and `list`
    /// says so; a folder others may write is refused, and `--revoke` forgets it.
    func testTrustAlwaysKeepsTheUsersOwnFolderTrustedThroughEdits() async throws {
        try write(
            "service: gh\nbaseURL: \(server.baseURL)\nauth: { bearer: \"${GITHUB_TOKEN}\" }\ntargets:\n  user:\n"
                + "    path: /user\n", to: "repo/specs/gh.yaml")
        let repo = folder + "/repo"
        let environment = ["GITHUB_TOKEN": "ghp_users0wnToken", "XDG_STATE_HOME": folder + "/state", "HOME": folder]
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: repo + "/specs")
        let (open, _, openError) = await CommandTests.run(
            ["trust", "--always"], environment: environment, in: repo)
        XCTAssertEqual(open, 64)
        XCTAssertEqual(
            openError,
            "moya-cli: error: trust --always takes a folder of your own: \(repo)/specs may be written by its group "
                + "or others; chmod go-w it first\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: repo + "/specs")
        let (trusted, _, trustError) = await CommandTests.run(
            ["trust", "--always"], environment: environment, in: repo)
        XCTAssertEqual(trusted, 0, trustError)
        XCTAssertEqual(
            trustError,
            "moya-cli: trusted \(repo)/specs always (1 spec file); its specs read the environment whatever changes "
                + "in them, while it is yours alone to write\n")
        // An edit keeps it trusted.
        try write((read("repo/specs/gh.yaml") ?? "") + "  other:\n    path: /other\n", to: "repo/specs/gh.yaml")
        let (sent, sentOut, sentError) = await CommandTests.run(
            ["call", "gh.other", "--dry-run"], environment: environment, in: repo)
        XCTAssertEqual(sent, 0, sentError)
        XCTAssertTrue(sentOut.hasSuffix("Authorization: Bearer ${GITHUB_TOKEN}\n"), sentOut)
        let (listed, listOut, _) = await CommandTests.run(["list"], environment: environment, in: repo)
        XCTAssertEqual(listed, 0)
        XCTAssertTrue(
            listOut.hasSuffix(
                "\nspecs is trusted always: its specs read the environment whatever their edits\n"), listOut)
        // Once others may write it, it is not trusted.
        try FileManager.default.setAttributes([.posixPermissions: 0o775], ofItemAtPath: repo + "/specs")
        let (shared, _, _) = await CommandTests.run(
            ["call", "gh.other", "--dry-run"], environment: environment, in: repo)
        XCTAssertEqual(shared, 77)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: repo + "/specs")
        let (revokedTrust, _, _) = await CommandTests.run(["trust", "--revoke"], environment: environment, in: repo)
        XCTAssertEqual(revokedTrust, 0)
        let (revoked, _, _) = await CommandTests.run(
            ["call", "gh.other", "--dry-run"], environment: environment, in: repo)
        XCTAssertEqual(revoked, 77)
    }

    /// Trust round four, finding 22: an untrusted folder is reported as untrusted (exit 77),
    /// and what follows from it in the other files (a flow whose service was refused) is not.
    func testAnUntrustedFolderIsSaidSoAloneWithItsOwnStatus() async throws {
        try write(
            "service: gh\nbaseURL: \(server.baseURL)\nauth: { bearer: \"${GITHUB_TOKEN}\" }\ntargets:\n  user:\n"
                + "    path: /user\n", to: "repo/specs/gh.yaml")
        try write(
            "service: other\nbaseURL: \(server.baseURL)\ntargets:\n  ping:\n    path: /ping\nflows:\n  both:\n"
                + "    steps:\n      - call: gh.user\n      - call: ping\n", to: "repo/specs/other.yaml")
        let environment = ["GITHUB_TOKEN": "ghp_users0wnToken", "XDG_STATE_HOME": folder + "/state", "HOME": folder]
        let (status, out, error) = await CommandTests.run(
            ["check", "--stub", "immediate"], environment: environment, in: folder + "/repo")
        XCTAssertEqual(status, 77)
        XCTAssertEqual(out, "")
        XCTAssertEqual(
            error,
            "specs/gh.yaml:3:17: error: auth.bearer: ${GITHUB_TOKEN}: ./specs was found in the working directory "
                + "and is not trusted, so its specs read no environment variable; run 'moya-cli trust specs' once "
                + "you have read them\nmoya-cli: error: ./specs was found in the working directory and is not "
                + "trusted, so its specs read no environment variable; run 'moya-cli trust specs' once you have "
                + "read them\n")
    }

    /// Trust round four, finding 6: a spec that is a link out of the folder is trusted by what
    /// it holds, so a change behind the link asks again.
    func testALinkedSpecIsTrustedByItsContent() async throws {
        try FileManager.default.createDirectory(atPath: folder + "/elsewhere", withIntermediateDirectories: true)
        try write(
            "service: gh\nbaseURL: \(server.baseURL)\ntargets:\n  user:\n    path: /user\n",
            to: "elsewhere/gh.yaml")
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/repo/specs/gh.yaml", withDestinationPath: folder + "/elsewhere/gh.yaml")
        let repo = folder + "/repo"
        let environment = ["GITHUB_TOKEN": "ghp_users0wnToken", "XDG_STATE_HOME": folder + "/state", "HOME": folder]
        let (trusted, _, trustError) = await CommandTests.run(["trust"], environment: environment, in: repo)
        XCTAssertEqual(trusted, 0, trustError)
        let (plain, _, plainError) = await CommandTests.run(
            ["call", "gh.user", "--dry-run"], environment: environment, in: repo)
        XCTAssertEqual(plain, 0, plainError)
        // The file behind the link now sends the token: the folder is no longer trusted.
        try write(
            "service: gh\nbaseURL: \(server.baseURL)\nauth: { bearer: \"${GITHUB_TOKEN}\" }\ntargets:\n  user:\n"
                + "    path: /user\n", to: "elsewhere/gh.yaml")
        let (changed, changedOut, changedError) = await CommandTests.run(
            ["call", "gh.user", "--dry-run"], environment: environment, in: repo)
        XCTAssertEqual(changed, 77, changedOut)
        XCTAssertTrue(changedError.contains("a spec in ./specs changed since you trusted the folder"), changedError)
    }

    /// Trust round four, finding 21: moya-cli's own writes into a trusted folder keep it
    /// trusted; a change of anyone else's still asks again.
    func testMoyaCLIsOwnWritesKeepAFolderTrusted() async throws {
        try write(
            "service: gh\nbaseURL: \(server.baseURL)\nauth: { bearer: \"${GITHUB_TOKEN}\" }\ntargets:\n  user:\n"
                + "    path: /json\n", to: "repo/specs/gh.yaml")
        let repo = folder + "/repo"
        let environment = ["GITHUB_TOKEN": "ghp_users0wnToken", "XDG_STATE_HOME": folder + "/state", "HOME": folder]
        let (trustedFolder, _, _) = await CommandTests.run(["trust"], environment: environment, in: repo)
        XCTAssertEqual(trustedFolder, 0)
        let (recorded, _, recordError) = await CommandTests.run(
            ["call", "gh.user", "--record", "again"], environment: environment, in: repo)
        XCTAssertEqual(recorded, 0, recordError)
        let (saved, _, saveError) = await CommandTests.run(
            ["call", server.baseURL + "/echo/saved", "--save", "gh.saved", "--specs", "specs/gh.yaml"],
            environment: environment, in: repo)
        XCTAssertEqual(saved, 0, saveError)
        let (after, _, afterError) = await CommandTests.run(
            ["call", "gh.user", "--dry-run"], environment: environment, in: repo)
        XCTAssertEqual(after, 0, afterError)
        XCTAssertTrue(read("repo/specs/gh.yaml")?.contains("again:") == true)
        XCTAssertTrue(read("repo/specs/gh.yaml")?.contains("saved:") == true)
        // Someone else's edit is not moya-cli's.
        try write((read("repo/specs/gh.yaml") ?? "") + "  other:\n    path: /other\n", to: "repo/specs/gh.yaml")
        let (edited, _, _) = await CommandTests.run(
            ["call", "gh.user", "--dry-run"], environment: environment, in: repo)
        XCTAssertEqual(edited, 77)
    }

    /// `./specs` and the user's own folder are layers: a service of the nearer hides the
    /// farther's of the same name and says so; `list` says where each came from; the user's
    /// own specs read the environment while an untrusted `./specs` does not.
    func testTheDefaultFoldersLayerAndSayWhereEachServiceCameFrom() async throws {
        let home = folder + "/home"
        let own = home + "/.config/moya-cli/specs"
        try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: true)
        try write(
            "service: gh\nbaseURL: http://repo.test\ntargets:\n  user:\n    path: /user\n", to: "repo/specs/gh.yaml")
        try write(
            "service: gh\nbaseURL: https://api.github.com\nauth: { bearer: \"${GITHUB_TOKEN}\" }\ntargets:\n"
                + "  user:\n    path: /user\n", to: "home/.config/moya-cli/specs/gh.yaml")
        try write(
            "service: mine\nbaseURL: https://mine.test\nauth: { bearer: \"${GITHUB_TOKEN}\" }\ntargets:\n"
                + "  ping:\n    path: /ping\n", to: "home/.config/moya-cli/specs/mine.yaml")
        let repo = folder + "/repo"
        let environment = ["HOME": home, "XDG_STATE_HOME": folder + "/state", "GITHUB_TOKEN": "ghp_users0wnToken"]
        let hides = "moya-cli: note: service 'gh' is read from specs/gh.yaml, which hides \(own)/gh.yaml\n"

        let (listed, out, error) = await CommandTests.run(["list"], environment: environment, in: repo)
        XCTAssertEqual(listed, 0, error)
        XCTAssertEqual(
            out,
            "gh.user    GET  /user\nmine.ping  GET  /ping\n\nfrom specs: gh\nfrom \(own): mine\n")
        XCTAssertEqual(error, hides)

        let (called, calledOut, calledError) = await CommandTests.run(
            ["call", "gh.user", "--dry-run"], environment: environment, in: repo)
        XCTAssertEqual(called, 0, calledError)
        XCTAssertTrue(calledOut.hasPrefix("GET http://repo.test/user\n"), calledOut)
        XCTAssertEqual(calledError, hides)

        // The user's own spec reads the token; the untrusted ./specs would not.
        let (mine, mineOut, mineError) = await CommandTests.run(
            ["call", "mine.ping", "--dry-run"], environment: environment, in: repo)
        XCTAssertEqual(mine, 0, mineError)
        XCTAssertTrue(mineOut.hasSuffix("Authorization: Bearer ${GITHUB_TOKEN}\n"), mineOut)
    }

    // MARK: - Output

    /// `-vv` prints the server's body scrubbed of a secret it echoes in JSON's `\u` escapes.
    func testVeryVerboseMasksASecretEchoedWithEscapes() async throws {
        let spec = folder + "/repo/specs/echo.yaml"
        try write(
            """
            service: echo
            baseURL: \(server.baseURL)
            targets:
              ascii:
                method: POST
                headers:
                  X-Key: { value: "${KEY}", secret: true }
                path: /ascii/echo

            """, to: "repo/specs/echo.yaml")
        let (status, _, error) = await CommandTests.run(
            ["call", "echo.ascii", "-vv", "--specs", spec], environment: ["KEY": "grün-schlüssel-🔑"])
        XCTAssertEqual(status, 0, error)
        XCTAssertTrue(error.contains(#"["X-Key","••••"]"#), error)
        for form in ["grün", "gr\\u00fcn", "\\ud83d\\udd11"] {
            XCTAssertFalse(error.contains(form), "\(form) in:\n\(error)")
        }
    }

    // MARK: - Completion

    /// zsh prints a description as it is: a spec's escape sequences reach it escaped, as
    /// they reach bash and fish.
    func testCompletionEscapesASpecsControlCharactersForEveryShell() async throws {
        let spec = folder + "/repo/specs/esc.yaml"
        try write(
            """
            service: esc
            baseURL: http://127.0.0.1:9
            targets:
              get:
                params:
                  page: { type: int, description: "\\e]52;c;ZXZpbA==\\u0007\\e]0;owned\\u0007\\e[2J" }

            """, to: "repo/specs/esc.yaml")
        for shell in ["zsh", "fish", "bash"] {
            let (status, out, _) = await CommandTests.run([
                "---params", shell, "5", "moya-cli", "call", "esc.get", "--specs", spec, "--p",
            ])
            XCTAssertEqual(status, 0, shell)
            XCTAssertFalse(out.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(shell): \(out)")
            if shell == "zsh" {
                XCTAssertEqual(
                    out, "--page:int, required: \\u{1b}]52;c;ZXZpbA==\\u{7}\\u{1b}]0;owned\\u{7}\\u{1b}[2J\n")
            }
        }
    }

    // MARK: - Specs as files

    /// A spec that starts with a byte order mark, as some Windows editors save one, is read.
    func testASpecWithAByteOrderMarkIsRead() async throws {
        let spec = folder + "/repo/specs/bom.yaml"
        try Data(
            [0xEF, 0xBB, 0xBF]
                + Array(
                    "service: bom\nbaseURL: http://x.test\ntargets:\n  a:\n    path: /a\n    sample: { json: { ok: 1 } }\n"
                        .utf8)
        )
        .write(to: URL(fileURLWithPath: spec))
        let (valid, out, error) = await CommandTests.run(["validate", spec])
        XCTAssertEqual(valid, 0, error)
        XCTAssertEqual(out, "ok: 1 service, 1 target\n")
        let (called, body, _) = await CommandTests.run(["call", "bom.a", "--stub", "immediate", "--specs", spec])
        XCTAssertEqual(called, 0)
        XCTAssertEqual(body, "{\"ok\":1}")
    }
}
