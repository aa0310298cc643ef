#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
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
/// replays a request once after a 401, and never retries a rejected login.
///
/// Not thread-safe by design: one poll at a time drives it from the daemon's serial queue.
public final class CompassClient {
    let transport: any HTTPTransport
    let server: CompassServer
    let credential: Credential
    let logger: Logger
    let requestTimeout: Int
    private let now: () -> Double
    private var token: AccessToken?
    /// The most rows one query may return; larger results are refused rather than read.
    public var maxResultRows = 500_000
    /// Successful logins since this client was made (for status and tests).
    public private(set) var loginCount = 0
    /// Logins that replaced an earlier session (expired or refused token): server-side state of the old
    /// session, such as result sets, is gone.
    private(set) var sessionRenewals = 0

    // Query-mode memory (see QueryRunner.swift).
    var queryMode: QueryMode?
    var personalFolderID: String?
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

    /// Ends the server session, if there is one. Best effort: the process is ending anyway.
    public func logoff() {
        guard token != nil else { return }
        if let response = try? rawSend(.logoff, method: .post, body: nil), !(200..<300).contains(response.status) {
            logger.debug("logoff refused", metadata: ["status": "\(response.status)"])
        }
        token = nil
    }

    /// Ends the transport's connections (the session and its token stay): see `HTTPTransport`.
    public func closeIdleConnections() { transport.closeIdleConnections() }

    // MARK: - Requests

    /// Sends an authorised request; after a 401 logs in again once and replays it.
    func send(_ endpoint: CompassEndpoint, method: HTTPMethod, body: (any Encodable)? = nil) throws -> HTTPResponse {
        let encoded = try body.map { try JSONEncoder().encode($0) }.map { [UInt8]($0) }
        try ensureSession()
        let response = try rawSend(endpoint, method: method, body: encoded)
        guard response.status == 401 else { return response }
        if case .personalAccessToken = credential {
            throw CompassError.tokenRejected(status: 401, message: Self.message(in: response))
        }
        logger.info("token refused; logging in again", metadata: ["endpoint": "\(endpoint.name)"])
        token = nil
        try ensureSession()
        return try rawSend(endpoint, method: method, body: encoded)
    }

    /// Throws `CompassError.server` unless the response is 2xx.
    func expectSuccess(_ response: HTTPResponse, _ endpoint: CompassEndpoint) throws {
        guard (200..<300).contains(response.status) else {
            throw CompassError.server(
                status: response.status, message: Self.message(in: response), endpoint: endpoint.name,
                retryAfter: RetryAfter.seconds(response.header("retry-after"), now: now()))
        }
    }

    func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse, _ endpoint: CompassEndpoint) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(response.body))
        } catch {
            let kind = response.header("content-type").map { " (\($0))" } ?? ""
            throw CompassError.invalidResponse(
                endpoint: endpoint.name, detail: "not the expected JSON\(kind): \(Self.describe(error))")
        }
    }

    private func rawSend(_ endpoint: CompassEndpoint, method: HTTPMethod, body: [UInt8]?) throws -> HTTPResponse {
        var headers: [(name: String, value: String)] = [("Accept", "application/json")]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        switch credential {
        case .personalAccessToken(let secret): headers.append(("Authorization", "Basic \(secret.value)"))
        case .password: if let token { headers.append(("Authorization", "Bearer \(token.value)")) }
        }
        let request = HTTPRequest(
            method: method, url: server.apiRoot + endpoint.path(repo: server.repo, database: server.database),
            headers: headers, body: body, timeout: requestTimeout)
        do {
            return try transport.send(request)
        } catch let error as TransportError {
            throw CompassError.unreachable(error)
        }
    }

    // MARK: - Login

    private func ensureSession() throws {
        guard case .password(let password) = credential else { return }
        if let token, !token.needsRenewal(now: now()) { return }
        try login(password: password)
    }

    private func login(password: Secret) throws {
        token = nil
        let body = LoginRequest(username: server.username, password: password.value, repo: server.repo, db: server.database)
        let response = try rawSend(.authenticate, method: .post, body: [UInt8](try JSONEncoder().encode(body)))
        switch response.status {
        case 200, 201:
            let token = AccessToken(try decode(LoginResponse.self, from: response, .authenticate).token, receivedAt: now())
            self.token = token
            if loginCount > 0 { sessionRenewals += 1 }
            loginCount += 1
            logger.debug("logged in", metadata: ["user": "\(server.username)", "database": "\(server.database)"])
        case 400, 401, 403:
            throw CompassError.loginRejected(status: response.status, message: Self.message(in: response))
        default:
            throw CompassError.server(
                status: response.status, message: Self.message(in: response), endpoint: "login",
                retryAfter: RetryAfter.seconds(response.header("retry-after"), now: now()))
        }
    }

    // MARK: - Error text

    /// The server's `message`, or a bounded, printable excerpt of a non-JSON body.
    static func message(in response: HTTPResponse) -> String {
        if let body = try? JSONDecoder().decode(ErrorBody.self, from: Data(response.body)),
            let text = body.message ?? body.error
        {
            return String(text.prefix(300))
        }
        let text = String(decoding: response.body.prefix(200), as: UTF8.self)
        let printable = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
        return String(printable.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): return context.debugDescription
        case DecodingError.keyNotFound(let key, _): return "missing \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        default: return "\(error)"
        }
    }
}
