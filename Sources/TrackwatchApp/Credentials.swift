#if canImport(Glibc)
import Glibc
#endif
import SourceKit
import TrackwatchCore

/// The password or token could not be obtained. Never contains the secret.
public struct CredentialError: ErrorWithFix, CustomStringConvertible {
    public let description: String
    /// What to do, where the error knows better than the source's general advice (`chmod 600 FILE`).
    public var fixLine: String? = nil
}

/// Secrets larger than this are refused: no password is this long, and a wrong path could be huge.
let maximumSecretSize = 64 * 1024

/// Reads the password or token from its configured source. Tokens and passwords stay in memory only.
public func loadSecret(_ source: CredentialSource, environment: [String: String]) throws -> Secret {
    switch source {
    case .emptyPassword:
        return Secret("")
    case .passwordFile(let path):
        let path = expandTilde(path, environment: environment)
        return try readSecret(path, key: "password_file", mustBePrivate: true, hint: sandboxHint(for: path, environment))
    case .tokenFile(let path):
        let path = expandTilde(path, environment: environment)
        return try readSecret(path, key: "token_file", mustBePrivate: true, hint: sandboxHint(for: path, environment))
    case .systemdCredential(let name):
        guard let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty else {
            throw CredentialError(description:
                "credential = \"\(name)\" needs $CREDENTIALS_DIRECTORY, which systemd sets only for a unit with "
                + "LoadCredential=\(name):/path/to/password (see systemd/trackwatch.service). Outside systemd use "
                + "password_file or password_command.")
        }
        // systemd owns that directory and makes it private: no permission check needed.
        return try readSecret(directory + "/" + name, key: "credential", mustBePrivate: false)
    case .passwordCommand(let command):
        return try runPasswordCommand(command, label: "password_command", environment: environment)
    case .tokenCommand(let command):
        return try runPasswordCommand(command, label: "token_command", environment: environment)
    case .keyring(let attributes):
        return try lookUpInKeyring(attributes, environment: environment)
    }
}

/// What to say when a file under the home directory is missing in the daemon: under systemd the unit's sandbox
/// (ProtectHome=tmpfs) shows only the configuration directory and the state directory of a home directory.
func sandboxHint(for path: String, _ environment: [String: String]) -> String {
    guard environment["INVOCATION_ID"] != nil, let home = environment["HOME"], path.hasPrefix(home + "/") else { return "" }
    return ". The unit's sandbox shows only ~/.config/trackwatch and the state directory of your home directory: keep "
        + "the file in ~/.config/trackwatch, or add BindReadOnlyPaths=\(path) in a drop-in (systemctl --user edit trackwatch)"
}

/// Reads the first line of a secret file. It must be a regular file: a FIFO would block the read until
/// someone writes to it, a device might never end. The checks look at the opened file (`fstat`), so the
/// file cannot be swapped between check and read.
/// - Parameter mustBePrivate: the file must also be yours and closed to group and others, the file itself and
///   not a link, in directories only you and root can change (`FileTrust`); a systemd credential is a private
///   copy systemd made, so it is exempt. Anyone who can read it has the account; anyone who can replace it
///   chooses what is sent as your password.
/// - Parameter hint: added when the file does not exist.
func readSecret(_ path: String, key: String, mustBePrivate: Bool = false, hint: String = "") throws -> Secret {
    if mustBePrivate { try FileTrust.checkFile(key: key, path: path) }
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. O_NOFOLLOW: a link swapped in
    // since the check is not followed either.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | (mustBePrivate ? O_NOFOLLOW : 0))
    guard descriptor >= 0 else {
        let code = errno
        if code == ELOOP {
            throw CredentialError(description: "\(key) \(path) is a symbolic link; put the secret in the file itself",
                                  fixLine: "rm \(path), then put the secret itself there (chmod 600 \(path))")
        }
        throw CredentialError(description: "\(key) \(path): \(String(cString: strerror(code)))\(code == ENOENT ? hint : "")")
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
        throw CredentialError(description: "\(key) \(path): \(String(cString: strerror(errno)))")
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
        throw CredentialError(description: "\(key) \(path) is not a regular file (a pipe or a device would never end); "
            + "put the password in a plain file")
    }
    if mustBePrivate {
        guard info.st_uid == geteuid() else {
            throw CredentialError(description:
                "\(key) \(path) belongs to uid \(info.st_uid), not to you (uid \(geteuid())); refusing to use it. Run: chown $USER \(path)",
                fixLine: "chown $USER \(path) (as root), or keep the secret in a file of your own (chmod 600)")
        }
        guard info.st_mode & 0o077 == 0 else {
            let mode = String(info.st_mode & 0o777, radix: 8)
            throw CredentialError(description:
                "\(key) \(path) can be read or written by others (mode \(mode)); refusing to use it. Run: chmod 600 \(path)",
                fixLine: "chmod 600 \(path)")
        }
    }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = read(descriptor, &buffer, buffer.count)
        if count < 0 { throw CredentialError(description: "\(key) \(path): \(String(cString: strerror(errno)))") }
        if count == 0 { break }
        bytes += buffer[..<count]
        if bytes.count > maximumSecretSize {
            throw CredentialError(description: "\(key) \(path) is larger than \(maximumSecretSize / 1024) KiB: not a password file")
        }
    }
    return try secret(inFirstLineOf: bytes, source: "\(key) \(path)", holds: "holds")
}

/// The secret on the first line of what `source` gave (trimmed), or the error that names the source, never the
/// value. `holds`: the verb for the source ("holds" for a file, "printed" for a program).
func secret(inFirstLineOf bytes: [UInt8], source: String, holds: String) throws -> Secret {
    switch Secret.firstLine(of: bytes) {
    case .secret(let secret):
        return secret
    case .empty:
        throw CredentialError(description: holds == "holds" ? "\(source) is empty" : "\(source) printed nothing")
    case .controlCharacter:
        throw CredentialError(description:
            "\(source) \(holds) a control character (a stray carriage return?) inside the secret on its first line; "
            + "trackwatch does not send it. Write the password or token alone on the first line")
    }
}

/// The first line, without its line ending.
func firstLine(_ bytes: [UInt8]) -> String {
    var line = bytes.prefix { $0 != UInt8(ascii: "\n") }
    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
    return String(decoding: line, as: UTF8.self)
}
