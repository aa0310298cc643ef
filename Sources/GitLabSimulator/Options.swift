/// Options of `gitlab-sim serve` fixed at start: the size of the seed, the clock, TLS.
public struct GitLabSimulatorOptions: Sendable {
    /// Issues seeded per project.
    public var issues = 12
    /// Merge requests seeded per project.
    public var mergeRequests = 12
    /// Seconds added to the server clock.
    public var clockOffset = 0
    /// Whether the server speaks HTTPS (the scheme of the URLs it writes).
    public var https = false
    public var switches = GitLabSwitches()

    public init() {}
}

/// The server variants of issue 26. Set at start by `serve`'s flags, changed at run time by `POST /sim/switches`
/// (a JSON object with any of these keys), so that a test can change the server between two polls.
public struct GitLabSwitches: Codable, Sendable, Equatable {
    /// A change within 60 s of the previous change of the same item leaves `updated_at` alone (python-gitlab #743).
    public var lazyUpdatedAt = false
    /// Every page of a list answers the first page's items (headers as usual): the known paging bug.
    public var repeatPages = false
    /// An old GitLab: `reviewer_id`/`reviewer_username` ignored (answers unfiltered), no `reviewers` member,
    /// `reviewer_ids` ignored on writes.
    public var noReviewers = false
    /// An old GitLab: the `resource_*_events` routes answer 404, and labels, milestones and state changes are
    /// system notes instead.
    public var noResourceEvents = false
    /// Above this many items a list omits `X-Total`, `X-Total-Pages` and `rel="last"` (GitLab: 10,000).
    public var totalCap = 10_000

    public init() {}

    /// Applies the keys present in a `POST /sim/switches` body; the others keep their values.
    mutating func apply(_ patch: Patch) {
        lazyUpdatedAt = patch.lazyUpdatedAt ?? lazyUpdatedAt
        repeatPages = patch.repeatPages ?? repeatPages
        noReviewers = patch.noReviewers ?? noReviewers
        noResourceEvents = patch.noResourceEvents ?? noResourceEvents
        totalCap = patch.totalCap ?? totalCap
    }

    /// The same keys, each optional.
    struct Patch: Decodable {
        var lazyUpdatedAt: Bool?
        var repeatPages: Bool?
        var noReviewers: Bool?
        var noResourceEvents: Bool?
        var totalCap: Int?
    }

    /// A sentence naming what is wrong, or nil.
    public var problem: String? {
        totalCap < 0 ? "totalCap (--total-cap) must be ≥ 0" : nil
    }
}
