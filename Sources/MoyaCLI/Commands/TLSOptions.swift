import ArgumentParser
import MoyaCommandSupport
import MoyaServer
import MoyaSpec
import NIOSSL

/// `--tls-cert` and `--tls-key`: HTTPS for `serve` and `mcp --http`, read the same way, failing
/// with the same statuses.
struct TLSOptions: ParsableArguments {
    @Option(
        name: .customLong("tls-cert"),
        help: ArgumentHelp("Serve HTTPS with this PEM certificate chain.", valueName: "file"))
    var tlsCert: String?

    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The PEM private key of --tls-cert.", valueName: "file"))
    var tlsKey: String?

    /// The flags given, for a command that takes them only with another.
    var given: [(String, Bool)] { [("--tls-cert", tlsCert != nil), ("--tls-key", tlsKey != nil)] }

    func validate() throws {
        if (tlsCert == nil) != (tlsKey == nil) { throw ValidationError("--tls-cert and --tls-key go together") }
    }

    /// The server's TLS, its files read; nil without `--tls-cert`.
    func context() throws -> NIOSSLContext? {
        guard let tlsCert, let tlsKey else { return nil }
        do {
            return try ServerTLS.context(certificateChain: tlsCert, key: tlsKey)
        } catch {
            // A file the command line names that cannot be read is a usage error, as an
            // unreadable `--cacert` is for every command; one read and refused is not.
            if error.isUnreadable { throw UsageError(error.description) }
            throw ListenFailure(error.description)
        }
    }
}
