/// One WebSocket message, whole: a text message's text or a binary message's bytes.
public enum SocketMessage: Sendable, Hashable {
    case text(String)
    case binary([UInt8])
}

/// What is sent on an open WebSocket, as a conversation goes.
public protocol SocketWriter: Sendable {
    /// Sends `message` as one frame.
    func send(_ message: SocketMessage) async throws
    /// Sends a ping with `payload` and returns when its pong arrives.
    func ping(_ payload: [UInt8]) async throws
    /// Sends a close frame with `code`; the server's close ends the connection.
    func close(code: UInt16) async throws
}

/// A `ResponseStream` that reads a WebSocket's messages, and may talk on it: what a transfer
/// to a `ws:` or `wss:` URL is handed. The handshake's head arrives by `receive(head:)`; each
/// message by `receive(message:)`, which may end the connection by throwing
/// `ResponseStreamEnded`; `talk(on:)` runs beside the reading from the handshake on.
public protocol MessageStream: ResponseStream {
    /// The most bytes one message may hold; a longer one fails the connection (1009).
    var messageLimit: Int { get }
    /// The next message.
    func receive(message: SocketMessage) throws
    /// A message went past `messageLimit`: the connection ends here (1009).
    func messageTooLarge()
    /// What is sent, once the connection is open; reading goes on after it returns, to the
    /// stream's bounds. A failure it throws is the stream's to keep: the connection closes.
    func talk(on socket: any SocketWriter) async
}
