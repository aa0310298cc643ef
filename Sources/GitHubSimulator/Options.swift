/// Options of `github-sim serve` fixed at start: where the API lives, the size of the seed, TLS.
public struct GitHubSimulatorOptions: Sendable {
    /// "" for github.com's layout (`/user`), `/api/v3` for GitHub Enterprise Server's.
    public var basePath = ""
    /// Issues and pull requests seeded per repository.
    public var issues = 12
    /// Seconds added to the server clock.
    public var clockOffset = 0
    /// Whether the server speaks HTTPS (the scheme of the URLs it writes).
    public var https = false
    public var switches = GitHubSwitches()

    public init() {}
}

/// The server variants of issue 25. Set at start by `serve`'s flags, changed at run time by `POST /sim/switches`
/// (a JSON object with any of these keys), so that a test can change the server between two polls.
public struct GitHubSwitches: Codable, Sendable, Equatable {
    /// Search results reachable through paging (GitHub: 1,000); `total_count` still counts them all.
    public var searchCap = 1000
    /// Search answers say `incomplete_results: true` and leave out every item whose number is a multiple of 5.
    public var incompleteSearch = false
    /// Search requests a token may make per minute (GitHub: 30).
    public var searchRate = 30
    /// Core requests a token may make per hour (GitHub: 5,000 for a personal access token).
    public var coreLimit = 5000
    /// API version 2022-11-28 is retired: asking for it, or for no version, answers 400.
    public var retire20221128 = false
    /// Seconds in an `X-Poll-Interval` header on every API answer (0: no header).
    public var pollInterval = 0

    public init() {}

    /// Applies the keys present in a `POST /sim/switches` body; the others keep their values.
    mutating func apply(_ patch: Patch) {
        searchCap = patch.searchCap ?? searchCap
        incompleteSearch = patch.incompleteSearch ?? incompleteSearch
        searchRate = patch.searchRate ?? searchRate
        coreLimit = patch.coreLimit ?? coreLimit
        retire20221128 = patch.retire20221128 ?? retire20221128
        pollInterval = patch.pollInterval ?? pollInterval
    }

    /// The same keys, each optional.
    struct Patch: Decodable {
        var searchCap: Int?
        var incompleteSearch: Bool?
        var searchRate: Int?
        var coreLimit: Int?
        var retire20221128: Bool?
        var pollInterval: Int?
    }

    /// A sentence naming what is wrong, or nil.
    public var problem: String? {
        if searchCap < 1 { return "searchCap (--search-cap) must be ≥ 1" }
        if searchRate < 1 { return "searchRate (--search-rate) must be ≥ 1" }
        if coreLimit < 1 { return "coreLimit (--core-limit) must be ≥ 1" }
        if pollInterval < 0 { return "pollInterval (--poll-interval) must be ≥ 0" }
        return nil
    }
}
