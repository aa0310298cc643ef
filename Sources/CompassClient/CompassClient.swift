#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import TrackerHTTP
import TrackwatchCore

/// Where and as whom to talk to Compass.
public struct CompassServer: Sendable {
    /// `…/ccmweb/rest`, see `compassAPIRoot(fromBaseURL:)`.
    public let apiRoot: String
    public let repo: String
    public let database: String
    public let username: String

    public init(baseURL: String, repo: String, database: String, username: String) throws {
        apiRoot = try compassAPIRoot(fromBaseURL: baseURL)
        self.repo = repo
        self.database = database
        self.username = username
    }
}

/// A session with one Compass database: logs in on first use and again shortly before the token expires,
/// replays a request once after the server refuses the token (401, or 403/500 after a restart or a
/// revocation), keeps the cookies the server sets, and never retries a rejected login.
///
/// Not thread-safe by design: one poll at a time drives it from the daemon's serial queue.
public final class CompassClient {
    let transport: any HTTPTransport
    let server: CompassServer
    let credential: Credential
    let logger: Logger
    let requestTimeout: Int
    let now: () -> Double
    /// The session's token (internal: `probe` reuses a logged-off one, see Probing.swift).
    var token: AccessToken?
    /// The most rows one query may return; larger results are refused rather than read.
    public var maxResultRows = 500_000
    /// A probe's client (`trackwatch probe`): it logs in once — a refused token is reported as it came, not cured
    /// by a second login (which would leave the first session open) — and leaves alone every stored query it did
    /// not store itself, earlier versions' included.
    public var probing = false
    /// Successful logins since this client was made (for status and tests).
    public private(set) var loginCount = 0
    /// Logins that replaced an earlier session (expired or refused token): server-side state of the old
    /// session, such as result sets, is gone.
    private(set) var sessionRenewals = 0
    /// Statuses other than 401 that a new login did not cure in this session: they mean what they say
    /// (a real permission problem, a real server error), so they cost a login again only when the token
    /// itself is refused (`tokenIsRefused`) — when that question can be asked: the value says whether the
    /// workspace request was answered with the fresh token, i.e. whether it can tell a refused token from this.
    private var statusesNotAboutTheToken: [Int: Bool] = [:]
    /// The statuses with which the server refused a token, as seen in this process (for `probe`).
    public private(set) var tokenRefusalStatuses: Set<Int> = []
    /// The session's cookies (see CookieJar.swift).
    var cookies = CookieJar()
    /// The server's clock as its latest answer's `Date` header gave it (seconds since 1970), if it sent one in a
    /// form read (`RetryAfter.httpDate`: years 1970…9999 only). What bounds history timestamps (`HistoryWindow`).
    public private(set) var serverDate: Double?

    // Query-path memory (see QueryRunner.swift).
    var queryPathMemory = QueryPathMemory()
    var roots: WorkspaceRoots?
    var legacyQueriesChecked = false
    var storedQueryIDs: [String: String] = [:]
    /// `[[watch]]` queries found by workspace path: path → dbId (see SavedQueryRunner.swift).
    var savedQueryIDs: [String: String] = [:]
    /// How this server returns results, learned while reading them (see ResultReader.swift).
    public internal(set) var resultTraits = ResultTraits()

    public init(
        server: CompassServer, credential: Credential, transport: any HTTPTransport, requestTimeout: Int = 30,
        logger: Logger, now: @escaping () -> Double
    ) {
        self.server = server
        self.credential = credential
        self.transport = transport
        self.requestTimeout = requestTimeout
        self.logger = logger
        self.now = now
    }

    /// The names of the cookies the server set for this session (values are never shown).
    public var cookieNames: [String] { cookies.names }

    /// Ends the server session, if there is one. Best effort: the process is ending anyway.
    public func logoff() async {
        guard token != nil else { return }
        if let response = try? await rawSend(.logoff, method: .post, body: nil), !(200..<300).contains(response.status) {
            logger.debug("logoff refused", metadata: ["status": "\(response.status)"])
        }
        token = nil
        cookies.removeAll()
    }

    /// Ends the transport's connections (the session and its token stay): see `HTTPTransport`.
    public func closeIdleConnections() { transport.closeIdleConnections() }

    // MARK: - Requests

    /// Sends an authorised request. When the server refuses the token — 401, or 403/500 as some servers answer
    /// for a token they lost in a restart or revoked — logs in again once and replays the request. A 403 or 500
    /// that the new login does not cure is a real refusal or error: it is returned, and in this session such a
    /// status no longer costs a login. At most one login per request, so never a loop.
    func send(_ endpoint: CompassEndpoint, method: HTTPMethod, body: (any Encodable)? = nil) async throws -> HTTPResponse {
        let encoded = try body.map { try JSONEncoder().encode($0) }.map { [UInt8]($0) }
        try await ensureSession()
        let response = try await rawSend(endpoint, method: method, body: encoded)
        guard Self.mayRefuseToken(response.status) else { return response }
        if probing { return response }
        if case .personalAccessToken = credential {
            guard response.status == 401 else { return response }
            throw CompassError.tokenRejected(status: 401, message: Self.message(in: response))
        }
        if response.status != 401, let tellsTokenApart = statusesNotAboutTheToken[response.status] {
            guard tellsTokenApart, try await tokenIsRefused() else { return response }
        }
        logger.info("token refused; logging in again",
                    metadata: ["endpoint": "\(endpoint.name)", "status": "\(response.status)"])
        token = nil
        try await ensureSession()
        let replay = try await rawSend(endpoint, method: method, body: encoded)
        if response.status != 401, replay.status == response.status {
            // Whether the workspace request, with this fresh token, is answered: only then can it tell later
            // whether a token is refused. Unknown (no answer) counts as no.
            statusesNotAboutTheToken[response.status] = await (try? tokenIsRefused()).map { !$0 } ?? false
        } else {
            tokenRefusalStatuses.insert(response.status)
        }
        return replay
    }

    static func mayRefuseToken(_ status: Int) -> Bool { status == 401 || status == 403 || status == 500 }

    /// Whether the server refuses the token itself, asked with the cheapest request that needs nothing but a
    /// token. A status that once meant what it said (a query the user may not read, a failing endpoint) may
    /// later be a server that restarted and lost the token: without asking, that session would never log in
    /// again until the token expired by its own clock.
    private func tokenIsRefused() async throws -> Bool {
        await Self.mayRefuseToken(try rawSend(.folders, method: .get, body: nil).status)
    }

    /// Throws `CompassError.server` unless the response is 2xx.
    func expectSuccess(_ response: HTTPResponse, _ endpoint: CompassEndpoint) async throws {
        guard (200..<300).contains(response.status) else {
            if response.status == 404, endpoint == .folders, let missing = try? await missingRepositoryOrDatabase() {
                throw missing
            }
            throw CompassError.server(
                status: response.status, message: Self.message(in: response), endpoint: endpoint.name,
                retryAfter: RetryAfter.seconds(response.header("retry-after"), now: now()))
        }
    }

    func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse, _ endpoint: CompassEndpoint) throws -> T {
        do {
            return try Self.decodeJSON(type, in: response.body)
        } catch {
            throw CompassError.invalidResponse(
                endpoint: endpoint.name,
                detail: "not the expected JSON\(Self.contentTypeNote(response)): \(Self.describe(error))")
        }
    }

    /// `body` decoded over its own bytes: `Data(body)` was a second copy of an answer of up to 64 MB.
    static func decodeJSON<T: Decodable>(_ type: T.Type, in body: [UInt8]) throws -> T {
        try body.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return try JSONDecoder().decode(type, from: Data()) }
            let data = Data(
                bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none)
            return try JSONDecoder().decode(type, from: data)  // `data` does not outlive `bytes`
        }
    }

    /// One exchange with the server, as HCL's own clients make it: JSON both ways on every request (some
    /// servers refuse a request without `Content-Type: application/json`, even a GET), the session's cookies
    /// sent and updated.
    func rawSend(_ endpoint: CompassEndpoint, method: HTTPMethod, body: [UInt8]?) async throws -> HTTPResponse {
        var headers: [(name: String, value: String)] = [
            ("Accept", "application/json"), ("Content-Type", "application/json"),
        ]
        switch credential {
        case .personalAccessToken(let secret): headers.append(("Authorization", "Basic \(secret.value)"))
        case .password: if let token { headers.append(("Authorization", "Bearer \(token.value)")) }
        }
        let url = server.apiRoot + endpoint.path(repo: server.repo, database: server.database)
        let scope = RequestURL(url)
        if let cookie = cookies.header(for: scope, now: now()) { headers.append(("Cookie", cookie)) }
        let request = HTTPRequest(method: method, url: url, headers: headers, body: body, timeout: requestTimeout)
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch let error as TransportError {
            throw CompassError.unreachable(error)
        }
        cookies.store(response.headers, from: scope, now: now())
        if let date = response.header("date").flatMap(RetryAfter.httpDate) { serverDate = date }
        // The endpoint's kind, not its path: ids in the path come from the server.
        logger.debug(
            "request",
            metadata: [
                "method": "\(method.rawValue)", "endpoint": "\(endpoint.name)", "status": "\(response.status)",
                "bytes": "\(response.body.count)",
            ])
        return response
    }

    // MARK: - Login

    private func ensureSession() async throws {
        guard case .password(let password) = credential else { return }
        if let token, !token.needsRenewal(now: now()) { return }
        try await login(password: password)
    }

    private func login(password: Secret) async throws {
        token = nil
        let body = LoginRequest(username: server.username, password: password.value, repo: server.repo, db: server.database)
        let response = try await rawSend(.authenticate, method: .post, body: [UInt8](try JSONEncoder().encode(body)))
        switch response.status {
        case 200, 201:
            let token = AccessToken(try decode(LoginResponse.self, from: response, .authenticate).token, receivedAt: now())
            self.token = token
            if loginCount > 0 { sessionRenewals += 1 }
            loginCount += 1
            statusesNotAboutTheToken = [:]
            logger.debug("logged in", metadata: ["user": "\(server.username)", "database": "\(server.database)"])
        case 400, 401, 403:
            throw CompassError.loginRejected(status: response.status, message: Self.message(in: response))
        case 404:
            // Compass names the repo and database at login: a 404 here is one of them, not the URL.
            throw await (try? missingRepositoryOrDatabase()) ?? CompassError.server(
                status: 404, message: Self.message(in: response), endpoint: "login", retryAfter: nil)
        default:
            throw CompassError.server(
                status: response.status, message: Self.message(in: response), endpoint: "login",
                retryAfter: RetryAfter.seconds(response.header("retry-after"), now: now()))
        }
    }

    // MARK: - Error text

    /// The server's `message` (or `error`), or an excerpt of a non-JSON body: either way the server's words,
    /// so made safe here, at the source: one line, no control characters (C0, DEL, C1), no bidirectional
    /// overrides, at most `maximumMessageLength` characters. Bodies too large for an error message are not
    /// parsed at all.
    static func message(in response: HTTPResponse) -> String {
        if response.body.count <= 65_536,
            let body = try? JSONDecoder().decode(ErrorBody.self, from: Data(response.body)),
            let text = body.message ?? body.error
        {
            return serverText(text)
        }
        return serverText(String(decoding: response.body.prefix(4 * maximumMessageLength), as: UTF8.self))
    }

    static let maximumMessageLength = 300

    /// Text from the server made fit for a message: `SafeText.oneLine` (one line, no control or bidi characters),
    /// runs of spaces collapsed, bounded.
    static func serverText(_ text: some StringProtocol) -> String {
        let plain = SafeText.oneLine(String(text.prefix(4 * maximumMessageLength)))
        let words = plain.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        guard words.count > maximumMessageLength else { return words }
        return words.prefix(maximumMessageLength - 1) + "…"
    }

    /// ` (text/html)`: the answer's Content-Type for an error message — the server's words, so made plain and short.
    static func contentTypeNote(_ response: HTTPResponse) -> String {
        response.header("content-type").map { " (\(String(serverText($0).prefix(80))))" } ?? ""
    }

    /// A decoding error in words. Made plain: a decoder may quote the server's bytes ("unexpected character").
    static func describe(_ error: any Error) -> String {
        serverText(undecorated(error))
    }

    private static func undecorated(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): return context.debugDescription
        case DecodingError.keyNotFound(let key, _): return "missing \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        default: return "\(error)"
        }
    }
}
