#if canImport(Glibc)
    import Glibc
#endif
import SimulatorKit

/// Everything the server knows: projects, issues and merge requests, access, switches, clock, faults and stats.
/// Guarded by one lock in `GitLabSimulator`; every method runs with the lock held.
struct GitLabState {
    let options: GitLabSimulatorOptions
    var switches: GitLabSwitches
    /// Milliseconds added to the real clock.
    var clockOffset: Int
    var projects: [Project]
    var items: [Item] = []
    /// Item slots by `"kind projectIndex iid"`.
    var index: [String: Int] = [:]
    /// `"user project"` → the access `POST /sim/access` set (member when absent).
    var access: [String: AccessLevel] = [:]
    var nextNoteID = 300_000_001
    var nextEventID = 400_000_001
    var nextIssueID = 90_000_001
    var faults: [GitLabFault] = []
    var stats = GitLabStats()

    init(options: GitLabSimulatorOptions) {
        self.options = options
        switches = options.switches
        clockOffset = options.clockOffset * 1000
        projects = [("web", "internal"), ("api", "private"), ("ops", "private")].enumerated().map { offset, project in
            Project(id: 11 + offset, path: project.0, visibility: project.1, nextIssueIID: options.issues + 1,
                nextMergeRequestIID: options.mergeRequests + 1)
        }
        Seed.populate(&self)
    }

    /// The server's clock in milliseconds.
    var now: Int {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int(spec.tv_sec) * 1000 + Int(spec.tv_nsec) / 1_000_000 + clockOffset
    }

    static func key(_ kind: ItemKind, project: Int, iid: Int) -> String { "\(kind.sigil)\(project) \(iid)" }

    mutating func insert(_ item: Item) {
        index[Self.key(item.kind, project: item.project, iid: item.iid)] = items.count
        items.append(item)
    }

    func accessLevel(_ user: Int, project: Int) -> AccessLevel { access["\(user) \(project)"] ?? .member }

    /// Whether the user reads the project's issues and merge requests (lists leave out the others).
    func reads(_ user: Int, project: Int) -> Bool { accessLevel(user, project: project) == .member }

    /// A change to an item: bumps `updated_at` unless the lazy-updated-at switch holds it back (a change within
    /// 60 s of the previous one).
    mutating func touch(_ slot: Int, at time: Int) {
        let quick = time - items[slot].lastChange < 60_000
        if !(switches.lazyUpdatedAt && quick) { items[slot].updated = time }
        items[slot].lastChange = time
    }

    /// A note by `author` now (system or not); bumps `updated_at`.
    @discardableResult
    mutating func addNote(_ body: String, on slot: Int, by author: Int, system: Bool) -> Note {
        let time = now
        let note = Note(id: nextNoteID, body: body, author: author, created: time, updated: time, system: system)
        nextNoteID += 1
        items[slot].notes.append(note)
        touch(slot, at: time)
        return note
    }

    /// A resource event by `user` now, or its old-GitLab system note when resource events are switched off.
    mutating func addEvent(_ change: ResourceEvent.Change, on slot: Int, by user: Int) {
        guard !switches.noResourceEvents else {
            addNote(Self.legacyNote(change), on: slot, by: user, system: true)
            return
        }
        let time = now
        items[slot].events.append(ResourceEvent(id: nextEventID, change: change, user: user, created: time))
        nextEventID += 1
        touch(slot, at: time)
    }

    /// What GitLab before resource events wrote as a system note.
    static func legacyNote(_ change: ResourceEvent.Change) -> String {
        switch change {
        case .label(let name, let added): return "\(added ? "added" : "removed") \(labelReference(name)) label"
        case .milestone(let iid, let added):
            return added ? "changed milestone to %\"\(Directory.milestones[iid] ?? "")\"" : "removed milestone"
        case .state(let state): return state
        }
    }

    /// `~bug`, or `~"needs review"` for a name with a space.
    static func labelReference(_ name: String) -> String { name.contains(" ") ? "~\"\(name)\"" : "~" + name }

    /// A deterministic 40-hex-digit commit sha.
    static func sha(_ seed: String) -> String {
        var out = ""
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for round in 0..<3 {
            for byte in (seed + "/\(round)").utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            let hex = String(hash, radix: 16)
            out += String(repeating: "0", count: 16 - hex.count) + hex
        }
        return String(out.prefix(40))
    }
}

/// `GET /sim/stats`: what the API was asked, for benchmarks ("requests per poll") and tests.
struct GitLabStats: Encodable {
    /// API requests (`/sim/` routes are not counted), faulted and refused answers included.
    var requests = 0
    /// By GitLab's route name, e.g. `GET /issues`, `GET /projects/:id/issues/:issue_iid/notes`.
    var requestsByRoute: [String: Int] = [:]
    /// By the username of the authenticated user; requests that fail authentication are not here.
    var requestsByUser: [String: Int] = [:]
    /// 429 answers sent (injected).
    var rateLimited = 0
    /// 401 answers sent.
    var unauthorized = 0
}
