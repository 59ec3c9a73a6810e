import MoyaHTTP
import NIOCore
import NIOHTTP1

/// What every connection of a server shares.
struct ServerShared: Sendable {
    let configuration: ServerConfiguration
    let table: ConnectionTable
    let buffered: BufferedBytes?
}

/// A responder with its ticket's type erased, so that a connection's handler is one concrete
/// class, compiled once and specialized, rather than generic code that looks up metadata for
/// each request.
final class AnyResponder: Sendable {
    let admit: @Sendable (ServerRequest) -> ServerAdmission<any Sendable>
    let respond: @Sendable (ServerRequest, any Sendable) -> ServerReply
    let refusal: @Sendable (ServerRefusal, ServerRequest?) -> ServerResponse
    let socket: @Sendable (ServerRequest) -> ServerSocket?

    init<Responder: HTTPResponder>(_ responder: Responder) {
        socket = { responder.socket(for: $0) }
        admit = { Self.erase(responder.admit($0)) }
        respond = { request, ticket in
            guard let ticket = ticket as? Responder.Ticket else { return .now(.send(500, closesConnection: true)) }
            return responder.respond(to: request, ticket: ticket)
        }
        refusal = { responder.refusal($0, to: $1) }
    }

    private static func erase<Ticket>(_ admission: ServerAdmission<Ticket>) -> ServerAdmission<any Sendable> {
        switch admission {
        case .proceed(let ticket): .proceed(ticket)
        case .answer(let response): .answer(response)
        case .later(let decide): .later { erase(await decide()) }
        }
    }
}

/// One connection: each request admitted by its head, read whole and answered, in order (NIO's
/// pipelining handler holds the next request until the answer before it is sent). A request
/// answered by its head is answered without its body being read, and, unless it ended already,
/// its connection is closed: a stranger's body is never buffered.
final class ConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private enum State {
        /// Waiting for a request's head, or for the answer to the last one.
        case waiting
        /// Its head is being decided; reading stops meanwhile.
        case admitting
        case admitted(any Sendable)
        /// Answered by its head, with no body to wait for: the answer goes at its end.
        case answering(ServerResponse)
        /// Answered by its head: what is left of it is dropped.
        case dropping
    }

    private let responder: AnyResponder
    private let shared: ServerShared
    private var state = State.waiting
    private var head: HTTPRequestHead?
    private var request: ServerRequest?
    private var ended = false
    private var body: ByteBuffer?
    /// The bytes counted in `shared.buffered` for this connection's request.
    private var held = 0
    private var tooLarge = false
    private var paused = false
    /// Which request of the connection is being read, so that work finishing late finds out
    /// it is for one no longer there.
    private var generation = 0
    /// The request being answered, cancelled if the client goes away.
    private var work: _Concurrency.Task<Void, Never>?
    private var timer: Scheduled<Void>?
    private var servedOne = false
    /// Whether the connection closes when the request being dropped ends.
    private var closesAtEnd = false

    init(responder: AnyResponder, shared: ServerShared) {
        self.responder = responder
        self.shared = shared
    }

    private var timeouts: ServerConfiguration.Timeouts { shared.configuration.timeouts }

    func channelActive(context: ChannelHandlerContext) {
        if let excess = shared.table.opened(context.channel) {
            excess.close(promise: nil)
            if excess === context.channel { return }
        }
        closeAfter(timeouts.firstHead, context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        shared.table.closed(context.channel)
        timer?.cancel()
        work?.cancel()
        release()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// Taken out when the connection becomes a WebSocket, which counts it from then on.
    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        work?.cancel()
        release()
    }

    /// Closes the connection after `time` unless something else is set first.
    private func closeAfter(_ time: TimeAmount, _ context: ChannelHandlerContext) {
        timer?.cancel()
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: time) { bound.value.close(promise: nil) }
    }

    /// Drops the body held and what it counted.
    private func release() {
        if held > 0 { shared.buffered?.give(held) }
        held = 0
        body = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            release()
            tooLarge = false
            ended = false
            generation += 1
            closeAfter(timeouts.body, context)
            let request = ServerRequest(
                method: head.method.rawValue, uri: head.uri, headers: head.headers.map { ($0.name, $0.value) },
                remoteAddress: context.channel.remoteAddress)
            self.request = request
            settle(responder.admit(request), context)
        case .body(var chunk):
            switch state {
            case .admitting, .admitted: break
            case .waiting, .answering, .dropping: return
            }
            guard !tooLarge else { return }
            let count = chunk.readableBytes
            if (body?.readableBytes ?? 0) + count > shared.configuration.maximumBodyBytes {
                tooLarge = true
                release()
            } else if let buffered = shared.buffered, !buffered.take(count) {
                // Every connection's bodies together are over their bound: this one is told to
                // come back, the rest of its body dropped unread, and closed at its end.
                state = .dropping
                release()
                if let head {
                    send(
                        responder.refusal(.busy, request), for: head, keepAlive: false, closesAtEnd: true,
                        context: context)
                }
            } else {
                if shared.buffered != nil { held += count }
                if body == nil { body = chunk } else { body?.writeBuffer(&chunk) }
            }
        case .end:
            ended = true
            switch state {
            case .dropping:
                state = .waiting
                if closesAtEnd { context.close(promise: nil) }
            case .answering(let response):
                state = .waiting
                if let head { deliver(response, for: head, context: context) }
            default: respondIfReady(context)
            }
        }
    }

    /// What the head decided: an answer now, the body to read, or work to wait for.
    private func settle(_ admission: ServerAdmission<any Sendable>, _ context: ChannelHandlerContext) {
        switch admission {
        case .proceed(let ticket):
            state = .admitted(ticket)
            resumeReading(context)
            respondIfReady(context)
        case .answer(let response):
            release()
            guard let head else { return }
            if !ended, !response.closesConnection, !Self.hasBody(head) {
                state = .answering(response)
                return
            }
            // A client whose body was not read is closed.
            state = ended ? .waiting : .dropping
            var response = response
            if !ended { response.closesConnection = true }
            resumeReading(context)
            deliver(response, for: head, context: context)
        case .later(let decide):
            state = .admitting
            paused = true
            try? context.channel.syncOptions?.setOption(.autoRead, value: false)
            let generation = self.generation
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let loop = context.eventLoop
            _Concurrency.Task {
                let admission = await decide()
                loop.execute {
                    let (handler, context) = bound.value
                    guard handler.generation == generation, case .admitting = handler.state else { return }
                    handler.settle(admission, context)
                }
            }
        }
    }

    /// Reads again what an admission that waited stopped reading.
    private func resumeReading(_ context: ChannelHandlerContext) {
        guard paused else { return }
        paused = false
        try? context.channel.syncOptions?.setOption(.autoRead, value: true)
    }

    private func respondIfReady(_ context: ChannelHandlerContext) {
        guard ended, case .admitted(let ticket) = state, let head, var request else { return }
        state = .waiting
        self.head = nil
        self.request = nil
        timer?.cancel()
        timer = nil
        shared.table.setBusy(context.channel, true)
        servedOne = true
        if tooLarge {
            var refusal = responder.refusal(.tooLarge(limit: shared.configuration.maximumBodyBytes), request)
            refusal.closesConnection = true
            deliver(refusal, for: head, context: context)
            return
        }
        request.body = body.map { Array($0.readableBytesView) } ?? []
        body = nil
        switch responder.respond(request, ticket) {
        case .now(let response):
            release()
            deliver(response, for: head, context: context)
        case .later(let answer):
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let loop = context.eventLoop
            work = _Concurrency.Task {
                let response = await answer()
                loop.execute {
                    let (handler, context) = bound.value
                    handler.work = nil
                    handler.release()
                    handler.deliver(response, for: head, context: context)
                }
            }
        }
    }

    /// Acts now, or after the response's delay, during which the connection counts as idle.
    private func deliver(_ response: ServerResponse, for head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard let delay = response.delay, delay > .zero else {
            perform(response, for: head, context: context)
            return
        }
        shared.table.setBusy(context.channel, false)
        let (seconds, attoseconds) = delay.components
        let nanoseconds = min(seconds, 86_400) * 1_000_000_000 + attoseconds / 1_000_000_000
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) {
            let (handler, context) = bound.value
            handler.perform(response, for: head, context: context)
        }
    }

    private func perform(_ response: ServerResponse, for head: HTTPRequestHead, context: ChannelHandlerContext) {
        switch response.action {
        case .close:
            response.performed?()
            context.close(promise: nil)
        case .hang:
            response.performed?()
            shared.table.setBusy(context.channel, false)
            closeAfter(timeouts.nextHead, context)
        case .send:
            send(response, for: head, keepAlive: head.isKeepAlive && !response.closesConnection, context: context)
            // Once the answer is on its way, not before.
            response.performed?()
        case .stream(let status, let headers, let parts):
            var fields = NIOHTTP1.HTTPHeaders()
            for (name, value) in headers where !name.isHeaderName("content-length") {
                fields.add(name: name, value: value)
            }
            fields.replaceOrAdd(name: "Connection", value: "close")
            let responseHead = HTTPResponseHead(
                version: head.version, status: HTTPResponseStatus(statusCode: status), headers: fields)
            context.writeAndFlush(wrapOutboundOut(.head(responseHead)), promise: nil)
            response.performed?()
            // The parts go one after another, each after its delay; meanwhile the connection
            // counts as idle, as during a delay, and a client that leaves ends the stream.
            shared.table.setBusy(context.channel, false)
            streamParts(parts[...], sendsBody: head.method != .HEAD, context: context)
        }
    }

    /// Sends the next of a stream's parts after its delay, then the rest; after the last, the
    /// end, and the connection closes.
    private func streamParts(
        _ parts: ArraySlice<(delay: Duration, bytes: [UInt8])>, sendsBody: Bool, context: ChannelHandlerContext
    ) {
        guard context.channel.isActive else { return }
        guard let part = parts.first, sendsBody else {
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
            return
        }
        let write = { (context: ChannelHandlerContext) in
            if !part.bytes.isEmpty {
                context.writeAndFlush(
                    self.wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: part.bytes)))),
                    promise: nil)
            }
            self.streamParts(parts.dropFirst(), sendsBody: sendsBody, context: context)
        }
        guard part.delay > .zero else {
            write(context)
            return
        }
        let (seconds, attoseconds) = part.delay.components
        let nanoseconds = min(seconds, 86_400) * 1_000_000_000 + attoseconds / 1_000_000_000
        let bound = NIOLoopBound((write, context), eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) {
            let (write, context) = bound.value
            write(context)
        }
    }

    /// Writes a response to `request`; unless `keepAlive`, says so and closes the connection
    /// once it is sent, or, with `closesAtEnd`, once the request's body has come in (and been
    /// dropped).
    private func send(
        _ response: ServerResponse, for request: HTTPRequestHead, keepAlive: Bool, closesAtEnd: Bool = false,
        context: ChannelHandlerContext
    ) {
        guard case .send(let status, let headers, var body) = response.action else { return }
        // One Content-Length, the server's, where the responder put one. A client reads no
        // content after a 1xx, 204 or 304, and bytes sent would be read as the next answer.
        let carries = Response.carriesContent(statusCode: status)
        if !carries { body = [] }
        var fields = NIOHTTP1.HTTPHeaders()
        var lengthSet = false
        for (name, value) in headers {
            guard name.isHeaderName("content-length") else {
                fields.add(name: name, value: value)
                continue
            }
            if carries, !lengthSet { fields.add(name: name, value: String(body.count)) }
            lengthSet = true
        }
        if carries, !lengthSet { fields.add(name: "Content-Length", value: String(body.count)) }
        if !keepAlive { fields.replaceOrAdd(name: "Connection", value: "close") }
        let head = HTTPResponseHead(
            version: request.version, status: HTTPResponseStatus(statusCode: status), headers: fields)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        // A HEAD answer says the length of the GET's body and sends none.
        if request.method != .HEAD, !body.isEmpty {
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        self.closesAtEnd = closesAtEnd
        let generation = self.generation
        // Idle from before the answer leaves, so that a client that has read it finds the
        // connection idle: which one has idled the longest is then what clients saw, not how
        // the event loops were scheduled. A pipelined request that comes in as the answer is
        // sent marks it answering again.
        if keepAlive { shared.table.setBusy(context.channel, false) }
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            if !keepAlive, !closesAtEnd { bound.value.close(promise: nil) }
        }
        // Between requests, a connection that has been served may idle; one that has not has
        // only the first head's time. Unless the next request came in as this one was sent.
        if keepAlive, self.generation == generation {
            closeAfter(servedOne ? timeouts.nextHead : timeouts.firstHead, context)
        }
    }

    /// Whether a request's head announces a body.
    static func hasBody(_ head: HTTPRequestHead) -> Bool {
        head.headers.contains(name: "transfer-encoding")
            || head.headers["content-length"].contains { $0.trimmingSpaces() != "0" }
    }
}
