import ArgumentParser
import AzureDevOpsSimulator
import Dispatch
#if canImport(Glibc)
    import Glibc
#endif
import SimulatorKit

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve Azure DevOps' REST API under /ORG (Services) and /tfs/COLLECTION (Server).",
        discussion: """
            Prints "listening on http://HOST:PORT" as its first line; the organization URL is that plus /acme \
            (or /tfs/DefaultCollection). People engineer, alice and lead with PATs adosim-pat-USERNAME (Basic, any \
            user name); projects Web, Platform and Secret (engineer cannot read Secret). Fixture rules, control \
            routes under /sim/ and every switch: docs/azure-devops-sim.md.
            """)

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port; 0 picks a free one.") var port = 8295
    @Option(help: "Work items per project (0…100000).") var workItems = 12
    @Option(help: "Pull requests per project (0…10000).") var pullRequests = 6
    @Option(help: "Organization name (Services URLs /ORG).") var organization = "acme"
    @Option(help: "Collection name (Server URLs /tfs/COLLECTION).") var collection = "DefaultCollection"
    @Option(help: "Seconds added to the server clock.") var clockOffset = 0
    @Flag(help: "Azure DevOps Server 2022: DOMAIN\\user unique names, deploymentType onPremises.") var server = false
    @Option(help: "The newest api-version served (7.0: Server 2022 before 2022.1).") var maxApiVersion = "7.1"
    @Flag(help: "An old server without the work item comments API.") var noCommentsApi = false
    @Option(help: "More WIQL results than this answer 400 VS402337.") var wiqlLimit = 20_000
    @Option(help: "Serve HTTPS with this PEM certificate (chain); needs --tls-key.") var tlsCertificate: String?
    @Option(help: "The PEM private key for --tls-certificate.") var tlsKey: String?

    func validate() throws {
        guard (tlsCertificate == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-certificate and --tls-key go together")
        }
        guard (0...100_000).contains(workItems), (0...10_000).contains(pullRequests) else {
            throw ValidationError("--work-items must be 0…100000 and --pull-requests 0…10000")
        }
        guard !organization.isEmpty, !organization.contains("/"), !collection.isEmpty, !collection.contains("/") else {
            throw ValidationError("--organization and --collection are single path segments")
        }
        if let problem = options().switches.problem { throw ValidationError(problem) }
    }

    func options() -> AzureDevOpsSimulatorOptions {
        var options = AzureDevOpsSimulatorOptions()
        options.workItems = workItems
        options.pullRequests = pullRequests
        options.organization = organization
        options.collection = collection
        options.clockOffset = clockOffset
        options.https = tlsCertificate != nil
        options.switches.server = server
        options.switches.maxApiVersion = maxApiVersion
        options.switches.noCommentsAPI = noCommentsApi
        options.switches.wiqlLimit = wiqlLimit
        return options
    }

    func run() throws {
        let tls = tlsCertificate.map { SimulatorServer.TLSFiles(certificate: $0, privateKey: tlsKey ?? "") }
        let server = try SimulatorServer(
            simulator: AzureDevOpsSimulator(options: options()), host: host, port: port, tls: tls)
        try server.serveUntilSignalled(host: host, https: tls != nil)
    }
}
