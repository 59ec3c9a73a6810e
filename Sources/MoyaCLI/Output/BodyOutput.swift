import MoyaHTTP
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where a live call's body goes as it arrives.
///
/// Raw output (piped, no `--key-path`, not pretty) passes each chunk straight to stdout, so
/// a body of any size streams in constant memory. Output that needs the whole body (pretty,
/// `--key-path`, `-vv`) is held up to `limit` bytes; past it, a note goes to stderr and the
/// body is streamed raw from there on, never held without bound.
final class BodyOutput: ResponseStream {
    /// The most a body is held for pretty-printing or `--key-path`: 64 MiB.
    static let limit = 64 << 20

    private struct State {
        var head: ResponseHead?
        var held = Data()
        var streaming: Bool
    }

    private let context: CommandContext
    private let renderer: ResponseRenderer
    private let state: Mutex<State>

    /// `streaming` passes chunks straight on from the start; otherwise they are held up to
    /// `limit`.
    init(context: CommandContext, renderer: ResponseRenderer, streaming: Bool) {
        self.context = context
        self.renderer = renderer
        state = Mutex(State(streaming: streaming))
    }

    func receive(head: ResponseHead) throws {
        let streaming = state.withLock { state in
            state.head = head
            return state.streaming
        }
        if streaming, renderer.include { context.writeOut(renderer.head(of: head)) }
    }

    private enum Step {
        case pass
        case hold
        case overflow(head: ResponseHead?, held: Data)
    }

    func receive(_ bytes: UnsafeRawBufferPointer) throws {
        let step: Step = state.withLock { state in
            if state.streaming { return .pass }
            if bytes.count <= Self.limit - state.held.count {
                state.held.append(contentsOf: bytes)
                return .hold
            }
            state.streaming = true
            defer { state.held = Data() }
            return .overflow(head: state.head, held: state.held)
        }
        switch step {
        case .pass:
            context.writeOut(Array(bytes))
        case .hold:
            break
        case .overflow(let head, let held):
            context.errorLine(
                "moya-cli: note: the body is larger than \(ByteCount.format(Self.limit)); printing it as it comes, unformatted"
            )
            if renderer.include, let head { context.writeOut(renderer.head(of: head)) }
            context.writeOut(Array(held))
            context.writeOut(Array(bytes))
        }
    }

    /// Whether the body has been written already, as it came.
    var hasStreamed: Bool { state.withLock { $0.streaming } }

    /// `response` with the body that was held, for printing whole.
    func held(_ response: Response) -> Response {
        Response(
            statusCode: response.statusCode, data: state.withLock { $0.held }, request: response.request,
            response: response.response)
    }
}
