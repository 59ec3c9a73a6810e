import Foundation
import MoyaCLI
import MoyaCompiler
import MoyaCore
import MoyaServe
import TestSupport
import XCTest

/// `call` on streams: events printed as they arrive, as data or JSON, ended at the first bound
/// the target gives, with `-v`'s summary; against a real server on 127.0.0.1.
final class StreamCallTests: XCTestCase {
    var server: TestServer!
    let specs = CommandTests.root + "/Tests/Fixtures/streams/specs"

    override func setUpWithError() throws {
        server = try TestServer()
    }

    override func tearDown() {
        server.stop()
    }

    func call(_ arguments: [String]) async -> (status: Int32, out: String, error: String) {
        await CommandTests.run(
            ["call"] + arguments + ["--specs", specs], environment: ["TEST_SERVER": server.baseURL])
    }

    /// The summary line with its time taken out.
    func summary(_ error: String) -> String {
        error.replacing(/in [0-9.]+ s;/, with: "in T s;")
    }

    func testEventsPrintTheirDataByDefault() async {
        let (status, out, error) = await call(["events.ticks"])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(out, (0..<5).map { "{\"n\":\($0)}\n" }.joined())
        XCTAssertEqual(error, "")
    }

    func testEventsAsJSON() async {
        let (status, out, _) = await call(["events.firstThree", "--events", "json", "-v"])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(
            out,
            (0..<3).map { "{\"event\":\"tick\",\"id\":\"\($0)\",\"data\":{\"n\":\($0)}}\n" }.joined())
    }

    func testRawPassesTheBytesOn() async {
        let (status, out, _) = await call(["events.ticks", "--events", "raw"])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(out, (0..<5).map { "id: \($0)\nevent: tick\ndata: {\"n\":\($0)}\n\n" }.joined())
    }

    func testEachBoundEndsTheStreamAndSaysWhy() async {
        let cases: [(target: String, out: String, summary: String)] = [
            // An event is 33 bytes: `id: 0`, `event: tick`, `data: {"n":0}` and a blank line.
            ("ticks", "0 1 2 3 4", "5 events, 165 bytes in T s; ended by end"),
            ("firstThree", "0 1 2", "3 events, 99 bytes in T s; ended by maxEvents"),
            ("untilTwo", "0 1 2", "3 events, 99 bytes in T s; ended by until"),
            ("quiet", "0 1", "2 events, 66 bytes in T s; ended by idle"),
            ("capped", "0 1 2", "3 events, 100 bytes in T s; ended by maxBytes"),
            ("declaredLines", "0 1", "2 events, 16 bytes in T s; ended by maxEvents"),
        ]
        for (target, numbers, line) in cases {
            let (status, out, error) = await call(["events." + target, "-v"])
            XCTAssertEqual(status, 0, "\(target): \(error)")
            let expected = numbers.split(separator: " ").map { "{\"n\":\($0)}\n" }.joined()
            XCTAssertEqual(out, expected, target)
            let kind = target == "declaredLines" ? "ndjson" : "sse"
            XCTAssertTrue(
                summary(error).hasSuffix("moya-cli: stream (\(kind)): \(line)\n"), "\(target): \(error)")
        }
    }

    func testMaxTimeEndsAStreamThatWouldGoOn() async {
        let started = ContinuousClock.now
        let (status, out, error) = await call(["events.short", "-v"])
        XCTAssertEqual(status, 0, error)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(5))
        XCTAssertTrue(out.hasPrefix("{\"n\":0}\n"), out)
        XCTAssertTrue(summary(error).hasSuffix("s; ended by maxTime\n"), error)
    }

    func testNDJSONByContentTypeKeepsEveryLine() async {
        let (status, out, _) = await call(["events.lines", "--events", "json"])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(out, (0..<3).map { "{\"event\":null,\"id\":null,\"data\":{\"n\":\($0)}}\n" }.joined())
    }

    func testIncludePrintsTheHeadBeforeTheEvents() async {
        let (status, out, _) = await call(["events.firstThree", "-i"])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(
            out,
            "HTTP/1.1 200 OK\nContent-Type: text/event-stream\ntransfer-encoding: chunked\n\n"
                + (0..<3).map { "{\"n\":\($0)}\n" }.joined())
    }

    /// Ctrl-C during a stream: the events that arrived are on stdout already, as they came,
    /// and the real executable ends by the signal after its one line.
    func testCtrlCEndsAStreamByTheSignalWithWhatArrived() throws {
        let (process, out, error) = try CommandTests.launch(
            ["call", "events.long", "--specs", specs], server: server.baseURL)
        // The first event is read off the pipe before the signal: it was flushed as it came.
        let first = out.fileHandleForReading.availableData
        XCTAssertEqual(String(decoding: first, as: UTF8.self).prefix(8), "{\"n\":0}\n")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(process.terminationStatus, SIGINT)
        let rest = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines: [String] = (String(decoding: first, as: UTF8.self) + rest).split(separator: "\n").map(String.init)
        let expected: [String] = (0..<lines.count).map { "{\"n\":\($0)}" }
        XCTAssertEqual(lines, expected, "every event, in order")
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(
            message.hasPrefix("moya-cli: error: events.long: the stream was cancelled by SIGINT after "), message)
    }

    /// `--resume` asks again after each end with the last event ID, after the stream's
    /// `retry:`, until a bound or a 204; without it, the first connection's end is the end.
    func testResumeGoesOnFromTheLastEventID() async {
        let (status, out, error) = await call(["events.resumable", "--resume", "-v"])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(out, (0..<7).map { "{\"n\":\($0)}\n" }.joined())
        XCTAssertTrue(server.waitForRequests(to: "/resumable/", count: 4, timeout: 1), "three connections and the 204")
        XCTAssertFalse(server.waitForRequests(to: "/resumable/", count: 5, timeout: 0.2), "and no more")
        XCTAssertTrue(error.contains("Last-Event-ID: 5"), error)
        XCTAssertTrue(error.contains("the stream ended after 6 events; resuming in 0.0 s"), error)
        XCTAssertTrue(
            summary(error).hasSuffix("moya-cli: stream (sse): 7 events, 180 bytes in T s; ended by end\n"), error)

        let bounded = await call(["events.resumableFive", "--resume"])
        XCTAssertEqual(bounded.out, (0..<5).map { "{\"n\":\($0)}\n" }.joined(), "maxEvents counts across connections")

        let once = await call(["events.resumable"])
        XCTAssertEqual(once.out, (0..<3).map { "{\"n\":\($0)}\n" }.joined())
    }

    /// A sample's `events:` are a stream offline: written as the target's kind, read back as
    /// a live stream is, its bounds and all.
    func testAStreamSampleIsReadAsALiveStream() async {
        let data = await call(["events.sampled", "--stub", "immediate", "--name", "Bea"])
        XCTAssertEqual(data.status, 0, data.error)
        XCTAssertEqual(data.out, "Hello, Bea\n{\"text\":\"two\\nlines\",\"n\":2}\na\nb\n[DONE]\n")
        let json = await call(["events.sampled", "--stub", "immediate", "--events", "json", "-v"])
        XCTAssertEqual(
            json.out,
            """
            {"event":"greeting","id":"1","data":"Hello, Ann"}
            {"event":"message","id":"1","data":{"text":"two\\nlines","n":2},"retry":1500}
            {"event":"message","id":"1","data":"a\\nb"}
            {"event":"message","id":"1","data":"[DONE]"}

            """)
        XCTAssertTrue(
            summary(json.error).hasSuffix("moya-cli: stream (sse): 4 events, 139 bytes in T s; ended by until\n"),
            json.error)
        let raw = await call(["events.sampledLines", "--stub", "immediate", "--events", "raw"])
        XCTAssertEqual(raw.out, "{\"n\":1}\n{\"n\":2}\n")
    }

    /// `text` as the spec `NAME.yaml` in a folder of its own, removed after the test.
    func writeSpec(_ name: String, _ text: String) throws -> (folder: String, spec: String) {
        let folder = NSTemporaryDirectory() + "\(name)-stream-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        let spec = folder + "/\(name).yaml"
        try text.write(toFile: spec, atomically: true, encoding: .utf8)
        return (folder, spec)
    }

    /// `check` reads a response whose `Content-Type` is a stream as events, though its target
    /// declares none, with the default bounds; any other body as before.
    func testCheckReadsAStreamByItsContentType() async throws {
        let spec = try writeSpec(
            "detected",
            """
            service: detected
            baseURL: \(server.baseURL)
            targets:
              ticks:
                path: /sse/3/5
                checks:
                  - expect: { events: { count: 3, last: { $.data.n: 2 } }, json: { "$[0].event": tick } }
              plain:
                path: /json
                checks:
                  - expect: { status: 200, json: { $.first_name: Harry } }

            """
        ).spec
        let (status, out, error) = await CommandTests.run(["check", spec])
        XCTAssertEqual(status, 0, out + error)
        XCTAssertEqual(
            out.replacing(/\([0-9]+ ms\)/, with: "(T)").replacing(/skipped in [0-9.]+ s/, with: "skipped in T s"),
            "PASS  detected.ticks: check 1  (T)\nPASS  detected.plain: check 1  (T)\n\n"
                + "2 checks: 2 passed, 0 failed, 0 skipped in T s\n")
    }

    /// `call --record` writes a stream's events, each with the time before it, as the
    /// target's stream sample, which `--stub` and `serve` replay as the stream came.
    func testRecordWritesTheEventsAsAStreamSample() async throws {
        let (folder, spec) = try writeSpec(
            "ticks",
            """
            service: ticks
            baseURL: \(server.baseURL)
            targets:
              ticks:
                path: /sse/5/30
                stream: { kind: sse, maxEvents: 3 }

            """)
        let live = await CommandTests.run(["call", "ticks.ticks", "--specs", folder, "--events", "json"])
        let (status, out, error) = await CommandTests.run(
            ["call", "ticks.ticks", "--specs", folder, "--events", "json", "--record", "--force"])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(out, live.1)
        XCTAssertTrue(error.hasSuffix("moya-cli: recorded targets.ticks.sample in \(spec)\n"), error)
        let text = try String(contentsOfFile: spec, encoding: .utf8)
        // The events came 30 ms apart: each after the first waited about that.
        let delays = text.matches(of: /delay: ([0-9]+)ms/).compactMap { Int($0.1) }
        XCTAssertGreaterThanOrEqual(delays.suffix(2).count, 2, text)
        XCTAssertTrue(delays.suffix(2).allSatisfy { $0 >= 20 }, text)
        let written = text.replacing(/, delay: [0-9]+ms/, with: "")
        XCTAssertTrue(
            written.hasSuffix(
                """
                    sample:
                      status: 200
                      headers:
                        Content-Type: text/event-stream
                      events:
                        - { event: tick, id: "0", data: "{\\"n\\":0}" }
                        - { event: tick, id: "1", data: "{\\"n\\":1}" }
                        - { event: tick, id: "2", data: "{\\"n\\":2}" }

                """), written)
        let stubbed = await CommandTests.run(
            ["call", "ticks.ticks", "--specs", folder, "--events", "json", "--stub", "immediate"])
        XCTAssertEqual(stubbed.1, live.1)
    }

    /// `serve` sends a stream sample as a stream: chunked, each event after its delay, and
    /// moya-cli's own call reads it back, live, as the stub does.
    func testServeSendsAStreamSampleEventByEvent() async throws {
        let service = try SpecCompiler(environment: Environment(["TEST_SERVER": "http://127.0.0.1"])).compile(
            file: specs + "/events.yaml")
        let served = try await MockHTTPServer(
            router: MockRouter(services: [service]), host: "127.0.0.1", port: 0,
            options: MockHTTPServer.Options(verbose: false, showSecrets: false, log: { _ in }))
        let url = "http://127.0.0.1:\(served.port)"
        let (status, out, error) = await CommandTests.run(
            ["call", "events.sampled", "--events", "json", "-v", "--specs", specs],
            environment: ["TEST_SERVER": url])
        _ = await served.stop(grace: 5)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(
            out.split(separator: "\n").first, #"{"event":"greeting","id":"1","data":"Hello, Ann"}"#)
        XCTAssertEqual(out.split(separator: "\n").count, 4, "up to the until event")
        XCTAssertTrue(error.contains("transfer-encoding: chunked"), error)
        // The first event waited its 50 ms after the head.
        let seconds = try XCTUnwrap(error.firstMatch(of: /bytes in ([0-9.]+) s; ended by until/)?.1)
        XCTAssertGreaterThanOrEqual(Double(seconds) ?? 0, 0.045, error)
    }

    /// `check` reads a declared stream's events, live and stubbed alike, to its bounds, and
    /// holds them to `expect.events`, `json:` over the event array, and the schema per event;
    /// a flow captures from the events (the last, the one a filter finds, all of a field's).
    func testChecksOverEvents() async throws {
        let spec = CommandTests.root + "/Tests/Fixtures/streams/checks/streamed.yaml"
        for stubbed in [false, true] {
            let (status, out, error) = await CommandTests.run(
                ["check", spec, "--parallel", "1"] + (stubbed ? ["--stub", "immediate"] : []),
                environment: ["TEST_SERVER": server.baseURL])
            XCTAssertEqual(status, 1, error)
            let shown = out.replacing(spec, with: "SPEC").replacing(/\([0-9]+ ms\)/, with: "(T)")
                .replacing(/in [0-9.]+ s/, with: "in T s")
            XCTAssertEqual(
                shown,
                """
                PASS  streamed.ticks: passes  (T)
                FAIL  streamed.ticks: fails  (T)
                      SPEC:28:19: expect.schema: event 2: $.n: expected <= 1, got 2
                      SPEC:30:13: expect.events.count: expected >= 4, got 3 events
                      SPEC:31:13: expect.events.any: no event of 3 events has $.event: "done"
                      SPEC:32:13: expect.events.all: event 2: $.data.n: expected < 2, got 2
                      SPEC:33:13: expect.events.last: event 2, the last: $.data.n: expected 9, got 2
                      SPEC:34:13: expect.events.sequence: step 1 of the sequence ($.data.n: 0) did not come after event 2
                SKIP  streamed.echo  (no checks, and it needs params: last, ids, match)
                PASS  streamed.fromEvents (flow)  (T)

                4 checks: 2 passed, 1 failed, 1 skipped in T s

                """, "stubbed: \(stubbed)")
        }
    }

    /// An endpoint that streams only when asked answers JSON otherwise: a declared stream's
    /// JSON answer prints as JSON does.
    func testADeclaredStreamAnsweringJSONPrintsTheJSON() async {
        let declared = await call(["events.declaredButJSON"])
        let plain = await call(["events.plainJSON"])
        XCTAssertEqual(declared.status, 0, declared.error)
        XCTAssertFalse(plain.out.isEmpty)
        XCTAssertEqual(declared.out, plain.out)
    }

    /// A line that never ends is one event growing without bound: it ends at 16 MiB with one
    /// line and exit 1, or at the target's `maxBytes` as asked, holding no more than that.
    func testAnEndlessLineEndsAtItsBound() async {
        let (status, out, error) = await call(["events.endless"])
        XCTAssertEqual(status, 1)
        XCTAssertEqual(out, "")
        let port = server.baseURL.split(separator: ":").last ?? ""
        XCTAssertEqual(
            error,
            "moya-cli: error: events.endless: the stream from 127.0.0.1:\(port) sent an event larger than 16 MiB, "
                + "the most held; give the target stream: { maxBytes: … } to hold more\n")
        let capped = await call(["events.endlessCapped", "-v"])
        XCTAssertEqual(capped.status, 0, capped.error)
        XCTAssertTrue(
            summary(capped.error).hasSuffix(
                "moya-cli: stream (ndjson): 0 events, 1048576 bytes in T s; ended by maxBytes\n"),
            capped.error)
    }

    func testAFailedStatusPrintsItsBodyNotEvents() async {
        let (status, out, error) = await call(["events.missing"])
        XCTAssertEqual(status, 4, error)
        XCTAssertEqual(out, "status 404")
    }
}
