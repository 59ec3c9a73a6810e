import NIOCore
import NIOPosix
import Synchronization

/// A misbehaving server on 127.0.0.1: one path per fault, written as raw bytes so that it can
/// break HTTP in ways a well-behaved server framework will not.
///
/// - `/reset`: resets the connection as soon as the request arrives.
/// - `/reset-mid-body`: sends a head promising 100,000 bytes and 1,000 of them, then resets.
/// - `/truncated-chunked`: sends a chunked body without its last chunk, then closes.
/// - `/slow-head`: waits 30 seconds before answering at all.
/// - `/drip`: sends a head promising 1,000 bytes, then one byte every 300 ms.
/// - `/garbage-status`: answers `HTTX/9 two hundred`.
/// - `/no-status`: answers a JSON body with no status line or headers.
/// - `/huge-header`: sends a 1 MB header line.
/// - `/many-headers`: sends 10,000 headers.
/// - `/redirect-loop`: redirects to itself.
/// - `/corrupt-gzip`: sends a gzip `Content-Encoding` over bytes that are not gzip.
/// - `/negative-length`: sends `Content-Length: -1`.
/// - `/absurd-retry-after`: 429 with a `Retry-After` date in the year 99999999999999.
/// - `/flaky-503`: 503 on the first request of the server's life, 200 after that.
/// - anything else: 200 with `{"ok":true}`.
public final class FaultServer: Sendable {
    let channel: any Channel
    public let port: Int

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts the server on a free port.
    public init() throws {
        let served = Counts()
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(FaultHandler(served: served))
                }
            }
        channel = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress?.port ?? 0
    }

    public func stop() {
        try? channel.close().wait()
    }
}

/// Reads a request head, then misbehaves as its path says.
final class FaultHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let served: Counts
    let received = Mutex<[UInt8]>([])

    init(served: Counts) {
        self.served = served
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        let head: [UInt8]? = received.withLock { bytes in
            bytes += buffer.readableBytesView
            guard let end = Self.headEnd(bytes) else { return nil }
            defer { bytes.removeAll() }
            return Array(bytes[..<end])
        }
        guard let head else { return }
        let line = String(decoding: head.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        let parts = line.split(separator: " ")
        let path = parts.count > 1 ? String(parts[1].prefix { $0 != "?" }) : "/"
        let count = served.value.withLock { served -> Int in
            served[path, default: 0] += 1
            return served[path, default: 0]
        }
        respond(to: path, count: count, context: context)
    }

    static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    func respond(to path: String, count: Int, context: ChannelHandlerContext) {
        let channel = context.channel
        let loop = context.eventLoop
        @Sendable func send(_ text: String) { channel.writeAndFlush(ByteBuffer(string: text), promise: nil) }
        @Sendable func send(_ bytes: [UInt8]) { channel.writeAndFlush(ByteBuffer(bytes: bytes), promise: nil) }
        @Sendable func reset() {
            // SO_LINGER with a zero timeout makes close send RST instead of FIN.
            _ = channel.getOption(.socketOption(.so_reuseaddr)).flatMap { _ in
                (channel as? any SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0))
                    ?? channel.eventLoop.makeSucceededVoidFuture()
            }.flatMap { channel.close() }
        }
        @Sendable func close() { channel.close(promise: nil) }
        let ok = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"ok\":true}"

        switch path {
        case "/reset":
            reset()
        case "/reset-mid-body":
            send("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n")
            send([UInt8](repeating: UInt8(ascii: "x"), count: 1000))
            loop.scheduleTask(in: .milliseconds(50)) { reset() }
        case "/truncated-chunked":
            send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
            loop.scheduleTask(in: .milliseconds(50)) { close() }
        case "/slow-head":
            loop.scheduleTask(in: .seconds(30)) { send(ok) }
        case "/drip":
            send("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n")
            drip(channel: channel, remaining: 1000)
        case "/garbage-status":
            send("HTTX/9 two hundred\r\n\r\n")
            close()
        case "/no-status":
            send("{\"ok\":true}\r\n\r\n")
            close()
        case "/huge-header":
            send(
                "HTTP/1.1 200 OK\r\nX-Huge: " + String(repeating: "h", count: 1 << 20) + "\r\nContent-Length: 0\r\n\r\n"
            )
        case "/many-headers":
            var head = "HTTP/1.1 200 OK\r\n"
            for index in 0..<10_000 { head += "X-Header-\(index): \(index)\r\n" }
            send(head + "Content-Length: 0\r\n\r\n")
        case "/redirect-loop":
            send("HTTP/1.1 302 Found\r\nLocation: /redirect-loop\r\nContent-Length: 0\r\n\r\n")
        case "/corrupt-gzip":
            let body = [UInt8](repeating: 0x5A, count: 64)
            send("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: \(body.count)\r\n\r\n")
            send(body)
        case "/negative-length":
            send("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\nabc")
            close()
        case "/absurd-retry-after":
            send(
                "HTTP/1.1 429 Too Many Requests\r\nRetry-After: Sun, 06 Nov 99999999999999 08:49:37 GMT\r\n"
                    + "Content-Length: 0\r\n\r\n")
        case "/flaky-503" where count == 1:
            send("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n")
        default:
            send(ok)
        }
    }

    /// Writes one byte every 300 ms until `remaining` run out or the client goes.
    func drip(channel: any Channel, remaining: Int) {
        guard remaining > 0, channel.isActive else { return }
        channel.eventLoop.scheduleTask(in: .milliseconds(300)) {
            channel.writeAndFlush(ByteBuffer(string: "x"), promise: nil)
            self.drip(channel: channel, remaining: remaining - 1)
        }
    }
}
