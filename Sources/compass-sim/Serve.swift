import ArgumentParser
import CompassSimulator
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

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
            result set is forgotten, as after a restart).
            """)

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port; 0 picks a free one.") var port = 8190
    @Option(help: "Number of seeded Defect records.") var records = 40
    @Option(help: "Seed for headlines, priorities and severities.") var seed: UInt64 = 1
    @Option(help: "Make every seeded record belong to this user (for benchmarks).") var owner: String?
    @Option(help: "Largest page size the server grants, whatever the client asks.") var pageSizeCap: Int?
    @Option(help: "Page size when the client asks for none.") var defaultPageSize = 25
    @Option(help: "Token lifetime in seconds.") var tokenTtl = 86_400
    @Flag(help: "Refuse the ad-hoc /query endpoint (with 404 unless --adhoc-refusal says otherwise), like older Compass servers.")
    var noAdhocQuery = false
    @Option(help: "How --no-adhoc-query refuses POST /query: 404, 400, 405, 500, 501, or html (a 200 HTML page).")
    var adhocRefusal = "404"
    @Option(help: "Root folder names in this language: en or de (\"Persönliche Abfragen\", \"Öffentliche Abfragen\").")
    var folderLanguage = "en"
    @Flag(help: "Refuse stored query names with characters other than letters, digits, spaces and underscores.")
    var strictQueryNames = false
    @Option(help: "Status for a token the server does not know (expired, logged off, revoked, lost in a restart): 401, 403 or 500.")
    var refusedTokenStatus = 401
    @Option(help: "Replicas behind a cookie-routing load balancer; a result set is only reachable with its replica's cookie.")
    var replicas = 1
    @Flag(help: "Refuse API requests without Content-Type: application/json (415) or whose Accept excludes JSON (406).")
    var requireJsonContentType = false
    @Option(help: "Seconds added to the server clock (simulates skew).") var clockOffset = 0
    @Option(help: "A personal access token: USER=TOKEN (repeatable).") var pat: [String] = []
    @Option(help: "USER=PASSWORD instead of the default (the user name) (repeatable).") var password: [String] = []
    @Option(help: "Serve HTTPS with this PEM certificate (chain); needs --tls-key.") var tlsCertificate: String?
    @Option(help: "The PEM private key for --tls-certificate.") var tlsKey: String?

    func validate() throws {
        guard records >= 1, records <= 1_000_000 else { throw ValidationError("--records must be 1…1000000") }
        guard pat.allSatisfy({ $0.contains("=") }) else { throw ValidationError("--pat takes USER=TOKEN") }
        guard (tlsCertificate == nil) == (tlsKey == nil) else { throw ValidationError("--tls-certificate and --tls-key go together") }
        guard SimulatorOptions.adHocRefusals.contains(adhocRefusal) else {
            throw ValidationError("--adhoc-refusal must be one of \(SimulatorOptions.adHocRefusals.joined(separator: ", "))")
        }
        guard ["en", "de"].contains(folderLanguage) else { throw ValidationError("--folder-language must be en or de") }
        guard [401, 403, 500].contains(refusedTokenStatus) else { throw ValidationError("--refused-token-status must be 401, 403 or 500") }
        guard (1...8).contains(replicas) else { throw ValidationError("--replicas must be 1…8") }
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
        for entry in pat {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            options.personalAccessTokens[parts[1]] = parts[0]
        }
        for entry in password {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            options.passwords[parts[0]] = parts.count > 1 ? parts[1] : ""
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
