import ArgumentParser
import Dispatch
#if canImport(Glibc)
    import Glibc
#endif
import GitLabSimulator
import SimulatorKit

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve GitLab's REST API v4 under /api/v4.",
        discussion: """
            Prints "listening on http://HOST:PORT" as its first line; the API root is that plus /api/v4. Users \
            engineer, alice, lead and project_42_bot_1a2b with tokens glpat-sim-USERNAME; projects platform/web \
            (11), platform/api (12), platform/ops (13). Fixture rules, control routes under /sim/ and every \
            switch: docs/gitlab-sim.md.
            """)

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port; 0 picks a free one.") var port = 8293
    @Option(help: "Issues per project (0…100000).") var issues = 12
    @Option(help: "Merge requests per project (0…100000).") var mergeRequests = 12
    @Option(help: "Seconds added to the server clock.") var clockOffset = 0
    @Flag(help: "A change within 60 s of the previous one leaves updated_at alone (python-gitlab #743).")
    var lazyUpdatedAt = false
    @Flag(help: "Every page of a list answers the first page's items (the known paging bug).")
    var repeatPages = false
    @Flag(help: "An old GitLab without reviewers: reviewer_id ignored, no reviewers member.")
    var noReviewers = false
    @Flag(help: "An old GitLab without resource events: those routes 404, changes are system notes.")
    var noResourceEvents = false
    @Option(help: "Above this many items a list omits X-Total, X-Total-Pages and rel=\"last\".")
    var totalCap = 10_000
    @Option(help: "Serve HTTPS with this PEM certificate (chain); needs --tls-key.") var tlsCertificate: String?
    @Option(help: "The PEM private key for --tls-certificate.") var tlsKey: String?

    func validate() throws {
        guard (tlsCertificate == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-certificate and --tls-key go together")
        }
        guard (0...100_000).contains(issues), (0...100_000).contains(mergeRequests) else {
            throw ValidationError("--issues and --merge-requests must be 0…100000")
        }
        if let problem = options().switches.problem { throw ValidationError(problem) }
    }

    func options() -> GitLabSimulatorOptions {
        var options = GitLabSimulatorOptions()
        options.issues = issues
        options.mergeRequests = mergeRequests
        options.clockOffset = clockOffset
        options.https = tlsCertificate != nil
        options.switches.lazyUpdatedAt = lazyUpdatedAt
        options.switches.repeatPages = repeatPages
        options.switches.noReviewers = noReviewers
        options.switches.noResourceEvents = noResourceEvents
        options.switches.totalCap = totalCap
        return options
    }

    func run() throws {
        let tls = tlsCertificate.map { SimulatorServer.TLSFiles(certificate: $0, privateKey: tlsKey ?? "") }
        let server = try SimulatorServer(
            simulator: GitLabSimulator(options: options()), host: host, port: port, tls: tls)
        try server.serveUntilSignalled(host: host, https: tls != nil)
    }
}
