import MoyaHTTP
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Session {
    /// Whether `url` is a WebSocket's: `ws:` or `wss:`.
    public static func isWebSocket(_ url: URL) -> Bool {
        ["ws", "wss"].contains(url.scheme?.lowercased())
    }

    /// A WebSocket conversation (RFC 6455) at `request`'s `ws:` or `wss:` URL, on SwiftNIO's
    /// frame codec and upgrader: the handshake carries the request's headers, within the
    /// request's time limit; then each message goes to `stream`, pings are answered, the
    /// stream talks beside the reading, and the first of the stream's end, its deadline and
    /// the server's close ends the conversation with a close frame. A server that does not
    /// switch protocols answers as any response does: its head and body go to `stream`.
    func webSocket(_ request: Request, to stream: any MessageStream) async throws(MoyaError) -> Response {
        let url = request.url
        do {
            guard configuration.proxy == nil else {
                throw NetworkError(
                    .cannotConnectToHost, "WebSocket connections do not go through a proxy; leave out --proxy")
            }
            guard configuration.pinnedPublicKeys.isEmpty || url.scheme?.lowercased() == "ws" else {
                throw NetworkError(
                    .secureConnectionFailed,
                    "public-key pins are not checked on WebSocket connections, so the handshake was not sent")
            }
            let upgrade = try await Self.within(request.timeout ?? configuration.timeout, url: url) {
                try await self.handshake(request, limit: stream.messageLimit)
            }
            switch upgrade {
            case .refused(let channel):
                return try await Self.answer(channel, to: stream, request: request)
            case .open(let channel, let answer):
                let head = ResponseHead(answer)
                try stream.receive(head: head)
                let count = try await Self.converse(on: channel, with: stream)
                return Response(
                    statusCode: head.statusCode, data: Data(), request: request, response: head,
                    streamedByteCount: count)
            }
        } catch let error as MoyaError {
            throw error
        } catch {
            throw .underlying(
                NetworkError(classifying: error, url: url, connectTimeout: configuration.connectTimeout), nil)
        }
    }

    /// How a handshake went.
    private enum Upgrade: Sendable {
        /// The server switched protocols: the socket's frames, and its answer's head.
        case open(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, HTTPResponseHead)
        /// The server answered otherwise: its response, to read.
        case refused(NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>)
    }

    /// Connects, with TLS for `wss:`, and sends the upgrade request.
    private func handshake(_ request: Request, limit: Int) async throws -> Upgrade {
        let url = request.url
        guard let host = url.host, !host.isEmpty else {
            throw NetworkError(.cannotFindHost, "the WebSocket URL \(url.withoutQuery) names no host")
        }
        let secure = url.scheme?.lowercased() == "wss"
        let port = url.port ?? (secure ? 443 : 80)
        let path = url.path(percentEncoded: true)
        let uri = (path.isEmpty ? "/" : path) + (url.query(percentEncoded: true).map { "?" + $0 } ?? "")
        var headers = NIOHTTP1.HTTPHeaders()
        for field in Self.wire(request, cookies: request.cookies, decompression: false) {
            headers.add(name: field.name, value: field.value)
        }
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: uri, headers: headers)
        let tls = secure ? try NIOSSLContext(configuration: configuration.tlsConfiguration()) : nil
        // A host that is an IP address is not sent as the TLS server name (RFC 6066).
        let serverName = host.contains(":") || host.allSatisfy({ $0.isNumber || $0 == "." }) ? nil : host
        let frameLimit = min(limit, Int(UInt32.max))
        let negotiated = try await ClientBootstrap(group: loops()?.group ?? MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(Seconds.timeAmount(configuration.connectTimeout))
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: tls, serverHostname: serverName))
                    }
                    // A protocol error reaches the reading, which says what it was (`converse`).
                    let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(
                        maxFrameSize: frameLimit, enableAutomaticErrorHandling: false
                    ) { channel, answer in
                        channel.eventLoop.makeCompletedFuture {
                            // A message in fragments is joined into one frame, up to the limit.
                            try channel.pipeline.syncOperations.addHandler(
                                NIOWebSocketFrameAggregator(
                                    minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1 << 16,
                                    maxAccumulatedFrameSize: frameLimit))
                            return Upgrade.open(try NIOAsyncChannel(wrappingChannelSynchronously: channel), answer)
                        }
                    }
                    let upgrades = NIOTypedHTTPClientUpgradeConfiguration<Upgrade>(
                        upgradeRequestHead: head, upgraders: [upgrader]
                    ) { channel in
                        channel.eventLoop.makeCompletedFuture {
                            Upgrade.refused(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
                        }
                    }
                    var pipeline = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: upgrades)
                    // Frames that arrive with the handshake's answer are the socket's first.
                    pipeline.leftOverBytesStrategy = .forwardBytes
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                        configuration: pipeline)
                }
            }
        return try await negotiated.get()
    }

    /// A server's answer that did not switch protocols, its head and body handed to `stream`
    /// as any response's are.
    private static func answer(
        _ channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>, to stream: any MessageStream,
        request: Request
    ) async throws -> Response {
        try await channel.executeThenClose { inbound, _ in
            var received: ResponseHead?
            var count = 0
            do {
                reading: for try await part in inbound {
                    switch part {
                    case .head(let head):
                        let made = ResponseHead(head)
                        received = made
                        try stream.receive(head: made)
                    case .body(let chunk):
                        count += chunk.readableBytes
                        try chunk.withUnsafeReadableBytes { try stream.receive($0) }
                    case .end:
                        break reading
                    }
                }
            } catch  where received != nil {
                // The answer came: a connection closed after it is no failure.
            }
            guard let received else {
                throw NetworkError(.networkConnectionLost, "the server closed the connection before answering")
            }
            return Response(
                statusCode: received.statusCode, data: Data(), request: request, response: received,
                streamedByteCount: count)
        }
    }

    /// The seconds a closed conversation waits for the server's close.
    static let closeGrace = 2.0

    /// Reads the socket's messages into `stream` while it talks, until the server closes, the
    /// stream ends or its deadline passes; the message bytes read. A conversation that closes,
    /// or a deadline that passes, waits `closeGrace` for the server's close, not for ever.
    private static func converse(
        on channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, with stream: any MessageStream
    ) async throws -> Int {
        let connection = channel.channel
        return try await channel.executeThenClose { inbound, outbound in
            let socket = SocketConnection(outbound)
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    await stream.talk(on: socket)
                    guard socket.isClosing else { return }
                    try await _Concurrency.Task.sleep(for: .seconds(closeGrace))
                    connection.close(promise: nil)
                }
                group.addTask {
                    try await expiry(of: stream)
                    try? await socket.close(code: 1000)
                    try await _Concurrency.Task.sleep(for: .seconds(closeGrace))
                    connection.close(promise: nil)
                }
                defer { group.cancelAll() }
                var count = 0
                do {
                    for try await frame in inbound {
                        guard try await socket.take(frame, into: stream, count: &count) else { break }
                    }
                } catch is ResponseStreamEnded {
                    try? await socket.close(code: 1000)
                } catch let error as ChannelError where error == .ioOnClosedChannel || error == .alreadyClosed {
                    // Closed here, after a close or a deadline.
                } catch NIOWebSocketError.invalidFrameLength,
                    NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge
                {
                    // A message past the most held ends the stream at its bound.
                    stream.messageTooLarge()
                    try? await socket.close(code: 1009)
                } catch let error as NIOWebSocketError {
                    try? await socket.close(code: 1002)
                    throw NetworkError(.badServerResponse, "the server broke the WebSocket protocol (\(error))")
                } catch let error as NIOWebSocketFrameAggregator.Error {
                    try? await socket.close(code: 1002)
                    throw NetworkError(.badServerResponse, "the server broke the WebSocket protocol (\(error))")
                }
                return count
            }
        }
    }
}

extension ResponseHead {
    /// The head NIO read, in MoyaHTTP's terms.
    fileprivate init(_ head: HTTPResponseHead) {
        self.init(
            statusCode: Int(head.status.code),
            headers: MoyaHTTP.HTTPHeaders(fields: head.headers.map { (name: $0.name, value: $0.value) }),
            version: "HTTP/\(head.version.major).\(head.version.minor)")
    }
}

/// An open WebSocket's sending side: frames masked as a client's are (RFC 6455 5.3), pings
/// waiting for their pongs, and one close.
private final class SocketConnection: SocketWriter {
    private let outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>
    private let pongs: AsyncStream<Void>
    private let heard: AsyncStream<Void>.Continuation
    private let closed = Mutex(false)

    /// Whether a close was sent.
    var isClosing: Bool { closed.withLock { $0 } }

    init(_ outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>) {
        self.outbound = outbound
        (pongs, heard) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func send(_ message: SocketMessage) async throws {
        switch message {
        case .text(let text): try await write(.text, ByteBuffer(string: text))
        case .binary(let bytes): try await write(.binary, ByteBuffer(bytes: bytes))
        }
    }

    func ping(_ payload: [UInt8]) async throws {
        try await write(.ping, ByteBuffer(bytes: payload.prefix(125)))
        for await _ in pongs { return }
        throw CancellationError()
    }

    func close(code: UInt16) async throws {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        var payload = ByteBuffer()
        payload.writeInteger(code)
        try await write(.connectionClose, payload)
    }

    /// Takes one frame from the server: a message goes to `stream`, a ping is answered, a pong
    /// heard. False once the server closes.
    func take(_ frame: WebSocketFrame, into stream: any MessageStream, count: inout Int) async throws -> Bool {
        let data = frame.unmaskedData
        switch frame.opcode {
        case .text:
            count += data.readableBytes
            guard let text = String(validating: data.readableBytesView, as: UTF8.self) else {
                throw NetworkError(.badServerResponse, "the server sent a text message that is not UTF-8")
            }
            try stream.receive(message: .text(text))
        case .binary:
            count += data.readableBytes
            try stream.receive(message: .binary(Array(data.readableBytesView)))
        case .ping:
            try await write(.pong, data)
        case .pong:
            heard.yield()
        case .connectionClose:
            // The server's close is answered with its code, and ends the conversation.
            var answer = data
            let code = answer.readInteger(as: UInt16.self) ?? 1000
            try? await close(code: code)
            return false
        default:
            break
        }
        return true
    }

    private func write(_ opcode: WebSocketOpcode, _ data: ByteBuffer) async throws {
        try await outbound.write(WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: data))
    }
}
