import Dispatch
import MoyaCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C while a request is in flight: SIGINT cancels it through the provider's
/// `Cancellable`, which fails it as cancelled, and the command exits 130.
enum Interrupts {
    /// Starts a request with `start`, which hands back its `Cancellable`, and waits for its
    /// result; SIGINT in the meantime cancels it.
    static func cancelling(
        _ start: (@escaping @Sendable (Result<Response, MoyaError>) -> Void) -> any Cancellable
    ) async -> Result<Response, MoyaError> {
        let inFlight = Mutex<(any Cancellable)?>(nil)
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { inFlight.withLock { $0?.cancel() } }
        source.resume()
        defer {
            source.cancel()
            signal(SIGINT, SIG_DFL)
        }
        return await withCheckedContinuation { continuation in
            let cancellable = start { continuation.resume(returning: $0) }
            inFlight.withLock { $0 = cancellable }
        }
    }
}
