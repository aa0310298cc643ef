import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// sd_notify(3): readiness, status, watchdog and stop messages to the service manager. Every call is a
/// no-op when `NOTIFY_SOCKET` is unset (not started by systemd), so it is safe to call unconditionally.
public final class SystemdNotify: Sendable {
    public init() {}

    public func ready() { send("READY=1") }
    public func status(_ text: String) { send("STATUS=\(text)") }
    public func watchdog() { send("WATCHDOG=1") }
    public func stopping() { send("STOPPING=1") }

    /// `RELOADING=1` with `MONOTONIC_USEC=`, which systemd 253+ requires for Type=notify-reload (252 ignores it).
    public func reloading() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        send("RELOADING=1\nMONOTONIC_USEC=\(Int(now.tv_sec) * 1_000_000 + Int(now.tv_nsec) / 1_000)")
    }

    /// Seconds between required `WATCHDOG=1` messages, from `WATCHDOG_USEC` (and `WATCHDOG_PID`), or `nil`.
    public var watchdogInterval: Double? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return Double(microseconds) / 1_000_000
    }

    private func send(_ state: String) { _ = sd_notify(0, state) }
}
