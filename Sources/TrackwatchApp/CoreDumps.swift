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
/// only when the runtime would report at all: a binary with the Swift runtime linked statically (the release build,
/// the package) has no crash reporter unless `swift-backtrace-static` lies where the runtime looks for it or
/// `SWIFT_BACKTRACE` names one, and then the restart (a second start-up: ~6 ms of CPU and ~650 page faults per
/// command, and a process named `exe`) would hide nothing.
public enum CrashReports {
    /// Sets `registers=none` and execs this program again with the same arguments, unless `SWIFT_BACKTRACE`
    /// already says how to show registers (a person debugging may ask for them) or turns reports off, or no crash
    /// reporter would run. If the exec fails the command goes on as it is: a report with registers is better than
    /// no command.
    public static func withoutRegisters() {
        let current = getenv("SWIFT_BACKTRACE").map { String(cString: $0) }
        guard current != nil || reporterMayRun(),
            let wanted = setting(current), setenv("SWIFT_BACKTRACE", wanted, 1) == 0,
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

    /// Whether, with `SWIFT_BACKTRACE` unset, the runtime could start a crash reporter: always with the shared
    /// runtime (it finds `swift-backtrace` beside itself, in the toolchain); with the static one only when
    /// `swift-backtrace-static` is where the runtime's root path may be (`SWIFT_ROOT`, the executable's folder or
    /// the one above it). Erring towards true costs a restart, never a report with registers.
    static func reporterMayRun(executable: String? = executablePath(), swiftRoot: String? = environment("SWIFT_ROOT"),
                               sharedRuntime: Bool = sharedRuntimeLoaded(),
                               exists: (String) -> Bool = { access($0, F_OK) == 0 }) -> Bool {
        if sharedRuntime { return true }
        guard let executable, let slash = executable.lastIndex(of: "/") else { return true }
        let folder = String(executable[..<slash])
        let roots = [swiftRoot, folder, folder + "/.."].compactMap { $0 }
        return roots.contains { exists($0 + "/libexec/swift/linux/swift-backtrace-static") }
    }

    private static func sharedRuntimeLoaded() -> Bool {
        guard let handle = dlopen("libswiftCore.so", RTLD_NOW | RTLD_NOLOAD) else { return false }
        dlclose(handle)
        return true
    }

    private static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
}
