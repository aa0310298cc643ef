/// Options of `qase-sim serve` fixed at start: projects, sizes, tokens, base path.
public struct QaseSimulatorOptions: Sendable {
    /// Project codes, seeded alike.
    public var projects = ["DEMO", "WEB"]
    public var cases = 12
    public var defects = 16
    public var plans = 3
    public var reviews = 6
    public var runs = 3
    /// Where the API lives: `/v1` as on api.qase.io; a dedicated host may serve `/api/v1`.
    public var basePath = "/v1"
    /// handle → token, replacing a fixture token (`--token engineer=…`); `jenkins` is the reporter app.
    public var tokens: [String: String] = [:]
    /// Projects only `lead` can see (`--no-access CODE`): everyone else gets 403 and does not see them listed.
    public var noAccess: [String] = []
    public var clockOffset = 0
    public var switches = QaseSwitches()

    public init() {}
}

/// The server variants, each a way a real Qase server may differ. Set at start by `serve`'s options and changed
/// at run time by `POST /sim/switches` (a JSON object with any of these keys), so that a test can change the
/// server between two polls.
public struct QaseSwitches: Codable, Sendable, Equatable {
    public enum Numbers: String, Codable, Sendable, CaseIterable {
        /// Ids and integer enums as integers, as the spec says.
        case int
        /// Every id and integer enum as a string (`"id": "7"`).
        case string
        /// Objects with an odd `id` send strings, the rest integers.
        case mixed
    }

    public enum FilterNames: String, Codable, Sendable, CaseIterable {
        /// `status=` and `filters[status]=` both filter.
        case both
        /// Only flat names (`status=`); `filters[…]` is ignored.
        case flat
        /// Only `filters[status]=`; flat names are ignored, so those answers are unfiltered.
        case bracketed
    }

    public enum AuthorSearch: String, Codable, Sendable, CaseIterable {
        /// `GET /author?search=` matches a name or an e-mail address (what Qase's MCP server relies on).
        case nameOrEmail = "name-or-email"
        /// It matches names only, as the spec describes it.
        case name
    }

    public enum EndlessLists: String, Codable, Sendable, CaseIterable {
        /// Lists end where their items do.
        case off
        /// Every list's `total` and `filtered` say 2,000,000 and each page holds one item, the list's items over
        /// and over under new ids: a list that never ends.
        case lyingTotal = "lying-total"
        /// Every list's `total` and `filtered` say 2,000,000 and its pages alternate A, B, A, B: its first page, then
        /// the same items under ids a million higher, then the first again… — never the same as the page before.
        case alternating
    }

    /// 402 or 403: `/search` refused, as on plans without QQL; 0: QQL available.
    public var searchRefusal = 0
    /// false: QQL answers `assignee` on defects with 400 "Query is invalid".
    public var qqlDefectAssignee = true
    /// true: `limit` above 100 is served as 100 (and below 1 as 1) instead of refused with 400.
    public var clampLimit = false
    public var numbers = Numbers.int
    /// true: every object carries fields the spec does not know.
    public var extraFields = false
    public var filterNames = FilterNames.both
    /// 402 or 404: every `/review` route refused (no review feature on the plan, or review off); 0: available.
    public var reviewRefusal = 0
    /// false: changing a plan's assignments leaves its `updated_at` alone.
    public var planAssignmentBumpsUpdatedAt = true
    /// Requests a minute per token before 429s (0: unlimited). Qase documents 600.
    public var rateLimit = 600
    /// Seconds a token stays refused once over the limit. Qase documents 60.
    public var rateLimitTimeout = 60
    public var authorSearch = AuthorSearch.nameOrEmail
    /// true: a defect's `severity` and `status` arrive as integer codes, where the spec has strings.
    public var defectEnumsAsInts = false
    /// Lists that never end: a lying `total`, or alternating pages.
    public var endlessLists = EndlessLists.off

    public init() {}

    /// Applies the keys present in a `POST /sim/switches` body; the others keep their values.
    mutating func apply(_ patch: Patch) {
        searchRefusal = patch.searchRefusal ?? searchRefusal
        qqlDefectAssignee = patch.qqlDefectAssignee ?? qqlDefectAssignee
        clampLimit = patch.clampLimit ?? clampLimit
        numbers = patch.numbers ?? numbers
        extraFields = patch.extraFields ?? extraFields
        filterNames = patch.filterNames ?? filterNames
        reviewRefusal = patch.reviewRefusal ?? reviewRefusal
        planAssignmentBumpsUpdatedAt = patch.planAssignmentBumpsUpdatedAt ?? planAssignmentBumpsUpdatedAt
        rateLimit = patch.rateLimit ?? rateLimit
        rateLimitTimeout = patch.rateLimitTimeout ?? rateLimitTimeout
        authorSearch = patch.authorSearch ?? authorSearch
        defectEnumsAsInts = patch.defectEnumsAsInts ?? defectEnumsAsInts
        endlessLists = patch.endlessLists ?? endlessLists
    }

    /// The same keys, each optional.
    struct Patch: Decodable {
        var searchRefusal: Int?
        var qqlDefectAssignee: Bool?
        var clampLimit: Bool?
        var numbers: Numbers?
        var extraFields: Bool?
        var filterNames: FilterNames?
        var reviewRefusal: Int?
        var planAssignmentBumpsUpdatedAt: Bool?
        var rateLimit: Int?
        var rateLimitTimeout: Int?
        var authorSearch: AuthorSearch?
        var defectEnumsAsInts: Bool?
        var endlessLists: EndlessLists?
    }

    /// A sentence naming what is wrong, or nil.
    public var problem: String? {
        if ![0, 402, 403].contains(searchRefusal) { return "searchRefusal (--search-refusal) must be 0, 402 or 403" }
        if ![0, 402, 404].contains(reviewRefusal) { return "reviewRefusal (--review-refusal) must be 0, 402 or 404" }
        if rateLimit < 0 || !(1...86_400).contains(rateLimitTimeout) {
            return "rateLimit (--rate-limit) must be ≥ 0 and rateLimitTimeout (--rate-limit-timeout) 1…86400"
        }
        return nil
    }
}
