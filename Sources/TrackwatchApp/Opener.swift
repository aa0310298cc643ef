import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Starts `program url` (`xdg-open` by default) without waiting for it, for the bubble's "Open" button. The
/// URL is one argument, never a shell string, so nothing in a record id can become a command.
func openInBrowser(_ url: String, program: String) throws {
    var pid = pid_t()
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(program), strdup(url), nil]
    defer { arguments.forEach { free($0) } }
    let status = posix_spawnp(&pid, program, &actions, nil, arguments, environ)
    guard status == 0 else { throw OpenerError(program: program, reason: String(cString: strerror(status))) }
    let child = pid
    DispatchQueue.global().async {
        var exit: Int32 = 0
        while waitpid(child, &exit, 0) < 0 && errno == EINTR {}
    }
}

struct OpenerError: Error, CustomStringConvertible {
    let program: String
    let reason: String
    var description: String { "cannot start \(program): \(reason); set opener in [notify] (default xdg-open)" }
}
