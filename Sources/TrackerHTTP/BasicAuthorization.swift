import AsyncHTTPClient

/// HTTP Basic (RFC 7617): `Basic` and the Base64 of `user:password`, for an `Authorization` header.
public enum BasicAuthorization {
    public static func header(user: String, password: String) -> String {
        HTTPClient.Authorization.basic(username: user, password: password).headerValue
    }
}
