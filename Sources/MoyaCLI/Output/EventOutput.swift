import MoyaCommandSupport
import MoyaHTTP
import MoyaSpec
import MoyaStreams
import Synchronization

/// Prints a stream's events as they arrive: each chunk's events in one write, so an event is on
/// stdout as soon as the bytes that end it are read.
final class EventOutput: EventSink {
    private let context: CommandContext
    private let format: EventFormat
    private let renderer: ResponseRenderer
    private let pending = Mutex<[UInt8]>([])

    init(context: CommandContext, format: EventFormat, renderer: ResponseRenderer) {
        self.context = context
        self.format = format
        self.renderer = renderer
    }

    /// With `-i`, the head, before the first event.
    func open(_ head: ResponseHead, kind: StreamKind) {
        if renderer.include { context.writeOut(renderer.head(of: head)) }
    }

    /// Takes one event.
    func take(_ event: StreamEvent) {
        pending.withLock { pending in
            switch format {
            case .json:
                event.writeJSONLine(into: &pending)
            case .data, .raw:
                var data = event.data
                data.withUTF8 { pending.append(contentsOf: $0) }
                pending.append(0x0A)
            }
        }
    }

    /// Writes what was taken since the last flush.
    func flush() {
        let bytes = pending.withLock { pending in
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
        if !bytes.isEmpty { context.writeOut(bytes) }
    }

    /// The one line `-v` prints when a stream ends.
    static func summary(_ summary: EventReader.Summary) -> String {
        let events = summary.events == 1 ? "1 event" : "\(summary.events) events"
        return "moya-cli: stream (\(summary.kind.rawValue)): \(events), \(summary.bytes) bytes in "
            + FixedPoint.format(summary.seconds, places: 3) + " s; ended by \(summary.stop.rawValue)"
    }

    /// The failure a stream ended by a default bound is, naming the server and the bound.
    static func failure(_ summary: EventReader.Summary, target: String, server: String) -> StreamStopped? {
        if let said = summary.failure {
            return StreamStopped("\(target): the WebSocket script failed at \(said)", timedOut: false)
        }
        return summary.defaultBoundReason(server: server).map {
            StreamStopped("\(target): " + $0, timedOut: summary.stop == .idle)
        }
    }
}
