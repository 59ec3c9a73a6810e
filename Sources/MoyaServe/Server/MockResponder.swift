import MoyaHTTP
import MoyaServer
import MoyaSpec
import MoyaStreams

/// `serve`'s answers for the server core: the router's answer to each request, its sample's
/// delay, abort or hang, and the log line written as it is acted on.
struct MockResponder: HTTPResponder {
    let router: RouterBox
    let options: MockHTTPServer.Options

    func respond(to request: ServerRequest, ticket: Void) -> ServerReply {
        // A body is held to its schema, at a cost the client chooses: the work is done off the
        // event loop, so that no other connection on it waits while it is.
        guard request.body.isEmpty else { return .later { answer(request) } }
        return .now(answer(request))
    }

    /// The router's answer to `request`, heard by `--coverage`. A WebSocket's target asked
    /// without an upgrade answers 426.
    private func answer(_ request: ServerRequest) -> ServerResponse {
        let mock = MockRequest(method: request.method, uri: request.uri, headers: request.headers, body: request.body)
        var answer = router.current.answer(mock, verbose: options.verbose, showSecrets: options.showSecrets)
        if answer.isWebSocket, let status = answer.status, (100..<300).contains(status) {
            answer = MockRouter.problem(
                answer, status: 426, title: "Upgrade Required",
                detail: "\(answer.target ?? "this target") is a WebSocket; ask with Upgrade: websocket", extra: [],
                headers: [("Upgrade", "websocket")])
        }
        options.heard?(mock, answer)
        return response(answer, to: request)
    }

    /// A WebSocket target's socket: its sample's events sent as messages, each after its
    /// delay, or an echo when it has none. A request its target refuses (a param that breaks
    /// its rules, say) is answered as any request is.
    func socket(for request: ServerRequest) -> ServerSocket? {
        let mock = MockRequest(method: request.method, uri: request.uri, headers: request.headers, body: [])
        var answer = router.current.answer(mock, verbose: options.verbose, showSecrets: options.showSecrets)
        guard answer.isWebSocket, case .respond(let status, let headers, let body) = answer.action,
            (100..<300).contains(status)
        else { return nil }
        answer.action = .respond(status: 101, headers: headers, body: body)
        // Heard and logged as the socket opens, not when the upgrade is decided.
        let logged = response(answer, to: request).performed
        let performed: @Sendable () -> Void = { [options, answer] in
            options.heard?(mock, answer)
            logged?()
        }
        guard status == 101, let pacing = answer.pacing else { return ServerSocket(.echo, performed: performed) }
        // The messages come back from the sample's body, as a stub's are read.
        var decoder = EventDecoder(kind: .websocket, limit: body.count + 1)
        var texts: [String] = []
        body.withUnsafeBytes { bytes in try? decoder.decode(bytes) { texts.append($0.data) } }
        return ServerSocket(
            .messages(zip(pacing, texts).map { (Self.duration(seconds: $0.0.delay), $0.1) }), performed: performed)
    }

    func refusal(_ refusal: ServerRefusal, to request: ServerRequest?) -> ServerResponse {
        switch refusal {
        case .tooLarge(let limit):
            let request = request ?? ServerRequest(method: "POST", uri: "/", headers: [])
            return response(MockRouter.contentTooLarge(uri: request.uri, limit: limit), to: request)
        case .busy:
            return .send(503, headers: [("Retry-After", "1")], closesConnection: true)
        case .unreadable(let problem):
            // Not logged, and sent as the problem is: the bytes named no request to answer.
            guard case .respond(let status, let headers, let body) = MockRouter.unreadable(Self.phrase(problem)).action
            else { return ServerResponse(.close) }
            return .send(status, headers: headers, body: body, closesConnection: true)
        }
    }

    /// What was wrong with bytes that are not a request, for the problem's detail.
    static func phrase(_ problem: ServerRefusal.Unreadable) -> String {
        switch problem {
        case .headTooLarge(let limit): "its request line and headers are over the \(limit >> 10) KiB serve reads"
        case .invalidTarget: "its target is not a valid URL"
        case .invalidMethod: "its method is not valid"
        case .invalidVersion: "its HTTP version is not valid"
        case .other(let name): "it is not valid HTTP/1.1 (\(name))"
        }
    }

    /// The router's answer as the server acts on it; a connection waiting on a delay or on a
    /// sample that never answers may be closed to make room, and one that never answers is
    /// closed at the idle deadline, as an idle connection is: any client can ask for a
    /// `timeout` sample.
    private func response(_ answer: MockAnswer, to request: ServerRequest?) -> ServerResponse {
        // The line is made now, but for the time taken, which is read as the answer goes.
        let logged = { (outcome: String) -> (@Sendable () -> Void)? in
            guard let request else { return nil }
            let (head, tail) = Self.logLine(answer, request, outcome: outcome, verbose: options.verbose)
            let (received, log) = (request.received, options.log)
            return {
                let elapsed = ContinuousClock.now - received
                let milliseconds =
                    Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
                log(head + FixedPoint.format(milliseconds, places: 1) + " ms" + tail)
            }
        }
        switch answer.action {
        case .abort:
            return ServerResponse(.close, performed: logged("closed the connection"))
        case .hang:
            return ServerResponse(.hang, performed: logged("no answer"))
        case .respond(let status, var headers, let body):
            // A 204 has no content, so no content type either.
            if status == 204 { headers.removeAll { $0.name.isHeaderName("content-type") } }
            // The length goes before the CORS header, where the server core sets its value.
            headers.removeAll { $0.name.isHeaderName("content-length") }
            headers.append(("Content-Length", String(body.count)))
            if !headers.contains(where: { $0.name.isHeaderName("access-control-allow-origin") }) {
                headers.append(("Access-Control-Allow-Origin", "*"))
            }
            // Bounded by the spec's check of `delayed`, and again here so the conversion is exact.
            let delay = answer.delay.flatMap { $0 > 0 ? Self.duration(seconds: min($0, 86_400)) : nil }
            if let pacing = answer.pacing, Response.carriesContent(statusCode: status) {
                // A stream sample's events, each after its delay, in the body's order.
                headers.removeAll { $0.name.isHeaderName("content-length") }
                var parts: [(delay: Duration, bytes: [UInt8])] = []
                var start = 0
                for (length, seconds) in pacing {
                    let end = min(start + length, body.count)
                    parts.append((Self.duration(seconds: min(seconds, 3600)), Array(body[start..<end])))
                    start = end
                }
                if start < body.count { parts.append((.zero, Array(body[start...]))) }
                return ServerResponse(
                    .stream(status: status, headers: headers, parts: parts), delay: delay,
                    performed: logged(String(status)))
            }
            return ServerResponse(
                .send(status: status, headers: headers, body: body), delay: delay, performed: logged(String(status)))
        }
    }

    /// A sample's seconds, bounded by its spec's checks, as a duration.
    private static func duration(seconds: Double) -> Duration {
        .nanoseconds(Int64((min(max(seconds, 0), 86_400) * 1e9).rounded()))
    }

    /// The log line's parts before and after the time taken.
    private static func logLine(_ answer: MockAnswer, _ request: ServerRequest, outcome: String, verbose: Bool) -> (
        String, String
    ) {
        let head =
            "\(request.method) \(TerminalText.escapingControls(answer.loggedURI))  \(answer.target ?? "-")  "
            + "\(answer.sample ?? "-")  \(outcome)  "
        var tail = ""
        if verbose {
            for (label, text) in [(">", answer.loggedRequestBody), ("<", answer.loggedResponseBody)] {
                guard let text, !text.isEmpty else { continue }
                tail +=
                    "\n"
                    + text.split(separator: "\n", omittingEmptySubsequences: false).map {
                        "  \(label) " + TerminalText.escapingControls(String($0))
                    }.joined(separator: "\n")
            }
        }
        return (head, tail)
    }
}
