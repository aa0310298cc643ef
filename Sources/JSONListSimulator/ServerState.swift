import SimulatorKit

/// Everything the server holds: the lists, armed faults, counters and statistics. Guarded by one lock in
/// `JSONListSimulator`; every method runs with the lock held.
struct ServerState {
    let options: JSONSimOptions
    var listeners = Listeners()

    /// The generic list (every `/list`, `/paging`, `/auth`, `/encoding`, `/conditional`, `/redirect`, `/mess`,
    /// `/fault` route serves these).
    var items: [JSONValue] = []
    /// The list's `Last-Modified`: at least one second later after every change, so that two versions never
    /// share it (HTTP dates have whole seconds).
    var itemsModified = 0

    var devices: [JSONValue] = []
    var nextDeviceID = 1
    var directory: [JSONValue] = []
    /// netid → password.
    var accounts: [String: String] = [:]
    var issues: [Tracker: [TrackerIssue]] = [:]

    var faults: [Fault] = []
    /// Answers given per route, for the `/mess` routes that alternate.
    var answers: [String: Int] = [:]
    var stats = Stats()
    var log = RequestLog()
    var payloads = HostilePayloads()
    /// GitHub's `X-RateLimit-Remaining`.
    var githubRateUsed = 0

    init(options: JSONSimOptions) {
        self.options = options
        reseed()
    }

    /// Back to the seeded data with no faults and fresh counters; the listeners (and payload cache) stay.
    mutating func reseed() {
        let now = options.clock()
        items = ItemFixtures.seed(count: options.items)
        itemsModified = now
        devices = DeviceFixtures.seed()
        nextDeviceID = devices.count + 1
        directory = DirectoryFixtures.seed()
        accounts = DirectoryFixtures.accounts(of: directory)
        issues = Dictionary(uniqueKeysWithValues: Tracker.allCases.map { ($0, IssueFixtures.seed(now: now)) })
        faults = []
        answers = [:]
        stats = Stats()
        log = RequestLog()
        githubRateUsed = 0
    }

    mutating func itemsChanged(now: Int) { itemsModified = max(now, itemsModified + 1) }

    /// How many times `route` has answered before (0 for the first answer), counting this one.
    mutating func answerNumber(_ route: String) -> Int {
        answers[route, default: 0] += 1
        return answers[route, default: 1] - 1
    }
}
