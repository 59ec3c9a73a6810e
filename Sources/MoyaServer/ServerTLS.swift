import MoyaSpec
import NIOSSL

/// TLS for `serve` and `mcp --http`, from `--tls-cert` and `--tls-key`.
public enum ServerTLS {
    /// Why TLS cannot be served.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
        /// Whether a file could not be read at all, as opposed to read and refused.
        public var isUnreadable = false
    }

    /// The largest certificate chain or key read.
    static let limit = 1 << 20

    /// Why a file could not be read, in a certificate's words rather than a spec's.
    static func reason(_ error: FileSystem.ReadFailure) -> String {
        if case .tooLarge(let limit) = error { return "the file is larger than \(limit >> 20) MiB" }
        return error.message
    }

    /// A server context with the PEM certificate chain and private key in these files, each
    /// read without waiting (a FIFO is refused, never waited on) and only when a regular file.
    public static func context(certificateChain: String, key: String) throws(Failure) -> NIOSSLContext {
        let failure = { (reason: String, unreadable: Bool) in
            Failure(
                description: "cannot serve TLS with --tls-cert \(certificateChain) and --tls-key \(key): \(reason)",
                isUnreadable: unreadable)
        }
        let chainBytes: [UInt8]
        let keyBytes: [UInt8]
        do {
            chainBytes = try FileSystem.contents(certificateChain, limit: limit)
        } catch {
            throw failure("--tls-cert: \(reason(error))", true)
        }
        do {
            keyBytes = try FileSystem.contents(key, limit: limit)
        } catch {
            throw failure("--tls-key: \(reason(error))", true)
        }
        do {
            let chain = try NIOSSLCertificate.fromPEMBytes(chainBytes).map(NIOSSLCertificateSource.certificate)
            let privateKey = try NIOSSLPrivateKey(bytes: keyBytes, format: .pem)
            return try NIOSSLContext(
                configuration: .makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(privateKey)))
        } catch {
            throw failure("\(error)", false)
        }
    }
}
