#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import TrackwatchCore

/// The page of recent changes (`ChangesPage`) in the state directory: the one place the daemon may write even
/// in its sandbox, and a path the opener, started outside the sandbox, finds at the same place.
///
/// Written whole to a private temporary file and renamed over the page, so that a browser never reads half a
/// page and a full disk leaves the previous one; mode 0600 like the rest of the state (the page names records
/// and colleagues).
public struct ChangesPageFile: Sendable {
    public let path: String

    public init(stateDirectory: String) {
        path = stateDirectory + "/" + ChangesPage.fileName
    }

    /// `file:///home/me/.local/state/trackwatch/changes.html`, percent-encoded, for the opener.
    public var url: String {
        var url = "file://"
        for byte in path.utf8 {
            let unreserved = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || "-._~/".utf8.contains(byte)
            if unreserved {
                url.append(Character(Unicode.Scalar(byte)))
            } else {
                let hex = Array("0123456789ABCDEF")
                url += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 0xF)])"
            }
        }
        return url
    }

    public func save(_ html: String) throws {
        let operation = "write the page of recent changes"
        try createPrivateDirectory(parentDirectory(of: path))
        let temporary = "\(path).\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw StoreError(errno: errno, operation: operation, path: temporary) }
        var failure: Int32 = 0
        var text = html
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw StoreError(errno: failure, operation: operation, path: path)
        }
    }
}
