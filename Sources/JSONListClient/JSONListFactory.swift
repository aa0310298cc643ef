import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore

/// JSON lists as the application wires them: `[[json]]` tables become `JSONListSource`s; doctor reads each list
/// once and says what it found; probe says what the server answers.
public struct JSONListFactory: SourceFactory {
    public init() {}

    public var kind: any SourceKind { JSONListKind() }

    public func makeSource(_ settings: any SourceSettings, context: SourceContext) throws -> (any Source)? {
        guard let config = settings as? JSONListConfig else { return nil }
        let secret = try config.credentials.secretSource.map(context.secret)
        config.connection.warnings(logger: context.logger)
        let transport = context.wrap(
            try Self.transport(config, environment: context.environment, logger: context.logger))
        let fetcher = ListFetcher(config: config, transport: transport, secret: secret, wallClock: context.wallClock)
        return JSONListSource(
            config: config, reader: ListReader(config: config, fetcher: fetcher),
            transport: transport, context: context)
    }

    /// The list's HTTP transport: answers bounded by `max_size`, inflated within it.
    static func transport(_ config: JSONListConfig, environment: [String: String], logger: Logger) throws
        -> any HTTPTransport
    {
        try config.connection.transport(
            environment: environment, table: "[[json]] \(config.name)", label: config.name, logger: logger,
            maximumBodySize: config.maxSize, decompressing: true)
    }

    /// Reads the list once, as a poll would, and stores nothing.
    public func diagnose(_ settings: any SourceSettings, context: DiagnosisContext) async -> DoctorReport? {
        guard let config = settings as? JSONListConfig else { return nil }
        var report = DoctorReport()
        let named = "[[json]] \(config.name)"
        if ServerURL.isCleartextToAnotherHost(config.url), config.credentials != .none {
            report.warn(
                "\(named): \(config.url) is plain http:// to another host: the credentials cross the network "
                    + "unencrypted; use https://")
        }
        var secret: Secret?
        if let source = config.credentials.secretSource {
            guard
                let loaded = report.check(
                    "credentials of \(named) (\(config.credentials.summary))",
                    { try context.secret(source) }, fix: source.fix(putting: "password or token"))
            else {
                report.skip("reading \(named) (needs the credentials)")
                return report
            }
            secret = loaded
        }
        guard
            let transport = report.check(
                "connection of \(named)",
                {
                    try Self.transport(config, environment: context.environment, logger: context.logger)
                }, fix: "check url, ca_file, insecure and proxy in \(named)")
        else { return report }
        defer { transport.closeIdleConnections() }
        let fetcher = ListFetcher(config: config, transport: transport, secret: secret, wallClock: context.wallClock)
        let reader = ListReader(config: config, fetcher: fetcher)
        let outcome = await report.check(
            "\(named) read from \(config.url)", { try await reader.read() },
            fix: { error in
                (error as? JSONListError)?.fix ?? (error as? any SourceFailure)?.failureKind.fix(table: "[[json]] \(config.name)")
                    ?? "run trackwatch doctor again, with -v"
            })
        guard case .list(let read)? = outcome else { return report }
        let collector = read.collector
        report.pass(
            "\(collector.itemCount) items at items \"\(config.items)\", \(collector.keyedCount) with the key "
                + "\"\(config.key)\"; \(read.pages) page\(read.pages == 1 ? "" : "s")"
                + (read.pagingSeen.map { ", found through \($0)" } ?? ""))
        if collector.keylessCount > 0 || !collector.conflicting.isEmpty {
            report.warn(
                "\(collector.keylessCount) items without a key and \(collector.conflicting.count) keys shared "
                    + "by several items are left out of the comparison")
        }
        if config.insecure { report.warn("TLS verification is off for \(named) (insecure = true); prefer ca_file") }
        return report
    }

    public func probe(_ settings: any SourceSettings, context: DiagnosisContext, transcript: Bool) throws -> (
        any SourceProbe
    )? {
        guard let config = settings as? JSONListConfig else { return nil }
        let secret = try config.credentials.secretSource.map(context.secret)
        let transport = try Self.transport(config, environment: context.environment, logger: context.logger)
        return JSONListProbe(
            config: config, transport: transport, secret: secret, wallClock: context.wallClock, recording: transcript)
    }
}

extension JSONListError {
    /// What `doctor` says to do.
    var fix: String {
        switch failureKind.remedy {
        case .fixCredentials: "check the credentials in [[json]] (username, password_file, token_file, header)"
        case .fixConfiguration: "correct the keys the message names in [[json]]"
        case .retryLater: "wait for the server, or check url and the network"
        case .reportTheAnswer: "run trackwatch probe --save FILE to see the answer: it is not a JSON list trackwatch can read whole"
        }
    }
}
