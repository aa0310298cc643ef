/// The JQL trackwatch asks. Only checked values reach it: project keys and issue ids are validated, the minutes
/// are a bounded number, and the user's own `jql` is parenthesised whole.
struct JiraQuery {
    /// `project in (…)`, from `projects`, less those Jira said this account cannot see.
    var projects: [String]?
    /// The user's `jql`.
    var narrowing: String?

    /// Everything mine: assigned to me, reported by me, or watched by me.
    static let mine = "(assignee = currentUser() OR reporter = currentUser() OR watcher = currentUser())"

    /// Every issue of mine (a full read).
    var full: String { "\(Self.mine)\(restriction) ORDER BY key ASC" }

    /// Issues of mine updated in the last `minutes`, and those that stopped being assigned to me then.
    func changed(inLast minutes: Int) -> String {
        let since = "-\(max(1, minutes))m"
        return "(\(Self.mine) OR assignee CHANGED FROM currentUser() AFTER \(since)) AND updated >= \(since)"
            + "\(restriction) ORDER BY updated DESC"
    }

    /// Issues by id (numeric ids only).
    static func byID(_ ids: [String]) -> String {
        "id in (\(ids.filter { $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }.joined(separator: ", "))) ORDER BY id ASC"
    }

    private var restriction: String {
        var parts: [String] = []
        if let projects, !projects.isEmpty { parts.append("project in (\(projects.joined(separator: ", ")))") }
        if let narrowing { parts.append("(\(narrowing))") }
        return parts.map { " AND \($0)" }.joined()
    }

    /// The project a 400 names as not existing for this account (`The value 'X' does not exist for the field
    /// 'project'.`), if it is one of `projects`.
    func unavailableProject(in message: String) -> String? {
        guard let projects, message.contains("for the field 'project'") else { return nil }
        return projects.first { message.contains("'\($0)'") || message.lowercased().contains("'\($0.lowercased())'") }
    }
}
