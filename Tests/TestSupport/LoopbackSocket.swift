#if canImport(Glibc)
    import Glibc

    /// A plain TCP connection to a server on 127.0.0.1, for tests and fuzz targets that send
    /// bytes no HTTP client would: half a head, raw garbage, or nothing at all.
    public final class LoopbackSocket {
        /// The socket's descriptor.
        public let descriptor: Int32

        /// Connects to 127.0.0.1:`port` from the loopback address `source`; reads wait at most
        /// `timeout` seconds. Nil when the connection is refused.
        public init?(port: Int, timeout: Int = 5, from source: String = "127.0.0.1") {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard socket >= 0 else { return nil }
            // Bound to `source`, then connected to the server: one IPv4 address each.
            let steps: [(String, Int, (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32)] = [
                (source, 0, Glibc.bind), ("127.0.0.1", port, Glibc.connect),
            ]
            for (host, port, step) in steps {
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = in_port_t(UInt16(clamping: port).bigEndian)
                address.sin_addr.s_addr = inet_addr(host)
                let done = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        step(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                guard done == 0 else {
                    close(socket)
                    return nil
                }
            }
            var limit = timeval(tv_sec: timeout, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            descriptor = socket
        }

        /// Whether closing resets the connection (`SO_LINGER` 0) rather than ending it: no
        /// TIME_WAIT is left, so a harness that opens connections by the hundred a second does
        /// not run loopback out of ephemeral ports (28,000 here, each held 60 s in TIME_WAIT).
        public var resetsOnClose = false

        deinit {
            if resetsOnClose {
                var abort = linger(l_onoff: 1, l_linger: 0)
                setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &abort, socklen_t(MemoryLayout<linger>.size))
            }
            close(descriptor)
        }

        /// Sends the bytes, ignoring a peer that has gone.
        public func send(_ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        /// Sends the text's UTF-8.
        public func send(_ text: String) { send(Array(text.utf8)) }

        /// Up to `count` bytes, or fewer when the peer closes or the timeout passes; without
        /// `waiting`, only what has already arrived.
        public func read(upTo count: Int, waiting: Bool = true) -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: count)
            let read = recv(descriptor, &buffer, count, waiting ? 0 : Int32(MSG_DONTWAIT))
            return read > 0 ? Array(buffer[..<read]) : []
        }

        /// What the peer sends until it closes the connection or the timeout passes.
        public func readAll() -> String {
            var data: [UInt8] = []
            while true {
                let chunk = read(upTo: 4096)
                guard !chunk.isEmpty else { break }
                data += chunk
            }
            return String(decoding: data, as: UTF8.self)
        }

        /// One HTTP/1.1 response whole, framed by its `Content-Length` (none is 0), or what came
        /// before the peer closed or the timeout passed; what follows it stays unread.
        public func readResponse() -> String {
            var data: [UInt8] = []
            while true {
                let text = String(decoding: data, as: UTF8.self)
                if let end = text.range(of: "\r\n\r\n") {
                    let head = text[..<end.lowerBound].lowercased()
                    let length =
                        head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                        .flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
                    let wanted = text[..<end.upperBound].utf8.count + length
                    if data.count >= wanted { return String(decoding: data.prefix(wanted), as: UTF8.self) }
                    let chunk = read(upTo: wanted - data.count)
                    guard !chunk.isEmpty else { return String(decoding: data, as: UTF8.self) }
                    data += chunk
                    continue
                }
                let chunk = read(upTo: 1)
                guard !chunk.isEmpty else { return text }
                data += chunk
            }
        }

        /// Whether the peer has closed the connection, asked without waiting.
        public var isClosedByPeer: Bool { recv(descriptor, nil, 0, Int32(MSG_DONTWAIT)) == 0 }
    }
#endif
