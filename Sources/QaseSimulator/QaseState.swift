import SimulatorKit

/// Everything the server knows: projects, tokens, access, switches, clock, faults, the rate limiter and stats.
/// Guarded by one lock in `QaseSimulator`; every method runs with the lock held.
struct QaseState {
    struct Access: Hashable {
        let projectKey: Int
        let userID: Int
    }

    let options: QaseSimulatorOptions
    var switches: QaseSwitches
    var clock: QaseClock
    var projects: [Project]
    /// token → who it acts as.
    var tokens: [String: Actor]
    /// Who may not see which project (403, and absent from `GET /project`).
    var denied: Set<Access> = []
    var faults: [QaseFault] = []
    var limiter = RateLimiter()
    var stats = QaseStats()

    init(options: QaseSimulatorOptions) {
        self.options = options
        switches = options.switches
        clock = QaseClock(offset: options.clockOffset)
        let sizes = Seed.Sizes(
            cases: options.cases, defects: options.defects, plans: options.plans, reviews: options.reviews,
            runs: options.runs)
        let t0 = clock.now
        projects = options.projects.enumerated().map {
            Seed.project(key: $0, code: $1.uppercased(), sizes: sizes, t0: t0)
        }
        tokens = Directory.tokens(overrides: options.tokens)
        for code in options.noAccess {
            guard let project = projects.first(where: { $0.code == code.uppercased() }) else { continue }
            for person in Directory.people where person != Directory.lead {
                denied.insert(Access(projectKey: project.key, userID: person.userID))
            }
        }
    }

    /// Whether the actor may see the project (an app token sees every project).
    func canSee(_ project: Project, _ actor: Actor) -> Bool {
        guard let userID = actor.userID else { return true }
        return !denied.contains(Access(projectKey: project.key, userID: userID))
    }

    /// The index of the project with this code (any case), or the API's 404/403.
    func projectIndex(_ code: String, for actor: Actor) throws -> Int {
        guard let index = projects.firstIndex(where: { $0.code == code.uppercased() }) else {
            throw APIError(404, "Project \"\(code)\" not found")
        }
        guard canSee(projects[index], actor) else {
            throw APIError(403, "You do not have access to project \"\(projects[index].code)\"")
        }
        return index
    }
}

/// `GET /sim/stats`: what the API was asked, for benchmarks ("requests per poll") and tests.
struct QaseStats: Encodable {
    /// API requests (under the base path; `/sim` routes are not counted), 429s included.
    var requests = 0
    /// By route, e.g. `GET /search`, `GET /plan/{code}/{id}`.
    var requestsByRoute: [String: Int] = [:]
    /// By the handle of the token's owner (`engineer`, `jenkins`); requests without a valid token are not here.
    var requestsByUser: [String: Int] = [:]
    /// 429 answers sent, from the rate limit and from injected faults.
    var rateLimited = 0
    /// 401 answers sent (no token, an unknown one, an inactive user's).
    var unauthorized = 0
}

/// Requests per token over the last minute; over the limit, a token is refused for the timeout period, then starts
/// afresh.
struct RateLimiter {
    private var recent: [String: [Int]] = [:]
    private var blockedUntil: [String: Int] = [:]

    /// nil to let the request through (and count it), else the seconds the client must wait.
    mutating func admit(token: String, now: Int, limit: Int, timeout: Int) -> Int? {
        guard limit > 0 else { return nil }
        if let until = blockedUntil[token], until > now { return until - now }
        var times = recent[token, default: []].filter { $0 > now - 60 }
        if times.count >= limit {
            // The timeout is the penalty: once it is over, the token starts a fresh minute.
            blockedUntil[token] = now + timeout
            recent[token] = []
            return timeout
        }
        times.append(now)
        recent[token] = times
        return nil
    }

    mutating func reset() {
        recent.removeAll()
        blockedUntil.removeAll()
    }
}

/// An API error answer: `{"status": false, "errorMessage": …}` with `errorFields` for invalid data.
struct APIError: Error {
    let status: Int
    let message: String
    var fields: [(field: String, error: String)] = []
    /// Sent as `X-Qase-Sim-Reason` (the simulator's own explanation, e.g. why a query is invalid).
    var reason: String?

    init(_ status: Int, _ message: String, fields: [(field: String, error: String)] = [], reason: String? = nil) {
        self.status = status
        self.message = message
        self.fields = fields
        self.reason = reason
    }

    /// 400 "Data is invalid." naming one field.
    static func invalid(_ field: String, _ error: String) -> APIError {
        APIError(400, "Data is invalid.", fields: [(field, error)])
    }

    var body: JSONValue {
        var json: JSONValue = ["status": false, "errorMessage": .string(message)]
        if !fields.isEmpty {
            json = json.with(
                "errorFields", .array(fields.map { ["field": .string($0.field), "error": .string($0.error)] }))
        }
        return json
    }
}
