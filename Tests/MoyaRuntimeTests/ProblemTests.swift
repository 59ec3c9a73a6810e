import MoyaCore
import MoyaRuntime
import MoyaSpec
import TestSupport
import XCTest

/// Every failure a library user or a command meets is a `Problem`: its message, its details
/// and its exit status, by one table.
final class ProblemTests: XCTestCase {
    func testEachKindOfSendFailureHasItsStatus() {
        let table: [(SendFailure.Kind, ExitStatus)] = [
            (.status(302), .redirectStatus), (.status(404), .clientErrorStatus), (.status(503), .serverErrorStatus),
            (.status(204), .unexpectedStatus), (.network(.timedOut), .timeout),
            (.network(.tooManyRedirects), .tooManyRedirects), (.network(.cancelled), .interrupted),
            (.network(.cannotConnectToHost), .transportFailure), (.network(nil), .transportFailure),
            (.login, .transportFailure), (.encoding, .invalidSpec), (.invalidCall, .invalidSpec),
        ]
        for (kind, status) in table {
            let problem: any Problem = SendFailure(kind: kind, target: "s.t", reason: "why")
            XCTAssertEqual(problem.exitStatus, status, "\(kind)")
            XCTAssertEqual(problem.message, "s.t: why")
            XCTAssertEqual(problem.details, [])
        }
    }

    func testSpecDiagnosticsAreOneProblem() {
        let diagnostics = [
            Diagnostic(file: "a.yaml", mark: Mark(line: 1, column: 2), keyPath: "targets.x", message: "bad"),
            Diagnostic(file: "a.yaml", mark: Mark(line: 3, column: 4), keyPath: "baseURL", message: "worse"),
        ]
        let problem: any Problem = SpecError(diagnostics)
        XCTAssertEqual(problem.message, "invalid spec: 2 problems in 1 file")
        XCTAssertEqual(
            problem.details, ["a.yaml:1:2: error: targets.x: bad", "a.yaml:3:4: error: baseURL: worse"])
        XCTAssertEqual(problem.exitStatus, .invalidSpec)
        let usage: any Problem = ResolveError(message: "param 'n' is missing", isUsageError: true)
        XCTAssertEqual(usage.exitStatus, .usage)
    }

    /// A timeout says what a user needs to act on it, as values a library user reads: the
    /// kind, the server and the limit that ran out.
    func testATimeoutCarriesItsServerAndSeconds() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let spec = """
            service: slow
            baseURL: \(server.baseURL)
            targets:
              wait: { path: /slow/3000, timeout: 0.3 }
            """
        let service = try SpecCompiler(environment: Environment([:])).compile(Array(spec.utf8), file: "slow.yaml")
        let client = SpecClient(services: [service], logins: nil)
        defer { _Concurrency.Task { await client.shutdown() } }
        do {
            _ = try await client.response("slow.wait")
            XCTFail("expected a timeout")
        } catch {
            XCTAssertEqual(error.kind, .network(.timedOut))
            XCTAssertEqual(error.seconds, 0.3)
            XCTAssertEqual(error.server, "127.0.0.1:\(server.port)")
            XCTAssertEqual(error.exitStatus, .timeout)
            XCTAssertEqual(
                error.message, "slow.wait: no complete response from \(server.baseURL)/slow/3000 within 0.3 s")
        }
    }
}
