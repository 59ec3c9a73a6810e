import Dispatch

/// An actor whose jobs run on a dispatch queue of its own, so that synchronous code, such as a
/// plugin hook or an output callback, can tell whether it runs on the actor without trapping
/// when it does not.
public actor QueueActor {
    final class QueueExecutor: SerialExecutor {
        static let key = DispatchSpecificKey<Bool>()
        let queue = DispatchQueue(label: "QueueActor")

        init() { queue.setSpecific(key: Self.key, value: true) }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
        }
    }

    /// Whether the calling code runs on a `QueueActor`.
    public static var isCurrent: Bool { DispatchQueue.getSpecific(key: QueueExecutor.key) ?? false }

    private let executor = QueueExecutor()

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    public init() {}

    /// Runs `body` on the actor.
    public func run<T: Sendable>(_ body: @Sendable (isolated QueueActor) async throws -> T) async rethrows -> T {
        try await body(self)
    }
}
