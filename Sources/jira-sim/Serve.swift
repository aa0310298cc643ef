import ArgumentParser
import Dispatch
#if canImport(Glibc)
    import Glibc
#endif
import JiraSimulator
import SimulatorKit

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve Jira's REST API under {context}/rest/api/{2,3}.",
        discussion: """
            Prints "listening on http://HOST:PORT" as its first line. People (handle: Cloud API token / DC PAT / DC \
            password): engineer, alice, lead, automation — jira-sim-HANDLE-token, jira-sim-HANDLE-pat, \
            HANDLE-password; Cloud logs in with HANDLE@example.com (automation@connect.atlassian.com). Fixture \
            rules, control routes under /sim/ and every switch: docs/jira-sim.md.
            """)

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port; 0 picks a free one.") var port = 8291
    @Option(help: "cloud or dc (Data Center).") var flavor = JiraSimulatorOptions.Flavor.cloud
    @Option(help: "Where Jira lives on the host, e.g. /jira (Data Center only).") var contextPath = ""
    @Option(help: "Comma-separated project keys, seeded alike.") var projects = "WEB,OPS"
    @Option(help: "Issues per project (0…100000).") var issues = 12
    @Option(help: "Seconds added to the server clock.") var clockOffset = 0
    @Option(help: "Cloud: issues updated less than SECONDS ago are missing from search/jql unless reconciled.")
    var searchLag = 0
    @Option(help: "Histories and comments embedded in an issue or search answer stop at N.") var embeddedLimit = 100
    @Option(help: "Clamp every page size to at most N (0: the endpoints' own limits).") var maxResults = 0
    @Option(help: "millis (Jira's), plain (no fraction), or epoch (bulk changelog created in epoch seconds).")
    var timestamps = JiraSwitches.Timestamps.millis
    @Option(help: "This handle's credentials answer 401, as an expired token does.") var expiredToken = ""
    @Option(help: "Serve HTTPS with this PEM certificate (chain); needs --tls-key.") var tlsCertificate: String?
    @Option(help: "The PEM private key for --tls-certificate.") var tlsKey: String?

    func validate() throws {
        guard (tlsCertificate == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-certificate and --tls-key go together")
        }
        guard (0...100_000).contains(issues) else { throw ValidationError("--issues must be 0…100000") }
        guard contextPath.isEmpty || (contextPath.hasPrefix("/") && !contextPath.hasSuffix("/")) else {
            throw ValidationError("--context-path starts with / and does not end with one, e.g. /jira")
        }
        guard contextPath.isEmpty || flavor == .dc else {
            throw ValidationError("--context-path is for Data Center; Cloud sites live at the root")
        }
        let keys = options().projects
        guard !keys.isEmpty, keys.allSatisfy({ $0.allSatisfy { $0.isLetter && $0.isASCII } }) else {
            throw ValidationError("--projects takes keys of letters, e.g. WEB,OPS")
        }
        if let problem = options().switches.problem { throw ValidationError(problem) }
    }

    func options() -> JiraSimulatorOptions {
        var options = JiraSimulatorOptions()
        options.flavor = flavor
        options.contextPath = contextPath
        options.projects = projects.split(separator: ",").map { String($0).uppercased() }
        options.issues = issues
        options.clockOffset = clockOffset
        options.switches.searchLag = searchLag
        options.switches.embeddedLimit = embeddedLimit
        options.switches.maxResults = maxResults
        options.switches.timestamps = timestamps
        options.switches.expiredToken = expiredToken
        return options
    }

    func run() throws {
        let tls = tlsCertificate.map { SimulatorServer.TLSFiles(certificate: $0, privateKey: tlsKey ?? "") }
        let server = try SimulatorServer(simulator: JiraSimulator(options: options()), host: host, port: port, tls: tls)
        var text = "listening on \(tls == nil ? "http" : "https")://\(host):\(server.port)\n"
        text.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }  // unbuffered: tests read this line through a pipe
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                server.shutdown()
                Glibc.exit(0)
            }
            source.activate()
            signalSources.append(source)
        }
        try server.wait()
    }
}

extension JiraSimulatorOptions.Flavor: ExpressibleByArgument {}
extension JiraSwitches.Timestamps: ExpressibleByArgument {}

nonisolated(unsafe) private var signalSources: [any DispatchSourceSignal] = []
