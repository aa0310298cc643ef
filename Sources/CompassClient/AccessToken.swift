#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A bearer token from `POST /authenticate`. Its JWT claims (read, not verified: the server verifies) tell
/// when to log in again, so that a poll does not start with a token about to expire.
///
/// The expiry is kept on the local clock: `exp - iat` is the token's lifetime as the server sees it, counted
/// from when the token arrived here. Comparing the server's `exp` with the local clock instead would log in
/// on every request when the server's clock is behind, and use dead tokens when it is ahead.
public struct AccessToken: Sendable, CustomStringConvertible {
    public let value: String
    /// Local seconds since 1970 at which the token expires, or `nil` when unknown (a 401 then says so).
    public let expiresAt: Double?
    /// The token's lifetime in seconds, or `nil` when unknown.
    public let lifetime: Double?

    /// The longest lifetime believed: a year. The claims come from the server; a token that claims to live
    /// longer (or an `exp` of 1e308) is simply renewed after a year.
    static let longestLifetime: Double = 366 * 86_400

    /// - Parameter receivedAt: the local time the login answered.
    public init(_ value: String, receivedAt: Double) {
        self.value = value
        let claims = Self.claims(ofJWT: value)
        var lifetime: Double?
        if let exp = claims?.exp, let iat = claims?.iat, exp > iat {
            lifetime = exp - iat
        } else if let exp = claims?.exp, exp > receivedAt {
            lifetime = exp - receivedAt  // no `iat`: trust the clocks to agree, if the result makes sense
        }
        // Infinities (an `exp` of 1e999, or a difference past Double's range) say nothing: unknown.
        self.lifetime = lifetime.flatMap { $0.isFinite ? min($0, Self.longestLifetime) : nil }
        expiresAt = self.lifetime.map { receivedAt + $0 }
    }

    public var description: String { "<token>" }

    /// True when the token expires within a tenth of its lifetime (at most five minutes) of `now`.
    public func needsRenewal(now: Double) -> Bool {
        guard let expiresAt, let lifetime else { return false }
        return expiresAt - now <= min(300, lifetime / 10)
    }

    struct Claims: Decodable {
        let exp: Double?
        let iat: Double?
    }

    /// The `exp` and `iat` claims of a JWT, without verifying its signature.
    static func claims(ofJWT token: String) -> Claims? {
        // A JWT's claims are a few hundred bytes; a token of megabytes is not decoded.
        guard token.utf8.count <= 16_384 else { return nil }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = base64URLDecode(String(parts[1])) else { return nil }
        return try? JSONDecoder().decode(Claims.self, from: payload)
    }

    static func base64URLDecode(_ text: String) -> Data? {
        var base64 = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
