#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import SimulatorKit

/// `GET /search/issues`: GitHub's issue search syntax, the qualifiers docs/github-sim.md lists.
extension GitHubState {
    mutating func searchIssues(_ call: Call, _ view: View) throws -> Answer {
        guard let q = call.query("q"), !q.trimmed.isEmpty else {
            throw GitHubError.invalid("Search", "q", code: "missing")
        }
        let terms = try SearchTerms.parse(q).map { try resolve($0, view) }
        // Several `repo:` qualifiers name any of those repositories (GitHub ORs them); every other term must hold.
        let repoTerms = terms.filter { $0.key == "repo" && !$0.negated }
        let others = terms.filter { !($0.key == "repo" && !$0.negated) }
        var found = issues.indices.filter { slot in
            isLive(slot) && canRead(view.token, repo: issues[slot].repo)
                && (repoTerms.isEmpty || repoTerms.contains { matches(issues[slot], $0, view) })
                && others.allSatisfy { $0.negated != matches(issues[slot], $0, view) }
        }
        if switches.incompleteSearch { found.removeAll { issues[$0].number % 5 == 0 } }
        try sortFound(&found, call)
        if call.page > 1, (call.page - 1) * call.perPage >= switches.searchCap {
            throw GitHubError(422, "Only the first \(switches.searchCap) search results are available",
                documentation: "https://docs.github.com/v3/search/")
        }
        return page(found, call, view)
    }

    private func page(_ found: [Int], _ call: Call, _ view: View) -> Answer {
        let window = Paging.window(count: found.count, call, view, reachable: switches.searchCap)
        let items = found[window.range].map { view.issue(issues[$0]).with("score", .number("1.0")) }
        var answer = Answer([
            "total_count": .int(found.count), "incomplete_results": .bool(switches.incompleteSearch),
            "items": .array(items),
        ])
        if let link = window.link { answer.headers.append(link) }
        return answer
    }

    private func sortFound(_ found: inout [Int], _ call: Call) throws {
        let sort = call.query("sort") ?? "created"
        guard ["created", "updated", "comments", "best-match"].contains(sort) else {
            throw GitHubError.invalid("Search", "sort")
        }
        let ascending = call.query("order") == "asc"
        found.sort { a, b in
            let (x, y) = (issues[a], issues[b])
            let (p, q) = sort == "updated" ? (x.updated, y.updated) : sort == "comments" ? (x.comments, y.comments)
                : (x.created, y.created)
            if p != q { return ascending ? p < q : p > q }
            return ascending ? x.id < y.id : x.id > y.id
        }
    }

    /// A term with `@me` and logins read as accounts, and `repo:` checked against what the token reads.
    private func resolve(_ term: SearchTerms.Term, _ view: View) throws -> SearchTerms.Term {
        var term = term
        if term.value.lowercased() == "@me" { term.account = view.me }
        if term.account == nil { term.account = Directory.account(login: term.value) }
        if term.key == "repo" {
            guard let repo = repos.firstIndex(where: { $0.fullName.lowercased() == term.value.lowercased() }),
                canRead(view.token, repo: repo)
            else {
                throw GitHubError.invalid(
                    "Search", "q", code: "invalid",
                    message: "The listed users and repositories cannot be searched either because the resources "
                        + "do not exist or you do not have permission to view them.")
            }
            term.account = repo
        }
        return term
    }

    private func matches(_ issue: Issue, _ term: SearchTerms.Term, _ view: View) -> Bool {
        let who = term.account ?? -1
        switch term.key {
        case "is", "type", "state":
            switch term.value.lowercased() {
            case "open": return issue.isOpen
            case "closed": return !issue.isOpen
            case "pr", "pull-request": return issue.isPull
            case "issue": return !issue.isPull
            case "merged": return issue.merged != nil
            case "unmerged": return issue.isPull && issue.merged == nil
            case "draft": return issue.draft
            default: return false
            }
        case "repo": return issue.repo == who
        case "org", "user", "owner": return repos[issue.repo].owner.lowercased() == term.value.lowercased()
        case "author": return issue.author == who
        case "assignee": return issue.assignees.contains(who)
        case "mentions": return issue.mentions.contains(who)
        case "commenter": return issue.commenters.contains(who)
        case "involves":
            return issue.author == who || issue.assignees.contains(who) || issue.mentions.contains(who)
                || issue.commenters.contains(who)
        case "review-requested": return reviewRequested(issue, who, viaTeams: true)
        case "user-review-requested": return reviewRequested(issue, who, viaTeams: false)
        case "reviewed-by": return issue.reviewedBy.contains(who)
        case "label": return issue.labels.contains { $0.lowercased() == term.value.lowercased() }
        case "no":
            switch term.value {
            case "assignee": return issue.assignees.isEmpty
            case "label": return issue.labels.isEmpty
            case "milestone": return issue.milestone == nil
            default: return false
            }
        case "updated", "created", "closed":
            let time = term.key == "updated" ? issue.updated : term.key == "created" ? issue.created : issue.closed
            return time.map { SearchTerms.compare($0, term.value) } ?? false
        case "in", "archived", "sort": return true
        default:
            let text = (term.key.isEmpty ? "" : term.key + ":") + term.value
            let lower = text.lowercased()
            return issue.title.lowercased().contains(lower) || issue.body.lowercased().contains(lower)
        }
    }

    /// Open pull requests requesting `who` (directly, or through a team `who` is in when `viaTeams`) that `who` has
    /// not reviewed since.
    private func reviewRequested(_ issue: Issue, _ who: Int, viaTeams: Bool) -> Bool {
        guard issue.isPull, !issue.reviewedBy.contains(who) else { return false }
        return issue.requested.contains { reviewer in
            switch reviewer {
            case .user(let user): user == who
            case .team(let team): viaTeams && Directory.teams[team].members.contains(who)
            }
        }
    }
}
