import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// A core dump of trackwatch would hold the password and the session token in clear (they live in memory
/// only, and a crash writes memory to disk). Every command calls `forbid()` first thing, so no core of it is
/// ever written, whatever `ulimit -c` or the unit says.
public enum CoreDumps {
    /// `RLIMIT_CORE` 0 (soft and hard: children cannot raise it either) and `PR_SET_DUMPABLE` 0, which also
    /// closes `/proc/PID/environ`, `mem` and `maps` and ptrace to everyone but root. With
    /// `fs.suid_dumpable=2` the kernel still dumps a non-dumpable process, but only to a root-owned file or a
    /// root core handler; the zero limit stops even that for file patterns.
    /// Returns false if either call failed (it does not, short of a seccomp filter forbidding them).
    @discardableResult
    public static func forbid() -> Bool {
        let limited = trackwatch_forbid_core_files() == 0
        let undumpable = trackwatch_set_dumpable(0) == 0
        return limited && undumpable
    }

    /// Whether this process may be dumped (`PR_GET_DUMPABLE`).
    public static var dumpable: Bool { trackwatch_get_dumpable() != 0 }
}

/// Swift's crash report prints every register with the 16 bytes of memory behind it, which may be a piece of the
/// password. The unit sets `SWIFT_BACKTRACE=registers=none`; a command started from a shell has to see to it
/// itself. The runtime reads the variable once, before `main`, so the command sets it and starts itself again —
/// only when the runtime did install its crash handler: a binary with the Swift runtime linked statically (the
/// release build, the package) finds no `swift-backtrace-static` to run unless a toolchain lies where it looks,
/// and then it installs none and reports nothing, and the restart (a second start-up: ~650 page faults and a
/// third of a `check`'s CPU, and a process named `exe`) would hide nothing.
public enum CrashReports {
    /// Sets `registers=none` and execs this program again with the same arguments, unless `SWIFT_BACKTRACE`
    /// already says how to show registers (a person debugging may ask for them) or turns reports off, or the
    /// runtime installed no crash handler. If the exec fails the command goes on as it is: a report with registers
    /// is better than no command.
    public static func withoutRegisters() {
        let current = getenv("SWIFT_BACKTRACE").map { String(cString: $0) }
        guard crashHandlerInstalled(), let wanted = setting(current), setenv("SWIFT_BACKTRACE", wanted, 1) == 0,
            getenv("SWIFT_BACKTRACE").map({ String(cString: $0) }) == wanted  // else this would exec for ever
        else { return }
        execv("/proc/self/exe", CommandLine.unsafeArgv)
    }

    /// The value `SWIFT_BACKTRACE` needs, or `nil` when it needs no change.
    static func setting(_ current: String?) -> String? {
        let settings = (current ?? "").split(separator: ",").map { $0.filter { $0 != " " }.lowercased() }
        let off = ["enable=no", "enable=false", "enable=off", "enable=0"]
        guard !settings.contains(where: { $0.hasPrefix("registers=") || off.contains($0) }) else { return nil }
        return settings.isEmpty ? "registers=none" : current! + ",registers=none"
    }

    /// Whether something catches SIGSEGV: the runtime's crash handler, installed before `main` when it found its
    /// reporter (`SIG_DFL` and `SIG_IGN` are 0 and 1). Unknown counts as installed: a restart too many costs a
    /// few milliseconds, a report with registers could cost a secret.
    static func crashHandlerInstalled() -> Bool {
        var current = sigaction()
        guard sigaction(SIGSEGV, nil, &current) == 0 else { return true }
        return unsafeBitCast(current.__sigaction_handler, to: UInt.self) > 1
    }
}
