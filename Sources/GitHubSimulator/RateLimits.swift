/// Primary rate limits per token: `core` (`coreLimit` an hour) and `search` (`searchRate` a minute), each a window
/// that starts with the token's first request and resets after an hour (a minute).
extension GitHubState {
    func limit(_ resource: String) -> Int { resource == "search" ? switches.searchRate : switches.coreLimit }

    /// The token's window for `resource`, a fresh one when none is running.
    func bucket(_ token: Token, _ resource: String) -> Bucket {
        let key = "\(resource) \(token.text)"
        if let bucket = buckets[key], bucket.reset > now { return bucket }
        return Bucket(reset: now + (resource == "search" ? 60 : 3600))
    }

    /// 403 with `x-ratelimit-remaining: 0` when the token has used up `resource`.
    mutating func checkQuota(_ token: Token, resource: String) throws {
        let bucket = bucket(token, resource)
        guard bucket.used >= limit(resource) else { return }
        stats.rateLimited += 1
        throw GitHubError(
            403,
            "API rate limit exceeded for user ID \(Directory.accounts[token.user].id). If you reach out to GitHub "
                + "Support for help, please include the request ID \(requestID).",
            documentation: "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api")
    }

    /// Counts one request against the token's `resource`.
    mutating func use(_ token: Token, resource: String) {
        var bucket = bucket(token, resource)
        guard bucket.used < limit(resource) else { return }  // a refused request uses nothing
        bucket.used += 1
        buckets["\(resource) \(token.text)"] = bucket
        if resource == "search" {
            stats.searchQuotaUsed[token.text, default: 0] += 1
        } else {
            stats.coreQuotaUsed[token.text, default: 0] += 1
        }
    }

    var requestID: String {
        let hex = String(requestCount, radix: 16, uppercase: true)
        return "C0DE:51A1:" + String(repeating: "0", count: max(0, 8 - hex.count)) + hex
    }

    /// Rate-limit, version, scope and poll-interval headers every API answer carries.
    func replyHeaders(_ context: ReplyContext) -> [(String, String)] {
        var headers: [(String, String)] = [("Content-Type", "application/json; charset=utf-8")]
        if let token = context.token {
            let bucket = bucket(token, context.resource), limit = limit(context.resource)
            headers += [
                ("X-RateLimit-Limit", String(limit)), ("X-RateLimit-Remaining", String(max(0, limit - bucket.used))),
                ("X-RateLimit-Reset", String(bucket.reset)), ("X-RateLimit-Used", String(bucket.used)),
                ("X-RateLimit-Resource", context.resource),
            ]
            if !token.fineGrained {
                headers.append(("X-OAuth-Scopes", token.scopes.joined(separator: ", ")))
                headers.append(("X-Accepted-OAuth-Scopes", context.resource == "search" ? "" : "repo"))
            }
        } else {
            headers += [
                ("X-RateLimit-Limit", "60"), ("X-RateLimit-Remaining", "59"), ("X-RateLimit-Reset", String(now + 3600)),
                ("X-RateLimit-Used", "1"), ("X-RateLimit-Resource", "core"),
            ]
        }
        headers += [
            ("X-GitHub-Api-Version-Selected", context.version), ("X-GitHub-Media-Type", "github.v3; format=json"),
            ("X-GitHub-Request-Id", requestID), ("Vary", "Accept, Authorization, Cookie, X-GitHub-OTP"),
            ("Cache-Control", "private, max-age=60, s-maxage=60"),
        ]
        if switches.pollInterval > 0 { headers.append(("X-Poll-Interval", String(switches.pollInterval))) }
        return headers
    }
}
