import MoyaHTTP
import MoyaTransport
import Synchronization

/// Something in flight that can be cancelled.
public protocol Cancellable: Sendable {
    /// Whether `cancel()` has been called.
    var isCancelled: Bool { get }
    /// Cancels the request; its completion then reports `.underlying` with a cancelled error.
    func cancel()
}

/// The `Cancellable` the provider returns: it cancels the task that runs the request.
final class CancellableTask: Cancellable {
    private let task: _Concurrency.Task<Void, Never>

    init(_ task: _Concurrency.Task<Void, Never>) {
        self.task = task
    }

    var isCancelled: Bool { task.isCancelled }

    func cancel() {
        task.cancel()
    }
}

/// The `Cancellable` of a request that completed before `request` returned: there is nothing
/// left to cancel.
final class CompletedRequest: Cancellable {
    private let cancelled = Atomic(false)

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }
}
