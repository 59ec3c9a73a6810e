import Foundation
import Synchronization

/// The one way the tests start a program: the built `moya-cli` (or another product of the
/// package) for what only a process shows (signals, stdio framing, an exec hand-over), or a
/// program on the test's PATH. Its environment is exactly what the test gives, plus a PATH,
/// so that nothing of the machine's leaks into what is compared.
public enum Launch {
    /// A started program and its three streams.
    public struct Started: @unchecked Sendable {
        public let process: Process
        public let input: Pipe
        public let output: Pipe
        public let error: Pipe
    }

    /// A product of this package (`moya-cli`, `moya-cli-tools`, `spec-client-example`), built
    /// beside the test bundle.
    public static func product(_ name: String = "moya-cli") -> URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent(name)
        return FileManager.default.fileExists(atPath: beside.path)
            ? beside : beside.deletingLastPathComponent().appendingPathComponent(name)
    }

    /// `name` as the test's PATH finds it, started through `/usr/bin/env`.
    public static func onPath(_ name: String) -> (URL, [String]) {
        (URL(fileURLWithPath: "/usr/bin/env"), [name])
    }

    /// Starts `program` with `arguments`: its environment `environment` and a PATH of
    /// `/usr/bin:/bin` unless it names one (nil inherits the test's own), in `directory` when
    /// given; stdin, stdout and stderr piped.
    public static func start(
        _ program: URL = product(), _ arguments: [String], environment: [String: String]? = [:],
        in directory: String? = nil
    ) throws -> Started {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.environment = environment.map { ["PATH": "/usr/bin:/bin"].merging($0) { $1 } }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let started = Started(process: process, input: Pipe(), output: Pipe(), error: Pipe())
        process.standardInput = started.input
        process.standardOutput = started.output
        process.standardError = started.error
        try process.run()
        return started
    }

    /// Runs `program` to its end with `input` on its stdin: its status, stdout and stderr,
    /// both read at once so that neither pipe fills while the other is read.
    public static func run(
        _ program: URL = product(), _ arguments: [String], environment: [String: String]? = [:],
        in directory: String? = nil, input: Data = Data()
    ) throws -> (status: Int32, out: String, error: String) {
        let started = try start(program, arguments, environment: environment, in: directory)
        started.input.fileHandleForWriting.write(input)
        try started.input.fileHandleForWriting.close()
        let errorData = Mutex(Data())
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            let data = started.error.fileHandleForReading.readDataToEndOfFile()
            errorData.withLock { $0 = data }
        }
        let outData = started.output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        started.process.waitUntilExit()
        return (
            started.process.terminationStatus, String(decoding: outData, as: UTF8.self),
            errorData.withLock { String(decoding: $0, as: UTF8.self) }
        )
    }
}
