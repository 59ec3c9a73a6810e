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
struct ProgressMeter {
    private var progress: TransferProgress
    private let handler: ProgressHandler?

    init(head: ResponseHead, handler: ProgressHandler?) {
        let length = head.headers["Content-Length"].flatMap { Int64($0) }
        progress = TransferProgress(completedBytes: 0, totalBytes: length, isCompleted: false)
        self.handler = handler
        handler?(progress)
    }

    mutating func add(_ count: Int) {
        guard let handler else { return }
        progress.completedBytes += Int64(count)
        handler(progress)
    }

    /// Reports the end; called when the body is complete.
    mutating func finish() {
        guard let handler else { return }
        progress.isCompleted = true
        handler(progress)
    }
}
