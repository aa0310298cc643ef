/// An issue of the GitHub, GitLab and Jira recipe servers, before each renders it in its own shape.
struct TrackerIssue: Sendable {
    var number: Int
    var title: String
    var open: Bool
    /// A login of `Tracker.people`, or nil.
    var assignee: String?
    var author: String
    var labels: [String]
    var created: Int
    var updated: Int
    var comments: Int
    /// GitHub lists pull requests among issues, with a `pull_request` key.
    var pullRequest = false
}

/// The recipe servers.
public enum Tracker: String, CaseIterable, Sendable {
    case github, gitlab, jira

    /// Whom each recipe's credentials authenticate: every tracker's "me".
    public static let me = "dana"

    static let people: [String: (name: String, id: Int)] = [
        "dana": ("Dana Scully", 1), "lee": ("Lee Adama", 2), "sam": ("Sam Carter", 3),
    ]
}

/// The credentials each recipe server accepts, for `Tracker.me`.
public enum TrackerCredentials {
    /// `Authorization: Bearer …` or `Authorization: token …`.
    public static let githubToken = "ghp_jsonsimDana0000000000000000000000000"
    /// `PRIVATE-TOKEN: …`, `Authorization: Bearer …` or `?private_token=…`.
    public static let gitlabToken = "glpat-jsonsim-dana-0000"
    /// HTTP Basic, as Jira Cloud takes an e-mail address and an API token.
    public static let jiraUser = "dana@example.com"
    public static let jiraAPIToken = "jira-api-token-dana"
    /// `Authorization: Bearer …`, a Jira Data Center personal access token.
    public static let jiraPAT = "jira-pat-dana"
}

enum IssueFixtures {
    /// Ten issues; 1, 2, 4, 5, 7, 8 and 10 are assigned to dana (8 is closed, 5 is a pull request on GitHub),
    /// 3 and 9 to nobody, 6 to lee. dana wrote 2, 6 and 9.
    static func seed(now: Int) -> [TrackerIssue] {
        let rows: [(String, Bool, String?, String, [String])] = [
            ("Crash when the list is empty", true, "dana", "lee", ["bug"]),
            ("Document the paging options", true, "dana", "dana", ["docs"]),
            ("Flaky test: poll after restart", true, nil, "sam", ["bug", "ci"]),
            ("Support “smart” quotes & <tags> in titles", true, "dana", "lee", ["bug"]),
            ("Add the JSON source", true, "dana", "sam", ["feature"]),
            ("Rate limits on the search API", true, "lee", "dana", []),
            ("Ünïcödé in user names", true, "dana", "sam", ["i18n"]),
            ("Old crash on start", false, "dana", "lee", ["bug"]),
            ("Triage the backlog", true, nil, "dana", []),
            ("Faster diff for 10,000 items", true, "dana", "lee", ["performance"]),
        ]
        let start = now - 40 * 86_400
        return rows.enumerated().map { index, row in
            TrackerIssue(
                number: index + 1, title: row.0, open: row.1, assignee: row.2, author: row.3, labels: row.4,
                created: start + index * 86_400, updated: start + index * 86_400 + 3_600,
                comments: index % 3, pullRequest: index == 4)
        }
    }
}
