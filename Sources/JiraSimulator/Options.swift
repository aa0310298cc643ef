/// Options of `jira-sim serve` fixed at start: flavour, context path, projects, size.
public struct JiraSimulatorOptions: Sendable {
    public enum Flavor: String, Codable, Sendable, CaseIterable {
        /// Jira Cloud: accountIds, `search/jql`, bulk changelog, `/rest/api/2` and `/3`.
        case cloud
        /// Jira Data Center: names and keys, `/rest/api/2/search` with `startAt`/`total`, PATs.
        case dc
    }

    public var flavor = Flavor.cloud
    /// Where Jira lives on its host (`/jira`); Data Center only, Cloud sites live at the root.
    public var contextPath = ""
    /// Project keys, seeded alike; `WEB` and `OPS` have their own names.
    public var projects = ["WEB", "OPS"]
    /// Issues per project.
    public var issues = 12
    /// Seconds added to the server clock.
    public var clockOffset = 0
    public var switches = JiraSwitches()

    public init() {}
}

/// The server variants of issue 24. Set at start by `serve`'s flags, changed at run time by `POST /sim/switches`
/// (a JSON object with any of these keys), so that a test can change the server between two polls.
public struct JiraSwitches: Codable, Sendable, Equatable {
    public enum Timestamps: String, Codable, Sendable, CaseIterable {
        /// `2026-01-17T12:34:00.000+0000`, what Jira sends.
        case millis
        /// `2026-01-17T12:34:00+0000`: no fraction.
        case plain
        /// As `millis`, but bulk changelog `created` as epoch seconds (`1492070429`), as Atlassian's example shows.
        case epoch
    }

    /// Cloud: issues updated less than this many seconds ago are missing from `search/jql` unless reconciled.
    public var searchLag = 0
    /// Histories and comments embedded in an issue or a search answer stop at this many (oldest first).
    public var embeddedLimit = 100
    /// Page sizes above this are served at this (0: the endpoint's own limit only).
    public var maxResults = 0
    public var timestamps = Timestamps.millis
    /// A handle whose credentials answer 401, as an expired API token or PAT does ("" for none).
    public var expiredToken = ""

    public init() {}

    /// Applies the keys present in a `POST /sim/switches` body; the others keep their values.
    mutating func apply(_ patch: Patch) {
        searchLag = patch.searchLag ?? searchLag
        embeddedLimit = patch.embeddedLimit ?? embeddedLimit
        maxResults = patch.maxResults ?? maxResults
        timestamps = patch.timestamps ?? timestamps
        expiredToken = patch.expiredToken ?? expiredToken
    }

    /// The same keys, each optional.
    struct Patch: Decodable {
        var searchLag: Int?
        var embeddedLimit: Int?
        var maxResults: Int?
        var timestamps: Timestamps?
        var expiredToken: String?
    }

    /// A sentence naming what is wrong, or nil.
    public var problem: String? {
        if searchLag < 0 { return "searchLag (--search-lag) must be ≥ 0" }
        if embeddedLimit < 0 { return "embeddedLimit (--embedded-limit) must be ≥ 0" }
        if maxResults < 0 { return "maxResults (--max-results) must be ≥ 0" }
        if !expiredToken.isEmpty && Directory.person(handle: expiredToken) == nil {
            return "expiredToken (--expired-token) must be a handle: engineer, alice, lead or automation"
        }
        return nil
    }
}
