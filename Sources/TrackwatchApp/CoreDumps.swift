import CLinux

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
