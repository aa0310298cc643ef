import ArgumentParser
import CompassSimulator
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import SimulatorKit

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the Compass REST API at /ccmweb/rest.",
        discussion: """
            Prints "listening on http://HOST:PORT" as its first line. Users: admin (empty password), lead, \
            engineer, alice (password = user name); repo 2.0.0, database SAMPL. Seeded records follow fixed \
            rules: record n is in state [Opened, Assigned, Submitted, Resolved, Closed][((n-1)/4) % 5] and \
            owned by [engineer, alice, lead, admin][(n-1) % 4] (nobody when Submitted).

            Test endpoints outside the API: GET /ccmweb/sim/stats (request, login and logoff counts, \
            requests by route, stored personal queries, replica misses, foreign cookies, media-type refusals); \
            POST /ccmweb/sim/expire-tokens (every token expires now); POST /ccmweb/sim/restart (every token and \
            result set is forgotten, as after a restart); POST /ccmweb/sim/clock {"advance": SECONDS} (moves the \
            server clock).
            """)

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port; 0 picks a free one.") var port = 8190
    @Option(help: "Number of seeded Defect records.") var records = 40
    @Option(help: "Seed for headlines, priorities and severities.") var seed: UInt64 = 1
    @Option(help: "Make every seeded record belong to this user (for benchmarks).") var owner: String?
    @Option(help: "Largest page size the server grants, whatever the client asks.") var pageSizeCap: Int?
    @Option(help: "Page size when the client asks for none.") var defaultPageSize = 25
    @Option(help: "Token lifetime in seconds.") var tokenTtl = 86_400
    @Flag(help: "Refuse the ad-hoc /query endpoint (404 unless --adhoc-refusal says otherwise), as older servers do.")
    var noAdhocQuery = false
    @Option(help: "How --no-adhoc-query refuses POST /query: 404, 400, 405, 500, 501, or html (a 200 HTML page).")
    var adhocRefusal = "404"
    @Option(help: "Root folder names in this language: en, or de (Persönliche Abfragen, Öffentliche Abfragen).")
    var folderLanguage = "en"
    @Flag(help: "Refuse stored query names with characters other than letters, digits, spaces and underscores.")
    var strictQueryNames = false
    @Option(help: "Status for a token the server does not know (expired, revoked, lost in a restart): 401, 403 or 500.")
    var refusedTokenStatus = 401
    @Option(help: "Replicas behind a cookie-routing load balancer; a result set needs its replica's cookie.")
    var replicas = 1
    @Flag(help: "Refuse API requests without Content-Type: application/json (415) or whose Accept excludes JSON (406).")
    var requireJsonContentType = false
    @Option(help: "Seconds added to the server clock (simulates skew).") var clockOffset = 0
    @Option(help: "A personal access token: USER=TOKEN (repeatable).") var pat: [String] = []
    @Option(help: "USER=PASSWORD instead of the default (the user name) (repeatable).") var password: [String] = []
    @Option(
        help: """
            ALIAS=USER: ALIAS logs in as USER, as an e-mail or directory login does; [CURRENT_USER] and history \
            name USER (repeatable).
            """)
    var loginAlias: [String] = []
    @Option(help: ArgumentHelp(
        "The database server's time zone: UTC, +09:30, -07:00, or a POSIX TZ rule such as MST7MDT,M3.2.0,M11.1.0.",
        valueName: "zone")) var serverZone = "UTC"
    @Option(help: "History timestamps stored and returned in the server's local time or in UTC: local|utc.")
    var historyTime = "utc"
    @Option(help: "A filter on a history timestamp is read in: as-stored|local|utc.") var filterTime = "as-stored"
    @Option(help: "History timestamps are printed as: sql|sql-fraction|iso|iso-z|iso-offset|iso-fraction-offset|us.")
    var timestampFormat = "sql"
    @Option(help: "An administrator's query limit: results are cut to N rows (resultSetIsLimited = N).") var rowLimit: Int?
    @Option(help: "recordCount of a limited result counts the rows before or after the cut: before|after.")
    var limitedCount = "after"
    @Flag(help: "resultSetIsLimited is 1 for a cut result (a 0/1 flag, as the documented example shows), not the limit.")
    var limitedFlag = false
    @Flag(help: "Stored-query result pages answer page 1 whatever pageNumber asks for.") var ignoreStoredPageNumber = false
    @Flag(help: "A filter on history.action_timestamp matches every entry (the whole history comes back).")
    var ignoreHistoryFilter = false
    @Flag(help: "No CSV route for result sets (…/resultsets/{id}/file answers 404).") var noCsv = false
    @Option(help: "Colleagues' Modify entries per hour over the last 30 hours (benchmarks).") var activity = 0
    @Option(help: "Serve HTTPS with this PEM certificate (chain); needs --tls-key.") var tlsCertificate: String?
    @Option(help: "The PEM private key for --tls-certificate.") var tlsKey: String?

    func validate() throws {
        guard records >= 1, records <= 1_000_000 else { throw ValidationError("--records must be 1…1000000") }
        guard pat.allSatisfy({ $0.contains("=") }) else { throw ValidationError("--pat takes USER=TOKEN") }
        guard (tlsCertificate == nil) == (tlsKey == nil) else { throw ValidationError("--tls-certificate and --tls-key go together") }
        guard SimulatorOptions.adHocRefusals.contains(adhocRefusal) else {
            let allowed = SimulatorOptions.adHocRefusals.joined(separator: ", ")
            throw ValidationError("--adhoc-refusal must be one of \(allowed)")
        }
        guard ["en", "de"].contains(folderLanguage) else { throw ValidationError("--folder-language must be en or de") }
        guard [401, 403, 500].contains(refusedTokenStatus) else {
            throw ValidationError("--refused-token-status must be 401, 403 or 500")
        }
        guard (1...8).contains(replicas) else { throw ValidationError("--replicas must be 1…8") }
        guard SimZone(serverZone) != nil else { throw ValidationError("--server-zone: UTC, ±HH:MM or a POSIX TZ rule") }
        guard HistoryClock.Storage(rawValue: historyTime) != nil else { throw ValidationError("--history-time is local or utc") }
        guard HistoryClock.FilterTime(rawValue: filterTime) != nil else { throw ValidationError("--filter-time is as-stored, local or utc") }
        guard HistoryClock.Format(rawValue: timestampFormat) != nil else {
            throw ValidationError("--timestamp-format is one of \(HistoryClock.Format.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard rowLimit.map({ $0 >= 1 }) ?? true else { throw ValidationError("--row-limit must be at least 1") }
        guard ["before", "after"].contains(limitedCount) else { throw ValidationError("--limited-count is before or after") }
    }

    func run() throws {
        var options = SimulatorOptions()
        options.records = records
        options.everyOwner = owner
        options.seed = seed
        options.pageSizeCap = pageSizeCap
        options.defaultPageSize = defaultPageSize
        options.tokenTTL = tokenTtl
        options.adHocQueries = !noAdhocQuery
        options.adHocRefusal = adhocRefusal
        options.folderLanguage = folderLanguage
        options.strictQueryNames = strictQueryNames
        options.refusedTokenStatus = refusedTokenStatus
        options.replicas = replicas
        options.requireJSONContentType = requireJsonContentType
        options.clockOffset = clockOffset
        options.history.zone = SimZone(serverZone) ?? .utc
        options.history.storage = HistoryClock.Storage(rawValue: historyTime) ?? .utc
        options.history.filterTime = HistoryClock.FilterTime(rawValue: filterTime) ?? .asStored
        options.history.format = HistoryClock.Format(rawValue: timestampFormat) ?? .sql
        options.rowLimit = rowLimit
        options.limitedCountBeforeCut = limitedCount == "before"
        options.limitedAsFlag = limitedFlag
        options.ignoreStoredPageNumber = ignoreStoredPageNumber
        options.history.ignoresFilter = ignoreHistoryFilter
        options.csvRoute = !noCsv
        options.activityPerHour = max(0, min(activity, 100_000))
        for entry in pat {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            options.personalAccessTokens[parts[1]] = parts[0]
        }
        for entry in password {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            options.passwords[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        for entry in loginAlias {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            options.loginAliases[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        let tls = tlsCertificate.map { SimulatorServer.TLSFiles(certificate: $0, privateKey: tlsKey ?? "") }
        let server = try SimulatorServer(simulator: Simulator(options: options), host: host, port: port, tls: tls)
        var line = "listening on \(tls == nil ? "http" : "https")://\(host):\(server.port)\n"
        line.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }  // unbuffered: tests read this line through a pipe
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { server.shutdown(); Glibc.exit(0) }
            source.activate()
            signalSources.append(source)
        }
        try server.wait()
    }
}

nonisolated(unsafe) private var signalSources: [any DispatchSourceSignal] = []
