import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where one poll's tasks run: a thread of its own, started for the poll and ended with it, given to the poll as its
/// task executor. The poll's code is `async` through to the transport: while it waits for an answer it is suspended,
/// and the thread sleeps until the event loop resumes it with the answer (nothing waits on a future or a semaphore for
/// a result). Its CPU work — parsing, diffing, SQLite's commit, a `password_command` run when the source is made —
/// runs here, never on the daemon's loop.
///
/// Not the cooperative pool: its first use starts libdispatch's monitor, which then wakes the process every second
/// for good (measured: one wake-up a second, forever, after a single task on the global executor). Not a pool of our
/// own either: nothing is kept between polls, so the idle daemon holds no thread for them. A thread costs about 50 µs
/// to start, once per poll.
///
/// The awaiting task's work ends before the thread does, whatever happens: no poll is ever left running behind the task
/// that started it, so that a stopping daemon that has awaited its polls knows that none is half-way through a
/// commit. Cutting the poll short is the transport's part (`PollDeadline.cancel`).
public enum PollThread {
    /// Runs `work` with a new thread as its executor and returns (or throws) what it did; the thread ends after.
    public static func run<T>(_ work: () async throws -> T) async throws -> T {
        let executor = try PollExecutor()
        defer { executor.finish() }
        return try await withTaskExecutorPreference(executor) { try await work() }
    }

    /// The system refused a thread for the poll.
    public struct NoThread: Error, CustomStringConvertible {
        public let code: Int32
        public var description: String { "could not start a thread for the poll: \(String(cString: strerror(code)))" }
    }
}

/// A thread that runs the jobs enqueued on it, one at a time and in order, until `finish()`.
final class PollExecutor: TaskExecutor, Sendable {
    private struct State {
        var jobs: [UnownedJob] = []
        var finished = false
        /// After the thread ended: a job enqueued late (none is expected) runs on this queue instead of being lost.
        var late: DispatchQueue?
    }

    private let state = Mutex(State())
    /// Counts the jobs (and the finish) not taken yet: the thread sleeps on it while it has nothing to run.
    private let pending = DispatchSemaphore(value: 0)

    init() throws {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let started = pthread_create(&thread, nil, { context in
            Unmanaged<PollExecutor>.fromOpaque(context!).takeRetainedValue().runJobs()
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<PollExecutor>.fromOpaque(context).release()
            throw PollThread.NoThread(code: started)
        }
        pthread_detach(thread)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let late = state.withLock { state -> DispatchQueue? in
            if let late = state.late { return late }
            state.jobs.append(job)
            return nil
        }
        if let late {
            late.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        } else {
            pending.signal()
        }
    }

    /// The thread ends once the jobs enqueued before are run.
    func finish() {
        state.withLock { $0.finished = true }
        pending.signal()
    }

    private func runJobs() {
        while true {
            pending.wait()
            let job = state.withLock { state -> UnownedJob? in
                if !state.jobs.isEmpty { return state.jobs.removeFirst() }
                if state.finished { state.late = DispatchQueue(label: "trackwatch.poll.late") }
                return nil
            }
            guard let job else { break }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
        Self.releaseDeepStack()
    }

    /// Hands back the stack pages this thread's deepest calls touched (parsing an answer, SQLite), all below where
    /// it is now: glibc keeps an ended thread's stack for the next thread, with every page it touched (~1 MB held
    /// while idle).
    private static func releaseDeepStack() {
        var attributes = pthread_attr_t()
        guard pthread_getattr_np(pthread_self(), &attributes) == 0 else { return }
        defer { pthread_attr_destroy(&attributes) }
        var base: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &base, &size) == 0, let base else { return }
        var marker = 0
        let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        let low = (UInt(bitPattern: base) + page - 1) & ~(page - 1)
        // 64 KB kept below this frame for the calls that end the thread.
        guard here > low + 65_536 else { return }
        let high = (here - 65_536) & ~(page - 1)
        guard high > low else { return }
        _ = madvise(UnsafeMutableRawPointer(bitPattern: low), Int(high - low), MADV_DONTNEED)
    }
}

/// glibc's `pthread_getattr_np` (a GNU extension, which Swift's Glibc module does not export).
@_silgen_name("pthread_getattr_np")
private func pthread_getattr_np(_ thread: pthread_t, _ attributes: UnsafeMutablePointer<pthread_attr_t>) -> Int32
