import AsyncHTTPClient
import MoyaHTTP
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension NetworkError {
    /// Sorts a transport error into a network error code; the message names `url`'s host
    /// and port where the user needs them, as for TLS failures.
    init(classifying error: any Error, url: URL? = nil, connectTimeout: Double? = nil) {
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
                self.init(
                    .timedOut, Self.connectTimeoutMessage(url: url, seconds: connectTimeout), seconds: connectTimeout)
            case .readTimeout, .writeTimeout, .deadlineExceeded, .getConnectionFromPoolTimeout:
                self.init(.timedOut, "the request timed out")
            case .cancelled, .requestStreamCancelled: self.init(.cancelled, "the request was cancelled")
            case .remoteConnectionClosed: self.init(.networkConnectionLost, "the server closed the connection")
            case .bodyLengthMismatch:
                self.init(.networkConnectionLost, "the response body ended before the length its head gave")
            default: self.init(.badServerResponse, "the HTTP exchange failed (\(Self.words(of: "\(client)")))")
            }
            return
        }
        if let parser = error as? HTTPParserError {
            self.init(.badServerResponse, Self.describe(parser))
            return
        }
        if let decompression = error as? NIOHTTPDecompression.DecompressionError {
            switch decompression {
            case .limit:
                self.init(
                    .badServerResponse, "the compressed body expands to more than 500 times its size, so it was refused"
                )
            case .inflationError, .initializationError:
                self.init(.badServerResponse, "the response body's gzip or deflate data is corrupt")
            }
            return
        }
        if error is NIOHTTPDecompression.ExtraDecompressionError {
            self.init(.badServerResponse, "the response body's gzip or deflate data is corrupt")
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
            self.init(.secureConnectionFailed, Self.describeTLS(error, url: url))
            return
        }
        if error is ChannelError, "\(error)".contains("connectTimeout") {
            self.init(.timedOut, Self.connectTimeoutMessage(url: url, seconds: connectTimeout), seconds: connectTimeout)
            return
        }
        self.init(.unknown, "the request failed (\(Self.words(of: "\(error)")))")
    }

    /// A parser error as a sentence about the server's response.
    static func describe(_ error: HTTPParserError) -> String {
        let what: String =
            switch error {
            case .headerOverflow: "its head is too large"
            case .invalidStatus, .invalidVersion, .invalidConstant: "its status line is not HTTP"
            case .invalidHeaderToken, .invalidCharactersUsed, .lfExpected: "a header line is malformed"
            case .invalidContentLength, .unexpectedContentLength: "its Content-Length is invalid"
            case .invalidChunkSize: "its chunked encoding is broken"
            case .invalidEOFState, .closedConnection: "the connection closed in the middle of it"
            default: "it is not valid HTTP/1.1"
            }
        return "the server's response is malformed: \(what)"
    }

    /// Whether `error` is a TLS handshake that failed because the server's certificate
    /// did not verify.
    static func failedCertificateVerification(_ error: any Error) -> Bool {
        (error is NIOSSLError || error is BoringSSLError) && "\(error)".contains("CERTIFICATE_VERIFY_FAILED")
    }

    /// `host:port` of `url`, with the scheme's default port: where a request to it goes. Nil
    /// for a URL without a host.
    package static func address(of url: URL?) -> String? {
        guard let url, let host = url.host else { return nil }
        let port = url.port ?? (["https", "wss"].contains(url.scheme?.lowercased()) ? 443 : 80)
        return "\(host):\(port)"
    }

    static func connectTimeoutMessage(url: URL?, seconds: Double?) -> String {
        "no connection to \(address(of: url) ?? "the server")"
            + (seconds.map { " within \(JSONValue.format($0)) s" } ?? "")
    }

    /// A TLS failure as a sentence, without the library's own text, which names build paths.
    static func describeTLS(_ error: any Error, url: URL?) -> String {
        let text = "\(error)"
        let address = address(of: url) ?? "the server"
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return "TLS failed: the certificate for \(url?.host ?? "the server") is not trusted"
        }
        if text.contains("WRONG_VERSION_NUMBER") || text.contains("HTTP_REQUEST") {
            return "TLS failed: the server at \(address) did not answer TLS; is it plain HTTP?"
        }
        if text.contains("unexpectedEOF") || text.contains("uncleanShutdown") {
            return "TLS failed: the server at \(address) closed the connection during the handshake"
        }
        return "TLS failed: the handshake with \(address) did not complete"
    }

    /// An error's case name, such as `invalidURL`, as lowercase words: "invalid url".
    static func words(of text: String) -> String {
        let name = text.prefix { $0.isLetter || $0.isNumber }
        var words = ""
        for character in name {
            if character.isUppercase, !words.isEmpty { words += " " }
            words += character.lowercased()
        }
        return words.isEmpty ? "an unknown error" : words
    }
}
