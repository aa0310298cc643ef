/// Options of `ado-sim serve` fixed at start: the size of the seed, the names in the URL, the clock, TLS.
public struct AzureDevOpsSimulatorOptions: Sendable {
    /// Work items seeded per project.
    public var workItems = 12
    /// Pull requests seeded per project.
    public var pullRequests = 6
    /// The organization of `https://host/ORG` (Services).
    public var organization = "acme"
    /// The collection of `https://host/tfs/COLLECTION` (Server).
    public var collection = "DefaultCollection"
    /// Seconds added to the server clock.
    public var clockOffset = 0
    /// Whether the server speaks HTTPS (the scheme of the URLs it writes).
    public var https = false
    public var switches = AzureDevOpsSwitches()

    public init() {}
}

/// The server variants of issue 34. Set at start by `serve`'s flags, changed at run time by `POST /sim/switches`
/// (a JSON object with any of these keys), so that a test can change the server between two polls.
public struct AzureDevOpsSwitches: Codable, Sendable, Equatable {
    /// Azure DevOps Server 2022: `DOMAIN\user` unique names (`CONTOSO\engineer`), `win.` descriptors,
    /// `deploymentType` `onPremises`.
    public var server = false
    /// The newest api-version served (`7.1`; `7.0` is Server 2022 before 2022.1): newer ones answer 400
    /// `VssVersionOutOfRangeException`.
    public var maxApiVersion = "7.1"
    /// An old server without the work item comments API: its routes answer 404 and `OPTIONS /_apis` leaves it out.
    public var noCommentsAPI = false
    /// More WIQL results than this (without `$top`) answer 400 `VS402337` (Azure DevOps: 20,000).
    public var wiqlLimit = 20_000
    /// Seconds every API answer is held back: the throttle's first stage (a delay, no error).
    public var delay = 0.0
    /// `X-RateLimit-*` headers (and `Retry-After` when `delay` > 0) on every API answer, 200s included.
    public var rateLimitHeaders = false

    public init() {}

    /// Applies the keys present in a `POST /sim/switches` body; the others keep their values.
    mutating func apply(_ patch: Patch) {
        server = patch.server ?? server
        maxApiVersion = patch.maxApiVersion ?? maxApiVersion
        noCommentsAPI = patch.noCommentsAPI ?? noCommentsAPI
        wiqlLimit = patch.wiqlLimit ?? wiqlLimit
        delay = patch.delay ?? delay
        rateLimitHeaders = patch.rateLimitHeaders ?? rateLimitHeaders
    }

    struct Patch: Decodable {
        var server: Bool?
        var maxApiVersion: String?
        var noCommentsAPI: Bool?
        var wiqlLimit: Int?
        var delay: Double?
        var rateLimitHeaders: Bool?
    }

    /// A sentence naming what is wrong, or nil.
    public var problem: String? {
        if ApiVersion(maxApiVersion) == nil { return "maxApiVersion must look like 7.1" }
        if wiqlLimit < 1 { return "wiqlLimit must be ≥ 1" }
        if !(0...60).contains(delay) { return "delay must be 0…60 seconds" }
        return nil
    }
}

/// An `api-version`: `7.1`, `7.1-preview`, `7.1-preview.4`.
struct ApiVersion: Sendable, Comparable {
    let major: Int
    let minor: Int
    let preview: Bool

    init?(_ text: String) {
        let parts = text.split(separator: "-", maxSplits: 1)
        guard let number = parts.first else { return nil }
        let digits = number.split(separator: ".")
        guard (1...2).contains(digits.count), let major = Int(digits[0]) else { return nil }
        let minor = digits.count == 2 ? Int(digits[1]) : 0
        guard let minor else { return nil }
        (self.major, self.minor) = (major, minor)
        guard parts.count == 2 else {
            preview = false
            return
        }
        let tail = parts[1].lowercased()
        guard tail == "preview" || (tail.hasPrefix("preview.") && Int(tail.dropFirst(8)) != nil) else { return nil }
        preview = true
    }

    static func < (a: ApiVersion, b: ApiVersion) -> Bool { (a.major, a.minor) < (b.major, b.minor) }
    static func == (a: ApiVersion, b: ApiVersion) -> Bool { (a.major, a.minor) == (b.major, b.minor) }

    var number: String { "\(major).\(minor)" }
}
