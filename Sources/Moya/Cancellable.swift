import MoyaCore

/// Something in flight that can be cancelled.
public protocol Cancellable {
    /// Whether `cancel()` has been called.
    var isCancelled: Bool { get }
    /// Cancels the request; its completion then gets `.underlying` of `NSURLErrorCancelled`.
    func cancel()
}

/// A cancellable that runs an action once, the first time it is cancelled.
public final class CancellableToken: Cancellable, CustomDebugStringConvertible {
    private let lock = NSLock()
    private let cancelAction: () -> Void
    private var cancelled = false

    /// Whether `cancel()` has been called.
    public var isCancelled: Bool { lock.withLock { cancelled } }

    /// Creates a token that runs `action` when cancelled.
    public init(action: @escaping () -> Void) {
        cancelAction = action
    }

    public func cancel() {
        let first = lock.withLock {
            defer { cancelled = true }
            return !cancelled
        }
        if first { cancelAction() }
    }

    public var debugDescription: String { "Empty Request" }
}

/// What a provider returns before its request closure has answered, and what an async call
/// holds: cancelling it cancels whatever the request turns into, even when that comes later.
final class CancellableWrapper: Cancellable, @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var cancelInner: (() -> Void)?
    private var cancelled = false

    var isCancelled: Bool { lock.withLock { cancelled } }

    func cancel() {
        let cancelInner = lock.withLock {
            cancelled = true
            return self.cancelInner
        }
        cancelInner?()
    }

    /// Hands over the request once it exists; it is cancelled at once if this already was.
    func hold(cancelling cancelRequest: @escaping () -> Void) {
        let cancelNow = lock.withLock {
            cancelInner = cancelRequest
            return cancelled
        }
        if cancelNow { cancelRequest() }
    }
}
