import MoyaHTTP
import MoyaSpec
import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One connection of `serve`: reads each request whole, asks the router, and answers, waits
/// or closes as the sample says. NIO's pipeline handler keeps pipelined requests in order.
final class MockRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let router: RouterBox
    private let options: MockHTTPServer.Options
    private let limit: ConnectionLimit
    private var head: HTTPRequestHead?
    private var body: ByteBuffer?
    private var tooLarge = false
    private var started = ContinuousClock.now
    /// Closes a connection that takes too long to send a request: its head, when none is being
    /// answered, or its body once the head is in.
    private var deadline: Scheduled<Void>?

    init(router: RouterBox, options: MockHTTPServer.Options, limit: ConnectionLimit) {
        self.router = router
        self.options = options
        self.limit = limit
    }

    func channelActive(context: ChannelHandlerContext) {
        if let excess = limit.opened(context.channel) { excess.close(promise: nil) }
        wait(options.headTimeout, context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        limit.closed(context.channel)
        context.fireChannelInactive()
    }

    /// Closes the connection after `timeout` unless something cancels it first.
    private func wait(_ timeout: TimeAmount, context: ChannelHandlerContext) {
        deadline?.cancel()
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: timeout) { bound.value.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = nil
            tooLarge = false
            started = .now
            // Until the body is in, the connection is not answering: it may be evicted.
            wait(options.bodyTimeout, context: context)
        case .body(var chunk):
            guard !tooLarge else { return }
            if (body?.readableBytes ?? 0) + chunk.readableBytes > MockHTTPServer.maximumBodyBytes {
                tooLarge = true
                body = nil
            } else if body == nil {
                body = chunk
            } else {
                body?.writeBuffer(&chunk)
            }
        case .end:
            guard let head else { return }
            self.head = nil
            deadline?.cancel()
            deadline = nil
            limit.setBusy(context.channel, true)
            answer(head, context: context)
        }
    }

    private func answer(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let request = MockRequest(
            method: head.method.rawValue, uri: head.uri, headers: head.headers.map { ($0.name, $0.value) },
            body: body.map { Array($0.readableBytesView) } ?? [])
        body = nil
        let keepAlive = head.isKeepAlive && !tooLarge
        let started = self.started
        if tooLarge {
            let answer = MockRouter.contentTooLarge(uri: head.uri, limit: MockHTTPServer.maximumBodyBytes)
            respond(answer, head: head, keepAlive: keepAlive, started: started, context: context)
            return
        }
        let (router, options) = (self.router, self.options)
        let work: @Sendable () -> MockAnswer = {
            let answer = router.current.answer(request, verbose: options.verbose, showSecrets: options.showSecrets)
            options.heard?(request, answer)
            return answer
        }
        guard !request.body.isEmpty else {
            respond(work(), head: head, keepAlive: keepAlive, started: started, context: context)
            return
        }
        // A body is held to its schema, at a cost the client chooses: the work is done off the
        // event loop, so that no other connection on it waits while it is.
        let loop = context.eventLoop
        let bound = NIOLoopBound((self, context), eventLoop: loop)
        NIOThreadPool.singleton.runIfActive(eventLoop: loop, work).whenComplete { result in
            let (handler, context) = bound.value
            switch result {
            case .success(let answer):
                handler.respond(answer, head: head, keepAlive: keepAlive, started: started, context: context)
            case .failure:
                context.close(promise: nil)
            }
        }
    }

    /// Answers now, or after the sample's delay; a connection waiting on a delay or on a
    /// sample that never answers may be evicted, and one that never answers is closed at the
    /// idle deadline, as an idle connection is: any client can ask for a `timeout` sample.
    private func respond(
        _ answer: MockAnswer, head: HTTPRequestHead, keepAlive: Bool, started: ContinuousClock.Instant,
        context: ChannelHandlerContext
    ) {
        if let delay = answer.delay, delay > 0, case .respond = answer.action {
            // Bounded by the spec's check of `delayed`, and again here so the conversion is exact.
            let nanoseconds = Int64((min(delay, 86_400) * 1e9).rounded())
            let loop = context.eventLoop
            let bound = NIOLoopBound((self, context), eventLoop: loop)
            limit.setBusy(context.channel, false)
            loop.scheduleTask(in: .nanoseconds(nanoseconds)) {
                let (handler, context) = bound.value
                handler.perform(answer, head: head, keepAlive: keepAlive, started: started, context: context)
            }
        } else {
            perform(answer, head: head, keepAlive: keepAlive, started: started, context: context)
        }
    }

    private func perform(
        _ answer: MockAnswer, head: HTTPRequestHead, keepAlive: Bool, started: ContinuousClock.Instant,
        context: ChannelHandlerContext
    ) {
        switch answer.action {
        case .abort:
            log(answer, head, outcome: "closed the connection", started: started)
            context.close(promise: nil)
        case .hang:
            log(answer, head, outcome: "no answer", started: started)
            limit.setBusy(context.channel, false)
            wait(options.headTimeout, context: context)
        case .respond(let status, let headers, var body):
            var fields = HTTPHeaders(headers.map { ($0.name, $0.value) })
            // A client reads no content after a 1xx, 204 or 304, whatever the sample holds, and
            // bytes sent would be read as the next answer.
            if !Response.carriesContent(statusCode: status) {
                body = []
                fields.remove(name: "Content-Length")
                if status == 204 { fields.remove(name: "Content-Type") }
            } else {
                fields.replaceOrAdd(name: "Content-Length", value: String(body.count))
            }
            if !fields.contains(name: "Access-Control-Allow-Origin") {
                fields.add(name: "Access-Control-Allow-Origin", value: "*")
            }
            if !keepAlive { fields.replaceOrAdd(name: "Connection", value: "close") }
            let response = HTTPResponseHead(
                version: head.version, status: HTTPResponseStatus(statusCode: status), headers: fields)
            context.write(wrapOutboundOut(.head(response)), promise: nil)
            // A HEAD answer says the length of the GET's body and sends none.
            if !body.isEmpty, head.method != .HEAD {
                context.write(
                    wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
            }
            let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
            let loop = context.eventLoop
            let bound = NIOLoopBound((self, context), eventLoop: loop)
            done.whenComplete { _ in
                let (handler, context) = bound.value
                if !keepAlive {
                    context.close(promise: nil)
                } else {
                    handler.limit.setBusy(context.channel, false)
                    handler.wait(handler.options.headTimeout, context: context)
                }
            }
            log(answer, head, outcome: String(status), started: started)
        }
    }

    private func log(_ answer: MockAnswer, _ head: HTTPRequestHead, outcome: String, started: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        var line =
            "\(head.method.rawValue) \(TerminalText.escapingControls(answer.loggedURI))  \(answer.target ?? "-")  "
            + "\(answer.sample ?? "-")  \(outcome)  \(FixedPoint.format(milliseconds, places: 1)) ms"
        if options.verbose {
            for (label, text) in [(">", answer.loggedRequestBody), ("<", answer.loggedResponseBody)] {
                guard let text, !text.isEmpty else { continue }
                line +=
                    "\n"
                    + text.split(separator: "\n", omittingEmptySubsequences: false).map {
                        "  \(label) " + TerminalText.escapingControls(String($0))
                    }.joined(separator: "\n")
            }
        }
        options.log(line)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
