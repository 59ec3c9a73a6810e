import MoyaHTTP
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// MCP's stdio transport: one JSON-RPC message per line on the input, one per line on the
/// output, nothing else on either. A thread of its own blocks on `read`, so a message is
/// handled as it arrives; a line over `frameLimit` bytes is refused with a JSON-RPC error
/// instead of held. Each request's work runs in a task of its own, which
/// `notifications/cancelled` cancels (its answer is then not sent, as MCP asks); when the
/// input closes, serving ends once every request taken has its answer.
public final class LineTransport: Sendable {
    /// The longest message taken: 4 MiB.
    public static let frameLimit = 4 << 20

    private struct State {
        /// The requests taken and not yet answered, by their id as JSON.
        var unanswered: Set<String> = []
        /// Their work, once it has started.
        var tasks: [String: _Concurrency.Task<Void, Never>] = [:]
        var inputClosed = false
        var finished = false
        var done: CheckedContinuation<Void, Never>?
    }

    private let input: Int32
    private let output: Int32
    private let state = Mutex(State())
    /// The one lock every write takes, so that messages never interleave.
    private let writing = Mutex(())

    /// A transport over the descriptors `input` and `output`, stdin and stdout by default.
    public init(input: Int32 = 0, output: Int32 = 1) {
        self.input = input
        self.output = output
    }

    /// Reads messages and writes what `reply` answers, until the input closes and every
    /// request has its answer, stdout cannot be written, or the task is cancelled.
    public func serve(_ reply: @escaping @Sendable (JSONValue) -> Reply) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // A task cancelled before it got here (the server's start failed at once) has
                // run `finish` already, which found no continuation to resume: it ends now,
                // and reads nothing.
                let finished = state.withLock { state in
                    if !state.finished { state.done = continuation }
                    return state.finished
                }
                if finished {
                    continuation.resume()
                    return
                }
                ReaderThread { [self] in readLines { message in take(message, reply) } }.start()
            }
        } onCancel: {
            finish()
        }
    }

    /// One message read whole: answered now, or its work started.
    private func take(_ message: JSONValue, _ reply: @Sendable (JSONValue) -> Reply) {
        if message["method"] == .string("notifications/cancelled"), message["id"] == nil {
            if let id = message["params"]?["requestId"] { cancel(id.serialized()) }
            return
        }
        switch reply(message) {
        case .none: return
        case .now(let answer): send(answer)
        case .later(let id, let work):
            let key = id.serialized()
            let taken = state.withLock { $0.unanswered.insert(key).inserted }
            guard taken else {
                send(RPCError.invalidRequest("invalid request: id \(key) is already in use").response(to: id))
                return
            }
            let task = _Concurrency.Task { [self] in
                let answer = await work()
                answered(key, answer)
            }
            state.withLock { state in
                if state.unanswered.contains(key) { state.tasks[key] = task }
            }
        }
    }

    /// Writes a request's answer, unless the client cancelled it.
    private func answered(_ key: String, _ answer: JSONValue) {
        guard state.withLock({ $0.unanswered.contains(key) }) else { return }
        send(answer)
        state.withLock { state in
            state.unanswered.remove(key)
            state.tasks[key] = nil
        }
        finishIfDone()
    }

    /// `notifications/cancelled`: the request's work is cancelled and its answer not sent.
    private func cancel(_ key: String) {
        let task: _Concurrency.Task<Void, Never>?? = state.withLock { state in
            guard state.unanswered.remove(key) != nil else { return nil }
            return state.tasks.removeValue(forKey: key)
        }
        guard let task else { return }
        task?.cancel()
        finishIfDone()
    }

    /// Writes one message and a newline, whole, even where the descriptor takes it in parts.
    /// stdout that cannot be written ends serving: no client is reading.
    private func send(_ message: JSONValue) {
        var bytes = Array(message.serialized(escapeSlashes: false).utf8)
        bytes.append(UInt8(ascii: "\n"))
        let written: Bool = writing.withLock { _ in
            var offset = 0
            while offset < bytes.count {
                let count = bytes[offset...].withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        if !written { finish() }
    }

    private func finishIfDone() {
        let done = state.withLock { state in state.inputClosed && state.unanswered.isEmpty }
        if done { finish() }
    }

    /// Ends serving now; work still running is cancelled.
    private func finish() {
        let (done, tasks) = state.withLock { state in
            let done = state.finished ? nil : state.done
            state.finished = true
            state.done = nil
            let tasks = Array(state.tasks.values)
            state.tasks = [:]
            return (done, tasks)
        }
        for task in tasks { task.cancel() }
        done?.resume()
    }

    /// Reads lines until the input closes, handing each message on. A line that grows over
    /// the limit is dropped up to its newline and refused; a line that is not JSON is refused
    /// with JSON-RPC's parse error and id null, as is one no response could name.
    private func readLines(_ handle: (JSONValue) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var pending: [UInt8] = []
        var skipping = false
        var skipped = 0
        func take(_ line: [UInt8]) {
            guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\r") && $0 != 9 }) else {
                return
            }
            guard let message = try? JSONValue(parsing: Data(line)) else {
                send(
                    RPCError(code: RPCError.parseError, message: "parse error: the message is not JSON").response(
                        to: .null))
                return
            }
            if let refusal = Self.refusal(of: message) {
                send(RPCError.invalidRequest(refusal).response(to: .null))
                return
            }
            handle(message)
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
                        if pending.count > Self.frameLimit {
                            skipping = true
                            skipped = pending.count
                            pending = []
                        }
                    }
                    break
                }
                if skipping {
                    skipping = false
                    send(Self.oversize(skipped + newline - start))
                } else {
                    pending.append(contentsOf: buffer[start..<newline])
                    if pending.count > Self.frameLimit { send(Self.oversize(pending.count)) } else { take(pending) }
                    pending.removeAll(keepingCapacity: pending.count <= 1 << 16)
                }
                start = newline + 1
            }
        }
        state.withLock { $0.inputClosed = true }
        finishIfDone()
    }

    /// Why a message is not a JSON-RPC message the server can answer, or nil when it is one:
    /// one object per line (MCP has no batches since 2025-06-18), whose id is a string or a
    /// number (JSON-RPC 2.0 section 4), else no response could name the request, and the
    /// client would wait for one forever.
    static func refusal(of message: JSONValue) -> String? {
        if case .array = message { return "invalid request: a batch; MCP takes one message per line" }
        guard case .object = message else { return "invalid request: a message must be a JSON object" }
        switch message["id"] {
        case nil, .string?, .integer?, .number?: return nil
        case .null? where message["method"] == nil: return nil
        default: return "invalid request: an id must be a string or a number"
        }
    }

    static func oversize(_ size: Int) -> JSONValue {
        RPCError.invalidRequest("message refused: \(size) bytes, over the \(frameLimit >> 20) MiB limit")
            .response(to: .null)
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
