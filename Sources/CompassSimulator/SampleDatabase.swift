/// The SAMPL database compass-sim serves: Defect records with their history, users, and the state model.
/// Pure data and rules; `SimulatorState` guards it with a lock.

public struct HistoryRow: Sendable {
    public var action: String
    /// The instant, seconds since 1970 (UTC); stored and printed as `HistoryClock` says.
    public var timestamp: Int
    public var user: String
    public var oldState: String
    public var newState: String
}

public struct Defect: Sendable {
    public var number: Int
    public var fields: [String: String]
    public var history: [HistoryRow]

    public var id: String { Defect.id(number) }
    public var dbid: String { String(Defect.dbidBase + number) }
    public static let dbidBase = 33_554_432

    public static func id(_ number: Int) -> String {
        let digits = String(number)
        return "SAMPL" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}

/// A Compass action: which states it applies in and where it leads (`nil`: the state stays).
public struct ActionDefinition: Sendable {
    public let name: String
    public let type: String
    public let sources: [String]?  // nil: any state
    public let destination: String?
}

public enum SampleSchema {
    public static let repo = "2.0.0"
    public static let database = "SAMPL"
    public static let users: [(login: String, password: String, fullName: String)] = [
        ("admin", "", "Administrator"), ("lead", "lead", "Team Lead"), ("engineer", "engineer", "Eve Engineer"),
        ("alice", "alice", "Alice Example"),
    ]
    public static let states = ["Submitted", "Assigned", "Opened", "Resolved", "Closed", "Duplicate", "Postponed"]
    public static let priorities = ["1-Resolve Immediately", "2-Give High Attention", "3-Normal Queue", "4-Low Priority"]
    public static let severities = ["1-Critical", "2-Major", "3-Average", "4-Minor", "5-Enhancement"]
    public static let fieldNames = ["Description", "Headline", "Keywords", "Note_Entry", "Notes_Log", "Owner", "Priority",
                                    "Project", "Resolution", "Severity", "State", "Submit_Date", "Submitter", "dbid", "id"]

    public static let actions: [ActionDefinition] = [
        ActionDefinition(name: "Submit", type: "_SUBMIT", sources: [], destination: "Submitted"),
        ActionDefinition(name: "Assign", type: "_CHANGE_STATE", sources: ["Submitted", "Postponed"], destination: "Assigned"),
        ActionDefinition(name: "Open", type: "_CHANGE_STATE", sources: ["Assigned"], destination: "Opened"),
        ActionDefinition(name: "Resolve", type: "_CHANGE_STATE", sources: ["Opened"], destination: "Resolved"),
        ActionDefinition(name: "Validate", type: "_CHANGE_STATE", sources: ["Resolved"], destination: "Closed"),
        ActionDefinition(name: "Close", type: "_CHANGE_STATE", sources: ["Resolved"], destination: "Closed"),
        ActionDefinition(name: "Re_open", type: "_CHANGE_STATE", sources: ["Resolved", "Closed"], destination: "Opened"),
        ActionDefinition(name: "Postpone", type: "_CHANGE_STATE", sources: ["Submitted", "Assigned", "Opened"], destination: "Postponed"),
        ActionDefinition(name: "Duplicate", type: "_DUPLICATE", sources: ["Submitted", "Assigned", "Opened", "Resolved", "Postponed"], destination: "Duplicate"),
        ActionDefinition(name: "Unduplicate", type: "_UNDUPLICATE", sources: ["Duplicate"], destination: "Opened"),
        ActionDefinition(name: "Modify", type: "_MODIFY", sources: nil, destination: nil),
        ActionDefinition(name: "Delete", type: "_DELETE", sources: nil, destination: nil),
    ]

    public static func action(named name: String) -> ActionDefinition? {
        actions.first { $0.name.lowercased() == name.lowercased() }
    }

    static let headlines = [
        "Crash on save & exit <b>now</b>", "<b>Bold</b> tag shown raw in title", "\"Save as\" dialog forgets folder",
        "Ünïcödé path — 日本語 fails", "Login times out after 30 s", "Report totals off by one", "Search ignores accents",
        "Memory grows while idle", "Export to CSV drops quotes", "Dark mode contrast too low", "Printing cuts last line",
        "Sync stalls on large files", "Undo after paste loses text", "Tooltip covers the button", "Slow start with many tabs",
    ]

    /// Seeds `count` defects. Owner and state follow fixed rules (tests rely on them); headlines, priority and
    /// severity vary with `seed`.
    ///  - State = [Opened, Assigned, Submitted, Resolved, Closed][((n-1)/4) % 5]
    ///  - Owner = [engineer, alice, lead, admin][(n-1) % 4], "" for Submitted records
    ///  - Submitter = [admin, lead, alice][(n-1) % 3]
    /// With `everyOwner`, every record belongs to that user and none is Submitted (for benchmarks that need N
    /// records assigned to one user).
    public static func seed(count: Int, seed: UInt64, now: Int, everyOwner: String? = nil) -> [Defect] {
        var random = SplitMix64(seed: seed)
        let owners = ["engineer", "alice", "lead", "admin"], submitters = ["admin", "lead", "alice"]
        let seededStates = ["Opened", "Assigned", "Submitted", "Resolved", "Closed"]
        return (1...max(1, count)).map { n in
            var state = seededStates[((n - 1) / 4) % 5]
            if everyOwner != nil, state == "Submitted" { state = "Opened" }
            let owner = everyOwner ?? (state == "Submitted" ? "" : owners[(n - 1) % 4])
            let submitter = submitters[(n - 1) % 3]
            let headline = n <= 4 ? headlines[n - 1] : headlines[4 + Int(random.next() % UInt64(headlines.count - 4))] + " (\(n))"
            // History in the past: a few days back, a minute between records, ten between steps. A large database
            // starts further back, so that its last record's history still ends a day ago: never in the future,
            // which a client (rightly) reads on every poll as a broken clock.
            var time = now - 3 * 86_400 - max(0, count * 60 - 2 * 86_400) + n * 60
            func step(_ action: String, _ user: String, _ from: String, _ to: String) -> HistoryRow {
                time += 600
                return HistoryRow(action: action, timestamp: time, user: user, oldState: from, newState: to)
            }
            var history = [step("Submit", submitter, "", "Submitted")]
            let path: [(String, String, String)] = [("Assign", "lead", "Assigned"), ("Open", owner, "Opened"),
                                                    ("Resolve", owner, "Resolved"), ("Close", "lead", "Closed")]
            let target = ["Submitted": 0, "Assigned": 1, "Opened": 2, "Resolved": 3, "Closed": 4][state] ?? 0
            var current = "Submitted"
            for (action, user, next) in path.prefix(target) {
                history.append(step(action, user, current, next))
                current = next
            }
            return Defect(number: n, fields: [
                "Headline": headline, "Description": "Steps to reproduce \(n).", "State": state, "Owner": owner,
                "Submitter": submitter, "Submit_Date": SimClock.format(history[0].timestamp),
                "Priority": priorities[Int(random.next() % UInt64(priorities.count))],
                "Severity": severities[Int(random.next() % UInt64(severities.count))],
                "Project": "Sample", "Resolution": "", "Keywords": "", "Note_Entry": "", "Notes_Log": "",
            ], history: history)
        }
    }
}

/// A small deterministic generator, so that `--seed` reproduces the same data.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
