import Dispatch
import MoyaCommandSupport
import MoyaHTTP
import MoyaRuntime
import MoyaSpec
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT (Ctrl-C), SIGTERM and SIGHUP while a request is in flight: each cancels the task it
/// runs in, which fails it as cancelled and removes any temporary file, and the command exits
/// 128 + the signal's number.
enum Interrupts {
    /// The signals that cancel a request, each with its name and status (`ExitStatus.signals`).
    static let signals = ExitStatus.signals

    /// The first of them that arrived in this process, whoever was listening.
    private static let firstArrived = Mutex<Int32?>(nil)

    /// Notes that `number` arrived.
    static func record(_ number: Int32) {
        firstArrived.withLock { if $0 == nil { $0 = number } }
    }

    /// The signal the process should end by once the command has cleaned up: the first that
    /// arrived, when the command's status says it ended because of it. A sample that stands
    /// for a cancelled request exits 130 too, but no signal arrived.
    static func endingSignal(for status: Int32) -> Int32? {
        guard let number = firstArrived.withLock({ $0 }), ExitStatus(rawValue: status)?.signal == number
        else { return nil }
        return number
    }

    /// Runs `send` in a task of its own, which SIGINT, SIGTERM or SIGHUP cancels, and waits
    /// for its result and the signal that cancelled it, if one did. A signal that arrives
    /// before the task is made cancels it as soon as it is.
    static func cancelling(
        _ send: @escaping @Sendable () async -> Result<Response, MoyaError>
    ) async -> (result: Result<Response, MoyaError>, signal: Int32?) {
        let state = Mutex<(request: _Concurrency.Task<Result<Response, MoyaError>, Never>?, signal: Int32?)>((nil, nil))
        let sources = listen { number in
            let request = state.withLock { state in
                if state.signal == nil { state.signal = number }
                return state.request
            }
            request?.cancel()
        }
        defer { stopListening(sources) }
        let request = _Concurrency.Task { await send() }
        let arrived = state.withLock { state in
            state.request = request
            return state.signal != nil
        }
        if arrived { request.cancel() }
        return (await request.value, state.withLock { $0.signal })
    }

    /// Listens for each of the signals, their default actions set aside, calling `heard` with
    /// each that arrives (after noting it, `record`). Returns once every source is registered:
    /// until then a signal would meet only SIG_IGN and be lost, as a Ctrl-C on a loaded
    /// machine was.
    static func listen(_ heard: @escaping @Sendable (Int32) -> Void) -> [any DispatchSourceSignal] {
        let registered = DispatchGroup()
        let sources = signals.map(\.number).map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.setEventHandler {
                record(number)
                heard(number)
            }
            source.resume()
            return source
        }
        _ = registered.wait(timeout: .now() + 1)
        return sources
    }

    /// Stops the sources `listen` made and restores the default actions.
    static func stopListening(_ sources: [any DispatchSourceSignal]) {
        for (source, number) in zip(sources, signals.map(\.number)) {
            source.cancel()
            signal(number, SIG_DFL)
        }
    }

    /// The signal's name and exit status.
    static func name(of signal: Int32) -> String {
        (signals.first { $0.number == signal } ?? signals[0]).name
    }
}

/// Whether SIGINT, SIGTERM or SIGHUP arrived during a run of flows. The first stops each flow
/// before its next step, so that its `finally` steps still run; a second exits at once, as
/// each signal's default action is restored when it first arrives.
final class InterruptFlag: InterruptSource, @unchecked Sendable {
    // The sources are set once in `init` and only cancelled after; the signal is guarded.
    private let received = Mutex<Int32?>(nil)
    private var sources: [any DispatchSourceSignal] = []

    /// Starts listening.
    init() {
        sources = Interrupts.listen { [weak self] number in
            self?.received.withLock { if $0 == nil { $0 = number } }
            signal(number, SIG_DFL)
        }
    }

    /// The first signal that arrived, if one did.
    var arrived: Int32? { received.withLock { $0 } }

    /// Stops listening and restores the default actions.
    func stop() {
        Interrupts.stopListening(sources)
    }
}
