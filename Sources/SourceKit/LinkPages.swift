import TrackerHTTP

/// Pages a forge links by `rel="next"` (GitHub's and Forgejo's `Link` headers), read one after the other.
public enum LinkPages {
    /// Pages from `first` on, each given to `read` (`false`: stop there), at most `most`: `false` where more were
    /// left. A next page that repeats an earlier one fails the read (`endpoint` names it) rather than loop.
    public static func follow<Refusal: TrackerRefusal>(
        _: TrackerError<Refusal>.Type, _ endpoint: String, from first: HTTPResponse, most: Int,
        get: (String) async throws -> HTTPResponse, _ read: (HTTPResponse) async throws -> Bool
    ) async throws -> Bool {
        var answer = first, seen = Set<String>()
        for _ in 0..<most {
            guard try await read(answer), let next = LinkHeader.target("next", in: answer) else { return true }
            guard seen.insert(next).inserted else {
                throw TrackerError<Refusal>.invalidResponse(endpoint: endpoint, detail: "a next page that repeats an earlier one")
            }
            answer = try await get(next)
        }
        return false
    }
}
