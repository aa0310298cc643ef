import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Reads issues and their logs, whole or not at all: every page of a search, every page of a changelog. A server
/// that repeats a page, or would need more pages than any real Jira, makes the read fail rather than be diffed
/// incomplete.
struct JiraReader {
    let api: JiraAPI
    /// Issues per search page asked (servers may serve fewer: what came is read back).
    var pageSize = 100
    /// The most issues one read accepts, and the most pages: bounds a hostile server's endless paging.
    static let largestRead = 50_000, mostPages = 1_000
    /// Data Center's search cannot page beyond its result window (10,000 by default).
    static let largestOffset = 10_000

    /// A search page asked of Cloud (`search/jql`: `expand` a text) and of Data Center (`search`: a list).
    private struct CloudSearch: Encodable {
        var jql: String, fields: [String], maxResults: Int, nextPageToken: String?, expand: String?
    }
    private struct OffsetSearch: Encodable {
        var jql: String, fields: [String], maxResults: Int, startAt: Int, expand: [String]?
    }
    private struct BulkRequest: Encodable {
        var issueIdsOrKeys: [String], maxResults: Int, nextPageToken: String?
    }

    /// Every issue `jql` finds, with `fields` (and the changelog when `changelog`), and the number left out as
    /// unreadable (`LossyList`): where there are any, an issue the search did not return may be one of them.
    func search(_ jql: String, fields: [String], changelog: Bool = false) async throws -> LossyList<JiraIssue> {
        try await api.knownFlavour() == .cloud
            ? cloudSearch(jql, fields: fields, changelog: changelog)
            : offsetSearch(jql, fields: fields, changelog: changelog)
    }

    private func cloudSearch(_ jql: String, fields: [String], changelog: Bool) async throws -> LossyList<JiraIssue> {
        var found = LossyList<JiraIssue>(), size = pageSize, refused: String?, token: String?
        var tokens = Set<String>()
        for _ in 0..<Self.mostPages {
            let expand = changelog ? "changelog" : nil
            guard
                let page = try await page(.searchJQL, &size, &refused, {
                    CloudSearch(jql: jql, fields: fields, maxResults: $0, nextPageToken: token, expand: expand)
                })
            else { continue }
            found += page.issues
            guard found.sent <= Self.largestRead else { throw tooMany(.searchJQL) }
            guard let next = page.nextPageToken, !next.isEmpty, page.isLast != true else { return found }
            guard next.utf8.count <= 4_096, tokens.insert(next).inserted else {
                throw JiraError.invalidResponse(
                    endpoint: "search/jql", detail: "a nextPageToken that repeats an earlier one (paging never ends)")
            }
            token = next
        }
        throw tooMany(.searchJQL)
    }

    /// Data Center's paging by offset. Past its result window (`largestOffset`, well under `largestRead`) the read
    /// fails.
    private func offsetSearch(_ jql: String, fields: [String], changelog: Bool) async throws -> LossyList<JiraIssue> {
        var found = LossyList<JiraIssue>(), firstIDs = Set<String>(), size = pageSize, refused: String?
        for _ in 0..<Self.mostPages {
            // Issues left out as unreadable were sent: the next page starts after them.
            let read = found.sent
            let expand = changelog ? ["changelog"] : nil
            guard
                let page = try await page(.search, &size, &refused, {
                    OffsetSearch(jql: jql, fields: fields, maxResults: $0, startAt: read, expand: expand)
                })
            else { continue }
            guard page.issues.sent > 0 else { return found }
            if let first = page.issues.elements.first, !firstIDs.insert(first.id.value).inserted {
                throw JiraError.invalidResponse(
                    endpoint: "search", detail: "the page at \(read) repeats an earlier one (startAt ignored)")
            }
            found += page.issues
            let total = min(max(page.total ?? 0, 0), Self.largestRead + 1)
            if found.sent >= total { return found }
            guard found.sent < Self.largestOffset else {
                throw JiraError.invalidResponse(
                    endpoint: "search",
                    detail: "more than \(Self.largestOffset) issues, beyond what Jira's search pages through; narrow "
                        + "the watch with jql or projects in [[jira]]")
            }
        }
        throw tooMany(.search)
    }

    /// One search page of `size` issues; `nil`, with `size` halved, where it was refused as too dense to decode
    /// (`JSONBudget.tooDense`): issues with many short comments in Atlassian Document Format cost about four times
    /// their size to decode, so a page of 100 such issues can pass what one answer may cost where 50 do not. The
    /// same refusal again (it names the answer's size) is a page that did not shrink: one issue too dense, a failure.
    private func page<Body: Encodable>(
        _ endpoint: JiraEndpoint, _ size: inout Int, _ refused: inout String?, _ body: (Int) -> Body
    ) async throws -> JiraSearchPage? {
        do { return try await api.post(endpoint, body(size)) } catch JiraError.invalidResponse(_, let detail)
            where size > 1 && detail.hasPrefix(JSONBudget.tooDense) && detail != refused
        {
            refused = detail
            size /= 2
            return nil
        }
    }

    private func tooMany(_ endpoint: JiraEndpoint) -> JiraError {
        .invalidResponse(
            endpoint: endpoint.name,
            detail: "more than \(Self.largestRead) issues or \(Self.mostPages) pages; narrow the watch with jql or "
                + "projects in [[jira]]")
    }

    /// An issue's changelog as read: its histories, and how many it sent that could not be read.
    typealias Changelog = LossyList<JiraHistory>

    /// The changelog histories of `issues` (by id), oldest first within each: Cloud's bulk changelog; Data
    /// Center's search with the changelog expanded (each issue's whole changelog read where the answer cut it).
    func histories(of issues: [String]) async throws -> [String: Changelog] {
        guard !issues.isEmpty else { return [:] }
        var logs: [String: Changelog] = [:]
        if try await api.knownFlavour() == .cloud {
            for chunk in issues.chunked(1_000) { try await bulkChangelog(Array(chunk), into: &logs) }
            return logs
        }
        for chunk in issues.chunked(100) {
            for issue in try await search(JiraQuery.byID(Array(chunk)), fields: ["updated"], changelog: true).elements {
                let embedded = issue.changelog?.entries ?? Changelog()
                let cut = (issue.changelog?.total ?? 0) > embedded.sent
                logs[issue.id.value] = await cut ? try wholeChangelog(issue.id.value) : embedded
            }
        }
        return logs
    }

    private func bulkChangelog(_ ids: [String], into logs: inout [String: Changelog]) async throws {
        var token: String?, tokens = Set<String>()
        for _ in 0..<Self.mostPages {
            let page: JiraBulkChangelog = try await api.post(
                .bulkChangelog, BulkRequest(issueIdsOrKeys: ids, maxResults: 1_000, nextPageToken: token))
            for log in page.issueChangeLogs?.elements ?? [] {
                logs[log.issueId.value, default: Changelog()] += log.changeHistories ?? Changelog()
            }
            guard let next = page.nextPageToken, !next.isEmpty else { return }
            guard next.utf8.count <= 4_096, tokens.insert(next).inserted else {
                throw JiraError.invalidResponse(
                    endpoint: "changelog/bulkfetch", detail: "a nextPageToken that repeats an earlier one")
            }
            token = next
        }
        throw tooMany(.bulkChangelog)
    }

    /// One issue's whole changelog: the issue read with its changelog expanded, then, where that is still cut,
    /// the changelog's own pages.
    private func wholeChangelog(_ id: String) async throws -> Changelog {
        let issue: JiraIssue = try await api.get(.issue(id: id), [("fields", "updated"), ("expand", "changelog")])
        let embedded = issue.changelog?.entries ?? Changelog()
        guard let total = issue.changelog?.total, total > embedded.sent else { return embedded }
        // Data Center has no changelog route: what the issue carries is all there is.
        guard try await api.knownFlavour() == .cloud else { return embedded }
        var log = Changelog()
        for _ in 0..<Self.mostPages {
            let page: JiraChangelogPage = try await api.get(
                .issueChangelog(id: id), [("startAt", String(log.sent)), ("maxResults", "100")])
            guard page.entries.sent > 0 else { return log }
            log += page.entries
            if page.isLast == true || log.sent >= min(page.total ?? 0, Self.largestRead) { return log }
        }
        throw tooMany(.issueChangelog(id: id))
    }

    /// The most pages of comments read for one issue: 100 (10,000 comments where Jira serves 100 a page). They are
    /// read newest first, so what this leaves out is an old issue's oldest comments, never a new one.
    static let mostCommentPages = 100

    /// The comments of an issue whose embedded comments were cut, oldest first as embedded comments come: every
    /// page, newest first, up to `total` or `mostCommentPages` pages (one page once dropped all but the newest).
    func newestComments(_ id: String) async throws -> LossyList<JiraComment> {
        var read = LossyList<JiraComment>(), ids = Set<String>(), firstIDs = Set<String>(), offset = 0
        for _ in 0..<Self.mostCommentPages {
            let page: JiraCommentPage = try await api.get(
                .issueComments(id: id), [("orderBy", "-created"), ("maxResults", "100"), ("startAt", String(offset))])
            let entries = page.comments ?? LossyList()
            guard entries.sent > 0 else { break }
            if let first = entries.elements.first, !firstIDs.insert(first.id.value).inserted {
                throw JiraError.invalidResponse(
                    endpoint: JiraEndpoint.issueComments(id: id).name,
                    detail: "the page of comments at \(offset) repeats an earlier one (startAt ignored)")
            }
            offset += entries.sent
            read.skipped += entries.skipped
            // A comment added while the pages are read shifts them by one: the one at the boundary comes twice.
            read.elements += entries.elements.filter { ids.insert($0.id.value).inserted }
            if offset >= min(max(page.total ?? 0, 0), Self.largestRead) { break }
        }
        read.elements.reverse()
        return read
    }
}

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
        let projects = projects.flatMap { $0.isEmpty ? nil : " AND project in (\($0.joined(separator: ", ")))" }
        return (projects ?? "") + (narrowing.map { " AND (\($0))" } ?? "")
    }

    /// The project a 400 names as not existing for this account (`The value 'X' does not exist for the field
    /// 'project'.`), if it is one of `projects`.
    func unavailableProject(in message: String) -> String? {
        guard let projects, message.contains("for the field 'project'") else { return nil }
        return projects.first { message.contains("'\($0)'") || message.lowercased().contains("'\($0.lowercased())'") }
    }
}
