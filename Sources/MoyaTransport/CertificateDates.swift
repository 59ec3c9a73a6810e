import MoyaHTTP
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a server's certificate failed verification, when the reason is its dates: BoringSSL
/// says only that verification failed. Asked only after a failure, it looks at the
/// certificate the server presents on a connection of its own and sends nothing.
enum CertificateDates {
    /// The date, as `YYYY-MM-DD`, on which the certificate that `host:port` presents
    /// expired; nil when it has not expired or cannot be read within a few seconds.
    static func expiry(host: String, port: Int, group: any EventLoopGroup) async -> String? {
        guard let context = try? NIOSSLContext(configuration: .makeClientConfiguration()) else { return nil }
        let leaf = Mutex<time_t?>(nil)
        // SNI takes a name, never an address.
        let serverName = host.contains(":") || host.allSatisfy({ $0.isNumber || $0 == "." }) ? nil : host
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(.seconds(5))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler = try NIOSSLClientHandler(
                        context: context, serverHostname: serverName,
                        customVerificationCallback: { certificates, promise in
                            leaf.withLock { $0 = certificates.first?.notValidAfter }
                            promise.succeed(NIOSSLVerificationResult.failed)
                        })
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
        guard let channel = try? await bootstrap.connect(host: host, port: port).get() else { return nil }
        // The failed handshake closes the channel; a server that never answers is given 5 s.
        let limit = channel.eventLoop.scheduleTask(in: TimeAmount.seconds(5)) {
            channel.close(mode: .all, promise: nil)
        }
        try? await channel.closeFuture.get()
        limit.cancel()
        guard let notValidAfter = leaf.withLock({ $0 }), notValidAfter < time(nil) else { return nil }
        var seconds = notValidAfter
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return nil }
        let year = Int(parts.tm_year) + 1900
        let month = Int(parts.tm_mon) + 1
        let day = Int(parts.tm_mday)
        return "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }
}
