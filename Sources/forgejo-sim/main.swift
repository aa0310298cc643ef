import ArgumentParser
import Dispatch
#if canImport(Glibc)
    import Glibc
#endif
import ForgejoSimulator
import SimulatorKit

/// forgejo-sim: a local Forgejo (or Gitea) REST server for development, tests and the demo.
struct ForgejoSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forgejo-sim",
        abstract: "A local Forgejo or Gitea REST server (the routes trackwatch reads) with seeded issues and pulls.",
        discussion: """
            Prints "listening on http://HOST:PORT" as its first line. Accounts engineer, alice, lead and \
            renovate[bot], with tokens fj_sim_LOGIN. Colleagues act, and switches and faults are set, through the \
            control routes under /sim/: docs/forgejo-sim.md.
            """)

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port; 0 picks a free one.") var port = 8293
    @Option(help: "Issues and pull requests in each of the two repositories (1…10000).") var issues = 6
    @Flag(help: "Be Gitea: /api/forgejo/v1/version answers 404, the version is plain.") var gitea = false
    @Flag(help: "Be a server before Gitea 1.17: the timeline route answers a plain-text 404.") var noTimeline = false
    @Option(help: "MAX_RESPONSE_ITEMS: the most items a page holds, whatever limit asks.") var maxResponseItems = 50
    @Option(help: "The version /api/v1/version answers (1.13.4: an old Gitea).") var serverVersion: String?
    @Flag(help: "Be a server before Gitea 1.14: review_requested is ignored.") var ignoreReviewRequested = false
    @Flag(help: "Compute the search's Link with 20 items a page, not the limit used (Gitea 1.17).") var legacyLink =
        false
    @Option(help: "Serve the API under this path (/git), as a server whose ROOT_URL has one; /sim/ stays at the root.")
    var subPath = ""

    func validate() throws {
        guard subPath.isEmpty || (subPath.hasPrefix("/") && !subPath.hasSuffix("/") && !subPath.contains("?")) else {
            throw ValidationError("--sub-path is a path such as /git: a leading slash, none at the end")
        }
        guard (1...10_000).contains(issues) else { throw ValidationError("--issues must be 1…10000") }
        guard maxResponseItems > 0 else { throw ValidationError("--max-response-items must be positive") }
    }

    func run() throws {
        var options = ForgejoSimulatorOptions()
        options.issues = issues
        options.switches.gitea = gitea
        options.switches.noTimeline = noTimeline
        options.switches.maxResponseItems = maxResponseItems
        options.switches.version = serverVersion
        options.switches.ignoreReviewRequested = ignoreReviewRequested
        options.switches.legacyLink = legacyLink
        options.subPath = subPath
        let server = try SimulatorServer(simulator: ForgejoSimulator(options: options), host: host, port: port)
        try server.serveUntilSignalled(host: host)
    }
}

ForgejoSim.main()
