#if canImport(Glibc)
import Glibc
#endif
import TrackwatchCore

/// The password or token could not be obtained. Never contains the secret.
public struct CredentialError: Error, CustomStringConvertible {
    public let description: String
}

/// Secrets larger than this are refused: no password is this long, and a wrong path could be huge.
let maximumSecretSize = 64 * 1024

/// Reads the password or token from its configured source. Tokens and passwords stay in memory only.
public func loadCredential(_ source: CredentialSource, environment: [String: String]) throws -> Credential {
    switch source {
    case .emptyPassword:
        return .password(Secret(""))
    case .passwordFile(let path):
        return .password(try readPrivateFile(expandTilde(path, environment: environment), key: "password_file"))
    case .tokenFile(let path):
        return .personalAccessToken(try readPrivateFile(expandTilde(path, environment: environment), key: "token_file"))
    case .systemdCredential(let name):
        guard let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty else {
            throw CredentialError(description:
                "credential = \"\(name)\" needs $CREDENTIALS_DIRECTORY, which systemd sets only for a unit with "
                + "LoadCredential=\(name):/path/to/password (see systemd/trackwatch.service). Outside systemd use "
                + "password_file or password_command.")
        }
        // systemd owns that directory and makes it private: no permission check needed.
        return .password(try readSecret(directory + "/" + name, key: "credential"))
    case .passwordCommand(let command):
        return .password(try runPasswordCommand(command, environment: environment))
    case .keyring(let attributes):
        return .password(try lookUpInKeyring(attributes, environment: environment))
    }
}

/// A file holding a secret must be ours and private: otherwise anyone who can read it has the account.
func readPrivateFile(_ path: String, key: String) throws -> Secret {
    var info = stat()
    guard stat(path, &info) == 0 else {
        throw CredentialError(description: "\(key) \(path): \(String(cString: strerror(errno)))")
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
        throw CredentialError(description: "\(key) \(path) is not a regular file")
    }
    guard info.st_uid == geteuid() else {
        throw CredentialError(description:
            "\(key) \(path) belongs to uid \(info.st_uid), not to you (uid \(geteuid())); refusing to use it. Run: chown $USER \(path)")
    }
    guard info.st_mode & 0o077 == 0 else {
        let mode = String(info.st_mode & 0o777, radix: 8)
        throw CredentialError(description:
            "\(key) \(path) can be read or written by others (mode \(mode)); refusing to use it. Run: chmod 600 \(path)")
    }
    return try readSecret(path, key: key)
}

func readSecret(_ path: String, key: String) throws -> Secret {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
        throw CredentialError(description: "\(key) \(path): \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
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
    let secret = firstLine(bytes)
    guard !secret.isEmpty else { throw CredentialError(description: "\(key) \(path) is empty") }
    return Secret(secret)
}

/// The first line, without its line ending.
func firstLine(_ bytes: [UInt8]) -> String {
    var line = bytes.prefix { $0 != UInt8(ascii: "\n") }
    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
    return String(decoding: line, as: UTF8.self)
}
