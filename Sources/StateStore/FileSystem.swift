// The few file-system calls the store makes before SQLite takes over: creating the state directory and the
// database file with private permissions (SQLite itself would create the file 0644 minus umask, and gives
// the -wal and -shm files the same mode as the database file).

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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

/// Creates `path` with mode 0600 if it does not exist, and checks that it can be opened for writing.
func createPrivateFile(_ path: String) throws {
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
        throw StoreError(errno: errno, operation: "open the state file", path: path)
    }
    close(descriptor)
}

func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
}

/// `/a/b/c` → `/a/b`; `c` → `.`.
func parentDirectory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
}

/// The operating system's sentence for `errno` value `code`.
func systemMessage(_ code: Int32) -> String {
    String(cString: strerror(code))
}
