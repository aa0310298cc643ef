#if canImport(Glibc)
import Glibc
#endif

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
            "cannot create the lock file \(path): \(reason). The state directory must be writable, on a disk with free space."
        }
    }

    /// Takes the lock or throws `Held` naming the holder's pid.
    public init(stateDirectory: String) throws {
        try Self.makeDirectory(stateDirectory)
        let path = stateDirectory + "/trackwatch.lock"
        var descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if descriptor < 0, errno == EROFS || errno == EACCES {
            // flock works on a read-only descriptor too; the store then says precisely what is wrong.
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
        }
        guard descriptor >= 0 else { throw Failed(path: path, reason: String(cString: strerror(errno))) }
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

    /// Creates the directory and its parents, private to the user.
    static func makeDirectory(_ path: String) throws {
        var built = ""
        for component in path.split(separator: "/") {
            built += "/" + component
            if mkdir(built, 0o700) != 0 && errno != EEXIST {
                throw Failed(path: path, reason: String(cString: strerror(errno)))
            }
        }
    }
}
