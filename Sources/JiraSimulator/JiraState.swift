#if canImport(Glibc)
    import Glibc
#endif
import SimulatorKit

/// Everything the server knows: projects, issues, access, switches, clock, faults and stats. Guarded by one lock
/// in `JiraSimulator`; every method runs with the lock held.
struct JiraState {
    let options: JiraSimulatorOptions
    var switches: JiraSwitches
    var clockOffset: Int
    var projects: [Project]
    /// Issues by slot; a deleted issue leaves nil behind so that slots stay put.
    var issues: [Issue?] = []
    /// Issue id → slot.
    var slotByID: [Int: Int] = [:]
    /// Current and former keys → slot.
    var slotByKey: [String: Int] = [:]
    /// (person, project index) pairs refused by `POST /sim/access`.
    var hidden: Set<[Int]> = []
    var nextHistoryID = 10000
    var nextCommentID = 10000
    var faults: [JiraFault] = []
    var stats = JiraStats()

    init(options: JiraSimulatorOptions) {
        self.options = options
        switches = options.switches
        clockOffset = options.clockOffset
        projects = options.projects.enumerated().map { index, key in
            let name = ["WEB": "Web Shop", "OPS": "Operations"][key] ?? "\(key) project"
            return Project(index: index, id: 10000 + index, key: key, name: name, nextNumber: options.issues + 1)
        }
        Seed.populate(&self)
    }

    var now: Int { Int(time(nil)) + clockOffset }
    var flavor: JiraSimulatorOptions.Flavor { options.flavor }

    /// Adds an issue and indexes its id and key.
    mutating func insert(_ issue: Issue) {
        slotByID[issue.id] = issues.count
        slotByKey[key(of: issue)] = issues.count
        issues.append(issue)
    }

    func key(of issue: Issue) -> String { "\(projects[issue.projectIndex].key)-\(issue.number)" }

    func canSee(_ person: Int, project: Int) -> Bool { !hidden.contains([person, project]) }

    /// The slot of the issue an `{idOrKey}` names (a moved issue's old key included) if `person` may see it, else
    /// Jira's 404.
    func slot(_ idOrKey: String, for person: Int) throws -> Int {
        let slot = Int(idOrKey).flatMap { slotByID[$0] } ?? slotByKey[idOrKey.uppercased()]
        guard let slot, let issue = issues[slot], canSee(person, project: issue.projectIndex) else {
            throw JiraError(404, "Issue does not exist or you do not have permission to see it.")
        }
        return slot
    }

    /// Records a history by `author` now and bumps `updated`; no items, no history.
    mutating func record(_ items: [HistoryItem], on slot: Int, by author: Int) {
        guard !items.isEmpty else { return }
        let time = now
        issues[slot]!.histories.append(History(id: nextHistoryID, author: author, created: time, items: items))
        issues[slot]!.updated = time
        nextHistoryID += 1
    }
}

/// `GET /sim/stats`: what the API was asked, for benchmarks ("requests per poll") and tests.
struct JiraStats: Encodable {
    /// API requests (under `/rest/api/`; `/sim/` routes are not counted), faulted answers included.
    var requests = 0
    /// By route without the API version, e.g. `GET /search/jql`, `POST /changelog/bulkfetch`.
    var requestsByRoute: [String: Int] = [:]
    /// By the handle of the authenticated user; requests that fail authentication are not here.
    var requestsByUser: [String: Int] = [:]
    /// 429 answers sent (injected `rateLimit` faults).
    var rateLimited = 0
    /// 401 answers sent (no, wrong or expired credentials).
    var unauthorized = 0
}

/// An API error answer: Jira's `{"errorMessages": […], "errors": {…}}`.
struct JiraError: Error {
    let status: Int
    var messages: [String]
    var errors: [(String, String)] = []

    init(_ status: Int, _ message: String) {
        self.status = status
        messages = [message]
    }

    /// 400 with a message per field in `errors` and none in `errorMessages`, as Jira reports bad write bodies.
    init(field: String, _ message: String) {
        status = 400
        messages = []
        errors = [(field, message)]
    }

    var body: JSONValue {
        .object([
            ("errorMessages", .array(messages.map { .string($0) })),
            ("errors", .object(errors.map { (key: $0.0, value: JSONValue.string($0.1)) })),
        ])
    }
}
