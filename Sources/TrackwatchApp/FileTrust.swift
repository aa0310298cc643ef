#if canImport(Glibc)
import Glibc
#endif
import SourceKit
import StateStore
import TrackwatchCore

/// Whether someone other than you (or root) could change a file that trackwatch trusts. The configuration
/// chooses the commands trackwatch runs (`password_command`, `opener`) and where it sends your password (`url`,
/// `insecure`); a `ca_file` decides which server gets it; a `password_file` or `token_file` is what is sent. Whoever
/// can write one of them, or replace it, can take your account.
public struct UntrustedFile: ErrorWithFix, CustomStringConvertible, Sendable {
    /// What is wrong: the file itself, or one of the directories it is reached through.
    public let path: String
    public let problem: String
    /// The command that fixes it.
    public let fix: String
    /// The file that was refused.
    public let refused: String
    /// Its key in the configuration (`ca_file`), or `the configuration`.
    public var key = "the configuration"
    /// A secret that is a symbolic link: refused whoever could change the link.
    public var isLink = false
    /// A secret that others can read: what they could do is read it, not change it.
    public var isReadable = false

    public var fixLine: String? { fix }

    public var description: String {
        let entry = path == refused ? "it" : path
        if isLink {
            return "refusing \(key) \(refused): \(entry) \(problem), so that no link can make trackwatch send "
                + "another of your files as your password. Run: \(fix)"
        }
        let risk = isReadable ? "read your password or token" : FileTrust.risk(of: key)
        return "refusing \(key) \(refused): \(entry) \(problem), so another user could \(risk). "
            + "Run: \(fix)"
    }
}

public enum FileTrust {
    /// Keys of files that hold a secret: never read through a symbolic link.
    static let secretKeys: Set<String> = ["password_file", "token_file"]

    /// Checks the configuration file and every directory above it (as the path resolves, and where a symbolic
    /// link to it lives); throws `UntrustedFile` for the first that someone else could change.
    static func checkConfiguration(_ path: String) throws {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            // A FIFO or a device would block the read or never end.
            throw ConfigFileError(path: path, reason: "not a regular file")
        }
        try checkEntries(of: path, key: "the configuration")
    }

    /// Every file a source reads (`SourceSettings.files`) held to the configuration's rule; a secret's must also
    /// be the file itself, not a link (a link lets whoever points it choose what is sent as your password).
    public static func checkFiles(of source: any SourceSettings, environment: [String: String]) throws {
        for (key, path) in source.files {
            try checkFile(key: key, path: expandTilde(path, environment: environment))
        }
    }

    /// One file a source reads, by its configuration key.
    public static func checkFile(key: String, path: String) throws {
        var info = stat()
        if secretKeys.contains(key), lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            throw UntrustedFile(
                path: path, problem: "is a symbolic link, and trackwatch reads a secret only from the file itself",
                fix: "rm \(path), then put the secret itself there (chmod 600 \(path))", refused: path, key: key,
                isLink: true)
        }
        // What reading it refuses (`readSecret`), said here too, so that doctor does not pass the file first.
        if secretKeys.contains(key), stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
           info.st_mode & 0o077 != 0 || info.st_uid != geteuid() {
            let problem = info.st_uid != geteuid()
                ? "belongs to uid \(info.st_uid), not to you" : "can be read by others (mode \(String(info.st_mode & 0o777, radix: 8)))"
            throw UntrustedFile(
                path: path, problem: problem,
                fix: info.st_uid != geteuid() ? "keep the secret in a file of your own: chmod 600 it" : "chmod 600 \(path)",
                refused: path, key: key, isReadable: true)
        }
        try checkEntries(of: path, key: key)
    }

    /// The file as it resolves and every directory above it, then the directory holding a link to it and the
    /// directories above that one (whoever can replace the link chooses the file). Missing entries pass: reading
    /// the file says so.
    static func checkEntries(of path: String, key: String) throws {
        var entries: [String] = []
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            let linkDirectory = resolvedPath(parentDirectory(of: path))
            entries += [linkDirectory] + ancestors(of: linkDirectory)
        }
        let real = resolvedPath(path)
        entries = [real] + ancestors(of: real) + entries
        for entry in entries {
            if let (problem, fix) = ownershipProblem(of: entry) {
                let what = entry == real ? path : entry
                throw UntrustedFile(path: what, problem: problem, fix: fix, refused: path, key: key)
            }
        }
    }

    /// What another user could do with a file of this key that they can change.
    static func risk(of key: String) -> String {
        switch key {
        case "the configuration": "change what trackwatch runs and where it sends your password"
        case "ca_file": "make trackwatch trust a server of theirs with your password"
        case let key where secretKeys.contains(key): "make trackwatch send another of your files as your password"
        default: "change what trackwatch reads"
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
