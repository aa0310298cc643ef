#if canImport(Glibc)
import Glibc
#endif

/// Runs one poll's blocking work — a client that waits on its transport, SQLite's commit — on a thread of its own,
/// started for the poll and ended with it, and resumes the awaiting task when it is done.
///
/// Not the cooperative pool: a poll that waits on a server for minutes would hold one of its few threads (two on
/// this machine), and the pool's first use starts libdispatch's monitor, which then wakes the process every second
/// for good (measured: one wake-up a second, forever, after a single task on the global executor). Not a pool of
/// our own either: nothing is kept between polls, so the idle daemon holds no thread for them. A thread costs about
/// 50 µs to start, once per poll.
///
/// The awaiting task waits for the thread to end, whatever happens: no poll is ever left running behind the task
/// that started it, so that a stopping daemon that has awaited its polls knows that none is half-way through a
/// commit. Cutting the poll short is the transport's part (`PollDeadline.cancel`).
public enum PollThread {
    /// Runs `work` on a new thread and returns (or throws) what it did. `work` and what it touches are used by that
    /// thread alone until it ends: the caller is suspended meanwhile, and the resumption happens after the thread's
    /// last access.
    public static func run<T>(_ work: @escaping () throws -> T) async throws -> T {
        let job = Job(work)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            job.done = continuation
            start(job)
        }
        return try job.result!.get()
    }

    /// Starts `job`'s thread, or fails the job when the system refuses one (the process's limit): the poll then
    /// fails as a poll does, and is tried again.
    private static func start(_ job: Runnable) {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(job).toOpaque()
        let started = pthread_create(&thread, nil, { context in
            Unmanaged<Runnable>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        if started == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<Runnable>.fromOpaque(context).release()
            job.refused(NoThread(code: started))
        }
    }

    /// What a thread runs (not generic: a C thread entry cannot name a type parameter).
    private class Runnable {
        func run() {}
        func refused(_ error: NoThread) {}
    }

    /// The work, its result and the task waiting for it; used by its thread alone until `done` resumes the task.
    private final class Job<T>: Runnable {
        let work: () throws -> T
        var result: Result<T, any Error>?
        var done: CheckedContinuation<Void, any Error>?

        init(_ work: @escaping () throws -> T) { self.work = work }

        override func run() {
            result = Result { try work() }
            releaseDeepStack()
            done?.resume()
        }

        override func refused(_ error: NoThread) { done?.resume(throwing: error) }
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

    /// The system refused a thread for the poll.
    public struct NoThread: Error, CustomStringConvertible {
        public let code: Int32
        public var description: String { "could not start a thread for the poll: \(String(cString: strerror(code)))" }
    }
}

/// glibc's `pthread_getattr_np` (a GNU extension, which Swift's Glibc module does not export).
@_silgen_name("pthread_getattr_np")
private func pthread_getattr_np(_ thread: pthread_t, _ attributes: UnsafeMutablePointer<pthread_attr_t>) -> Int32
