#if canImport(Glibc)
import Glibc
#endif
import TrackwatchCore

/// Runs `password_command` (or `token_command`, its `label`) with `/bin/sh -c` and returns the first line it prints.
func runPasswordCommand(
    _ command: String, label: String = "password_command", environment: [String: String], timeout: Double = 30
) throws -> Secret {
    try runSecretProgram(
        ["/bin/sh", "-c", command], label: label, environment: environment, timeout: timeout,
        fix: "run the \(label) in a terminal as the user trackwatch runs as: it must exit 0 and print the secret alone "
            + "on its first line")
}

/// `keyring = true`: `secret-tool lookup ATTRIBUTE VALUE …` against the Secret Service on the session bus.
func lookUpInKeyring(_ attributes: [String], environment: [String: String], timeout: Double = 30) throws -> Secret {
    let pairs = stride(from: 0, to: attributes.count - 1, by: 2).map { "\(attributes[$0]) \(quoted(attributes[$0 + 1]))" }
    // secret-tool exits 1 without output when nothing matches.
    let store = "secret-tool store --label=trackwatch \(pairs.joined(separator: " "))"
    let missing = CredentialError(
        description: "keyring: no password stored for \(pairs.joined(separator: " ")). Store it with: \(store)",
        fixLine: store)
    return try runSecretProgram(
        ["secret-tool", "lookup"] + attributes, label: "keyring (secret-tool lookup)", environment: environment,
        timeout: timeout, whenNothingPrinted: missing,
        fix: "unlock your keyring in the desktop session trackwatch runs in (secret-tool needs its session bus), or "
            + "give the secret in token_file or password_file instead")
}

private func quoted(_ text: String) -> String {
    text.allSatisfy { $0.isLetter || $0.isNumber || "-_.:/@".contains($0) } ? text : "'\(text)'"
}

/// Runs `arguments` (the program is looked up in PATH), stdin from /dev/null, and returns the first line it
/// prints. The program gets our environment unchanged (it may need the session bus or gpg-agent); nothing
/// secret is ever put into a child's arguments or environment. A program that hangs (say, a locked keyring
/// waiting for a prompt) is stopped after `timeout` seconds, with everything it started: it runs in a process
/// group of its own, which gets SIGTERM, then SIGKILL (see `stopGroup`).
func runSecretProgram(
    _ arguments: [String], label: String, environment: [String: String], timeout: Double, whenNothingPrinted: CredentialError? = nil,
    fix: String
) throws -> Secret {
    var output: [Int32] = [0, 0], errors: [Int32] = [0, 0]
    // Close-on-exec, so that other children never inherit them (dup2 in the child clears the flag on 1 and 2).
    guard pipe(&output) == 0, pipe(&errors) == 0 else {
        throw CredentialError(description: "\(label): cannot create a pipe: \(String(cString: strerror(errno)))")
    }
    for descriptor in output + errors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, output[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // Its own process group (pgid = its pid), so that a timeout stops its children too. The daemon ignores
    // SIGTERM, SIGINT, SIGHUP and SIGUSR1 (Dispatch sources take them), and ignored signals survive exec:
    // the child gets them back at their defaults, with nothing blocked.
    var defaults = sigset_t(), none = sigset_t()
    sigemptyset(&defaults)
    sigemptyset(&none)
    for signal in [SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGPIPE] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    let environmentLines = environment.map { "\($0.key)=\($0.value)" }
    var pid = pid_t()
    let status = withCStrings(arguments) { argv in
        withCStrings(environmentLines) { envp in posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp) }
    }
    close(output[1])
    close(errors[1])
    defer { close(output[0]); close(errors[0]) }
    guard status == 0 else {
        let missingTool = status == ENOENT && arguments[0] == "secret-tool"
        throw CredentialError(
            description: "\(label): cannot start \(arguments[0]): \(String(cString: strerror(status)))"
                + (missingTool ? " (install it: apt install libsecret-tools)" : ""),
            fixLine: missingTool ? "apt install libsecret-tools" : fix)
    }
    let (stdout, stderr, timedOut) = collect(output: output[0], errors: errors[0], timeout: timeout)
    if timedOut { stopGroup(pid) }
    var exitStatus: Int32 = 0
    while waitpid(pid, &exitStatus, 0) < 0 && errno == EINTR {}
    if timedOut {
        throw CredentialError(description: "\(label) did not finish within \(Int(timeout)) s and was stopped. "
            + "Is a keyring locked or waiting for a prompt?", fixLine: fix)
    }
    let code = (exitStatus >> 8) & 0xFF
    if let whenNothingPrinted, exitStatus & 0x7F == 0, stdout.isEmpty, stderr.isEmpty {
        throw whenNothingPrinted
    }
    if exitStatus & 0x7F != 0 || code != 0 {
        let reason = firstLine(stderr)
        throw CredentialError(description: "\(label) failed (exit status \(exitStatus & 0x7F != 0 ? 128 + (exitStatus & 0x7F) : code))"
            + (reason.isEmpty ? "" : ": \(reason.prefix(200))"), fixLine: fix)
    }
    return try secret(inFirstLineOf: stdout, source: label, holds: "printed")
}

/// Stops the process group `leader` leads: SIGTERM, up to `grace` seconds for the leader to exit, then SIGKILL
/// for whatever is left (a child that ignores SIGTERM, or one the leader left behind). The leader is not
/// reaped here, so its pid — the group's id — cannot be reused by an unrelated process meanwhile.
/// A child that moved to a group or session of its own (setsid, a daemonising gpg-agent) is beyond reach:
/// under systemd the unit's cgroup ends it with the service.
func stopGroup(_ leader: pid_t, grace: Double = 2) {
    kill(-leader, SIGTERM)
    let deadline = SystemClocks.bootTime() + grace
    var info = siginfo_t()
    while SystemClocks.bootTime() < deadline {
        info.si_signo = 0
        // WNOWAIT: look without reaping. si_pid stays 0 while the leader runs.
        if waitid(P_PID, id_t(leader), &info, WEXITED | WNOHANG | WNOWAIT) == 0, info.si_signo != 0 { break }
        var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
        nanosleep(&pause, nil)
    }
    kill(-leader, SIGKILL)
}

/// Reads both pipes until they close or the deadline passes; output beyond the secret size cap is dropped.
private func collect(output: Int32, errors: Int32, timeout: Double) -> ([UInt8], [UInt8], Bool) {
    var results: [[UInt8]] = [[], []]
    var open = [true, true]
    let deadline = SystemClocks.bootTime() + timeout
    var buffer = [UInt8](repeating: 0, count: 4096)
    while open.contains(true) {
        let remaining = deadline - SystemClocks.bootTime()
        if remaining <= 0 { return (results[0], results[1], true) }
        var fds = [pollfd(fd: open[0] ? output : -1, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: open[1] ? errors : -1, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&fds, 2, Int32(min(remaining, 1) * 1000))
        if ready < 0 && errno != EINTR { break }
        for index in 0..<2 where open[index] && fds[index].revents != 0 {
            let count = read(fds[index].fd, &buffer, buffer.count)
            if count <= 0 { open[index] = false; continue }
            if results[index].count < maximumSecretSize { results[index] += buffer[..<count] }
        }
    }
    return (results[0], results[1], false)
}

/// Calls `body` with a NULL-terminated C array of the strings, valid only during the call.
private func withCStrings<T>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
    var pointers = strings.map { strdup($0) }
    pointers.append(nil)
    defer { pointers.forEach { free($0) } }
    return body(pointers)
}
