import Foundation
import MoyaCLI
import MoyaCore
import Synchronization
import TestSupport
import XCTest

/// What `call` prints on a terminal and through a pipe: pretty and coloured JSON, `-i`,
/// `-o` with its progress bar, and Ctrl-C.
extension CallCommandTests {
    /// Runs `call` with stdout and stderr on two pseudo-terminals.
    func callOnTerminal(_ arguments: [String], environment: [String: String] = [:]) async throws -> (
        status: Int32, out: String, error: String
    ) {
        let output = try PseudoTerminal()
        let error = try PseudoTerminal()
        var env = ["TEST_SERVER": server.baseURL, "TERM": "xterm-256color"]
        env.merge(environment) { $1 }
        let context = CommandContext.descriptors(
            output: output.follower, error: error.follower, environment: Environment(env))
        let status = await MoyaCLI.run(["call"] + arguments + ["--specs", specs], context: context)
        return (status, output.drain(), error.drain())
    }

    static let blue = "\u{1B}[1;34m"
    static let cyan = "\u{1B}[36m"
    static let reset = "\u{1B}[0m"

    // MARK: - Pretty and colour

    func testTerminalJSONIsPrettyAndColoured() async throws {
        let (status, out, _) = try await callOnTerminal(["calls.stubbed", "--id", "7", "--stub", "immediate"])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(out, "{\n    \(Self.blue)\"id\"\(Self.reset): \(Self.cyan)7\(Self.reset)\n}\n")

        let live = try await callOnTerminal(["calls.plain"])
        XCTAssertTrue(
            live.out.contains("    \(Self.blue)\"method\"\(Self.reset): \u{1B}[32m\"GET\"\(Self.reset)"), live.out)
    }

    func testNoColorAndDumbTerminalsKeepPrettyWithoutColour() async throws {
        let plain = "{\n    \"id\": 7\n}\n"
        let noColor = try await callOnTerminal(
            ["calls.stubbed", "--id", "7", "--stub", "immediate"], environment: ["NO_COLOR": "1"])
        XCTAssertEqual(noColor.out, plain)
        let dumb = try await callOnTerminal(
            ["calls.stubbed", "--id", "7", "--stub", "immediate"], environment: ["TERM": "dumb"])
        XCTAssertEqual(dumb.out, plain)
        let never = try await callOnTerminal(["calls.stubbed", "--id", "7", "--stub", "immediate", "--color", "never"])
        XCTAssertEqual(never.out, plain)
        let always = try await callOnTerminal(
            ["calls.stubbed", "--id", "7", "--stub", "immediate", "--color", "always"], environment: ["NO_COLOR": "1"])
        XCTAssertTrue(always.out.contains(Self.blue), "--color always wins over NO_COLOR")
    }

    func testRawOnATerminalIsByteForByte() async throws {
        let (status, out, _) = try await callOnTerminal(["calls.stubbed", "--id", "7", "--stub", "immediate", "--raw"])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(out, "{\"id\":7}")
    }

    func testPipedOutputIsRawUnlessAsked() async throws {
        let piped = await call(["calls.stubbed", "--id", "7", "--stub", "immediate"])
        XCTAssertEqual(piped.text, "{\"id\":7}")
        let pretty = await call(["calls.stubbed", "--id", "7", "--stub", "immediate", "--pretty"])
        XCTAssertEqual(pretty.text, "{\n    \"id\": 7\n}\n")
        let coloured = await call(["calls.stubbed", "--id", "7", "--stub", "immediate", "--color", "always"])
        XCTAssertEqual(coloured.text, "{\n    \(Self.blue)\"id\"\(Self.reset): \(Self.cyan)7\(Self.reset)\n}\n")
        let both = await call(["calls.stubbed", "--id", "7", "--pretty", "--raw"])
        XCTAssertEqual(both.status, 64)
    }

    func testNonJSONTextIsPrintedAsItCame() async throws {
        let (status, out, _) = try await callOnTerminal(["calls.status", "--code", "404"])
        XCTAssertEqual(status, 4)
        XCTAssertEqual(out, "status 404")
    }

    // MARK: - Include

    func testIncludePrintsTheStatusLineAndHeaders() async throws {
        let outcome = await call(["calls.status", "--code", "200", "-i"])
        XCTAssertEqual(outcome.status, 0)
        XCTAssertEqual(outcome.text, "HTTP/1.1 200 OK\nContent-Length: 10\n\nstatus 200")
        let stub = await call(["calls.stubbed", "--id", "1", "--sample", "missing", "--include"])
        XCTAssertEqual(stub.status, 4)
        XCTAssertEqual(stub.text, "HTTP/1.1 404 Not Found\n\nnope")
    }

    // MARK: - Output files and progress

    func scratchDirectory() throws -> String {
        let directory = NSTemporaryDirectory() + "moya-cli-out-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        return directory
    }

    func testOutputWritesTheBodyAndNothingOnFailure() async throws {
        let directory = try scratchDirectory()
        let live = await call(["calls.status", "--code", "200", "-o", directory + "/ok.txt"])
        XCTAssertEqual(live.status, 0, live.error)
        XCTAssertEqual(live.text, "", "nothing on stdout")
        XCTAssertEqual(try String(contentsOfFile: directory + "/ok.txt", encoding: .utf8), "status 200")
        // -v counts the bytes written to the file, not the empty body kept in memory.
        let logged = await call(["calls.status", "--code", "200", "-o", directory + "/ok.txt", "-v"])
        let responseLine = logged.error.split(separator: "\n").first { $0.hasPrefix("Response:") }
        XCTAssertTrue(responseLine?.hasPrefix("Response: 200 (10 bytes, ") == true, logged.error)

        let failed = await call(["calls.status", "--code", "500", "--output", directory + "/failed.txt"])
        XCTAssertEqual(failed.status, 5)
        let refused = await call(
            ["calls.plain", "-o", directory + "/refused.txt"], environment: ["TEST_SERVER": "http://127.0.0.1:1"])
        XCTAssertEqual(refused.status, 1)
        let dropped = await call(["calls.drop", "-o", directory + "/dropped.txt"])
        XCTAssertEqual(dropped.status, 1)

        let stubbed = await call(["calls.stubbed", "--id", "3", "--stub", "immediate", "-o", directory + "/stub.json"])
        XCTAssertEqual(stubbed.status, 0)
        XCTAssertEqual(try String(contentsOfFile: directory + "/stub.json", encoding: .utf8), "{\"id\":3}")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory).sorted(), ["ok.txt", "stub.json"],
            "no partial or temporary files")
    }

    func testProgressBarOnlyOnATerminal() async throws {
        let directory = try scratchDirectory()
        let terminal = try await callOnTerminal(["calls.drip", "--ms", "60", "-o", directory + "/a.bin"])
        XCTAssertEqual(terminal.status, 0, terminal.error)
        XCTAssertEqual(terminal.out, "")
        XCTAssertTrue(terminal.error.contains("\r\u{1B}[K"), terminal.error)
        XCTAssertTrue(terminal.error.contains(" / 293.0 KiB  "), terminal.error)
        XCTAssertTrue(terminal.error.contains("%  "), terminal.error)
        XCTAssertTrue(terminal.error.contains("ETA 0:0"), terminal.error)
        XCTAssertTrue(
            terminal.error.hasSuffix("293.0 KiB / 293.0 KiB  100%  " + lastRate(terminal.error)), terminal.error)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: directory + "/a.bin")).count, 300_000)

        let piped = await call(["calls.drip", "--ms", "60", "-o", directory + "/b.bin"])
        XCTAssertEqual(piped.status, 0, piped.error)
        XCTAssertEqual(piped.error, "", "no progress bar through a pipe")
    }

    /// The rate and time at the end of the final progress line.
    func lastRate(_ text: String) -> String {
        let line = text.components(separatedBy: "\u{1B}[K").last ?? ""
        return line.components(separatedBy: "100%  ").last ?? ""
    }

    // MARK: - Ctrl-C

    /// SIGINT, SIGTERM and SIGHUP during `-o` each cancel the download, leave no file and end
    /// the real executable by the same signal, after its one error line.
    func testSignalsCancelEndByTheSignalAndLeaveNoFile() throws {
        for (index, (signal, name)) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM"), (SIGHUP, "SIGHUP")].enumerated() {
            let directory = try scratchDirectory()
            let (process, out, error) = try CommandTests.launch(
                ["call", "calls.drip", "--ms", "300", "-o", directory + "/partial.bin", "--specs", specs],
                server: server.baseURL)
            XCTAssertTrue(server.waitForRequests(to: "/drip/", count: index + 1), "downloading")
            XCTAssertTrue(process.isRunning, "still downloading")
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal, name)
            XCTAssertEqual(process.terminationStatus, signal, name)
            XCTAssertEqual(out.fileHandleForReading.readDataToEndOfFile(), Data(), "nothing on stdout")
            XCTAssertEqual(
                String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                "moya-cli: error: calls.drip: the request was cancelled by \(name)\n")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [], "no partial file")
        }
    }

    /// Ctrl-C in a shell loop of calls stops the loop, as it does for curl: the terminal sends
    /// SIGINT to the loop's whole process group, moya-cli cleans up and ends by the signal, and
    /// bash, seeing its command die of the SIGINT it got too, stops. When moya-cli exited 130
    /// instead, bash took the interrupt as handled and ran the next call.
    func testCtrlCStopsAShellLoop() throws {
        let directory = try scratchDirectory()
        let loop = """
            echo $$ > "$1/group"
            for i in 1 2 3; do "$0" call calls.drip --ms 300 -o "$1/body$i" --specs "$2"; echo "after $i"; done
            """
        // setsid gives the loop a process group of its own, led by bash, to signal as a
        // terminal's Ctrl-C does.
        let started = try Launch.start(
            URL(fileURLWithPath: "/usr/bin/setsid"),
            ["bash", "-c", loop, CommandTests.executable.path, directory, specs],
            environment: ["TEST_SERVER": server.baseURL])
        let (process, out, error) = (started.process, started.output, started.error)
        XCTAssertTrue(server.waitForRequests(to: "/drip/"), "in the first call")
        let group = try XCTUnwrap(
            Int32(
                String(contentsOfFile: directory + "/group", encoding: .utf8).trimmingCharacters(
                    in: .whitespacesAndNewlines)))
        XCTAssertTrue(process.isRunning, "still in the first call")
        kill(-group, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(
            String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "",
            "no call after the first")
        XCTAssertEqual(
            String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            "moya-cli: error: calls.drip: the request was cancelled by SIGINT\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), ["group"], "no partial file")
    }

    // MARK: - Large bodies

    /// A body that must be held for --pretty is held only up to 64 MiB: past that it streams
    /// raw, whole, with a note; `check` fails such a body instead of holding it.
    func testABodyPastTheLimitStreamsRawAndFailsACheck() async throws {
        let size = 70_000_000
        let pretty = await call(["calls.stream", "--n", String(size), "--pretty"])
        XCTAssertEqual(pretty.status, 0, pretty.error)
        XCTAssertEqual(pretty.out.count, size, "the whole body, once")
        XCTAssertEqual(
            pretty.error,
            "moya-cli: note: the body is larger than 64 MiB; printing it as it comes, unformatted\n")

        let (status, out, _) = await CommandTests.run(
            ["check", specs, "--only", "calls.stream"], environment: ["TEST_SERVER": server.baseURL])
        XCTAssertEqual(status, 1)
        XCTAssertTrue(
            out.contains("request: the response body is larger than 64 MiB, the most that is held in memory"), out)
    }

    // MARK: - Destinations

    /// `-o` to a character device writes to it and leaves it a device.
    func testOutputToADeviceWritesInPlace() async throws {
        let directory = try scratchDirectory()
        let device = directory + "/null"
        // The null device, 1:3 (makedev packs small numbers as major << 8 | minor); making one needs root, which CI has.
        guard mknod(device, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0 else {
            throw XCTSkip("mknod needs root")
        }
        let outcome = await call(["calls.json", "--name", "Ann", "-o", device])
        XCTAssertEqual(outcome.status, 0, outcome.error)
        var info = stat()
        XCTAssertEqual(lstat(device, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR, "still a character device")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), ["null"], "no temporary file")
    }

    /// `-o` to a FIFO writes the body to its reader and leaves it a FIFO.
    func testOutputToAFIFOFeedsItsReader() async throws {
        let directory = try scratchDirectory()
        let fifo = directory + "/pipe"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // The reader has the FIFO open before the call (a FIFO nothing reads is an error): a
        // non-blocking open returns at once, then reads block again. A writer of the test's own
        // keeps the reader from an end of file until the call has written.
        let descriptor = open(fifo, O_RDONLY | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        let holder = open(fifo, O_WRONLY | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(holder, 0)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        let received = Mutex<Data?>(nil)
        let done = DispatchSemaphore(value: 0)
        let reader = Thread {
            let data = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).readDataToEndOfFile()
            received.withLock { $0 = data }
            done.signal()
        }
        reader.start()
        let outcome = await call(["calls.json", "--name", "Ann", "-o", fifo])
        XCTAssertEqual(outcome.status, 0, outcome.error)
        close(holder)
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "the reader saw the end")
        let echo = try XCTUnwrap(received.withLock { $0 })
        XCTAssertEqual(
            (try JSONSerialization.jsonObject(with: echo) as? [String: Any])?["body"] as? String,
            #"{"name":"Ann","tags":["a","b"]}"#)
        var info = stat()
        XCTAssertEqual(lstat(fifo, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "still a FIFO")
    }

    /// `-o` to a FIFO nothing reads fails at once instead of waiting forever.
    func testOutputToAFIFOWithoutAReaderFails() async throws {
        let directory = try scratchDirectory()
        let fifo = directory + "/pipe"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let outcome = await call(["calls.json", "--name", "Ann", "-o", fifo])
        XCTAssertEqual(outcome.status, 73)
        XCTAssertEqual(
            outcome.error, "moya-cli: error: calls.json: cannot write \(fifo): nothing is reading the FIFO\n")
    }

    /// An `--output` file that cannot be written is exit 73, as every other file moya-cli
    /// cannot write is, whether the response came from the server or from a sample.
    func testAnOutputFileThatCannotBeWrittenIsExit73() async throws {
        let directory = try scratchDirectory()
        let path = directory + "/missing/folder/body.json"
        for arguments in [["calls.json", "--name", "Ann"], ["calls.stubbed", "--id", "3", "--stub", "immediate"]] {
            let outcome = await call(arguments + ["-o", path])
            XCTAssertEqual(outcome.status, 73, outcome.error)
            XCTAssertTrue(
                outcome.error.hasPrefix(
                    "moya-cli: error: \(arguments[0]): cannot create \(directory)/missing/folder/.body.json.moya-"),
                outcome.error)
            XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/missing"))
        }
    }

    /// `-o` through a symlink writes its target and leaves the link a link.
    func testOutputThroughASymlinkWritesItsTarget() async throws {
        let directory = try scratchDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/real", withIntermediateDirectories: true)
        try "old".write(toFile: directory + "/real/body.json", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: "real/body.json")
        let outcome = await call(["calls.json", "--name", "Ann", "-o", directory + "/link"])
        XCTAssertEqual(outcome.status, 0, outcome.error)
        XCTAssertEqual(
            try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/link"), "real/body.json",
            "still a link")
        let written = try String(contentsOfFile: directory + "/real/body.json", encoding: .utf8)
        XCTAssertTrue(written.contains(#"\"name\":\"Ann\""#), written)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory + "/real"), ["body.json"])
    }
}
