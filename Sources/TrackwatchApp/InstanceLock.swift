#if canImport(Glibc)
import Glibc
#endif
import StateStore

/// One trackwatch per state directory: an advisory `flock` on `<state>/trackwatch.lock`, held until exit.
/// The kernel releases it when the process dies, so a crash never leaves a stale lock behind.
public final class InstanceLock {
    private let descriptor: Int32

    public struct Held: Error, CustomStringConvertible {
        public let directory: String
        public let pid: String

        public var description: String {
            "another trackwatch (pid \(pid.isEmpty ? "unknown" : pid)) is already using the state in \(directory). "
                + "Stop it first (systemctl --user stop trackwatch), or ask it to poll now with "
                + "systemctl --user kill -s USR1 trackwatch."
        }
    }

    public struct Failed: StateStoreFailure, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String {
            "cannot use the lock file \(path): \(reason). The state directory must be yours and writable, on a disk with free space."
        }
    }

    /// Takes the lock or throws `Held` naming the holder's pid. The state directory is made safe first (yours,
    /// private, no symbolic links: `prepareStateDirectory`), and the lock file is never opened through a link:
    /// it is truncated and written, so a link would let whoever planted it choose which of your files.
    public init(stateDirectory: String) throws {
        try prepareStateDirectory(stateDirectory)
        let path = stateDirectory + "/trackwatch.lock"
        let flags = O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC
        var descriptor = open(path, O_RDWR | O_CREAT | flags, 0o600)
        if descriptor < 0, errno == EROFS || errno == EACCES {
            // flock works on a read-only descriptor too; the store then says precisely what is wrong.
            descriptor = open(path, O_RDONLY | flags)
        }
        guard descriptor >= 0 else {
            let reason = errno == ELOOP ? "it is a symbolic link, which trackwatch does not follow" : String(cString: strerror(errno))
            throw Failed(path: path, reason: reason)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else {
            close(descriptor)
            throw Failed(path: path, reason: "it is not a regular file of yours")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = pread(descriptor, &buffer, 31, 0)
            close(descriptor)
            let pid = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).filter(\.isNumber)
            throw Held(directory: stateDirectory, pid: pid)
        }
        self.descriptor = descriptor
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pwrite(descriptor, pid, pid.count, 0)
    }

    deinit { close(descriptor) }
}
