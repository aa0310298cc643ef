import ArgumentParser
import Logging
import SourceKit
import SystemdIntegration
import TrackwatchApp
import TrackwatchCore
#if canImport(Glibc)
    import Glibc
#endif

struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Ask each tracker's server what trackwatch needs of it: is it supported?",
        discussion: """
            Asks each configured source's server, read-only, what the daemon will ask — for GitHub, GitLab and \
            Jira: who the token belongs to, what it may read and what is assigned to you; for Compass: logs in \
            once, finds the query folders, runs the built-in queries on tiny pages, reads the newest history \
            entry, asks for /query, and reuses its logged-off token — then prints each finding: ✔ works, ⚠ \
            differs (and what trackwatch does about it), ✘ does not work (and what to do), · not checked. \
            Nothing is changed on the server. With --save, the whole exchange is written to FILE (mode 0600) \
            with secrets removed and record text replaced by salted hashes, to attach to a bug report.

            Exit status: 0 when nothing is ✘, 1 otherwise; 69 server unreachable; 76 an answer that is not the \
            documented API; 77 login or token refused; 78 configuration invalid.
            """)

    @OptionGroup var options: ConfigOptions

    @Option(
        name: [.customLong("source"), .customLong("server")],
        help: ArgumentHelp("Only the source of this name (a [[server]] profile, a [[qase]] or [[json]] table).",
                           valueName: "name"))
    var source: String?

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
        var servers = config.sources
        if let name = source {
            servers = servers.filter { $0.sourceName == name }
            guard !servers.isEmpty else {
                let names = config.sources.map(\.sourceName)
                Console.error("trackwatch: no source named \(name); there are: \(names.joined(separator: ", "))")
                throw ExitCode(ExitStatus.configuration.rawValue)
            }
        }
        var transcripts: [[UInt8]] = []
        var failed = false
        var stoppedBy: (any Error)?
        for server in servers {
            if servers.count > 1 || config.sources.count > 1 { Console.line("server \(server.label) (\(server.url))") }
            let probe: any SourceProbe
            do {
                try FileTrust.checkFiles(of: server, environment: environment)
                let context = DiagnosisContext(
                    poll: config.poll, environment: environment, logger: logger,
                    secret: { try loadSecret($0, environment: environment) }, wallClock: SystemClocks.wallTime)
                guard let made = try SourceRegistry.factories.lazy
                    .compactMap({ try $0.probe(server, context: context, transcript: save != nil) }).first
                else { continue }
                probe = made
            } catch {
                Console.line("✘ \(error)")
                stoppedBy = stoppedBy ?? error
                failed = true
                continue
            }
            let report = try waitForTask { await probe.run() }
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
