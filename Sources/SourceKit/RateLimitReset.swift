import TrackerHTTP

extension RetryAfter {
    /// Seconds until `reset` (seconds since 1970: a rate limit's `X-RateLimit-Reset`), counted from the answer's own
    /// `Date` (both are the server's clock, so ours may be off), at most `longest`; `nil` without a readable `Date`.
    public static func untilReset(
        _ reset: Double, in response: HTTPResponse, longest: Double = RetryAfter.longest
    ) -> Double? {
        guard reset.isFinite, let date = response.header("Date").flatMap(httpDate) else { return nil }
        return min(max(0, reset - date), longest)
    }
}
