import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// A thread that runs GLib's default main loop, and the one place libnotify is called from.
///
/// Action buttons ("Open", "Mute") arrive as D-Bus signals that GLib dispatches only on the thread that
/// iterates the default main context, and libnotify is not thread-safe: so every libnotify call is sent
/// here with `async`, and the callbacks run here too. Idle, the thread sleeps in poll(2): no wake-ups.
final class GLibThread: @unchecked Sendable {  // the loop pointer is set once, before anyone can use it
    private var loop: OpaquePointer?
    private let lib: LibNotify

    init(_ lib: LibNotify) {
        self.lib = lib
        let started = DispatchSemaphore(value: 0)
        let context = Unmanaged.passRetained(StartContext(thread: self, started: started)).toOpaque()
        var thread = pthread_t()
        pthread_create(&thread, nil, { raw in
            let start = Unmanaged<StartContext>.fromOpaque(raw!).takeRetainedValue()
            start.thread.runLoop(signalling: start.started)
            return nil
        }, context)
        pthread_detach(thread)
        started.wait()  // until the loop owns the context: from then on `async` never runs on the caller's thread
    }

    private final class StartContext {
        let thread: GLibThread
        let started: DispatchSemaphore
        init(thread: GLibThread, started: DispatchSemaphore) {
            self.thread = thread
            self.started = started
        }
    }

    private func runLoop(signalling started: DispatchSemaphore) {
        let loop = lib.g_main_loop_new(nil, 0)
        self.loop = loop
        let semaphore = Unmanaged.passRetained(started).toOpaque()
        _ = lib.g_idle_add({ data in
            Unmanaged<DispatchSemaphore>.fromOpaque(data!).takeRetainedValue().signal()
            return LibNotify.sourceRemove
        }, semaphore)
        lib.g_main_loop_run(loop)
    }

    private final class Work {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Runs `body` on the GLib thread, after everything sent before it.
    func async(_ body: @escaping () -> Void) {
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        lib.g_main_context_invoke(nil, { data in
            Unmanaged<Work>.fromOpaque(data!).takeRetainedValue().body()
            return LibNotify.sourceRemove
        }, work)
    }
}
