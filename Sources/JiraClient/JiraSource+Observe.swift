import SourceKit
import TrackwatchCore

/// What one poll of Jira read, ready for `ActivityDiff`.
struct JiraRead {
    var observation: ActivityObservation
    /// Per issue, the newest moment its stored state reflects: its log's entries up to then are not news.
    var seenUpTo: (String) -> Timestamp?
    /// A configured project Jira said this account cannot see (left out of this read).
    var unavailable: String?
}

extension JiraSource {
    /// Reads my issues (all of them, or those changed in the last `minutes`), the logs of those whose `updated`
    /// moved, and — on a full read — what became of stored issues the read did not return.
    func observe(
        full: Bool, previous: Snapshot?, me: JiraUser, minutes: Int, windowStart: Timestamp
    ) throws -> JiraRead {
        let mapping = JiraMapping(me: me.id ?? "", url: jira.url)
        var stored: [String: Record] = [:]
        for record in previous?.sortedRecords ?? [] { if let id = record[ActivityDiff.idField] { stored[id] = record } }
        let (issues, unavailable) = try searchMine(full: full, minutes: minutes)
        var items: [ActivityItem] = [], changed: [JiraIssue] = []
        func take(_ issue: JiraIssue, isMine: Bool) {
            guard let item = mapping.item(issue, isMine: isMine) else { return }
            items.append(item)
            let before = stored[item.id]
            if previous != nil, before?[JiraFields.updated] != item.record[JiraFields.updated] || before == nil {
                changed.append(issue)
            }
        }
        for issue in issues { take(issue, isMine: true) }
        var gone = Set<String>()
        if full, previous != nil {
            let missing = Set(stored.keys).subtracting(items.map(\.id))
            let found = try confirm(missing.sorted())
            for issue in found {
                // Updated within the window: the search may simply lag behind it. Asked again next time.
                if let updated = issue.fields?.updated?.timestamp, updated >= windowStart { continue }
                take(issue, isMine: false)
            }
            gone = missing.subtracting(found.map(\.id.value))
            if !gone.isEmpty {
                logger.notice(
                    "Jira issues deleted or no longer visible to you; no longer watched",
                    metadata: ["issues": "\(gone.compactMap { stored[$0]?.id.rawValue }.sorted().joined(separator: ", "))"])
            }
        }
        let events = try logs(of: changed, mapping: mapping)
        return JiraRead(
            observation: ActivityObservation(
                items: items, events: events, gone: gone, logged: Set(changed.map(\.id.value))),
            seenUpTo: { id in stored[id]?[JiraFields.updated].map(Timestamp.init) ?? windowStart },
            unavailable: unavailable)
    }

    /// The search for my issues; a configured project Jira says this account cannot see is left out and named,
    /// and the rest is read.
    private func searchMine(full: Bool, minutes: Int) throws -> ([JiraIssue], String?) {
        var query = JiraQuery(projects: jira.projects, narrowing: jira.jql)
        var unavailable: String?
        while true {
            do {
                let jql = full ? query.full : query.changed(inLast: minutes)
                return (try JiraReader(api: api).search(jql, fields: JiraFields.requested), unavailable)
            } catch JiraError.server(400, let message, _) {
                if let project = query.unavailableProject(in: message) {
                    logger.warning("a configured Jira project is not available", metadata: ["project": "\(project)"])
                    query.projects?.removeAll { $0 == project }
                    unavailable = unavailable ?? project
                    if query.projects?.isEmpty == true { throw JiraError.projectUnavailable(key: project) }
                    continue
                }
                throw jira.jql == nil
                    ? JiraError.server(status: 400, message: message, endpoint: "search")
                    : JiraError.invalidJQL(message: message)
            }
        }
    }

    /// Stored issues a full read did not return, asked for by id: those Jira still shows (they left my issues),
    /// in batches of 100. A batch Jira refuses (an id it no longer knows) is asked issue by issue.
    private func confirm(_ ids: [String]) throws -> [JiraIssue] {
        var found: [JiraIssue] = []
        let reader = JiraReader(api: api)
        for start in stride(from: 0, to: ids.count, by: 100) {
            let batch = Array(ids[start..<min(start + 100, ids.count)])
            do {
                found += try reader.search(JiraQuery.byID(batch), fields: JiraFields.requested)
            } catch JiraError.server(400, _, _) {
                for id in batch.prefix(50) {
                    do {
                        found.append(try api.get(.issue(id: id), [("fields", JiraFields.requested.joined(separator: ","))]))
                    } catch JiraError.server(404, _, _) { continue }
                }
            }
        }
        return found
    }

    /// The changelog entries, comments and creation of `issues`, as events.
    private func logs(of issues: [JiraIssue], mapping: JiraMapping) throws -> [ActivityEvent] {
        guard !issues.isEmpty else { return [] }
        let reader = JiraReader(api: api)
        let histories = try reader.histories(of: issues.map(\.id.value))
        var events: [ActivityEvent] = []
        for issue in issues {
            let id = issue.id.value
            events += (histories[id] ?? []).compactMap { mapping.event($0, issue: id) }
            var comments = issue.fields?.comment?.comments ?? []
            if let total = issue.fields?.comment?.total, total > comments.count {
                comments = try reader.newestComments(id)
            }
            events += comments.compactMap { mapping.event($0, issue: id) }
            if let creation = mapping.creation(issue) { events.append(creation) }
        }
        return events
    }
}
