import ArgumentParser
import Dispatch
#if canImport(Glibc)
    import Glibc
#endif
import QaseSimulator
import SimulatorKit

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the Qase TestOps API v1 under --base-path (default /v1).",
        discussion: """
            Prints "listening on http://HOST:PORT" as its first line. Users (handle, user id, author id): lead 1/4, \
            engineer 2/3, alice 3/2, bob 4/1 (inactive, no token); the reporter app jenkins has author id 5. \
            E-mail HANDLE@example.com; token qase-sim-HANDLE-token (jenkins: qase-sim-jenkins-app-token). \
            Fixture rules, control routes under /sim/ and every switch: docs/qase-sim.md.
            """)

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port; 0 picks a free one.") var port = 8191
    @Option(help: "Where the API lives: /v1 as on api.qase.io, e.g. /api/v1 for a dedicated host.")
    var basePath = "/v1"
    @Option(help: "Comma-separated project codes, seeded alike.") var projects = "DEMO,WEB"
    @Option(help: "Test cases per project.") var cases = 12
    @Option(help: "Defects per project.") var defects = 16
    @Option(help: "Test plans per project.") var plans = 3
    @Option(help: "Reviews per project.") var reviews = 6
    @Option(help: "Test runs per project (one result per case of a run).") var runs = 3
    @Option(help: "HANDLE=TOKEN replacing a fixture token (repeatable); HANDLE jenkins is the reporter app.")
    var token: [String] = []
    @Option(help: "A project only lead can see: everyone else gets 403 and does not see it listed (repeatable).")
    var noAccess: [String] = []
    @Option(help: "Seconds added to the server clock.") var clockOffset = 0
    @Option(help: "Refuse /search with this status (402 or 403), as Qase plans without QQL do.")
    var searchRefusal: Int?
    @Flag(help: "QQL refuses `assignee` on defects (400 \"Query is invalid\").") var qqlNoDefectAssignee = false
    @Flag(help: "Serve a limit above 100 as 100 (below 1 as 1) instead of refusing it with 400.") var clampLimit = false
    @Option(help: "Ids and integer enums as: int, string, or mixed (objects with an odd id send strings).")
    var numbers = QaseSwitches.Numbers.int
    @Flag(help: "Every object carries fields the spec does not know.") var extraFields = false
    @Option(help: "Filter names understood: both (status= and filters[status]=), flat, or bracketed.")
    var filterNames = QaseSwitches.FilterNames.both
    @Option(help: "Refuse every /review route with this status: 402 (not on the plan) or 404 (review off).")
    var reviewRefusal: Int?
    @Flag(help: "Changing a plan's assignments leaves its updated_at alone.") var planAssignKeepsUpdatedAt = false
    @Option(help: "Requests a minute per token before 429 (0: unlimited).") var rateLimit = 600
    @Option(help: "Seconds a token stays refused (429, Retry-After) once over the limit.") var rateLimitTimeout = 60
    @Option(help: "What GET /author?search= matches: name-or-email, or name.")
    var authorSearch = QaseSwitches.AuthorSearch.nameOrEmail
    @Flag(help: "A defect's severity and status arrive as integer codes, where the spec has strings.")
    var defectEnumsAsInts = false
    @Option(help: "Lists that never end: off, lying-total (total 2000000, one item a page) or alternating (pages A, B, A, B).")
    var endlessLists = QaseSwitches.EndlessLists.off
    @Option(help: "Serve HTTPS with this PEM certificate (chain); needs --tls-key.") var tlsCertificate: String?
    @Option(help: "The PEM private key for --tls-certificate.") var tlsKey: String?

    func validate() throws {
        guard token.allSatisfy({ $0.contains("=") }) else { throw ValidationError("--token takes HANDLE=TOKEN") }
        guard (tlsCertificate == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-certificate and --tls-key go together")
        }
        guard [cases, defects, plans, reviews, runs].allSatisfy({ (0...100_000).contains($0) }) else {
            throw ValidationError("--cases, --defects, --plans, --reviews and --runs must be 0…100000")
        }
        guard basePath.hasPrefix("/") else { throw ValidationError("--base-path starts with /") }
        if let problem = options().switches.problem { throw ValidationError(problem) }
    }

    func options() -> QaseSimulatorOptions {
        var options = QaseSimulatorOptions()
        options.projects = projects.split(separator: ",").map { String($0).uppercased() }
        (options.cases, options.defects, options.plans, options.reviews, options.runs) = (
            cases, defects, plans, reviews, runs
        )
        options.basePath = basePath
        options.noAccess = noAccess
        options.clockOffset = clockOffset
        for entry in token {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            options.tokens[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        var switches = QaseSwitches()
        switches.searchRefusal = searchRefusal ?? 0
        switches.qqlDefectAssignee = !qqlNoDefectAssignee
        switches.clampLimit = clampLimit
        switches.numbers = numbers
        switches.extraFields = extraFields
        switches.filterNames = filterNames
        switches.reviewRefusal = reviewRefusal ?? 0
        switches.planAssignmentBumpsUpdatedAt = !planAssignKeepsUpdatedAt
        switches.rateLimit = rateLimit
        switches.rateLimitTimeout = rateLimitTimeout
        switches.authorSearch = authorSearch
        switches.defectEnumsAsInts = defectEnumsAsInts
        switches.endlessLists = endlessLists
        options.switches = switches
        return options
    }

    func run() throws {
        let tls = tlsCertificate.map { SimulatorServer.TLSFiles(certificate: $0, privateKey: tlsKey ?? "") }
        let server = try SimulatorServer(simulator: QaseSimulator(options: options()), host: host, port: port, tls: tls)
        let line = "listening on \(tls == nil ? "http" : "https")://\(host):\(server.port)\n"
        var text = line
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

extension QaseSwitches.Numbers: ExpressibleByArgument {}
extension QaseSwitches.FilterNames: ExpressibleByArgument {}
extension QaseSwitches.AuthorSearch: ExpressibleByArgument {}
extension QaseSwitches.EndlessLists: ExpressibleByArgument {}

nonisolated(unsafe) private var signalSources: [any DispatchSourceSignal] = []
