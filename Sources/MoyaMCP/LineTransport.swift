import Logging
import MCP
import MoyaCore
import Synchronization

import struct Foundation.Data

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// MCP's stdio transport: one JSON-RPC message per line on the input, one per line on the
/// output, nothing else on either. The SDK's own polls a non-blocking descriptor every 10 ms
/// and takes lines of any length; this one blocks a thread of its own on `read`, so a message
/// is handled as it arrives, and refuses a line over `frameLimit` bytes with a JSON-RPC error
/// instead of holding it.
public actor LineTransport: Transport {
    public nonisolated let logger = Logger(label: "moya-cli.mcp", factory: { _ in SwiftLogNoOpLogHandler() })
    /// The longest message taken: 4 MiB.
    public static let frameLimit = 4 << 20

    private let input: Int32
    private let output: Int32
    private let stream: AsyncThrowingStream<Data, any Error>
    private let frames: Frames
    private var started = false

    /// A transport over the descriptors `input` and `output`, stdin and stdout by default.
    /// `answering` answers the messages it returns a response for itself, ahead of the SDK
    /// (see `ToolServer.answer`); `handling` takes the requests it returns work for, whose
    /// result is the response, sent when the work ends (see `ToolServer.handle`).
    public init(
        input: Int32 = 0, output: Int32 = 1, answering: (@Sendable (JSONValue) -> JSONValue?)? = nil,
        handling: (@Sendable (JSONValue) -> (@Sendable () async -> JSONValue)?)? = nil
    ) {
        self.input = input
        self.output = output
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
        self.stream = stream
        frames = Frames(continuation: continuation, answering: answering, handling: handling)
    }

    public func connect() async throws {
        guard !started else { return }
        started = true
        let (input, output, frames) = (self.input, self.output, self.frames)
        let thread = ReaderThread {
            Self.readLines(from: input, into: frames) { data in
                // A refusal or a direct answer, written from the reader's thread: the same
                // lock as every send.
                frames.send(data, to: output)
            }
        }
        thread.start()
    }

    public func disconnect() async {
        frames.finish()
    }

    /// Writes `data` and a newline as one message, whole, even where the descriptor takes it
    /// in parts.
    public func send(_ data: Data) async throws {
        if let failure = frames.send(data, to: output) { throw MCPError.transportError(failure) }
    }

    public func receive() -> AsyncThrowingStream<Data, any Error> { stream }

    struct WriteFailure: Error, CustomStringConvertible {
        var code: Int32
        var description: String { "cannot write to stdout: " + String(cString: strerror(code)) }
    }

    /// A JSON-RPC error with no id, for a message that cannot be read.
    static func error(code: Int, _ message: String) -> Data {
        let body = JSONValue.object([
            ("jsonrpc", .string("2.0")), ("id", .null),
            ("error", .object([("code", .integer(code)), ("message", .string(message))])),
        ])
        return Data(body.serialized(escapeSlashes: false).utf8)
    }

    /// Reads lines until the input closes, handing each non-empty one on, or replying to it
    /// (`Frames.answering`). A line that grows over the limit is dropped up to its newline and refused; a line that is not JSON is
    /// refused with JSON-RPC's parse error and id null, as the SDK would answer it with a
    /// made-up id.
    static func readLines(from input: Int32, into frames: Frames, reply: @escaping @Sendable (Data) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var pending: [UInt8] = []
        var skipping = false
        var skipped = 0
        func take(_ line: [UInt8]) {
            guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\r") && $0 != 9 }) else {
                return
            }
            guard let message = try? JSONValue(parsing: Data(line)) else {
                reply(error(code: -32700, "parse error: the message is not JSON"))
                return
            }
            if let refusal = refusal(of: message) {
                reply(error(code: -32600, refusal))
                return
            }
            if let answer = frames.answering?(message) {
                reply(Data(answer.serialized(escapeSlashes: false).utf8))
                return
            }
            if let id = message["id"], let work = frames.handling?(message) {
                frames.awaiting(id)
                _Concurrency.Task {
                    let answer = await work()
                    reply(Data(answer.serialized(escapeSlashes: false).utf8))
                }
                return
            }
            frames.received(message, Data(line))
        }
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            var start = 0
            while start < count {
                guard let newline = buffer[start..<count].firstIndex(of: UInt8(ascii: "\n")) else {
                    if skipping {
                        skipped += count - start
                    } else {
                        pending.append(contentsOf: buffer[start..<count])
                        if pending.count > frameLimit {
                            skipping = true
                            skipped = pending.count
                            pending = []
                        }
                    }
                    break
                }
                if skipping {
                    skipping = false
                    reply(oversize(skipped + newline - start))
                } else {
                    pending.append(contentsOf: buffer[start..<newline])
                    if pending.count > frameLimit { reply(oversize(pending.count)) } else { take(pending) }
                    pending.removeAll(keepingCapacity: pending.count <= 1 << 16)
                }
                start = newline + 1
            }
        }
        frames.inputClosed()
    }

    /// Why a message is not a JSON-RPC message the server can answer, or nil when it is one:
    /// an id must be a string or a number (JSON-RPC 2.0 section 4), else no response could
    /// name the request, and the server would wait for one forever.
    static func refusal(of message: JSONValue) -> String? {
        let items: [JSONValue]
        if case .array(let batch) = message { items = batch } else { items = [message] }
        for item in items {
            guard case .object = item else { return "invalid request: a message must be a JSON object" }
            switch item["id"] {
            case nil, .string?, .integer?, .number?: continue
            case .null? where item["method"] == nil: continue
            default: return "invalid request: an id must be a string or a number"
            }
        }
        return nil
    }

    static func oversize(_ size: Int) -> Data {
        error(code: -32600, "message refused: \(size) bytes, over the \(frameLimit >> 20) MiB limit")
    }
}

/// The messages between the reader's thread and the server: the stream they go on, the
/// requests not yet answered, and the one lock writes take. When the input closes, the stream
/// ends once every request has its answer, so that closing stdin after the last request
/// still gets its response.
final class Frames: Sendable {
    private struct State {
        var unanswered: Set<String> = []
        var inputClosed = false
        var finished = false
    }

    private let state = Mutex(State())
    private let writing = Mutex(())
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    /// Answers some messages before the SDK sees them.
    let answering: (@Sendable (JSONValue) -> JSONValue?)?
    /// Takes some requests before the SDK sees them, and answers them when their work ends.
    let handling: (@Sendable (JSONValue) -> (@Sendable () async -> JSONValue)?)?

    init(
        continuation: AsyncThrowingStream<Data, any Error>.Continuation,
        answering: (@Sendable (JSONValue) -> JSONValue?)?,
        handling: (@Sendable (JSONValue) -> (@Sendable () async -> JSONValue)?)? = nil
    ) {
        self.continuation = continuation
        self.answering = answering
        self.handling = handling
    }

    /// A request taken by `handling`, answered later: the input's end waits for its answer.
    func awaiting(_ id: JSONValue) {
        state.withLock { _ = $0.unanswered.insert(id.serialized()) }
    }

    /// A message from the input: its requests are awaited, a cancellation releases one.
    func received(_ message: JSONValue, _ data: Data) {
        let items: [JSONValue]
        if case .array(let batch) = message { items = batch } else { items = [message] }
        state.withLock { state in
            for item in items {
                guard case .string(let method) = item["method"] ?? .null else { continue }
                if let id = item["id"], id != .null {
                    state.unanswered.insert(id.serialized())
                } else if method == "notifications/cancelled", let id = item["params"]?["requestId"] {
                    state.unanswered.remove(id.serialized())
                }
            }
        }
        continuation.yield(data)
        finishIfDone()
    }

    /// Writes one message and a newline, whole; a response answers its request.
    @discardableResult
    func send(_ data: Data, to output: Int32) -> (any Error)? {
        var bytes = [UInt8](data)
        bytes.append(UInt8(ascii: "\n"))
        let failure: (any Error)? = writing.withLock { _ in
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return LineTransport.WriteFailure(code: errno)
                }
                offset += written
            }
            return nil
        }
        if let message = try? JSONValue(parsing: data) {
            let items: [JSONValue]
            if case .array(let batch) = message { items = batch } else { items = [message] }
            state.withLock { state in
                for item in items where item["method"] == nil {
                    if let id = item["id"] { state.unanswered.remove(id.serialized()) }
                }
            }
        }
        finishIfDone()
        return failure
    }

    func inputClosed() {
        state.withLock { $0.inputClosed = true }
        finishIfDone()
    }

    /// Ends the stream now.
    func finish() {
        state.withLock { $0.finished = true }
        continuation.finish()
    }

    private func finishIfDone() {
        let done = state.withLock { state in
            guard state.inputClosed, state.unanswered.isEmpty, !state.finished else { return false }
            state.finished = true
            return true
        }
        if done { continuation.finish() }
    }
}

/// A thread of its own for a blocking loop, off Swift's cooperative pool.
final class ReaderThread: @unchecked Sendable {
    private let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }

    func start() {
        let box = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { argument in
                guard let argument else { return nil }
                let reader = Unmanaged<ReaderThread>.fromOpaque(argument).takeRetainedValue()
                reader.body()
                return nil
            }, box.toOpaque())
        if created == 0 {
            pthread_detach(thread)
        } else {
            // No thread: run the loop on this one rather than never read.
            box.release()
            body()
        }
    }
}
