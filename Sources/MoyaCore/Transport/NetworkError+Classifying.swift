import AsyncHTTPClient
import NIOCore
import NIOPosix
import NIOSSL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension NetworkError {
    /// Sorts a transport error into a network error code.
    init(classifying error: any Error) {
        if let network = error as? NetworkError {
            self = network
            return
        }
        if error is CancellationError {
            self.init(.cancelled, "the request was cancelled")
            return
        }
        if let client = error as? HTTPClientError {
            switch client {
            case .connectTimeout, .tlsHandshakeTimeout, .httpProxyHandshakeTimeout, .socksHandshakeTimeout:
                self.init(.timedOut, "timed out connecting to the server")
            case .readTimeout, .writeTimeout, .deadlineExceeded, .getConnectionFromPoolTimeout:
                self.init(.timedOut, "the request timed out")
            case .redirectLimitReached: self.init(.tooManyRedirects, "too many redirects")
            case .redirectCycleDetected: self.init(.tooManyRedirects, "the redirects go round in a cycle")
            case .cancelled, .requestStreamCancelled: self.init(.cancelled, "the request was cancelled")
            case .remoteConnectionClosed: self.init(.networkConnectionLost, "the server closed the connection")
            default: self.init(.unknown, "\(client)")
            }
            return
        }
        if let io = error as? IOError {
            switch io.errnoCode {
            case ECONNREFUSED: self.init(.cannotConnectToHost, "the connection was refused")
            case ECONNRESET, EPIPE: self.init(.networkConnectionLost, "the connection was reset")
            case ENETUNREACH, EHOSTUNREACH: self.init(.notConnectedToInternet, "the network is unreachable")
            default: self.init(.unknown, "\(io)")
            }
            return
        }
        if let connection = error as? NIOConnectionError {
            if connection.connectionErrors.isEmpty, connection.dnsAError != nil || connection.dnsAAAAError != nil {
                self.init(.cannotFindHost, "cannot resolve the host \(connection.host)")
            } else if connection.connectionErrors.contains(where: { ($0.error as? IOError)?.errnoCode == ECONNREFUSED })
            {
                self.init(.cannotConnectToHost, "the connection to \(connection.host):\(connection.port) was refused")
            } else {
                self.init(.cannotConnectToHost, "cannot connect to \(connection.host):\(connection.port)")
            }
            return
        }
        if error is SocketAddressError {
            self.init(.cannotFindHost, "cannot resolve the host")
            return
        }
        if error is NIOSSLError || error is BoringSSLError {
            self.init(.secureConnectionFailed, "TLS failed: \(error)")
            return
        }
        if error is ChannelError, "\(error)".contains("connectTimeout") {
            self.init(.timedOut, "timed out connecting to the server")
            return
        }
        self.init(.unknown, "\(error)")
    }
}
