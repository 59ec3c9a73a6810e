import MoyaHTTP
import MoyaServer
import MoyaSpec
import NIOCore
import NIOSSL
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The HTTP side of `moya-cli serve`: the one server core (`HTTPServer`), answering each
/// request with what the current `MockRouter` says.
public final class MockHTTPServer: Sendable {
    /// The router, replaced whole when `--watch` reloads the specs.
    let router: RouterBox
    let server: HTTPServer
    /// The port bound, which `--port 0` leaves to the system.
    public var port: Int { server.port }

    /// The largest request body read; a larger one gets a 413.
    static let maximumBodyBytes = 16 << 20

    /// How the server answers and logs.
    public struct Options: Sendable {
        /// Whether each request is logged with its headers and body.
        public var verbose = false
        /// Whether secrets print as they are.
        public var showSecrets = false
        /// Where log lines go.
        public var log: @Sendable (String) -> Void
        /// The most connections open at once; nil for the descriptor limit less a reserve.
        public var connectionCap: Int? = nil
        /// How long a connection may take to send a request's head whole (`--idle-timeout`):
        /// idle keep-alive connections and slow headers alike are closed after it. A body gets
        /// twice as long once its head is in.
        public var idleTimeout = 30.0
        /// HTTPS with this context (`--tls-cert`, `--tls-key`), else HTTP.
        public var tls: NIOSSLContext?
        /// Hears of each request the router answered, with its answer, before it is sent:
        /// what `serve --coverage` counts. Called off the event loop for a request with a body.
        public var heard: (@Sendable (MockRequest, MockAnswer) -> Void)?

        /// Options; what is not given is the default.
        public init(
            verbose: Bool = false, showSecrets: Bool = false, log: @escaping @Sendable (String) -> Void,
            connectionCap: Int? = nil, idleTimeout: Double = 30.0, tls: NIOSSLContext? = nil,
            heard: (@Sendable (MockRequest, MockAnswer) -> Void)? = nil
        ) {
            self.verbose = verbose
            self.showSecrets = showSecrets
            self.log = log
            self.connectionCap = connectionCap
            self.idleTimeout = idleTimeout
            self.tls = tls
            self.heard = heard
        }
    }

    /// Binds `host`:`port` and starts answering.
    public init(router: MockRouter, host: String, port: Int, options: Options) async throws {
        let box = RouterBox(router)
        self.router = box
        let idle = Self.time(options.idleTimeout)
        server = try await HTTPServer(
            responder: MockResponder(router: box, options: options),
            configuration: ServerConfiguration(
                host: host, port: port, tls: options.tls, maximumBodyBytes: Self.maximumBodyBytes,
                connectionCap: options.connectionCap ?? HTTPServer.connectionCapUnderDescriptorLimit(),
                timeouts: .init(
                    firstHead: idle, nextHead: idle, body: Self.time(options.idleTimeout * 2))))
    }

    /// `seconds`, clamped as every wait from input is, as NIO's time.
    static func time(_ seconds: Double) -> TimeAmount {
        .nanoseconds(Int64((Seconds.clamped(seconds) * 1e9).rounded()))
    }

    /// Replaces the router; requests already being answered finish with the old one.
    public func replace(_ router: MockRouter) {
        self.router.value.withLock { $0 = RouterBox.Snapshot(router) }
    }

    /// Stops accepting, lets each connection finish the request it is answering, and returns
    /// when all are closed or after `grace` seconds, whichever is first. Returns whether all
    /// finished.
    public func stop(grace: Double) async -> Bool {
        await server.stop(grace: grace)
    }
}

/// The router, shared by the server and its connections' handlers.
final class RouterBox: Sendable {
    /// A router in a box, so that reading the current one costs one retain.
    final class Snapshot: Sendable {
        let router: MockRouter
        init(_ router: MockRouter) { self.router = router }
    }

    let value: Mutex<Snapshot>

    init(_ router: MockRouter) {
        value = Mutex(Snapshot(router))
    }

    /// The router now in force.
    var current: MockRouter { value.withLock { $0 }.router }
}

/// `serve`'s stderr: lines gathered and written together every 50 ms, so that a busy server
/// writes once per batch instead of once per request. `flush()` writes what is pending.
public final class ServeLog: Sendable {
    private let pending = Mutex<[UInt8]>([])
    private let write: @Sendable ([UInt8]) -> Void
    private let flusher = Mutex<_Concurrency.Task<Void, Never>?>(nil)

    /// A log that writes its batches with `write`.
    public init(write: @escaping @Sendable ([UInt8]) -> Void) {
        self.write = write
        let task = _Concurrency.Task.detached { [weak self] in
            while !_Concurrency.Task.isCancelled {
                try? await _Concurrency.Task.sleep(for: .milliseconds(50))
                self?.flush()
            }
        }
        flusher.withLock { $0 = task }
    }

    /// Adds a line.
    public func line(_ text: String) {
        pending.withLock { bytes in
            bytes += text.utf8
            bytes.append(UInt8(ascii: "\n"))
        }
    }

    /// Writes every pending line.
    public func flush() {
        let bytes = pending.withLock { bytes in
            defer { bytes.removeAll(keepingCapacity: true) }
            return bytes
        }
        if !bytes.isEmpty { write(bytes) }
    }

    /// Writes what is pending and stops the timer.
    public func close() {
        flusher.withLock { $0?.cancel() }
        flush()
    }
}
