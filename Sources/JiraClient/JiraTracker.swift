import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Jira on the shared `ActivityPoller`: my issues (assigned to me, reported by me, watched by me) and, for those that
/// changed, their changelog and comments.
///
/// A steady poll is one search: issues of mine updated since the last poll (with `[poll] overlap` for clocks and
/// Jira Cloud's eventually consistent search), and those that stopped being assigned to me meanwhile. Only issues
/// that moved have their logs read (Cloud: one bulk changelog; Data Center: one search with the changelog). A full
/// read asks for the stored issues it did not return by id, which finds those deleted or no longer visible.
final class JiraTracker: ActivityTracker {
    static let watch = "issues"
    /// The memory key of the flavour the last full read found: a steady poll (even `check`'s, in a fresh process)
    /// then asks Jira one question.
    static let flavourKey = "jira_flavour"

    let jira: JiraSettings
    let api: JiraAPI

    init(settings: JiraSettings, api: JiraAPI) {
        jira = settings
        self.api = api
    }

    /// Asked by id in batches of 100: a full read confirms every stored issue it did not return.
    var mostLookups: Int { 5_000 }

    func identify(_ memory: inout TrackerMemory) async throws -> ActivityIdentity {
        let flavour = try await api.knownFlavour()
        memory.set(Self.flavourKey, flavour.rawValue)
        let me: JiraUser = try await api.get(.myself)
        guard let id = me.id else {
            throw JiraError.invalidResponse(endpoint: "myself", detail: "no accountId or key for the signed-in user")
        }
        return ActivityIdentity(id: id, login: me.name ?? "", name: me.displayName ?? "")
    }

    func rules(me: ActivityIdentity) -> ActivityRules {
        ActivityRules(
            me: me.id, ignoreApps: jira.ignoreApps, ignoredPeople: jira.ignoreUsers, comparedFields: JiraFields.compared,
            assignmentFields: [JiraFields.assignee])
    }

    let watching = "Jira issues assigned to you, and those you reported or watch"

    func unavailable(_ parts: [String]) -> (any SourceFailure)? {
        JiraError.refused(.projectUnavailable(key: parts.joined(separator: ", ")))
    }

    func readLists(_ poll: ActivityPoll, memory: inout TrackerMemory) async throws -> ActivityLists<JiraIssue> {
        if api.flavour == nil { api.flavour = try memory.value(Self.flavourKey).flatMap(JiraFlavour.init) }
        var query = JiraQuery(projects: jira.projects?.filter { !poll.unreadable.contains($0) }, narrowing: jira.jql)
        if query.projects?.isEmpty == true, let first = jira.projects?.first {
            throw JiraError.refused(.projectUnavailable(key: first))
        }
        var lists = ActivityLists<JiraIssue>()
        while true {
            do {
                let jql = poll.window.full ? query.full : query.changed(inLast: poll.window.minutes)
                let issues = try await JiraReader(api: api).search(jql, fields: JiraFields.requested).elements
                lists.mine.merge(issues.map { ($0.id.value, $0) }) { $1 }
                return lists
            } catch JiraError.server(400, let message, _) {
                // Jira answers 400 for a project this account cannot see: named and left out, the rest is read.
                guard let project = query.unavailableProject(in: message) else {
                    throw jira.jql == nil
                        ? JiraError.server(status: 400, message: message, endpoint: "search")
                        : JiraError.refused(.invalidJQL(message: message))
                }
                query.projects?.removeAll { $0 == project }
                lists.unreadable.insert(project)
                if query.projects?.isEmpty == true { throw JiraError.refused(.projectUnavailable(key: project)) }
            }
        }
    }

    /// Stored issues a full read did not return, asked for by id in batches of 100: those Jira still shows left my
    /// issues. A batch Jira refuses (an id it no longer knows) is halved until the refused ids are found, each asked
    /// alone: one deleted issue never costs the others their answer.
    func lookUp(
        _ ids: [String], _ poll: ActivityPoll, lists: inout ActivityLists<JiraIssue>
    ) async throws -> [String: ItemLookup<JiraIssue>] {
        var answers: [String: ItemLookup<JiraIssue>] = [:]
        for batch in ids.chunked(100) { try await confirm(Array(batch), into: &answers, poll) }
        return answers
    }

    private func confirm(_ batch: [String], into answers: inout [String: ItemLookup<JiraIssue>], _ poll: ActivityPoll) async throws {
        let found: LossyList<JiraIssue>
        do {
            if batch.count == 1 {
                let one: LossyItem<JiraIssue> = try await api.get(
                    .issue(id: batch[0]), [("fields", JiraFields.requested.joined(separator: ","))])
                found = LossyList(elements: one.value.map { [$0] } ?? [], skipped: one.value == nil ? 1 : 0)
            } else {
                found = try await JiraReader(api: api).search(JiraQuery.byID(batch), fields: JiraFields.requested)
            }
        } catch JiraError.server(let status, _, _) where batch.count == 1 && (status == 404 || status == 400) {
            answers[batch[0]] = .gone(status: status)
            return
        } catch JiraError.server(400, _, _) {
            let half = batch.count / 2
            try await confirm(Array(batch[..<half]), into: &answers, poll)
            try await confirm(Array(batch[half...]), into: &answers, poll)
            return
        }
        let returned = Dictionary(found.elements.map { ($0.id.value, $0) }, uniquingKeysWith: { first, _ in first })
        for id in batch {
            guard let issue = returned[id] else {
                // An issue the answer held but that could not be read may be any of those it did not return: none
                // of them is taken for gone.
                if found.skipped == 0 { answers[id] = .gone(status: 404) }
                continue
            }
            // Updated within the window: the search may simply lag behind it. Asked again next time.
            if let updated = issue.fields?.updated?.timestamp, updated >= poll.window.since { continue }
            answers[id] = .found(issue, isMine: isMine(issue, me: poll.me.id))
        }
    }

    /// Whether an issue the search did not return is still mine by its own fields: a Data Center search paged by
    /// offset skips the issue at a page's edge when another leaves the set meanwhile, and such an issue stays watched.
    private func isMine(_ issue: JiraIssue, me: String) -> Bool {
        let fields = issue.fields
        if let projects = jira.projects, let key = fields?.project?.key, !projects.contains(key.uppercased()) { return false }
        return fields?.assignee?.id == me || fields?.reporter?.id == me || fields?.watches?.isWatching == true
    }

    func item(_ issue: JiraIssue, id: String, isMine: Bool, reviewRequested: Bool, _ poll: ActivityPoll) -> ActivityItem? {
        JiraMapping(me: poll.me.id, url: jira.url).item(issue, isMine: isMine)
    }

    /// The changelog entries, comments and creation of the issues that moved, as events.
    func logs(of changed: [(item: ActivityItem, source: JiraIssue)], _ poll: ActivityPoll) async throws -> [String: ItemLog] {
        let mapping = JiraMapping(me: poll.me.id, url: jira.url)
        let reader = JiraReader(api: api)
        let histories = try await reader.histories(of: changed.map(\.source.id.value))
        var logs: [String: ItemLog] = [:]
        for (item, issue) in changed {
            let id = issue.id.value
            let changelog = histories[id] ?? JiraReader.Changelog()
            var events = changelog.elements.compactMap { mapping.event($0, issue: id) }
            var comments = issue.fields?.comment?.comments ?? LossyList()
            if let total = issue.fields?.comment?.total, total > comments.sent {
                comments = try await reader.newestComments(id)
            }
            events += comments.elements.compactMap { mapping.event($0, issue: id) }
            if let creation = mapping.creation(issue) { events.append(creation) }
            // Histories, their changed fields and comments that could not be read: the rest is told, and what none
            // names too (`ItemLog.skipped`).
            let unread = changelog.skipped + changelog.elements.reduce(0) { $0 + ($1.items?.skipped ?? 0) }
            logs[item.id] = ItemLog(events: events, skipped: unread + comments.skipped)
        }
        return logs
    }
}
