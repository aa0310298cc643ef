import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Starts `program url` (`xdg-open` by default) without waiting for it, for the bubble's "Open" button. The
/// URL is one argument, never a shell string, so nothing in a record id can become a command.
///
/// - Parameter viaUserManager: under systemd the daemon is sandboxed (read-only home, private user and mount
///   namespaces), and a browser started as its child would inherit that — unable to write its profile — and
///   be killed with the service. Then the opener runs as a transient unit of the user manager instead
///   (`systemd-run --user`), as if started from the desktop.
/// - Parameter exited: called with the opener's exit status (of `systemd-run` itself when `viaUserManager`).
func openInBrowser(_ url: String, program: String, viaUserManager: Bool, exited: @escaping @Sendable (Int32) -> Void) throws {
    // systemd-run looks the program up itself, in the daemon's sandbox, where the home directory is empty
    // (ProtectHome=tmpfs): an opener in ~/.local/bin would not be found. /usr/bin/env is found there, and
    // runs outside, as the transient unit, where it finds the opener. No shell: the URL stays one argument.
    let command = viaUserManager ? ["systemd-run", "--user", "--collect", "--quiet", "--", "/usr/bin/env", program, url] : [program, url]
    var pid = pid_t()
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    let arguments: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
    defer { arguments.forEach { free($0) } }
    let status = posix_spawnp(&pid, command[0], &actions, nil, arguments, environ)
    guard status == 0 else { throw OpenerError(program: command[0], reason: String(cString: strerror(status))) }
    let child = pid
    DispatchQueue.global().async {
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED/WEXITSTATUS by hand: the macros are not imported.
        exited((status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F))
    }
}

struct OpenerError: Error, CustomStringConvertible {
    let program: String
    let reason: String
    var description: String { "cannot start \(program): \(reason); set opener in [notify] (default xdg-open)" }
}
