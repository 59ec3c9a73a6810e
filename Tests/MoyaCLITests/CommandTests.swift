import MoyaCLI
import MoyaCore
import MoyaTools
import Synchronization
import TestSupport
import XCTest

/// Runs moya-cli's commands through the same entry point as the executable and compares
/// their whole output.
final class CommandTests: XCTestCase {
    /// Collects what a command writes to stdout and stderr.
    final class Capture: @unchecked Sendable {
        private let lock = NSLock()
        private var outData = Data()
        private var errorData = Data()
        var outBytes: Data { lock.withLock { outData } }
        var out: String { String(decoding: outBytes, as: UTF8.self) }
        var error: String { lock.withLock { String(decoding: errorData, as: UTF8.self) } }
        func appendOut(_ bytes: [UInt8]) { lock.withLock { outData.append(contentsOf: bytes) } }
        func appendError(_ bytes: [UInt8]) { lock.withLock { errorData.append(contentsOf: bytes) } }
    }

    static let root: String = {
        var path = #filePath
        for _ in 0..<3 {
            if let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) }
        }
        return path
    }()

    func run(_ arguments: [String], environment: [String: String] = [:]) async -> (Int32, String, String) {
        await Self.run(arguments, environment: environment)
    }

    /// Runs a command line as the executable does, returning its status, stdout and stderr.
    /// With `directory`, the command runs there, as a user's does in a folder: the test's
    /// working directory is changed for the command and changed back (tests run one at a time).
    static func run(
        _ arguments: [String], environment: [String: String] = [:], in directory: String? = nil
    ) async -> (Int32, String, String) {
        let previous = FileManager.default.currentDirectoryPath
        if let directory {
            guard FileManager.default.changeCurrentDirectoryPath(directory) else {
                return (-1, "", "cannot change to \(directory)")
            }
        }
        defer { if directory != nil { _ = FileManager.default.changeCurrentDirectoryPath(previous) } }
        let capture = Capture()
        var context = CommandContext(
            environment: Environment(environment), writeOut: { capture.appendOut($0) },
            writeError: { capture.appendError($0) })
        // A test that names the program (`MOYA_CLI_TOOLS`) runs it as moya-cli would.
        if environment["MOYA_CLI_TOOLS"] == nil { context.helper = inProcessHelper }
        let status = await MoyaCLI.run(arguments, context: context)
        return (status, capture.out, capture.error)
    }

    /// moya-cli-tools' program run in-process, as moya-cli hands `import` and `export` over to
    /// it: its name dropped, its output to the command's writers.
    static let inProcessHelper: CommandContext.HelperRunner = { arguments, writeOut, writeError in
        OpenAPITool.run(
            Array(arguments.dropFirst()),
            output: OpenAPITool.Output(
                out: { writeOut(Array($0.utf8)) }, error: { writeError(Array($0.utf8)) }))
    }

    /// Starts the built executable with `arguments`, its stdout and stderr piped, for tests
    /// that send it signals.
    static func launch(_ arguments: [String], server: String) throws -> (process: Process, out: Pipe, error: Pipe) {
        let started = try Launch.start(executable, arguments, environment: ["TEST_SERVER": server])
        return (started.process, started.output, started.error)
    }

    /// Runs the built executable to its end: its status, stdout and stderr. For the commands
    /// that hand over to another program, as `import openapi` does.
    /// With `executable`, runs that program from the test's PATH instead, as swiftc.
    /// With `at`, runs the program at that path, as the example.
    /// With `directory`, runs it there instead of in the package's folder.
    static func runProcess(
        _ arguments: [String], environment: [String: String] = [:], executable program: String? = nil,
        at path: URL? = nil, in directory: String? = nil
    ) throws -> (Int32, String, String) {
        if let program {
            let (env, name) = Launch.onPath(program)
            return try Launch.run(env, name + arguments, environment: nil, in: directory)
        }
        return try Launch.run(path ?? executable, arguments, environment: environment, in: directory)
    }

    /// The built `moya-cli` executable, for tests that send it signals.
    static var executable: URL { Launch.product() }

    var specs: String { Self.root + "/specs" }
    var invalid: String { Self.root + "/Tests/Fixtures/invalid" }

    func testValidateBundledSpecs() async {
        let (status, out, error) = await run(["validate", specs])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(out, "ok: 4 services, 20 targets, 1 flow\n")
        XCTAssertEqual(error, "")
    }

    func testValidateInvalidSpecExits65WithEveryProblem() async {
        let file = invalid + "/unknown-key.yaml"
        let (status, out, error) = await run(["validate", file])
        XCTAssertEqual(status, 65)
        XCTAssertEqual(out, "")
        XCTAssertEqual(
            error,
            """
            \(file):2:1: error: headrs: unknown key 'headrs'; did you mean 'headers'?
            \(file):6:5: error: targets.zen.metod: unknown key 'metod'; did you mean 'method'?
            moya-cli: error: invalid spec: 2 problems in 1 file

            """)
    }

    func testValidateWarnsOfAParamNoTemplateUsesAndStillPasses() async throws {
        let directory = NSTemporaryDirectory() + "moya-cli-warn-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/svc.yaml"
        try """
        baseURL: https://x.test
        targets:
          show:
            path: /users/{id}
            params: { id: int, verbose: bool }
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let (status, out, error) = await run(["validate", file])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(out, "ok: 1 service, 1 target\n")
        XCTAssertEqual(
            error,
            "\(file):5:24: warning: targets.show.params.verbose: the target declares 'verbose' but never uses it; "
                + "write {verbose} where it goes\n")
    }

    /// A compact GraphQL query's braces are text: the error for `{login}` shows the template
    /// with those braces doubled and the declared param's kept, and a param written `{{login}}`
    /// is said to be text where validate warns it is unused.
    func testBracesThatAreTextSayHowToWriteThem() async throws {
        let directory = NSTemporaryDirectory() + "moya-cli-braces-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/gh.yaml"
        func spec(_ query: String) -> String {
            """
            baseURL: https://api.github.com
            targets:
              user:
                path: /graphql
                method: POST
                params: { login: string }
                task: { json: { query: "\(query)" } }
            """
        }
        try spec("{user(login:{login}){name}}").write(toFile: file, atomically: true, encoding: .utf8)
        let (status, out, error) = await run(["validate", file])
        XCTAssertEqual(status, 65)
        XCTAssertEqual(out, "")
        XCTAssertEqual(
            error,
            """
            \(file):7:28: error: targets.user.task.json.query: {name} names no declared param (declared: login); \
            a brace that is text is written twice: "{{user(login:{login}){{name}}}}"
            moya-cli: error: invalid spec: 1 problem in 1 file

            """)
        try spec("{{user(login:{{login}}){{name}}}}").write(toFile: file, atomically: true, encoding: .utf8)
        let (passed, _, warning) = await run(["validate", file])
        XCTAssertEqual(passed, 0)
        XCTAssertEqual(
            warning,
            """
            \(file):6:15: warning: targets.user.params.login: the target declares 'login' but never uses it; \
            {{login}} is the text {login}; write {login}, one brace each side, for the param

            """)
    }

    /// An unset `${VAR}` with no default stops only what needs it: `list`, `describe` and
    /// `validate` work (validate warns once, naming what needs it), another target is called,
    /// and a call of the target that needs it stops before sending (exit 64), naming it.
    func testAnUnsetVariableStopsOnlyWhatNeedsIt() async throws {
        let directory = NSTemporaryDirectory() + "moya-cli-unset-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/hb.yaml"
        try """
        service: hb
        baseURL: https://x.test
        targets:
          get: { path: /get }
          secret:
            path: /bearer
            headers: { Authorization: "Bearer ${MOYA_TEST_UNSET_TOKEN}", X-Also: "${MOYA_TEST_UNSET_TOKEN}" }
        flows:
          login:
            vars: { token: "${MOYA_TEST_UNSET_FLOW}" }
            steps:
              - call: get
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let list = await run(["list", "--specs", file])
        XCTAssertEqual(list.0, 0)
        XCTAssertEqual(list.1, "hb.get     GET   /get\nhb.secret  GET   /bearer\nhb.login   FLOW  1 step\n")
        let validate = await run(["validate", file])
        XCTAssertEqual(validate.0, 0)
        XCTAssertEqual(validate.1, "ok: 1 service, 2 targets, 1 flow\n")
        XCTAssertEqual(
            validate.2,
            "\(file):7:31: warning: targets.secret.headers.Authorization: environment variable MOYA_TEST_UNSET_TOKEN "
                + "is not set and has no default; target secret needs it, and a call stops until it is set\n"
                + "\(file):10:20: warning: flows.login.vars.token: environment variable MOYA_TEST_UNSET_FLOW is not "
                + "set and has no default; flow login needs it, and a call stops until it is set\n")
        let other = await run(["call", "hb.get", "--specs", file, "--dry-run"])
        XCTAssertEqual(other.0, 0)
        XCTAssertEqual(other.1, "GET https://x.test/get\nUser-Agent: moya-cli/0.1.0\nAccept: */*\n")
        let needs = await run(["call", "hb.secret", "--specs", file, "--dry-run"])
        XCTAssertEqual(needs.0, 64)
        XCTAssertEqual(needs.1, "")
        XCTAssertEqual(
            needs.2,
            "moya-cli: error: hb.secret needs the environment variable MOYA_TEST_UNSET_TOKEN, which is not set "
                + "(\(file):7:31); set it, or write ${MOYA_TEST_UNSET_TOKEN:-default}\n")
        // A flow's own variable stops the flow before its first step.
        let flow = await run(["run", "hb.login", "--specs", file, "--stub", "immediate"])
        XCTAssertEqual(flow.0, 1)
        XCTAssertEqual(
            timeless(flow.1),
            "FAIL  environment  ---  (T)\n"
                + "      \(file):10:20: flows.login.vars.token: flow hb.login needs the environment variable "
                + "MOYA_TEST_UNSET_FLOW, which is not set (\(file):10:20); set it, or write "
                + "${MOYA_TEST_UNSET_FLOW:-default}\n"
                + "SKIP  get  (not run after a failure)\n\nhb.login: 2 steps: 0 passed, 1 failed, 1 skipped in T s\n"
        )
        XCTAssertEqual(flow.2, "moya-cli: error: flow hb.login failed\n")
        // A base URL made of an unset variable is unknown, not wrong: every target needs it.
        let base = directory + "/base.yaml"
        try """
        service: base
        baseURL: "${MOYA_TEST_UNSET_BASE}"
        targets:
          get: { path: /get }
        """.write(toFile: base, atomically: true, encoding: .utf8)
        let listed = await run(["list", "--specs", base])
        XCTAssertEqual(listed.0, 0)
        XCTAssertEqual(listed.1, "base.get  GET  /get\n")
        let called = await run(["call", "base.get", "--specs", base, "--dry-run"])
        XCTAssertEqual(called.0, 64)
        XCTAssertEqual(
            called.2,
            "moya-cli: error: base.get needs the environment variable MOYA_TEST_UNSET_BASE, which is not set "
                + "(\(base):2:10); set it, or write ${MOYA_TEST_UNSET_BASE:-default}\n")
    }

    func testValidateMissingPathExits66() async {
        let (status, _, error) = await run(["validate", "/nonexistent/specs"])
        XCTAssertEqual(status, 66)
        XCTAssertEqual(error, "moya-cli: error: no spec file or directory at /nonexistent/specs\n")
    }

    /// Outside a folder with `./specs`, moya-cli reads the user's own specs from
    /// `$XDG_CONFIG_HOME/moya-cli/specs`, else `~/.config/moya-cli/specs`; with neither, the
    /// error says where it looked and every way to name specs.
    func testSpecsAreFoundInTheUsersConfigFolder() async throws {
        let home = NSTemporaryDirectory() + "moya-cli-home-\(UUID().uuidString)"
        let elsewhere = home + "/project"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }

        let (missing, _, error) = await Self.run(["list"], environment: ["HOME": home], in: elsewhere)
        XCTAssertEqual(missing, 66)
        XCTAssertEqual(
            error,
            "moya-cli: error: no specs: no folder at ./specs or \(home)/.config/moya-cli/specs; name one with "
                + "--specs PATH or MOYA_CLI_SPECS, or put spec files in \(home)/.config/moya-cli/specs\n")

        let config = home + "/.config/moya-cli/specs"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try "service: mine\nbaseURL: https://x.test\ntargets: { ping: { path: /ping } }\n"
            .write(toFile: config + "/mine.yaml", atomically: true, encoding: .utf8)
        let (status, out, listError) = await Self.run(["list"], environment: ["HOME": home], in: elsewhere)
        XCTAssertEqual(status, 0, listError)
        XCTAssertEqual(out, "mine.ping  GET  /ping\n")

        let xdg = home + "/xdg"
        let (xdgStatus, _, xdgError) = await Self.run(
            ["list"], environment: ["HOME": home, "XDG_CONFIG_HOME": xdg], in: elsewhere)
        XCTAssertEqual(xdgStatus, 66, "XDG_CONFIG_HOME wins over ~/.config")
        XCTAssertTrue(xdgError.contains("no folder at ./specs or \(xdg)/moya-cli/specs;"), xdgError)
    }

    /// `moya-cli schema` prints the spec format's JSON Schema: the file's bytes.
    func testSchemaPrintsTheSchemaFile() async throws {
        let (status, out, error) = await run(["schema"])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(
            out, try String(contentsOfFile: Self.root + "/schema/moya-cli-spec.schema.json", encoding: .utf8))
        XCTAssertEqual(error, "")
    }

    /// A mistyped command gets the nearest one.
    func testAMistypedCommandGetsDidYouMean() async {
        let (status, out, error) = await run(["calll", "myservice.showUser"])
        XCTAssertEqual(status, 64)
        XCTAssertEqual(out, "")
        XCTAssertEqual(error, "moya-cli: error: 'calll' is not a moya-cli command; did you mean 'call'?\n")
        let (_, _, far) = await run(["frobnicate"])
        XCTAssertEqual(
            far,
            "moya-cli: error: 'frobnicate' is not a moya-cli command; the commands are call, run, check, validate, "
                + "list, describe, generate, serve, import, export, trust, init, mcp, schema, secrets\n")
    }

    func testDuplicateServicesAreReported() async throws {
        let directory = NSTemporaryDirectory() + "moya-cli-dup-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let spec = "service: same\nbaseURL: https://x.test\ntargets: { t: { path: /t } }\n"
        try spec.write(toFile: directory + "/a.yaml", atomically: true, encoding: .utf8)
        try spec.write(toFile: directory + "/b.yaml", atomically: true, encoding: .utf8)
        let (status, _, error) = await run(["validate", directory])
        XCTAssertEqual(status, 65)
        XCTAssertTrue(
            error.hasPrefix(
                "\(directory)/b.yaml:1:10: error: service: duplicate service 'same', already declared in \(directory)/a.yaml\n"
            ),
            error)
    }

    func testListUsesTheEnvironmentSearchPath() async {
        let (status, out, _) = await run(["list", "github"], environment: ["MOYA_CLI_SPECS": specs])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(
            out,
            """
            github.zen               GET  /zen                 A random line of GitHub zen
            github.userProfile       GET  /users/{name}        A user's public profile
            github.userRepositories  GET  /users/{name}/repos  A user's public repositories, newest first

            """)
    }

    func testListJSON() async throws {
        let (status, out, _) = await run(["list", "--json", "--specs", specs])
        XCTAssertEqual(status, 0)
        let services = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]])
        XCTAssertEqual(services.map { $0["service"] as? String }, ["github", "httpbin", "myservice", "translator"])
    }

    func testDescribe() async {
        let (status, out, _) = await run(["describe", "myservice.createUser", "--specs", specs])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(
            out,
            """
            myservice.createUser: Create a user; the body is JSON
              POST https://api.myservice.com/users
              task: requestParameters, encoding json
              params:
                --firstName  string  required
                --lastName   string  default: Potter  Family name
              headers:
                Accept: application/json
              validation: successCodes (200-299)
              auth: bearer
              timeout: 30s
              samples:
                (default)  201  json
              environments: staging, local

            """)
    }

    func testDescribeJSONAndUnknownTargets() async throws {
        let (status, out, _) = await run(["describe", "translator.translate", "--json", "--specs", specs])
        XCTAssertEqual(status, 0)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        XCTAssertEqual(object["task"] as? String, "requestJSONEncodable")
        XCTAssertEqual((object["params"] as? [[String: Any]])?.count, 1)

        let (missing, _, error) = await run(["describe", "myservice.showUsr", "--specs", specs])
        XCTAssertEqual(missing, 64)
        XCTAssertEqual(
            error, "moya-cli: error: service 'myservice' has no target 'showUsr'; did you mean 'showUser'?\n")
        let (noService, _, serviceError) = await run(["describe", "nosuch.x", "--specs", specs])
        XCTAssertEqual(noService, 64)
        XCTAssertTrue(serviceError.hasPrefix("moya-cli: error: no service named 'nosuch'"), serviceError)
    }

    func testUsageErrorsExit64() async {
        let (status, _, error) = await run(["describe"])
        XCTAssertEqual(status, 64)
        XCTAssertTrue(error.hasPrefix("moya-cli: error: Missing expected argument '<service.name>'\n"), error)
        let (unknown, _, _) = await run(["frobnicate"])
        XCTAssertEqual(unknown, 64)
    }
}
