import Foundation
import MoyaCLI
import MoyaJSON
import TestSupport
import XCTest

@testable import MoyaSpec

/// `secrets:` with the real programs: `pass` on a throw-away GnuPG key and store,
/// `secret-tool` against `gnome-keyring-daemon` in `dbus-run-session`, dotenv files and a
/// command; the trust rules; the exit statuses and their one-line messages; and
/// `moya-cli secrets check`.
final class SecretStoreTests: XCTestCase {
    var server: TestServer!
    var stores: SecretStores!
    /// The spec folder, inside the stores' folder.
    var specs = ""

    static let spec = """
        service: gh
        baseURL: ${TEST_SERVER}
        secrets:
          GH_TOKEN: { pass: moya/token }
          DB_PASSWORD: { keyring: { service: moya, account: db } }
          LOCAL_KEY: { dotenv: .env, key: LOCAL_KEY }
          CMD_KEY: { command: [./bin/token, c0mmand-v@lue], timeout: 2 }
        targets:
          user:
            path: /echo/user
            auth: { bearer: "${GH_TOKEN}" }
            sample: { json: { login: octocat } }
          db:
            path: /echo/db
            headers: { X-Db: "${DB_PASSWORD}" }
          local:
            path: /echo/local
            headers: { X-Local: "${LOCAL_KEY}" }
          cmd:
            path: /echo/cmd
            headers: { X-Cmd: "${CMD_KEY}" }
            sample: { json: { ok: true } }
          open:
            path: /echo/open
        flows:
          twice:
            steps:
              - call: cmd
              - call: cmd
        """

    /// The command source's program: prints its argument, and counts its runs in `runs`
    /// beside it.
    static let token = """
        #!/bin/sh
        echo run >> "$(dirname "$0")/runs"
        printf '%s\\n' "$1"
        """

    override func setUpWithError() throws {
        server = try TestServer()
        stores = try SecretStores()
        specs = stores.folder + "/specs"
        try FileManager.default.createDirectory(atPath: specs + "/bin", withIntermediateDirectories: true)
        try Self.spec.write(toFile: specs + "/gh.yaml", atomically: true, encoding: .utf8)
        try #"LOCAL_KEY="l0cal v@lue" # the local key"#.write(
            toFile: specs + "/.env", atomically: true, encoding: .utf8)
        try script(Self.token)
    }

    /// `body` as the command source's program, `bin/token`.
    func script(_ body: String) throws {
        let text = body.hasPrefix("#!") ? body : "#!/bin/sh\n" + body + "\n"
        try text.write(toFile: specs + "/bin/token", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: specs + "/bin/token")
    }

    override func tearDown() {
        // Nil when setting up skipped the test (a store's program is not installed).
        server?.stop()
        stores?.stop()
    }

    var environment: [String: String] {
        stores.environment.merging(["TEST_SERVER": server.baseURL, "XDG_CONFIG_HOME": stores.folder + "/config"]) {
            $1
        }
    }

    func moya(_ arguments: [String], environment extra: [String: String] = [:]) async -> (Int32, String, String) {
        await CommandTests.run(arguments + ["--specs", specs], environment: environment.merging(extra) { $1 })
    }

    /// The value of `name` among the headers the echo answered with.
    func sent(_ name: String, in body: String) throws -> String? {
        guard case .array(let headers)? = try JSONValue(parsing: body)["headers"] else { return nil }
        for case .array(let pair) in headers where pair.first?.stringValue?.lowercased() == name {
            return pair.last?.stringValue
        }
        return nil
    }

    /// How many times the command source's program ran.
    var commandRuns: Int {
        let text = (try? String(contentsOfFile: specs + "/bin/runs", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").count
    }

    func trustSpecs() async {
        let (status, _, error) = await CommandTests.run(["trust", specs], environment: environment)
        XCTAssertEqual(status, 0, error)
    }

    /// No form of `secret` in `text`.
    func assertHides(_ secret: String, _ text: String, file: StaticString = #filePath, line: UInt = #line) {
        for form in SecretForms.all(secret) where text.contains(form) {
            XCTFail("shows \(form):\n\(text)", file: file, line: line)
        }
    }

    // MARK: - Each store

    func testPassEntrysFirstLineIsSentAndHidden() async throws {
        // A spec's own stores are read from a trusted folder only.
        await trustSpecs()
        try stores.startPass()
        try stores.insertPass("moya/token", "p@ss/t0ken+1", more: "login: octocat\n")
        let (status, out, error) = await moya(["call", "gh.user", "-v"])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(try sent("authorization", in: out), "Bearer p@ss/t0ken+1")
        XCTAssertTrue(error.contains("Authorization: Bearer ${GH_TOKEN}"), error)
        assertHides("p@ss/t0ken+1", error)
        // --curl's line is on stderr; stdout is the echo, the data asked for.
        let (curlStatus, _, curl) = await moya(["call", "gh.user", "--curl"])
        XCTAssertEqual(curlStatus, 0)
        XCTAssertTrue(curl.contains("curl "), curl)
        assertHides("p@ss/t0ken+1", curl)
    }

    /// A live call that reads a `pass` secret opens its spec once: the stub scan, the compile
    /// and the trust digest read the same bytes (`SpecFiles`), and the value is bound into the
    /// compiled target.
    func testALiveCallWithAPassSecretOpensTheSpecOnce() async throws {
        await trustSpecs()
        try stores.startPass()
        try stores.insertPass("moya/token", "p@ss/t0ken+1")
        let files = SpecFiles()
        let (status, out, error) = await SpecFiles.$current.withValue(files) {
            await moya(["call", "gh.user"])
        }
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(try sent("authorization", in: out), "Bearer p@ss/t0ken+1")
        XCTAssertEqual(files.reads(of: specs + "/gh.yaml"), 1, "\(files.readCounts)")
    }

    func testAMissingPassEntryIs66AndNamesTheStore() async throws {
        // A spec's own stores are read from a trusted folder only.
        await trustSpecs()
        try stores.startPass()
        let (status, out, error) = await moya(["call", "gh.user"])
        XCTAssertEqual(status, 66)
        XCTAssertEqual(out, "")
        XCTAssertEqual(
            error,
            "moya-cli: error: gh.user needs GH_TOKEN from pass moya/token (\(specs)/gh.yaml:4:21): "
                + "the password store \(stores.folder)/store has no entry moya/token\n")
    }

    func testAPassThatCannotDecryptIs69AndShowsNothingItSaid() async throws {
        // A spec's own stores are read from a trusted folder only.
        await trustSpecs()
        try stores.startPass()
        try stores.insertPass("moya/token", "p@ss/t0ken+1")
        // Another GnuPG home holds no key for the entry.
        let empty = stores.folder + "/other-gnupg"
        try FileManager.default.createDirectory(
            atPath: empty, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let (status, _, error) = await moya(["call", "gh.user"], environment: ["GNUPGHOME": empty])
        XCTAssertEqual(status, 69)
        XCTAssertEqual(
            error,
            "moya-cli: error: gh.user needs GH_TOKEN from pass moya/token (\(specs)/gh.yaml:4:21): "
                + "pass show exited with status 2\n")
    }

    func testKeyringItemIsSentAndHidden() async throws {
        // A spec's own stores are read from a trusted folder only.
        await trustSpecs()
        try stores.startKeyring()
        try stores.storeKeyring([("service", "moya"), ("account", "db")], "k3yring/v@lue")
        let (status, out, error) = await moya(["call", "gh.db", "-v"])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(try sent("x-db", in: out), "k3yring/v@lue")
        assertHides("k3yring/v@lue", error)
    }

    func testAMissingKeyringItemIs66() async throws {
        // A spec's own stores are read from a trusted folder only.
        await trustSpecs()
        try stores.startKeyring()
        try stores.storeKeyring([("service", "moya"), ("account", "other")], "k3yring/v@lue")
        let (status, _, error) = await moya(["call", "gh.db"])
        XCTAssertEqual(status, 66)
        XCTAssertEqual(
            error,
            "moya-cli: error: gh.db needs DB_PASSWORD from keyring service=moya account=db (\(specs)/gh.yaml:5:27): "
                + "the keyring has no item with these attributes\n")
    }

    func testAKeyringWithoutABusIs69AndSaysWhy() async throws {
        // A spec's own stores are read from a trusted folder only.
        await trustSpecs()
        let (status, _, error) = await moya(["call", "gh.db"])
        XCTAssertEqual(status, 69)
        XCTAssertEqual(
            error,
            "moya-cli: error: gh.db needs DB_PASSWORD from keyring service=moya account=db (\(specs)/gh.yaml:5:27): "
                + "secret-tool lookup exited with status 1; no session bus is known "
                + "(DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are unset)\n")
    }

    func testDotenvValueIsSent() async throws {
        let (status, out, error) = await moya(["call", "gh.local"])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(try sent("x-local", in: out), "l0cal v@lue")
        try "OTHER=1\n".write(toFile: specs + "/.env", atomically: true, encoding: .utf8)
        let (missing, _, said) = await moya(["call", "gh.local"])
        XCTAssertEqual(missing, 66)
        XCTAssertEqual(
            said,
            "moya-cli: error: gh.local needs LOCAL_KEY from dotenv .env LOCAL_KEY (\(specs)/gh.yaml:6:24): "
                + "\(specs)/.env does not set LOCAL_KEY\n")
    }

    func testDotenvFileOutsideTheFolderIsASpecError() async throws {
        let spec = """
            service: away
            baseURL: http://127.0.0.1:9
            secrets:
              KEY: { dotenv: ../outside.env }
            targets:
              one: { path: /one }
            """
        try spec.write(toFile: specs + "/away.yaml", atomically: true, encoding: .utf8)
        let (status, _, error) = await moya(["validate", specs + "/away.yaml"])
        XCTAssertEqual(status, 65)
        XCTAssertTrue(
            error.hasPrefix("\(specs)/away.yaml:4:18: error: secrets.KEY.dotenv: "), error)
        XCTAssertTrue(error.contains("outside"), error)
    }

    // MARK: - Binding

    /// A spec for the binding tests: a store's variables in a base URL, typed and secret param
    /// defaults, a query and a flow's vars; `LATE_KEY` from the command `bin/late`.
    static let late = """
        service: late
        baseURL: ${LATE_HOST}
        secrets:
          LATE_HOST: { dotenv: .env, key: LATE_HOST }
          LATE_ID: { dotenv: .env, key: LATE_ID }
          LATE_TAG: { dotenv: .env, key: LATE_TAG }
          LATE_KEY: { command: [./bin/late, k3y-v@lue], timeout: 2 }
        targets:
          item:
            path: /echo/items/{id}
            params:
              id: { type: int, default: "${LATE_ID}" }
              key: { type: string, secret: true, default: "${LATE_KEY}" }
              tag: { type: string, optional: true }
            task:
              parameters: { key: "{key}", tag: "{tag}" }
              encoding: url
        flows:
          tagged:
            vars: { tag: "t-${LATE_TAG}" }
            steps:
              - call: item
                params: { id: 7, key: plain, tag: "{tag}" }
                expect: { json: { $.uri: /echo/items/7?key=plain&tag=t-fl0w } }
        """

    /// A store's values are bound into the compiled spec where it keeps references apart (a
    /// base URL, a typed param default, a secret one, a flow's vars) and the spec is not
    /// compiled again: the command that gives `LATE_KEY` breaks the spec file as it runs, and
    /// the call is sent as compiled before.
    func testAStoresValuesAreBoundIntoTheCompiledSpec() async throws {
        try Self.late.write(toFile: specs + "/late.yaml", atomically: true, encoding: .utf8)
        try "LATE_HOST=\(server.baseURL)\nLATE_ID=42\nLATE_TAG=fl0w\n".write(
            toFile: specs + "/.env", atomically: true, encoding: .utf8)
        let late = """
            #!/bin/sh
            printf 'targets: [\\n' > "$(dirname "$0")/../late.yaml"
            printf '%s\\n' "$1"
            """
        try late.write(toFile: specs + "/bin/late", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: specs + "/bin/late")
        await trustSpecs()

        let (flow, flowOut, flowError) = await moya(["run", "late.tagged"])
        XCTAssertEqual(flow, 0, flowOut + flowError)
        try Self.late.write(toFile: specs + "/late.yaml", atomically: true, encoding: .utf8)

        let (status, out, error) = await moya(["call", "late.item", "-v"])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(try JSONValue(parsing: out)["uri"], .string("/echo/items/42?key=k3y-v%40lue"), out)
        // A default read from a variable is a secret, as one from the environment is.
        XCTAssertTrue(error.contains("Request: GET \(server.baseURL)/echo/items/••••?key=••••\n"), error)
        assertHides("k3y-v@lue", error)
        let (broken, _, said) = await moya(["validate", specs + "/late.yaml"])
        XCTAssertEqual(broken, 65, "the command did break the file: \(said)")
    }

    /// A store's variable where no value bound later reaches (a check's expected value) is a
    /// spec error while the environment does not set it, naming the place and the store.
    func testAStoresVariableWhereNoBoundValueReachesIsASpecError() async throws {
        let spec = """
            service: fixed
            baseURL: http://127.0.0.1:9
            secrets:
              WANT: { dotenv: .env, key: WANT }
            targets:
              one:
                path: /one
                checks:
                  - expect: { json: { $.name: "${WANT}" } }
            """
        try spec.write(toFile: specs + "/fixed.yaml", atomically: true, encoding: .utf8)
        let (status, _, error) = await moya(["validate", specs + "/fixed.yaml"])
        XCTAssertEqual(status, 65)
        XCTAssertEqual(
            error,
            "\(specs)/fixed.yaml:9:35: error: targets.one.checks[0].expect.json.$.name: ${WANT} is not set, and its "
                + "secret store (dotenv .env WANT) is read as a call is sent, into headers, auth, cookies, queries, "
                + "bodies, paths, base URLs, param defaults and flow values only; set WANT in the environment, or "
                + "move the reference\nmoya-cli: error: invalid spec: 1 problem in 1 file\n")
        let (set, _, setError) = await moya(["validate", specs + "/fixed.yaml"], environment: ["WANT": "Ann"])
        XCTAssertEqual(set, 0, setError)
    }

    // MARK: - Commands and trust

    func testASpecsCommandRunsOnlyFromATrustedFolder() async throws {
        let (refused, _, error) = await moya(["call", "gh.cmd"])
        XCTAssertEqual(refused, 77)
        XCTAssertEqual(
            error,
            "moya-cli: error: gh.cmd needs CMD_KEY from command ./bin/token c0mmand-v@lue (\(specs)/gh.yaml:7:23): "
                + "a spec's command runs only from a trusted folder or your own spec folder; run "
                + "'moya-cli trust \(specs)' once you have read its specs, or declare it in your secrets.yaml\n")
        XCTAssertEqual(commandRuns, 0)
        await trustSpecs()
        let (status, out, said) = await moya(["call", "gh.cmd"])
        XCTAssertEqual(status, 0, said)
        XCTAssertEqual(try sent("x-cmd", in: out), "c0mmand-v@lue")
    }

    func testAValueIsReadOnlyWhenSentAndOncePerProcess() async throws {
        await trustSpecs()
        for words in [
            ["list"], ["describe", "gh.cmd"], ["validate"], ["call", "gh.cmd", "--stub", "immediate"],
            ["call", "gh.cmd", "--help"], ["call", "gh.open"], ["run", "gh.twice", "--stub", "immediate"],
        ] {
            let (status, _, error) = await moya(words)
            XCTAssertEqual(status, 0, "\(words): \(error)")
        }
        XCTAssertEqual(commandRuns, 0, "read for a command that sends nothing needing it")
        let (status, out, error) = await moya(["run", "gh.twice"])
        XCTAssertEqual(status, 0, out + error)
        XCTAssertEqual(commandRuns, 1, "two steps, one read")
        let (dry, _, _) = await moya(["call", "gh.cmd", "--dry-run"])
        XCTAssertEqual(dry, 0)
        XCTAssertEqual(commandRuns, 2, "--dry-run reads what the call would send")
    }

    func testACommandThatFailsIs69AndOneThatHangsIsStopped() async throws {
        await trustSpecs()
        try script("echo 'the vault said: hunter2' >&2\nexit 3")
        await trustSpecs()
        let (failed, _, error) = await moya(["call", "gh.cmd"])
        XCTAssertEqual(failed, 69)
        XCTAssertEqual(
            error,
            "moya-cli: error: gh.cmd needs CMD_KEY from command ./bin/token c0mmand-v@lue (\(specs)/gh.yaml:7:23): "
                + "./bin/token exited with status 3\n")
        try script("exec sleep 30")
        await trustSpecs()
        let (hung, _, said) = await moya(["call", "gh.cmd"])
        XCTAssertEqual(hung, 69)
        XCTAssertEqual(
            said,
            "moya-cli: error: gh.cmd needs CMD_KEY from command ./bin/token c0mmand-v@lue (\(specs)/gh.yaml:7:23): "
                + "./bin/token did not finish in 2 s, and was stopped\n")
        try FileManager.default.removeItem(atPath: specs + "/bin/token")
        let (absent, _, told) = await moya(["call", "gh.cmd"])
        XCTAssertEqual(absent, 69)
        XCTAssertEqual(
            told,
            "moya-cli: error: gh.cmd needs CMD_KEY from command ./bin/token c0mmand-v@lue (\(specs)/gh.yaml:7:23): "
                + "\(specs)/bin/token is not an executable file\n")
    }

    /// Finding 16: a program that leaves a child holding its stdout is stopped at its time
    /// limit, and the child with it.
    func testACommandsChildrenEndWithItAtItsTimeLimit() async throws {
        await trustSpecs()
        try script(
            """
            here=$(dirname "$0")
            sleep 30 &
            echo $! > "$here/grandchild"
            echo token
            """)
        await trustSpecs()
        let (status, _, error) = await moya(["call", "gh.cmd"])
        XCTAssertEqual(status, 69)
        XCTAssertEqual(
            error,
            "moya-cli: error: gh.cmd needs CMD_KEY from command ./bin/token c0mmand-v@lue (\(specs)/gh.yaml:7:23): "
                + "./bin/token did not finish in 2 s, and was stopped\n")
        let text = try String(contentsOfFile: specs + "/bin/grandchild", encoding: .utf8)
        let pid = try XCTUnwrap(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        // Killed and reaped by its adoptive parent, or a zombie at worst: never running.
        var alive = kill(pid, 0) == 0
        if alive, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) {
            alive = !stat.contains(") Z ")
        }
        XCTAssertFalse(alive, "the program's child outlived its time limit")
    }

    /// Finding 1: trusting a folder covers the programs its specs run: one rewritten since
    /// (the spec unchanged) does not run until the folder is trusted again.
    func testATrustedFoldersChangedProgramDoesNotRun() async throws {
        await trustSpecs()
        let (first, out, said) = await moya(["call", "gh.cmd"])
        XCTAssertEqual(first, 0, said)
        XCTAssertEqual(try sent("x-cmd", in: out), "c0mmand-v@lue")
        try script("echo run >> \"$(dirname \"$0\")/runs\"\necho 3v1l")
        let runs = commandRuns
        let (refused, _, error) = await moya(["call", "gh.cmd"])
        XCTAssertEqual(refused, 77)
        let real = URL(fileURLWithPath: specs).resolvingSymlinksInPath().path
        XCTAssertEqual(
            error,
            "moya-cli: error: gh.cmd needs CMD_KEY from command ./bin/token c0mmand-v@lue (\(specs)/gh.yaml:7:23): "
                + "\(real)/bin/token changed since you trusted \(real), or was not there, so it does not run; run "
                + "'moya-cli trust \(real)' again once you have read it\n")
        XCTAssertEqual(commandRuns, runs, "the changed program ran")
        await trustSpecs()
        let (again, text, _) = await moya(["call", "gh.cmd"])
        XCTAssertEqual(again, 0)
        XCTAssertEqual(try sent("x-cmd", in: text), "3v1l")
    }

    /// Finding 9: a spec named on the command line (never trusted) reads none of the user's
    /// stores: not pass, not the keyring, whatever it names; once its folder is trusted, it
    /// does. Its own dotenv file, inside its folder, it reads either way.
    func testANamedSpecFromAFolderNotTrustedReadsNoStore() async throws {
        try stores.startPass()
        try stores.insertPass("moya/token", "pa55-t0ken")
        let (refused, _, error) = await moya(["call", "gh.user"])
        XCTAssertEqual(refused, 77)
        XCTAssertEqual(
            error,
            "moya-cli: error: gh.user needs GH_TOKEN from pass moya/token (\(specs)/gh.yaml:4:21): "
                + "a spec's pass entry is read only from a trusted folder or your own spec folder; run "
                + "'moya-cli trust \(specs)' once you have read its specs, or declare it in your secrets.yaml\n")
        let (local, _, _) = await moya(["call", "gh.local"])
        XCTAssertEqual(local, 0)
        await trustSpecs()
        let (status, out, said) = await moya(["call", "gh.user"])
        XCTAssertEqual(status, 0, said)
        XCTAssertEqual(try sent("authorization", in: out), "Bearer pa55-t0ken")
    }

    /// Finding 5: a control character in a source (a clipboard write, a title, a screen
    /// clear) prints escaped wherever the source is named: `list`, `validate`, a call's error
    /// and `secrets check`.
    func testControlCharactersInASourcePrintEscaped() async throws {
        let spec = """
            service: esc
            baseURL: ${TEST_SERVER}
            secrets:
              B: { keyring: { service: "\\e]0;pwned\\a", account: db } }
              C: { command: [./bin/token, "\\e[2J"] }
            targets:
              b: { path: /b, headers: { X-B: "${B}" } }
              c: { path: /c, headers: { X-C: "${C}" } }

            """
        try spec.write(toFile: specs + "/esc.yaml", atomically: true, encoding: .utf8)
        // A pass entry is refused at its place, escaped.
        let entry =
            "service: escpass\nbaseURL: http://127.0.0.1:9\nsecrets:\n  A: { pass: \"moya/\\e]52;c;aGk=\\a\" }\n"
        try (entry + "targets:\n  a: { path: /a, headers: { X-A: \"${A}\" } }\n").write(
            toFile: stores.folder + "/escpass.yaml", atomically: true, encoding: .utf8)
        let (_, _, refused) = await CommandTests.run(
            ["validate", stores.folder + "/escpass.yaml"], environment: environment)
        XCTAssertFalse(refused.contains("\u{1B}"), refused)
        var printed = refused
        for words in [["list"], ["validate"], ["call", "esc.b"], ["call", "esc.c"], ["secrets", "check"]] {
            let (_, out, error) = await moya(words)
            printed += out + error
            XCTAssertFalse(out.contains("\u{1B}") || error.contains("\u{1B}"), "\(words): \(out)\(error)")
        }
        for escaped in [#"moya/\u{1b}]52;c;aGk=\u{7}"#, #"service=\u{1b}]0;pwned\u{7}"#, #"./bin/token \u{1b}[2J"#] {
            XCTAssertTrue(printed.contains(escaped), "\(escaped) not in\n\(printed)")
        }
    }

    func testSpecsFoundInTheWorkingDirectoryReadNoStore() async throws {
        let folder = stores.folder + "/project"
        try FileManager.default.createDirectory(atPath: folder + "/specs", withIntermediateDirectories: true)
        let spec = """
            service: found
            baseURL: http://127.0.0.1:9
            secrets:
              KEY: { dotenv: .env }
            targets:
              one: { path: /one, headers: { X-Key: "${KEY}" } }
            """
        try spec.write(toFile: folder + "/specs/found.yaml", atomically: true, encoding: .utf8)
        try "KEY=v\n".write(toFile: folder + "/specs/.env", atomically: true, encoding: .utf8)
        let (status, out, error) = await CommandTests.run(
            ["call", "found.one", "--dry-run"], environment: environment, in: folder)
        XCTAssertEqual(status, 77)
        XCTAssertEqual(out, "")
        XCTAssertEqual(
            error,
            "moya-cli: error: found.one needs KEY from dotenv .env KEY (specs/found.yaml:4:18): ./specs was found "
                + "in the working directory and is not trusted as it is now, so its specs read no secret store; "
                + "run 'moya-cli trust specs' once you have read them\n")
    }

    // MARK: - The environment, and the user's file

    func testTheEnvironmentWinsAndIsNotReadFromTheStore() async throws {
        let (status, out, error) = await moya(["call", "gh.user"], environment: ["GH_TOKEN": "fr0m-env"])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(try sent("authorization", in: out), "Bearer fr0m-env")
    }

    func testTheUsersFileNamesSourcesForEveryServiceAndASpecsEntryWins() async throws {
        let config = stores.folder + "/config/moya-cli"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        let user = """
            secrets:
              OPEN_KEY: { command: [printf, "us3r-v@lue"] }
              LOCAL_KEY: { command: [printf, "not this one"] }
            """
        try user.write(toFile: config + "/secrets.yaml", atomically: true, encoding: .utf8)
        let spec = """
            service: open
            baseURL: ${TEST_SERVER}
            targets:
              one: { path: /echo/one, headers: { X-Open: "${OPEN_KEY}" } }
            """
        try spec.write(toFile: specs + "/open.yaml", atomically: true, encoding: .utf8)
        // The user's command runs for a spec in a folder no one trusted.
        let (status, out, error) = await moya(["call", "open.one"])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(try sent("x-open", in: out), "us3r-v@lue")
        let (local, body, said) = await moya(["call", "gh.local"])
        XCTAssertEqual(local, 0, said)
        XCTAssertEqual(try sent("x-local", in: body), "l0cal v@lue")
        // A file others may write names no program.
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: config + "/secrets.yaml")
        let (refused, _, told) = await moya(["call", "open.one"])
        XCTAssertEqual(refused, 65)
        XCTAssertTrue(
            told.hasPrefix(
                "\(config)/secrets.yaml:1:1: error: secrets: this file names the programs moya-cli runs for secrets, "
                    + "and it "), told)
    }

    // MARK: - secrets check

    func testSecretsCheckSaysWhereEachValueCameFromAndItsLength() async throws {
        try stores.startPass()
        try stores.insertPass("moya/token", "p@ss/t0ken+1")
        try stores.startKeyring()
        try stores.storeKeyring([("service", "moya"), ("account", "db")], "k3yring/v@lue")
        await trustSpecs()
        let (status, out, error) = await moya(["secrets", "check"], environment: ["LOCAL_KEY": "x"])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(error, "")
        XCTAssertEqual(
            out,
            """
            gh  CMD_KEY      command ./bin/token c0mmand-v@lue            13 characters
            gh  DB_PASSWORD  keyring service=moya account=db              13 characters
            gh  GH_TOKEN     pass moya/token                              12 characters
            gh  LOCAL_KEY    the environment, over dotenv .env LOCAL_KEY  1 character

            """)
        XCTAssertEqual(commandRuns, 1)
    }

    func testSecretsCheckExitsWithTheFirstFailure() async throws {
        try stores.startPass()
        let (status, out, error) = await moya(["secrets", "check", "gh"])
        XCTAssertEqual(status, 77)
        XCTAssertEqual(
            out,
            """
            gh  CMD_KEY      command ./bin/token c0mmand-v@lue  not read: a spec's command runs only from a trusted \
            folder or your own spec folder; run 'moya-cli trust \(specs)' once you have read its specs, or declare it \
            in your secrets.yaml
            gh  DB_PASSWORD  keyring service=moya account=db    not read: a spec's keyring entry is read only from a \
            trusted folder or your own spec folder; run 'moya-cli trust \(specs)' once you have read its specs, or \
            declare it in your secrets.yaml
            gh  GH_TOKEN     pass moya/token                    not read: a spec's pass entry is read only from a \
            trusted folder or your own spec folder; run 'moya-cli trust \(specs)' once you have read its specs, or \
            declare it in your secrets.yaml
            gh  LOCAL_KEY    dotenv .env LOCAL_KEY              11 characters

            """)
        XCTAssertEqual(
            error,
            "moya-cli: error: 3 of 4 secrets could not be read; the first: CMD_KEY from command ./bin/token "
                + "c0mmand-v@lue (\(specs)/gh.yaml:7:23): a spec's command runs only from a trusted folder or your own "
                + "spec folder; run 'moya-cli trust \(specs)' once you have read its specs, or declare it in your "
                + "secrets.yaml\n")
    }
}
