import MoyaHTTP
import NIOCore
import NIOSSL

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The public keys a server may present, as base64 SHA-256 digests of their DER
/// SubjectPublicKeyInfo: the value curl's `--pinnedpubkey sha256//…` takes.
struct PublicKeyPins: Sendable {
    let digests: Set<String>

    init(_ digests: [String]) {
        self.digests = Set(digests)
    }

    /// The pin of a certificate's public key.
    static func digest(of certificate: NIOSSLCertificate) throws -> String {
        let key = try certificate.extractPublicKey().toSPKIBytes()
        return Data(SHA256.hash(key)).base64EncodedString()
    }

    /// Checks a newly connected channel: plain connections pass, TLS ones must present a
    /// pinned key.
    func verify(_ channel: any Channel) -> EventLoopFuture<Void> {
        channel.pipeline.handler(type: NIOSSLHandler.self).flatMap { handler in
            channel.eventLoop.makeCompletedFuture {
                guard let certificate = handler.peerCertificate else {
                    throw NetworkError(.secureConnectionFailed, "the server presented no certificate to check the pin")
                }
                let digest = try Self.digest(of: certificate)
                guard digests.contains(digest) else {
                    throw NetworkError(
                        .secureConnectionFailed, "the server's public key (sha256//\(digest)) matches no --pin")
                }
            }
        }.flatMapError { error in
            // No TLS handler: a plain-HTTP connection, which pins do not apply to.
            if error is ChannelPipelineError { return channel.eventLoop.makeSucceededVoidFuture() }
            return channel.eventLoop.makeFailedFuture(error)
        }
    }
}
