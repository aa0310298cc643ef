#if canImport(Glibc)
import Glibc
#endif
import StateStore

/// Whether someone other than you (or root) could change a file that trackwatch trusts. The configuration
/// chooses the commands trackwatch runs (`password_command`, `opener`) and where it sends your password
/// (`url`, `insecure`), so whoever can write it, or replace it, can take your account.
public struct UntrustedFile: Error, CustomStringConvertible, Sendable {
    /// What is wrong: the configuration itself, or one of the directories it is reached through.
    public let path: String
    public let problem: String
    /// The command that fixes it.
    public let fix: String
    /// The file that was refused.
    public let refused: String

    public var description: String {
        "refusing the configuration \(refused): \(path == refused ? "it" : path) \(problem), so another user could "
            + "change what trackwatch runs and where it sends your password. Run: \(fix)"
    }
}

enum FileTrust {
    /// Checks the configuration file and every directory above it (as the path resolves, and where a symbolic
    /// link to it lives); throws `UntrustedFile` for the first that someone else could change.
    static func checkConfiguration(_ path: String) throws {
        var entries: [String] = []
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            let linkDirectory = resolvedPath(parentDirectory(of: path))  // who can replace the link
            entries += [linkDirectory] + ancestors(of: linkDirectory)
        }
        let real = resolvedPath(path)
        entries = [real] + ancestors(of: real) + entries
        for entry in entries {
            guard stat(entry, &info) == 0 else { continue }  // missing: reading the file says so
            if entry == real && info.st_mode & S_IFMT != S_IFREG {
                // A FIFO or a device would block the read or never end.
                throw ConfigFileError(path: path, reason: "not a regular file")
            }
            if let (problem, fix) = ownershipProblem(of: entry) {
                throw UntrustedFile(path: entry, problem: problem, fix: fix, refused: path)
            }
        }
    }

    /// `/a/b/c` → `/a/b`, `/a`, `/`.
    static func ancestors(of path: String) -> [String] {
        var result: [String] = []
        var current = path
        while current != "/" && current != "." && !current.isEmpty {
            current = parentDirectory(of: current)
            result.append(current)
        }
        return result
    }
}
