import ArgumentParser
import Logging
import SystemdIntegration
import TrackwatchApp
import TrackwatchCore
#if canImport(Glibc)
    import Glibc
#endif

struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Ask your Compass server what trackwatch needs of it: is it supported?",
        discussion: """
            Logs in once and, read-only, finds the query folders, runs the built-in queries on tiny pages, reads \
            the newest history entry, asks for /query, and reuses its logged-off token; then prints each \
            finding: ✔ works, ⚠ differs (and what trackwatch does about it), ✘ does not work (and what to do), \
            · not checked. The queries it stores are deleted again; no record is changed. With --save, the \
            whole exchange is written to FILE (mode 0600) with secrets removed and record text replaced by \
            salted hashes, to attach to a bug report.

            Exit status: 0 when nothing is ✘, 1 otherwise; 69 server unreachable; 76 an answer that is not the \
            documented API; 77 login refused; \
            78 configuration invalid.
            """)

    @OptionGroup var options: ConfigOptions

    @Option(help: ArgumentHelp("Only the [[server]] profile of this name.", valueName: "name"))
    var server: String?

    @Option(
        help: ArgumentHelp(
            "Write the redacted transcript of the exchange to this file (JSON, mode 0600).",
            valueName: "file"))
    var save: String?

    func run() throws {
        let logger = options.logger()
        let config: Config
        do {
            config = try options.loadConfiguration()
        } catch {
            throw fail(error)
        }
        var servers = config.servers
        if let name = server {
            servers = servers.filter { $0.name == name }
            guard !servers.isEmpty else {
                let names = config.servers.compactMap(\.name)
                Console.error(
                    "trackwatch: no [[server]] named \(name)"
                        + (names.isEmpty
                            ? " (the configuration has a single [server])"
                            : "; there are: \(names.joined(separator: ", "))"))
                throw ExitCode(ExitStatus.configuration.rawValue)
            }
        }
        var transcripts: [[UInt8]] = []
        var failed = false
        var stoppedBy: (any Error)?
        for server in servers {
            if servers.count > 1 || config.servers.count > 1 { Console.line("server \(server.label) (\(server.url))") }
            let probe: ServerProbe
            do {
                let credential = try loadCredential(server.credential, environment: environment)
                probe = try ServerProbe(
                    server: server, poll: config.poll, credential: credential,
                    environment: environment, logger: logger, transcript: save != nil,
                    now: SystemClocks.wallTime)
            } catch {
                Console.line("✘ \(error)")
                stoppedBy = stoppedBy ?? error
                failed = true
                continue
            }
            let report = probe.run()
            report.lines.forEach(Console.line)
            failed = failed || report.failed
            stoppedBy = stoppedBy ?? report.stoppedBy
            if save != nil, let transcript = try? probe.transcript(), !transcript.isEmpty {
                transcripts.append(transcript)
            }
        }
        if let save { try write(transcripts, to: save) }
        if let stoppedBy { throw ExitCode(ExitStatus.forError(stoppedBy).rawValue) }
        if failed { throw ExitCode(1) }
    }

    /// One JSON document for one server, an array of them for several; created 0600 (and made so if the file
    /// existed), never through a symbolic link.
    private func write(_ transcripts: [[UInt8]], to path: String) throws {
        let bytes =
            transcripts.count == 1
            ? transcripts[0]
            : Array("[\n".utf8) + Array(transcripts.map { $0.dropLast() }.joined(separator: Array(",\n".utf8)))
                + Array("\n]\n".utf8)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            Console.error("trackwatch: cannot write the transcript to \(path): \(String(cString: strerror(errno)))")
            throw ExitCode(ExitStatus.failure.rawValue)
        }
        defer { close(descriptor) }
        var written = fchmod(descriptor, 0o600) == 0
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while written, offset < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { written = false } else { offset += count }
            }
        }
        guard written, fsync(descriptor) == 0 else {
            Console.error("trackwatch: writing the transcript to \(path) failed: \(String(cString: strerror(errno)))")
            throw ExitCode(ExitStatus.failure.rawValue)
        }
        Console.error("trackwatch: transcript written to \(path) (secrets removed, record text hashed)")
    }
}
