#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A bearer token from `POST /authenticate`. Its JWT `exp` claim (read, not verified: the server verifies)
/// tells when to log in again, so that a poll does not start with a token about to expire.
public struct AccessToken: Sendable, CustomStringConvertible {
    public let value: String
    /// Seconds since 1970, or `nil` when the token carries no readable `exp`.
    public let expiresAt: Double?

    public init(_ value: String) {
        self.value = value
        expiresAt = Self.expiry(ofJWT: value)
    }

    public var description: String { "<token>" }

    /// True when the token expires within `margin` seconds of `now`.
    public func needsRenewal(now: Double, margin: Double) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt - now <= margin
    }

    /// The `exp` claim of a JWT, without verifying its signature.
    public static func expiry(ofJWT token: String) -> Double? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = base64URLDecode(String(parts[1])) else { return nil }
        struct Claims: Decodable { let exp: Double? }
        return (try? JSONDecoder().decode(Claims.self, from: payload))?.exp
    }

    static func base64URLDecode(_ text: String) -> Data? {
        var base64 = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
