import Foundation
import MoyaBinding
import MoyaCLI
import MoyaCompiler
import MoyaCore
import MoyaRuntime
import MoyaSpec
import TestSupport
import XCTest

/// MoyaRuntime as a Swift user meets it: a spec compiled, then sent through `SpecClient`.
/// What goes on the wire, and what `prepare` prints, equal what `moya-cli` sends and prints,
/// compared on the in-process server.
final class RuntimeLibraryTests: XCTestCase {
    var server: TestServer!
    let specs = CommandTests.root + "/specs"

    override func setUpWithError() throws {
        server = try TestServer()
    }

    override func tearDown() {
        server.stop()
    }

    func services(_ paths: [String], environment: [String: String]) throws -> [ServiceSpec] {
        let catalog = try SpecLibrary(searchPaths: paths, compiler: SpecCompiler(environment: Environment(environment)))
            .loadAll()
        XCTAssertEqual(catalog.diagnostics.map(\.description), [])
        return catalog.services
    }

    func body(_ exchange: Exchange) -> String {
        exchange.response.map { String(decoding: $0.data, as: UTF8.self) }
            ?? "no response: \(exchange.failure?.message ?? "")"
    }

    func testShowUserGoesOutAsCallSendsIt() async throws {
        let environment = ["MOYA_SERVE_URL": server.baseURL]
        let client = SpecClient(services: try services([specs], environment: environment), environment: "local")
        let sent = await client.send("myservice.showUser", ["id": .int(1)])
        let printed = RequestPrinter(try client.prepare("myservice.showUser", ["id": .int(1)]).printable()).json
        await client.shutdown()

        let call = ["call", "myservice.showUser", "--id", "1", "--env", "local", "--specs", specs]
        let (status, out, error) = await CommandTests.run(call, environment: environment)
        XCTAssertEqual(status, 0, error)
        // The echo lists the method, the URI, every header in order and the body.
        XCTAssertEqual(body(sent), out)
        XCTAssertTrue(out.contains(#""uri":"\/myservice\/users\/1""#), out)
        let (_, dry, _) = await CommandTests.run(call + ["--dry-run", "--json"], environment: environment)
        XCTAssertEqual(printed + "\n", dry)
    }

    func testATargetThatNeedsALoginGoesOutAsCallSendsIt() async throws {
        let directory = NSTemporaryDirectory() + "runtime-login-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory + "/cache", withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        let spec = directory + "/guarded.yaml"
        try """
        service: guarded
        baseURL: ${TEST_SERVER}
        auth:
          login: { call: token, params: { user: ann, password: "${API_PASSWORD}" }, token: $.access_token }
          cache: true
        targets:
          token:
            method: POST
            path: /token
            auth: none
            params: { user: string, password: { type: string, secret: true } }
            task: { parameters: { user: "{user}", password: "{password}" }, encoding: json }
          whoami: { path: /echo/whoami }
        """.write(toFile: spec, atomically: true, encoding: .utf8)
        let environment = ["TEST_SERVER": server.baseURL, "API_PASSWORD": "pw", "XDG_CACHE_HOME": directory + "/cache"]
        // The client logs in and caches the token; the command then sends the same token.
        let client = SpecClient(
            services: try services([spec], environment: environment), processEnvironment: Environment(environment),
            cachesTokens: true)
        let sent = await client.send("guarded.whoami")
        let printed = RequestPrinter(try client.prepare("guarded.whoami").printable()).json
        await client.shutdown()
        XCTAssertTrue(body(sent).contains(#"["Authorization","Bearer t1"]"#), body(sent))

        let call = ["call", "guarded.whoami", "--specs", spec]
        let (status, out, error) = await CommandTests.run(call, environment: environment)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(body(sent), out)
        XCTAssertEqual(server.requests(for: "logins"), 1)
        let (_, dry, _) = await CommandTests.run(call + ["--dry-run", "--json"], environment: environment)
        XCTAssertEqual(printed + "\n", dry)
        XCTAssertTrue(dry.contains(#""Authorization":"••••""#), dry)
    }

    func testAFlowRunsAsRunRunsIt() async throws {
        let spec = CommandTests.root + "/Tests/Fixtures/flows/flows.yaml"
        let environment = ["TEST_SERVER": server.baseURL]
        let client = SpecClient(services: try services([spec], environment: environment))
        let ran = await client.run(flow: "flows.lifecycle")
        let result = try XCTUnwrap(ran)
        await client.shutdown()
        let (status, out, error) = await CommandTests.run(
            ["run", "flows.lifecycle", "--specs", spec], environment: environment)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(result.outcome, .passed)
        let lines = out.split(separator: "\n").prefix(result.steps.count).map(String.init)
        XCTAssertEqual(result.steps.map(\.line).map(timeless), lines.map(timeless))
        XCTAssertEqual(result.steps.count, 9)
    }

    func timeless(_ line: String) -> String {
        line.replacingOccurrences(of: #"\(\d+ ms\)"#, with: "(T)", options: .regularExpression)
    }

    /// Every bundled and fixture target that can be called without arguments, or with a check's,
    /// prepares to what `call --dry-run --json` prints.
    func testEveryTargetPreparesAsCallDryRunPrintsIt() async throws {
        let fixtures = CommandTests.root + "/Tests/Fixtures"
        let paths = [specs, fixtures + "/calls", fixtures + "/checks", fixtures + "/flows", fixtures + "/serve"]
        let environment = [
            "TEST_SERVER": server.baseURL, "API_PASSWORD": "pw", "API_TOKEN": "tok-123", "GITHUB_TOKEN": "gh-456",
        ]
        var compared = 0
        for path in paths {
            for service in try services([path], environment: environment) {
                for target in service.targets {
                    let argumentSets =
                        target.checks.map(\.arguments) + (target.params.allSatisfy { !$0.isRequired } ? [[:]] : [])
                    for arguments in argumentSets {
                        guard
                            let prepared = try? PreparedCall.prepare(
                                target, of: service, with: CallOptions(arguments: arguments))
                        else { continue }
                        var words = ["call", "\(service.name).\(target.name)", "--specs", path, "--dry-run", "--json"]
                        for (name, value) in arguments.sorted(by: { $0.key < $1.key }) {
                            let values: [ParamValue]
                            if case .array(let items) = value { values = items } else { values = [value] }
                            words += values.map { "\(name)=\($0.description)" }
                        }
                        let (status, out, error) = await CommandTests.run(words, environment: environment)
                        XCTAssertEqual(status, 0, "\(words): \(error)")
                        XCTAssertEqual(RequestPrinter(try prepared.printable()).json + "\n", out, "\(words)")
                        compared += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(compared, 40)
    }

    /// The example under Examples/SpecClient, run as a user runs it.
    func testTheExampleSendsTheBundledSpec() async throws {
        let example = CommandTests.executable.deletingLastPathComponent().appendingPathComponent(
            "spec-client-example")
        let environment = ["MOYA_SERVE_URL": server.baseURL]
        let (status, out, error) = try CommandTests.runProcess([specs], environment: environment, at: example)
        XCTAssertEqual(status, 0, error)
        let lines = out.split(separator: "\n").map(String.init)
        let (_, dry, _) = await CommandTests.run(
            ["call", "myservice.showUser", "--id", "1", "--env", "local", "--specs", specs, "--dry-run", "--json"],
            environment: environment)
        XCTAssertEqual(lines.first.map { $0 + "\n" }, dry)
        XCTAssertTrue(lines.count > 1 && lines[1].contains(#""uri":"\/myservice\/users\/1""#), out)
        XCTAssertEqual(
            Array(lines.dropFirst(2)),
            [
                "guarded.whoami: status 200, sent a token: true",
                "invalid call: no target or flow 'guarded.nothing'",
                "valid: 2 of 3",
                "PASS create", "PASS read back", "PASS rename", "PASS finally: delete",
            ])
    }
}
