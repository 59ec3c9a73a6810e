/// How far a response body has arrived: Moya's `ProgressResponse`, without the response.
public struct TransferProgress: Sendable, Hashable {
    /// Bytes received so far.
    public var completedBytes: Int64
    /// The body's length from `Content-Length`, when the server sent one.
    public var totalBytes: Int64?
    /// Whether the whole body has arrived.
    public var isCompleted: Bool

    /// Creates a progress value.
    public init(completedBytes: Int64, totalBytes: Int64?, isCompleted: Bool) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
        self.isCompleted = isCompleted
    }

    /// The fraction received, 0 to 1, when the length is known.
    public var fraction: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(Double(completedBytes) / Double(totalBytes), 1)
    }
}

/// Receives progress while a body arrives.
public typealias ProgressHandler = @Sendable (TransferProgress) -> Void

/// Counts a body's bytes and reports them.
package struct ProgressMeter {
    private var progress: TransferProgress
    private let handler: ProgressHandler?

    package init(head: ResponseHead, handler: ProgressHandler?) {
        // A length that is not a number of bytes, such as -1, is no length at all.
        let length = head.headers["Content-Length"].flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil }
        progress = TransferProgress(completedBytes: 0, totalBytes: length, isCompleted: false)
        self.handler = handler
        handler?(progress)
    }

    package mutating func add(_ count: Int) {
        guard let handler else { return }
        progress.completedBytes = progress.completedBytes.addingReportingOverflow(Int64(count)).partialValue
        handler(progress)
    }

    /// Reports the end; called when the body is complete.
    package mutating func finish() {
        guard let handler else { return }
        progress.isCompleted = true
        handler(progress)
    }
}

/// Receives a live response as it arrives: its head once, then each chunk of its body, so
/// that a body of any size can be passed on without being held.
///
/// A stream may end the transfer early: by throwing `ResponseStreamEnded` from `receive`, or
/// by a `deadline` that passes before the body ends, when the transport calls `expire`. Either
/// way the response is complete, as far as the caller is concerned.
public protocol ResponseStream: Sendable {
    /// The head of the final response, after any retries and redirects.
    func receive(head: ResponseHead) throws
    /// The next bytes of the body.
    func receive(_ bytes: UnsafeRawBufferPointer) throws
    /// When the stream ends if the body has not ended before; nil for never. Asked again
    /// whenever the last answer passes, so a deadline may move later.
    func deadline() -> ContinuousClock.Instant?
    /// The deadline passed: the transfer ends here.
    func expire()
}

extension ResponseStream {
    /// No deadline: the body is read to its end.
    public func deadline() -> ContinuousClock.Instant? { nil }
    /// Nothing to do.
    public func expire() {}
}

/// Thrown by a `ResponseStream` that has all it wants: the transfer ends, as a success.
public struct ResponseStreamEnded: Error, Sendable {
    /// The end.
    public init() {}
}

/// Byte counts as messages give them.
package enum ByteCount {
    /// Whole mebibytes as `64 MiB`, anything else as `1000 bytes`.
    package static func format(_ bytes: Int) -> String {
        bytes > 0 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
