import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Compass as the application wires it: `[server]` tables become `CompassSource`s, and doctor checks them.
public struct CompassFactory: SourceFactory {
    public init() {}

    public var kind: any SourceKind { CompassSourceKind() }

    public func makeSource(_ settings: any SourceSettings, context: SourceContext) throws -> (any Source)? {
        guard let server = settings as? ServerConfig else { return nil }
        var logger = context.logger
        if let name = server.name { logger[metadataKey: "server"] = "\(name)" }
        let credential = try Self.credential(server.credential, secret: context.secret)
        server.connection.warnings(logger: logger)
        let client = try CompassClient.make(server: server, credential: credential, environment: context.environment,
                                            logger: logger, wrap: context.wrap, now: context.wallClock)
        // Earlier versions kept the query path here for good; it is now learned again by each process.
        let staleKey = "query_mode \(server.url) \(server.repo) \(server.database)"
        if (try? context.state.value(forKey: staleKey)) != nil { try? context.state.setValue(nil, forKey: staleKey) }
        return CompassSource(server: server, client: client, state: context.state, poll: context.poll, logger: logger,
                             wallClock: context.wallClock)
    }

    /// A personal access token (`token_file`) is sent as it is; every other source holds the login's password.
    public static func credential(
        _ source: CredentialSource, secret: (CredentialSource) throws -> Secret
    ) throws -> Credential {
        if case .tokenFile = source { return .personalAccessToken(try secret(source)) }
        return .password(try secret(source))
    }

    public func diagnose(_ settings: any SourceSettings, context: DiagnosisContext) async -> DoctorReport? {
        guard let server = settings as? ServerConfig else { return nil }
        var report = DoctorReport()
        let named = server.name.map { " of \($0)" } ?? ""
        if ServerURL.isCleartextToAnotherHost(server.url) { report.warn("\(server.url): \(Connection.cleartextWarning)") }
        if let warning = server.connection.cleartextThroughProxy(environment: context.environment) {
            report.warn("\(server.url): \(warning)")
        }
        guard let credential = report.check(
            "password source\(named) (\(server.credential.summary))",
            { try Self.credential(server.credential, secret: context.secret) },
            fix: server.credential.fix(putting: "password"))
        else {
            report.skip("server login\(named) (needs the password)")
            return report
        }
        guard let client = report.check("server \(server.url)", {
            try CompassClient.make(server: server, credential: credential, environment: context.environment,
                                   logger: context.logger, now: context.wallClock)
        }, fix: "check url, ca_file, insecure and proxy in [server]") else { return report }
        await survey(server, client, context: context, into: &report)
        await client.logoff()
        if server.insecure { report.warn("TLS verification is off (insecure = true); prefer ca_file") }
        return report
    }

    /// The checks that ask the server, once the client is made.
    private func survey(
        _ server: ServerConfig, _ client: CompassClient, context: DiagnosisContext, into report: inout DoctorReport
    ) async {
        if let choice = try? server.connection.proxyChoice(environment: context.environment, table: "[server]",
                                                           label: server.label),
            let proxy = choice.proxy
        {
            report.pass("through the proxy \(proxy) (from \(choice.source ?? "the configuration"))")
        }
        let rows = await report.check("login as \(server.username) and the query \"assigned to me\"", {
            try await client.run(WatchQueries.assignedToMe, storedAs: WatchQueries.assignedQueryName, lifetime: .reused,
                           pageSize: context.poll.pageSize)
        }, fix: { error in (error as? any SourceFailure)?.failureKind.fix(table: "[server]") ?? "run trackwatch doctor again, with -v" })
        guard let rows else { return }
        let path = client.queryPath == .stored
            ? "stored queries (in \(client.personalFolderName ?? "Personal Queries"))" : "ad-hoc queries"
        report.pass("\(rows.count) records assigned to you; the server runs \(path)")
        for watch in server.watches {
            _ = await report.check("watched query \(watch.query)", {
                let result = try await client.run(savedQuery: watch.query, pageSize: context.poll.pageSize)
                _ = try SavedQueryRows.records(columns: result.columns, rows: result.rows, query: watch.query)
                _ = try SavedQueryRows.comparedFields(watch, columns: result.columns)
                return result
            }, fix: "correct query or fields in the [[watch]] named \(watch.name), or save the query in Compass")
        }
    }

    public func probe(_ settings: any SourceSettings, context: DiagnosisContext, transcript: Bool) throws -> (any SourceProbe)? {
        guard let server = settings as? ServerConfig else { return nil }
        return try ServerProbe(
            server: server, poll: context.poll, credential: try Self.credential(server.credential, secret: context.secret),
            environment: context.environment, logger: context.logger, transcript: transcript, now: context.wallClock)
    }
}

extension ServerProbe: SourceProbe {}

extension CompassClient {
    /// A Compass client for `server` (the daemon's, and alone `doctor`'s and `probe`'s), reaching it through its
    /// connection. `wrap` puts a transport around the HTTP one (`probe` records the exchange with it).
    public static func make(
        server config: ServerConfig, credential: Credential, environment: [String: String], logger: Logger,
        wrap: (any HTTPTransport) -> any HTTPTransport = { $0 }, now: @escaping () -> Double
    ) throws -> CompassClient {
        let http = try config.connection.transport(
            environment: environment, table: "[server]", label: config.label, logger: logger)
        let server = try CompassServer(
            baseURL: config.url, repo: config.repo, database: config.database, username: config.username)
        return CompassClient(
            server: server, credential: credential, transport: wrap(http), requestTimeout: config.requestTimeout,
            logger: logger, now: now)
    }
}
