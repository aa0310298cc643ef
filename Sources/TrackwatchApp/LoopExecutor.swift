import Dispatch

/// Where the daemon's tasks run: a serial queue of our own, given as the tasks' executor preference, so that the
/// loop and the glue of every poll's task run one at a time on it (the daemon's state needs no other lock) and never
/// on Swift's global executor. On Linux that executor is libdispatch's pool, whose first use starts a monitor that
/// wakes the process every second for good (measured with one task: a wake-up a second, forever, and a thread kept);
/// a queue of our own runs on the overcommit threads, which leave nothing behind when idle. A poll's own work
/// (parsing, diffing, its commit) runs on its own thread (`PollThread`), never here.
final class LoopExecutor: TaskExecutor, @unchecked Sendable {  // the queue is all its state
    let queue: DispatchQueue

    init(queue: DispatchQueue) { self.queue = queue }

    convenience init(label: String) { self.init(queue: DispatchQueue(label: label)) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Runs `work` as a task on this executor and waits for it on the calling thread (which must not be the
    /// queue's): for a command, whose thread has nothing else to do meanwhile.
    func wait<T>(_ work: @escaping () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome<T>()
        let handed = Handed(work: work, outcome: outcome)
        Task(executorPreference: self) {
            do { handed.outcome.result = .success(try await handed.work()) } catch { handed.outcome.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try outcome.result!.get()
    }

    private final class Outcome<T> {
        var result: Result<T, any Error>?
    }

    /// The work and its outcome, used by the task alone until it signals; the caller reads the outcome after.
    private struct Handed<T>: @unchecked Sendable {
        let work: () async throws -> T
        let outcome: Outcome<T>
    }
}

/// Runs `work` as a task and waits for it on the calling thread: for a command (and the fuzzer), whose thread has
/// nothing else to do meanwhile. Never in the daemon, which awaits.
public func waitForTask<T>(_ work: @escaping () async throws -> T) throws -> T {
    try LoopExecutor(label: "trackwatch.command").wait(work)
}
