import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Reads lists, searches, issues and timelines whole or not at all. A server that links pages without end makes the
/// read fail rather than be diffed incomplete.
struct GitHubReader {
    let api: GitHubAPI
    static let mostPages = 100, mostTimelinePages = 30

    /// A list of `/issues`: `notModified` when its first page answered 304 to `etag` (nothing in it moved).
    struct ListRead {
        var issues: [GitHubIssue] = []
        var etag: String?
        var notModified = false
        /// Where a read with `since` stopped: the oldest update it saw (`nil`: the list was read to its end).
        var coveredSince: Timestamp?
    }

    /// `/issues?filter=…`, newest update first: every page, or (with `since`) pages until the updates are older.
    func list(filter: String, state: String, since: Timestamp?, etag: String?) throws -> ListRead {
        let endpoint = GitHubEndpoint.issues(filter: filter)
        let query = [
            ("filter", filter), ("state", state), ("sort", "updated"), ("direction", "desc"), ("per_page", "100"),
        ]
        let first = try api.get(endpoint, query, etag: etag)
        var read = ListRead(etag: first.etag, notModified: first.notModified)
        if first.notModified { return read }
        let whole = try follow(endpoint, from: first, most: Self.mostPages) { answer in
            let page = try api.decodeList(GitHubIssue.self, answer, endpoint)
            read.issues += page
            guard let since, let oldest = page.last.flatMap({ ServerTime.parse($0.updated_at) }), oldest < since,
                GitHubAPI.nextPage(answer.response) != nil
            else { return true }
            read.coveredSince = oldest
            return false
        }
        guard whole else {
            throw GitHubError.invalidResponse(endpoint: endpoint.name, detail: "more than \(Self.mostPages) pages")
        }
        return read
    }

    /// Every item a search finds; `complete` is false where GitHub said its results are incomplete, or capped them.
    func search(_ query: String) throws -> (items: [GitHubIssue], complete: Bool) {
        let endpoint = GitHubEndpoint.searchIssues
        var items: [GitHubIssue] = [], complete = true
        // Search reaches 1,000 results at most: 10 pages.
        let whole = try follow(endpoint, from: try api.get(endpoint, [("q", query), ("per_page", "100")]), most: 10) {
            let page = try api.decode(GitHubSearchPage.self, $0, endpoint)
            items += page.items.elements
            let last = GitHubAPI.nextPage($0.response) == nil
            if page.incomplete_results == true || (last && (page.total_count ?? 0) > items.count) { complete = false }
            return true
        }
        return (items, complete && whole)
    }

    /// Open pull requests whose review is requested from me, directly or through a team; in any of `repos` if
    /// configured (GitHub ORs `repo:`). GitHub refuses the whole search (422) when one `repo:` of it cannot be read:
    /// the repositories are then asked one by one, those refused are named in `refused`, and the search is asked
    /// again for the rest.
    func reviewRequests(repos: [String]?) throws -> (items: [GitHubIssue], complete: Bool, refused: [String]) {
        func find(_ repos: [String]) throws -> (items: [GitHubIssue], complete: Bool, refused: [String]) {
            let found = try search("is:open is:pr review-requested:@me" + repos.map { " repo:\($0)" }.joined())
            return (found.items, found.complete, [])
        }
        guard let repos else { return try find([]) }
        if repos.isEmpty { return ([], true, []) }
        do {
            return try find(repos)
        } catch GitHubError.server(422, let message, let endpoint) {
            let refused = try repos.filter { try !canRead(repository: $0) }
            guard !refused.isEmpty else { throw GitHubError.server(status: 422, message: message, endpoint: endpoint) }
            let rest = repos.filter { !refused.contains($0) }
            var found: (items: [GitHubIssue], complete: Bool, refused: [String]) =
                try rest.isEmpty ? ([], true, []) : find(rest)
            found.refused = refused
            return found
        }
    }

    /// Whether this token can read `repo` (`owner/name`): 404 and 403 say it cannot.
    func canRead(repository repo: String) throws -> Bool {
        do {
            _ = try api.get(.repository(repo))
            return true
        } catch GitHubError.server(let status, _, _) where status == 404 || status == 410 {
            return false
        } catch GitHubError.refused(.missingScope) {
            return false
        }
    }

    enum Lookup {
        case found(GitHubIssue)
        /// Transferred (301): the issue where it lives now.
        case moved(GitHubIssue)
        /// Deleted (410), or no longer readable with this token (404).
        case gone(status: Int)
        /// Its repository refuses this token (403).
        case unreadable
        /// An answer that is the item, but one that cannot be read (an unusable number): kept as stored.
        case unusable
    }

    /// One issue or pull request, following a transfer (301 to the same server).
    func issue(_ reference: GitHubReference) throws -> Lookup {
        let endpoint = GitHubEndpoint.issue(reference)
        do {
            let answer = try api.get(endpoint)
            if answer.response.status == 301, let location = answer.response.header("Location") {
                let moved = try api.decode(LossyItem<GitHubIssue>.self, try api.get(endpoint, url: location), endpoint)
                return moved.value.map { .moved($0) } ?? .unusable
            }
            return try api.decode(LossyItem<GitHubIssue>.self, answer, endpoint).value.map { .found($0) } ?? .unusable
        } catch GitHubError.server(let status, _, _) where status == 404 || status == 410 {
            return .gone(status: status)
        } catch GitHubError.refused(.missingScope) {
            // SSO enforced, or a fine-grained token narrowed: the repository is unreadable, the item not gone.
            return .unreadable
        }
    }

    /// The timeline of an issue or pull request, oldest first: whole, or — for an item too busy to read whole — its
    /// newest `mostTimelinePages` pages, read back from the last (`complete` false).
    func timeline(_ reference: GitHubReference) throws -> (items: [GitHubTimelineItem], complete: Bool) {
        let endpoint = GitHubEndpoint.timeline(reference)
        var answer = try api.get(endpoint, [("per_page", "100")])
        if let last = LinkHeader.target("last", in: answer.response), let pages = Self.page(of: last),
            pages > Self.mostTimelinePages
        {
            var pages: [[GitHubTimelineItem]] = [], seen = Set<String>()
            answer = try api.get(endpoint, url: last)
            while true {
                pages.append(try api.decodeList(GitHubTimelineItem.self, answer, endpoint))
                guard pages.count < Self.mostTimelinePages,
                    let previous = LinkHeader.target("prev", in: answer.response), seen.insert(previous).inserted
                else { break }
                answer = try api.get(endpoint, url: previous)
            }
            return (pages.reversed().flatMap { $0 }, false)
        }
        var items: [GitHubTimelineItem] = []
        let whole = try follow(endpoint, from: answer, most: Self.mostTimelinePages) {
            items += try api.decodeList(GitHubTimelineItem.self, $0, endpoint)
            return true
        }
        return (items, whole)
    }

    /// Pages from `first` on by `rel="next"`, each given to `read` (`false`: stop there), at most `most`: `false`
    /// where more were left. A next page that repeats an earlier one fails the read rather than loop.
    private func follow(
        _ endpoint: GitHubEndpoint, from first: GitHubAnswer, most: Int, _ read: (GitHubAnswer) throws -> Bool
    ) throws -> Bool {
        var answer = first, seen = Set<String>()
        for _ in 0..<most {
            guard try read(answer), let next = GitHubAPI.nextPage(answer.response) else { return true }
            guard seen.insert(next).inserted else {
                throw GitHubError.invalidResponse(endpoint: endpoint.name, detail: "a next page that repeats an earlier one")
            }
            answer = try api.get(endpoint, url: next)
        }
        return false
    }

    /// The `page` query parameter of a link (`…&page=42`), if it is a number.
    static func page(of link: String) -> Int? {
        guard let query = link.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        for pair in query.split(separator: "&") where pair.hasPrefix("page=") {
            return Int(pair.dropFirst(5).prefix(9))
        }
        return nil
    }
}
