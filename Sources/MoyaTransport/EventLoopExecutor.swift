import MoyaHTTP
import NIOCore

/// A task executor that runs jobs on one event loop, so that async code given it as its
/// preference (`withTaskExecutorPreference`) runs on the thread that does its I/O.
final class EventLoopExecutor: TaskExecutor {
    let loop: any EventLoop

    init(loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        // The closure keeps the executor alive until the job has run on it.
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
