import MoyaCommandSupport
import MoyaCompiler
import MoyaCore
import MoyaRuntime
import MoyaSpec
import TestSupport
import XCTest

/// Every failure a library user or a command meets is a `Problem`: its message, its details
/// and its kind, which its exit status is chosen by in one table (`ExitStatus(for:)`).
final class ProblemTests: XCTestCase {
    func testEachKindOfSendFailureHasItsStatus() {
        let table: [(SendFailure.Kind, ExitStatus)] = [
            (.status(302), .redirectStatus), (.status(404), .clientErrorStatus), (.status(503), .serverErrorStatus),
            (.status(204), .unexpectedStatus), (.network(.timedOut), .timeout),
            (.network(.tooManyRedirects), .tooManyRedirects), (.network(.cancelled), .interrupted),
            (.network(.cannotConnectToHost), .transportFailure), (.network(nil), .transportFailure),
            (.login, .transportFailure), (.encoding, .invalidSpec), (.invalidCall, .invalidSpec),
            (.network(.fileFailed), .cannotWrite), (.secret(.missing), .missingSpec),
            (.secret(.unavailable), .unavailable), (.secret(.untrusted), .untrusted),
        ]
        for (kind, status) in table {
            let problem: any Problem = SendFailure(kind: kind, target: "s.t", reason: "why")
            XCTAssertEqual(ExitStatus(for: problem), status, "\(kind)")
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
        XCTAssertEqual(ExitStatus(for: problem), .invalidSpec)
        let usage: any Problem = ResolveError(message: "param 'n' is missing", isUsageError: true)
        XCTAssertEqual(ExitStatus(for: usage), .usage)
    }

    /// The failures only a command makes, and the libraries' own, each by its kind: one
    /// condition, one status, in every command.
    func testEachFailureHasTheStatusOfItsKind() {
        let table: [(any Error, ExitStatus)] = [
            (UsageError("bad flag"), .usage), (FileFailure.missing("no folder at x"), .missingSpec),
            (FileFailure.unwritable("cannot write x"), .cannotWrite), (InvalidDocument("not valid"), .invalidSpec),
            (ListenFailure("cannot listen on :80"), .transportFailure),
            (RunFailure("2 of 3 checks failed"), .transportFailure),
            (CoverageShortfall("coverage 40% < 80%"), .transportFailure), (KeyPathMissing("no .id"), .keyPathMissing),
            (PagingStopped("off origin"), .pagingStopped),
            (HelperFailure("moya-cli-tools is not installed"), .unavailable),
            (HelperFailure("cannot import a.yaml", exited: 65), .invalidSpec),
            (HelperFailure("cannot import a.yaml", exited: 250), .transportFailure),
            (HelperFailure("cannot import a.yaml", exited: 0), .transportFailure),
            (Interrupted("interrupted by SIGINT", signal: SIGINT), .interrupted),
            (Interrupted("interrupted by SIGTERM", signal: SIGTERM), .terminated),
            (Interrupted("interrupted by SIGHUP", signal: SIGHUP), .hungUp),
            (FailureSummary("2 of 4 secrets could not be read", of: UsageError("x")), .usage),
            (
                SecretFailure(name: "T", source: nil, needer: nil, kind: .unavailable, reason: "pass failed"),
                .unavailable
            ),
            (CancellationError(), .interrupted),
        ]
        for (error, status) in table {
            XCTAssertEqual(ExitStatus(for: error), status, "\(error)")
        }
        // The status a signal's failure exits with is the one whose signal it is.
        for status in ExitStatus.allCases {
            if let signal = status.signal {
                XCTAssertEqual(ExitStatus(for: Interrupted("x", signal: signal)), status)
                XCTAssertEqual(status.rawValue, 128 + signal)
            }
        }
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
            XCTAssertEqual(ExitStatus(for: error), .timeout)
            XCTAssertEqual(
                error.message, "slow.wait: no complete response from \(server.baseURL)/slow/3000 within 0.3 s")
        }
    }
}
