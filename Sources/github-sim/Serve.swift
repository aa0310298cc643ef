import ArgumentParser
import Dispatch
#if canImport(Glibc)
    import Glibc
#endif
import GitHubSimulator
import SimulatorKit

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve GitHub's REST API at / (github.com) or under --base-path (Enterprise Server: /api/v3).",
        discussion: """
            Prints "listening on http://HOST:PORT" as its first line (the API root follows: the base path). \
            Accounts engineer, alice, lead, dependabot[bot] with classic tokens ghp_sim_LOGIN; engineer also has \
            github_pat_sim_engineer (fine-grained) and ghp_sim_engineer_noscope (no repo scope). Fixture rules, \
            control routes under /sim/ and every switch: docs/github-sim.md.
            """)

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port; 0 picks a free one.") var port = 8292
    @Option(help: "Where the API lives: \"\" (github.com) or /api/v3 (GitHub Enterprise Server).") var basePath = ""
    @Option(help: "Issues and pull requests per repository (0…50000).") var issues = 12
    @Option(help: "Seconds added to the server clock.") var clockOffset = 0
    @Option(help: "Search results reachable through paging.") var searchCap = 1000
    @Flag(help: "Search answers incomplete_results: true and leave out numbers divisible by 5.")
    var incompleteSearch = false
    @Option(help: "Search requests per minute and token.") var searchRate = 30
    @Option(help: "Core requests per hour and token.") var coreLimit = 5000
    @Flag(name: .customLong("retire-2022-11-28"), help: "Answer 400 to API version 2022-11-28 (and to no version).")
    var retire20221128 = false
    @Option(help: "Seconds in an X-Poll-Interval header on every API answer (0: none).") var pollInterval = 0
    @Option(help: "Serve HTTPS with this PEM certificate (chain); needs --tls-key.") var tlsCertificate: String?
    @Option(help: "The PEM private key for --tls-certificate.") var tlsKey: String?

    func validate() throws {
        guard (tlsCertificate == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-certificate and --tls-key go together")
        }
        guard (0...50_000).contains(issues) else { throw ValidationError("--issues must be 0…50000") }
        guard basePath.isEmpty || (basePath.hasPrefix("/") && !basePath.hasSuffix("/")) else {
            throw ValidationError("--base-path starts with / and does not end with one, e.g. /api/v3")
        }
        if let problem = options().switches.problem { throw ValidationError(problem) }
    }

    func options() -> GitHubSimulatorOptions {
        var options = GitHubSimulatorOptions()
        options.basePath = basePath
        options.issues = issues
        options.clockOffset = clockOffset
        options.https = tlsCertificate != nil
        options.switches.searchCap = searchCap
        options.switches.incompleteSearch = incompleteSearch
        options.switches.searchRate = searchRate
        options.switches.coreLimit = coreLimit
        options.switches.retire20221128 = retire20221128
        options.switches.pollInterval = pollInterval
        return options
    }

    func run() throws {
        let tls = tlsCertificate.map { SimulatorServer.TLSFiles(certificate: $0, privateKey: tlsKey ?? "") }
        let server = try SimulatorServer(
            simulator: GitHubSimulator(options: options()), host: host, port: port, tls: tls)
        try server.serveUntilSignalled(host: host, https: tls != nil)
    }
}
