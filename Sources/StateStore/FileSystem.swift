// The few file-system calls the store makes before SQLite takes over: making sure the state directory is
// yours and private, and creating the database file with private permissions (SQLite itself would create the
// file 0644 minus umask, and gives the -wal and -shm files the same mode as the database file).

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TrackwatchCore

/// The state directory cannot be used safely: someone else could read what trackwatch stores there, or plant
/// symbolic links in it that make trackwatch overwrite your files.
public struct StateDirectoryError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let problem: String
    public let fix: String

    public var description: String {
        "refusing the state directory \(path): \(problem). Another user could read your records there or make "
            + "trackwatch overwrite your files. \(fix)"
    }
}

/// The files trackwatch keeps in a state directory; none may be a symbolic link or another user's file.
let stateFileNames = ["trackwatch.lock", StateStore.fileName, StateStore.fileName + "-wal", StateStore.fileName + "-shm"]

/// Makes `path` a state directory only you can use, creating it (and missing parents) with mode 0700. An
/// existing one must pass `checkStateDirectory`, and is tightened to 0700 (no access for group and others).
public func prepareStateDirectory(_ path: String) throws {
    var info = stat()
    if lstat(path, &info) != 0 { try createPrivateDirectory(path) }
    try checkOwnDirectory(path)
    guard lstat(path, &info) == 0 else { throw StoreError(errno: errno, operation: "open the state directory", path: path) }
    if info.st_mode & 0o7077 != 0 {
        // Only ever removes bits. Not chmod(path): the directory may have been swapped for a link since lstat.
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0, fchmod(descriptor, info.st_mode & 0o700) == 0 else {
            let code = errno
            if descriptor >= 0 { close(descriptor) }
            throw StoreError(errno: code, operation: "make the state directory private (chmod 700)", path: path)
        }
        close(descriptor)
    }
    try checkSurroundings(path)
}

/// Looks at an existing state directory without changing anything (`trackwatch doctor` uses it): it must be a
/// directory of yours, not a symbolic link to one; every directory above it must belong to you or root and be
/// writable by nobody else (unless sticky, as /tmp), or someone could swap it for one of theirs; the files
/// trackwatch keeps in it must be yours and no links. A missing directory passes.
public func checkStateDirectory(_ path: String) throws {
    var info = stat()
    guard lstat(path, &info) == 0 else {
        if errno == ENOENT { return }
        throw StoreError(errno: errno, operation: "open the state directory", path: path)
    }
    try checkOwnDirectory(path)
    try checkSurroundings(path)
}

/// The directory itself: a directory, no link, yours.
func checkOwnDirectory(_ path: String) throws {
    var info = stat()
    guard lstat(path, &info) == 0 else { throw StoreError(errno: errno, operation: "open the state directory", path: path) }
    if info.st_mode & S_IFMT == S_IFLNK {
        throw StateDirectoryError(path: path, problem: "it is a symbolic link (trackwatch follows none in its state)",
                                  fix: "Replace the link with a directory of your own: rm \(path) && mkdir -m 700 \(path)")
    }
    guard info.st_mode & S_IFMT == S_IFDIR else {
        throw StoreError(errno: ENOTDIR, operation: "open the state directory", path: path)
    }
    guard info.st_uid == geteuid() else {
        throw StateDirectoryError(path: path, problem: "it belongs to uid \(info.st_uid), not to you (uid \(geteuid()))",
                                  fix: "Use a directory of your own: unset XDG_STATE_HOME (~/.local/state is the default) or point it to one.")
    }
}

/// The directories above it and the files in it.
func checkSurroundings(_ path: String) throws {
    try checkAncestors(of: path)
    var info = stat()
    for name in stateFileNames {
        let file = path + "/" + name
        guard lstat(file, &info) == 0 else { continue }
        let kind = info.st_mode & S_IFMT
        guard kind != S_IFREG || info.st_uid != geteuid() else { continue }
        let what = kind == S_IFLNK ? "a symbolic link" : kind != S_IFREG ? "not a regular file" : "owned by uid \(info.st_uid)"
        throw StateDirectoryError(path: path, problem: "\(name) in it is \(what)",
                                  fix: "Remove it (rm \(file)); trackwatch makes a new one.")
    }
}

/// Every directory above `path` (as it resolves) must be changeable by you and root only.
func checkAncestors(of path: String) throws {
    var current = resolvedPath(parentDirectory(of: path))
    while true {
        if let (problem, fix) = ownershipProblem(of: current) {
            throw StateDirectoryError(path: path, problem: "\(current) above it \(problem)",
                                      fix: "Run: \(fix), or set XDG_STATE_HOME to a directory of your own.")
        }
        if current == "/" || current == "." { return }
        current = parentDirectory(of: current)
    }
}

/// Whether someone other than you or root could change `path` (`Ownership.problem`, following links); `nil`
/// also when it does not exist. Used for the state directory's surroundings and for the configuration.
public func ownershipProblem(of path: String, you: uid_t = geteuid()) -> (problem: String, fix: String)? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    let owner = info.st_uid == UserNamespace.unmappedOwner ? 0 : info.st_uid
    return Ownership.problem(path: path, owner: owner, mode: info.st_mode, isDirectory: info.st_mode & S_IFMT == S_IFDIR,
                             you: you, groupIsOwnersAlone: groupIsOwnersAlone(owner: info.st_uid, group: info.st_gid))
}

/// Inside the unit's sandbox (PrivateUsers=yes) only your own uid is mapped: root's files — /, /home, the
/// directories systemd makes for the bind mounts — show up as owned by the overflow uid ("nobody", 65534), and
/// so do other users' files, which cannot be told apart there. Such an owner is then taken for root; the mode
/// bits are still checked, and outside the sandbox (`trackwatch doctor`, `check`) the real owners are.
enum UserNamespace {
    /// The overflow uid when uid 0 is not mapped into this process's user namespace; else `nil`.
    static let unmappedOwner: uid_t? = {
        guard let map = readSmallFile("/proc/self/uid_map"), !mapsRoot(map) else { return nil }
        return readSmallFile("/proc/sys/kernel/overflowuid").flatMap { uid_t($0.filter(\.isNumber)) } ?? 65534
    }()

    /// Whether a `uid_map` ("inside outside count" per line) maps uid 0.
    static func mapsRoot(_ map: String) -> Bool {
        map.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ").compactMap { UInt64($0) }
            return fields.count == 3 && fields[0] == 0 && fields[2] > 0
        }
    }
}

func readSmallFile(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = read(descriptor, &buffer, buffer.count)
    return count >= 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
}

/// True when `group` is `owner`'s primary group and has no other member: a user private group.
func groupIsOwnersAlone(owner: uid_t, group: gid_t) -> Bool {
    guard let user = getpwuid(owner), user.pointee.pw_gid == group, let entry = getgrgid(group) else { return false }
    let name = String(cString: user.pointee.pw_name)
    var member = entry.pointee.gr_mem
    while let pointer = member?.pointee {
        if String(cString: pointer) != name { return false }
        member = member! + 1
    }
    return true
}

/// Creates `path` and any missing parents with mode 0700. An existing directory is left as it is.
func createPrivateDirectory(_ path: String) throws {
    var prefix = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
        prefix += "/" + component
        guard mkdir(prefix, 0o700) != 0 else { continue }
        let code = errno
        guard code == EEXIST, isDirectory(prefix) else {
            let reported = code == EEXIST ? ENOTDIR : code
            throw StoreError(errno: reported, operation: "create the state directory", path: prefix)
        }
    }
}

/// Creates `path` with mode 0600 if it does not exist, and checks that it can be opened for writing. A
/// symbolic link is not followed (ELOOP), and the file must be a regular file of yours.
func createPrivateFile(_ path: String) throws {
    let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
        if errno == ELOOP {
            throw StateDirectoryError(path: parentDirectory(of: path), problem: "\(path) is a symbolic link",
                                      fix: "Remove it (rm \(path)); trackwatch makes a new file.")
        }
        throw StoreError(errno: errno, operation: "open the state file", path: path)
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else {
        throw StateDirectoryError(path: parentDirectory(of: path), problem: "\(path) is not a regular file of yours",
                                  fix: "Remove it (rm \(path)); trackwatch makes a new one.")
    }
}

func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
}

/// `/a/b/c` → `/a/b`; `c` → `.`.
public func parentDirectory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
}

/// The path with every symbolic link resolved, or `path` itself when it does not resolve.
public func resolvedPath(_ path: String) -> String {
    guard let real = realpath(path, nil) else { return path }
    defer { free(real) }
    return String(cString: real)
}

/// The operating system's sentence for `errno` value `code`.
func systemMessage(_ code: Int32) -> String {
    String(cString: strerror(code))
}
