#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Options of `compass-sim serve`.
public struct SimulatorOptions: Sendable {
    public var records = 40
    /// `--owner`: every seeded record belongs to this user.
    public var everyOwner: String?
    public var seed: UInt64 = 1
    public var pageSizeCap: Int?
    public var defaultPageSize = 25
    public var tokenTTL = 86_400
    public var adHocQueries = true
    public var clockOffset = 0
    /// Personal access tokens: token → user.
    public var personalAccessTokens: [String: String] = [:]
    /// Passwords other than the sample ones: user → password.
    public var passwords: [String: String] = [:]
    /// Other names users log in with (an e-mail address, a directory login): alias → user.
    public var loginAliases: [String: String] = [:]
    /// How history timestamps are stored, printed and filtered (zone, format).
    public var history = HistoryClock()
    /// An administrator's query limit: results are cut to this many rows and report it in `resultSetIsLimited`.
    public var rowLimit: Int?
    /// Whether a limited result's `recordCount` counts the rows before the cut (else after it).
    public var limitedCountBeforeCut = false
    /// `--limited-flag`: `resultSetIsLimited` is 1 for any cut result, the client's own `maxResultSetRows` cut
    /// too (the 0/1 flag of the documented example), instead of the limit that cut.
    public var limitedAsFlag = false
    /// Stored-query result pages answer page 1 whatever `pageNumber` says.
    public var ignoreStoredPageNumber = false
    /// The CSV route `…/resultsets/{id}/file?fileType=csv` answers 404.
    public var csvRoute = true
    /// Colleagues' Modify entries per hour over the last 30 hours, spread over the records (benchmarks).
    public var activityPerHour = 0
    /// `--folder-language de`: the root folders carry their German names ("Persönliche Abfragen"), as a
    /// server whose resource file is localized sends them.
    public var folderLanguage = "en"
    /// `--strict-query-names`: stored query names may hold letters, digits, spaces and underscores only, as a
    /// strict `ValidateQueryDefName` allows.
    public var strictQueryNames = false
    /// How `POST /query` is refused when ad-hoc queries are off: "404" (default), "400", "405", "500", "501" or
    /// "html" (a 200 HTML page from a web front end).
    public var adHocRefusal = "404"
    /// `--refused-token-status`: the status for a token the server does not know (expired, logged off, revoked
    /// or lost in a restart); 401 by default, 403 or 500 on some servers.
    public var refusedTokenStatus = 401
    /// `--replicas N`: N replicas behind a cookie-routing load balancer; a result set lives in the replica that
    /// made it, and a request without the replica's cookie lands on the next replica in turn.
    public var replicas = 1
    /// `--require-json-content-type`: refuse (415) any API request without `Content-Type: application/json`,
    /// and (406) one whose `Accept` excludes JSON.
    public var requireJSONContentType = false

    public init() {}

    /// Every value `--adhoc-refusal` accepts.
    public static let adHocRefusals = ["400", "404", "405", "500", "501", "html"]
}

/// Everything the server knows: records, sessions, result sets, stored queries, edit locks and statistics.
/// Guarded by one lock in `Simulator`; every method runs with the lock held.
struct SimulatorState {
    struct Session {
        let user: String
        var expiresAt: Int
        var resultSets: [String: ResultSet] = [:]
    }

    struct ResultSet {
        let rows: [ResultRow]
        let pageSize: Int
        /// The replica that made it (and alone holds it).
        var replica = 0
    }

    struct StoredQuery {
        var definition: SimQueryDefinition
        let folder: String
        let dbId: String
    }

    struct Edit {
        let token: String
        let action: ActionDefinition
        var fields: [String: String]
    }

    let options: SimulatorOptions
    var clock: SimClock
    var defects: [Int: Defect]
    var nextRecord: Int
    var sessions: [String: Session] = [:]
    var storedQueries: [String: StoredQuery] = [:]
    var edits: [Int: Edit] = [:]
    var nextDbId = 33_600_000
    var requests = 0, logins = 0, loginFailures = 0, logoffs = 0
    var requestsByRoute: [String: Int] = [:]
    var faults: [Fault] = []
    /// Accounts locked by `POST /ccmweb/sim/lock/{user}`.
    var lockedUsers: Set<String> = []
    /// Every token ever issued, for tests that look for leaks (`GET /ccmweb/sim/tokens`).
    var issuedTokens: [String] = []
    /// Identifies this server in its replica cookie, so that a cookie from another server is recognised.
    let instance = String(UInt32.random(in: 0...UInt32.max), radix: 16)
    /// The replica the load balancer sends the next request without a (valid) cookie to.
    var nextReplica = 0
    /// Page requests that reached a replica without the result set (no or wrong cookie).
    var replicaMisses = 0
    /// Requests carrying the replica cookie of another compass-sim: a cookie jar shared between servers.
    var foreignCookies = 0
    /// Requests refused for their Content-Type or Accept (`--require-json-content-type`).
    var refusedForMediaType = 0

    static let publicFolder = "33554441"

    /// The root folder's name in the server's language.
    func rootName(personal: Bool) -> String {
        switch (options.folderLanguage, personal) {
        case ("de", true): return "Persönliche Abfragen"
        case ("de", false): return "Öffentliche Abfragen"
        case (_, true): return "Personal Queries"
        case (_, false): return "Public Queries"
        }
    }

    /// True for Public Queries and its subfolders.
    static func isPublic(_ folder: String) -> Bool {
        folder == publicFolder || subfolders[folder].map { isPublic($0.parent) } == true
    }

    /// `Public Queries/Triage` for a subfolder's dbId; the root's name otherwise.
    func path(of folder: String) -> String {
        if let sub = Self.subfolders[folder] { return path(of: sub.parent) + "/" + sub.name }
        return rootName(personal: folder != Self.publicFolder)
    }
    /// `Public Queries/Triage`: a subfolder, so that clients must walk the tree by name.
    static let triageFolder = "33554445"
    /// Subfolders: dbId → (name, parent dbId).
    static let subfolders: [String: (name: String, parent: String)] = [triageFolder: ("Triage", publicFolder)]
    static func personalFolder(of user: String) -> String {
        String(33_554_447 + 10 * (SampleSchema.users.firstIndex { $0.login == user } ?? 0))
    }

    init(options: SimulatorOptions) {
        self.options = options
        clock = SimClock(offset: options.clockOffset)
        let seeded = SampleSchema.seed(count: options.records, seed: options.seed, now: clock.now, everyOwner: options.everyOwner)
        defects = Dictionary(uniqueKeysWithValues: seeded.map { ($0.number, $0) })
        nextRecord = seeded.count + 1
        for (id, name, filters) in Self.publicQueries + Self.triageQueries {
            storedQueries[id] = StoredQuery(
                definition: SimQueryDefinition(
                    name: name, dbId: id, dbIdParent: Self.publicFolder, primaryEntityDefName: "Defect",
                    queryFieldDefs: ["id", "Headline", "State", "Owner", "Priority"].map {
                        SimFieldDefinition(fieldPathName: $0, isShown: true, sortType: $0 == "id" ? "SORT_ASC" : "NO_SORT", sortOrder: 0)
                    },
                    filterNode: SimFilterNode(boolOp: "BOOL_OP_AND", fieldFilters: filters, childFilterNodes: [])),
                folder: Self.triageQueries.contains { $0.0 == id } ? Self.triageFolder : Self.publicFolder, dbId: id)
        }
        if options.activityPerHour > 0 { addActivity(perHour: options.activityPerHour) }
    }

    static let publicQueries: [(String, String, [SimFieldFilter])] = [
        ("33554700", "All Defects", []),
        ("33554691", "Needs Verification", [SimFieldFilter(fieldPath: "State", compOp: "COMP_OP_EQ", values: ["Resolved"])]),
        ("33554692", "Team P1s", [
            SimFieldFilter(fieldPath: "Priority", compOp: "COMP_OP_EQ", values: ["1-Resolve Immediately"]),
            SimFieldFilter(fieldPath: "State", compOp: "COMP_OP_NEQ", values: ["Closed"]),
        ]),
    ]

    /// In `Public Queries/Triage`.
    static let triageQueries: [(String, String, [SimFieldFilter])] = [
        ("33554693", "Critical", [SimFieldFilter(fieldPath: "Severity", compOp: "COMP_OP_EQ", values: ["1-Critical"])]),
    ]

    var sortedDefects: [Defect] { defects.values.sorted { $0.number < $1.number } }

    var fullNames: [String: String] {
        Dictionary(uniqueKeysWithValues: SampleSchema.users.map { ($0.login, $0.fullName) })
    }

    /// The user a request acts as, from a live bearer token or a personal access token.
    func user(forAuthorization header: String?) -> (user: String, token: String)? {
        guard let header else { return nil }
        if header.hasPrefix("Bearer ") {
            let token = String(header.dropFirst(7))
            guard let session = sessions[token], session.expiresAt > clock.now else { return nil }
            return (session.user, token)
        }
        if header.hasPrefix("Basic "), let user = options.personalAccessTokens[String(header.dropFirst(6))] {
            return (user, "pat:" + user)
        }
        return nil
    }

    /// A JWT-shaped token: header.claims.random, checked against the session table (not by signature).
    mutating func login(user: String) -> String {
        let issued = clock.now
        func encode(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacing("=", with: "").replacing("+", with: "-").replacing("/", with: "_")
        }
        let random = (0..<48).map { _ in UInt8.random(in: 0...255) }
        let signature = Data(random).base64EncodedString().replacing("=", with: "").replacing("+", with: "-").replacing("/", with: "_")
        let claims = #"{"sub":"\#(user)","repo":"\#(SampleSchema.repo)","exp":\#(issued + options.tokenTTL),"iat":\#(issued),"db":"\#(SampleSchema.database)"}"#
        let token = encode(#"{"alg":"HS512"}"#) + "." + encode(claims) + "." + signature
        sessions[token] = Session(user: user, expiresAt: issued + options.tokenTTL)
        issuedTokens.append(token)
        logins += 1
        return token
    }

    /// As after a restart of the server: every token and result set is forgotten.
    mutating func restart() {
        sessions.removeAll()
        edits.removeAll()
    }

    mutating func logoff(token: String) {
        sessions[token] = nil
        edits = edits.filter { $0.value.token != token }
        logoffs += 1
    }

    /// History entries by colleagues, evenly over the last 30 hours (a busy team, for the history window's cost).
    mutating func addActivity(perHour: Int) {
        let count = 30 * perHour, start = clock.now - 30 * 3_600, numbers = defects.keys.sorted()
        for index in 0..<count {
            let number = numbers[index * 7 % numbers.count]
            let state = defects[number]?.fields["State"] ?? ""
            defects[number]?.history.append(HistoryRow(
                action: "Modify", timestamp: start + index * 3_600 / perHour, user: ["lead", "alice", "admin"][index % 3],
                oldState: state, newState: state))
        }
        for number in numbers { defects[number]?.history.sort { $0.timestamp < $1.timestamp } }
    }

    mutating func newDbId() -> String {
        nextDbId += 1
        return String(nextDbId)
    }
}
