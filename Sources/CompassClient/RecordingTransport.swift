#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Synchronization
import TrackerHTTP
import TrackwatchCore

/// A transport that passes every exchange on unchanged and keeps a redacted copy of it, for `trackwatch probe
/// --save`: a transcript a user can attach to a bug report. The client is not changed for it; the probe wraps
/// the client's transport in this one.
///
/// Redaction is by allow-list: what is known to be harmless is kept (statuses, the protocol's header names and
/// header values in their header's shape, the API's JSON keys, shapes, numbers, booleans, timestamps, the strings
/// trackwatch itself sends in its query definitions: `TranscriptAllowList.swift`); every other string — a key or
/// a header too, where a server could plant text — is replaced by a salted hash and its length, so that
/// equal values stay recognisably equal within one transcript and nothing else can be read back. The salt is
/// random, per transcript, and never written. Secrets get no hash at all: the password and cookie values are
/// removed, a token is reduced to its JWT claim names and lifetime.
public final class RecordingTransport: HTTPTransport {
    private let inner: any HTTPTransport
    private let redactor: TranscriptRedactor
    /// Whether exchanges are kept at all (`--save`); the server's `Date` is noted either way.
    private let keeping: Bool
    private let state = Mutex(Recorded())

    private struct Recorded {
        var exchanges: [TranscriptJSON] = []
        var lastDate: String?
        /// Body bytes kept so far: past `largestTranscript`, bodies are only counted, so that a large result
        /// cannot make the transcript (held in memory until written) grow without bound.
        var bodyBytes = 0
    }

    /// The most body bytes a transcript keeps in redacted form; later bodies are reduced to their size.
    static let largestTranscript = 16 << 20

    /// `harmless`: strings kept as they are (trackwatch's own query definitions, folder names it knows).
    /// `keeping`: false notes only the server's `Date` (no transcript asked for).
    public init(_ inner: any HTTPTransport, harmless: Set<String>, keeping: Bool = true) {
        self.inner = inner
        self.keeping = keeping
        redactor = TranscriptRedactor(harmless: harmless)
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard keeping else {
            let response = try await inner.send(request)
            if let date = response.header("date") { state.withLock { $0.lastDate = String(date.prefix(64)) } }
            return response
        }
        let full = state.withLock { $0.bodyBytes } > Self.largestTranscript
        let recordedRequest = redactor.request(request)
        do {
            let response = try await inner.send(request)
            let recordedResponse = full ? redactor.response(response, summaryOnly: true) : redactor.response(response)
            state.withLock {
                $0.exchanges.append(.object(["request": recordedRequest, "response": recordedResponse]))
                $0.bodyBytes += response.body.count
                if let date = response.header("date") { $0.lastDate = String(date.prefix(64)) }
            }
            return response
        } catch let error as TransportError {
            state.withLock {
                $0.exchanges.append(
                    .object([
                        "request": recordedRequest, "transportError": .string("\(error.kind)"),
                    ]))
            }
            throw error
        }
    }

    public func closeIdleConnections() { inner.closeIdleConnections() }

    /// The `Date` header of the latest response that had one: the server's clock, for the probe's zone check.
    public var lastServerDate: String? { state.withLock { $0.lastDate } }

    /// How many exchanges were recorded.
    public var exchangeCount: Int { state.withLock { $0.exchanges.count } }

    /// The transcript as one JSON document, exchanges in the order they happened.
    public func transcript(note: [String: String] = [:]) throws -> [UInt8] {
        let exchanges = state.withLock { $0.exchanges }
        let document = TranscriptJSON.object([
            "format": .string("trackwatch-probe-transcript/1"),
            "note": .object(note.mapValues { .string($0) }),
            "exchanges": .array(exchanges),
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(document)) + [0x0A]
    }
}

/// Any JSON value, as read from a body and written to a transcript.
public indirect enum TranscriptJSON: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([TranscriptJSON])
    case object([String: TranscriptJSON])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([TranscriptJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: TranscriptJSON].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value.isFinite ? value : 0)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

/// The allow-list redaction of `RecordingTransport` (pure, so that it is tested on its own).
public struct TranscriptRedactor: Sendable {
    /// Strings kept verbatim wherever they appear.
    let harmless: Set<String>
    /// Random per transcript, never written: without it no hash can be checked against a guess.
    private let salt: (UInt64, UInt64)

    /// Bodies larger than this are summarised (size, content type), not parsed.
    static let largestParsedBody = 4 << 20

    /// URL path segments of the Compass API (the rest are repository and database names and ids).
    static let keptSegments: Set<String> = [
        "ccmweb", "rest", "repos", "databases", "authenticate", "logoff", "query", "workspace", "folders",
        "queryDefs", "resultsets", "file", "sim",
    ]
    /// JSON keys whose string values are removed outright (not even hashed).
    static let secretKeys: Set<String> = ["password", "pwd", "secret", "token", "access_token", "refresh_token"]
    /// Wire constants of the Compass API that say nothing about the user.
    static let wireConstants: Set<String> = [
        "WORKSPACE_QUERY", "WORKSPACE_FOLDER", "WORKSPACE_REPORT", "WORKSPACE_CHART", "BOOL_OP_AND", "BOOL_OP_OR",
        "NO_SORT", "SORT_ASC", "SORT_DESC", "csv",
    ]

    public init(harmless: Set<String>) {
        self.harmless = harmless.union(Self.wireConstants)
        var generator = SystemRandomNumberGenerator()
        salt = (generator.next(), generator.next())
    }

    // MARK: - Requests and responses

    func request(_ request: HTTPRequest) -> TranscriptJSON {
        var fields: [String: TranscriptJSON] = [
            "method": .string(request.method.rawValue),
            "url": .string(url(request.url)),
            "headers": headers(request.headers),
        ]
        if let body = request.body { fields["body"] = self.body(body, contentType: "application/json") }
        return .object(fields)
    }

    func response(_ response: HTTPResponse, summaryOnly: Bool = false) -> TranscriptJSON {
        .object([
            "status": .integer(Int64(response.status)),
            "headers": headers(response.headers),
            "body": summaryOnly
                ? .object(["bytes": .integer(Int64(response.body.count)), "omitted": .string("transcript size limit")])
                : body(response.body, contentType: response.header("content-type")),
        ])
    }

    // MARK: - Parts

    /// `https://<server>/ccmweb/rest/repos/#…/databases/#…/query/#…?pageNumber=2`: scheme, API path words and
    /// numeric query values kept; host, credentials, names and ids replaced.
    func url(_ text: String) -> String {
        let (scheme, rest) =
            text.firstRange(of: "://").map { (String(text[..<$0.lowerBound]), text[$0.upperBound...]) }
            ?? ("", Substring(text))
        let pathStart = rest.firstIndex(of: "/") ?? rest.endIndex
        let full = rest[pathStart...]
        let (path, query) =
            full.firstIndex(of: "?").map { (full[..<$0], full[full.index(after: $0)...]) }
            ?? (full, Substring(""))
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            segment.isEmpty || Self.keptSegments.contains(String(segment)) ? String(segment) : hashed(String(segment))
        }
        var result =
            (scheme.lowercased() == "https" ? "https" : "http") + "://<server>" + segments.joined(separator: "/")
        if !query.isEmpty {
            result +=
                "?"
                + query.split(separator: "&").map { pair -> String in
                    let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    let name = Self.isWord(parts[0]) ? String(parts[0]) : hashed(String(parts[0]))
                    guard parts.count == 2 else { return name }
                    let value = parts[1]
                    let kept =
                        (!value.isEmpty && value.count <= 12 && value.allSatisfy(\.isASCIIDigit))
                        || Self.wireConstants.contains(String(value))
                    return name + "=" + (kept ? String(value) : hashed(String(value)))
                }.joined(separator: "&")
        }
        return result
    }

    func headers(_ headers: [(name: String, value: String)]) -> TranscriptJSON {
        .array(
            headers.map { header in
                let name = header.name.lowercased()
                let value: String
                switch name {
                case "authorization", "proxy-authorization":
                    // The scheme says which credential was used; everything after it is the credential.
                    let scheme = header.value.split(separator: " ").first.map(String.init) ?? ""
                    value = (Self.isWord(scheme) ? scheme + " " : "") + "<removed>"
                case "cookie":
                    value = header.value.split(separator: ";").map { cookieName($0) + "=<removed>" }.joined(
                        separator: "; ")
                case "set-cookie":
                    // The cookie's name and its attributes' names (Path, HttpOnly, Max-Age, …), never a value.
                    let parts = header.value.split(separator: ";")
                    value = ([cookieName(parts.first ?? "") + "=<removed>"] + parts.dropFirst().map(cookieName))
                        .joined(separator: "; ")
                default:
                    value = SafeText.oneLine(headerValue(name: name, header.value))
                }
                return .array([.string(headerName(header.name)), .string(value)])
            })
    }

    func body(_ bytes: [UInt8], contentType: String?) -> TranscriptJSON {
        if bytes.isEmpty { return .null }
        let summary: [String: TranscriptJSON] = ["bytes": .integer(Int64(bytes.count))]
        guard bytes.count <= Self.largestParsedBody else {
            return .object(summary.merging(["omitted": .string("larger than 4 MiB")]) { $1 })
        }
        guard let value = try? JSONDecoder().decode(TranscriptJSON.self, from: Data(bytes)) else {
            var fields = summary
            fields["notJSON"] = .bool(true)
            let lines = bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            fields["lines"] = .integer(Int64(lines))
            // The first character says HTML (`<`) or CSV/text: useful, and not the user's data.
            if let first = bytes.first(where: { $0 > 0x20 }), first == UInt8(ascii: "<") {
                fields["startsWith"] = .string("<")
            }
            return .object(fields)
        }
        return .object(summary.merging(["json": redact(value, key: nil)]) { $1 })
    }

    /// Keys, numbers, booleans and null as they are; strings kept only when harmless (a timestamp, one of
    /// trackwatch's own query strings), a secret removed, a token reduced to its JWT claims, the rest hashed.
    func redact(_ value: TranscriptJSON, key: String?) -> TranscriptJSON {
        switch value {
        case .null, .bool, .integer, .number: return value
        case .array(let items): return .array(items.map { redact($0, key: key) })
        case .object(let fields):
            var result: [String: TranscriptJSON] = [:]
            for (name, field) in fields {
                let kept = Self.keptKeys.contains(name) || harmless.contains(name)
                result[kept ? name : hashed(name)] = redact(field, key: name)
            }
            return .object(result)
        case .string(let text):
            if let key, Self.secretKeys.contains(key.lowercased()) {
                return Self.jwtSummary(text).map { .object(["jwt": $0]) } ?? .string("<removed>")
            }
            if harmless.contains(text) || Timestamp.parse(text) != nil { return .string(text) }
            return .string(hashed(text))
        }
    }

    /// `#3f2a9c1b7d04/13`: the salted hash of `text` and its length in characters.
    func hashed(_ text: String) -> String {
        var hasher = Hasher()
        hasher.combine(salt.0)
        hasher.combine(text)
        hasher.combine(salt.1)
        let value = UInt64(bitPattern: Int64(hasher.finalize()))
        let hex = String(value, radix: 16)
        return "#" + String(repeating: "0", count: 16 - hex.count) + hex + "/\(text.count)"
    }

    private func cookieName(_ part: Substring) -> String {
        let name =
            part.split(separator: "=", maxSplits: 1).first.map {
                String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
            } ?? ""
        return Self.keptCookieNames.contains(name.lowercased()) ? name : hashed(name)
    }

    /// A token's JWT payload reduced to its claim names and, from `iat`/`nbf` and `exp`, its lifetime in
    /// seconds; `nil` when the token is not a JWT (then it is removed whole).
    static func jwtSummary(_ token: String) -> TranscriptJSON? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1].utf8.count <= 8_192, let payload = base64URLDecode(parts[1]),
            case .object(let claims)? = try? JSONDecoder().decode(TranscriptJSON.self, from: Data(payload))
        else { return nil }
        var summary: [String: TranscriptJSON] = [
            "claims": .array(claims.keys.sorted().map { .string(keptClaims.contains($0) ? $0 : "<other>") })
        ]
        func seconds(_ name: String) -> Int64? {
            switch claims[name] {
            case .integer(let value)?: return value
            case .number(let value)? where value.isFinite && abs(value) < 1e15: return Int64(value)
            default: return nil
            }
        }
        if let expiry = seconds("exp"), let start = seconds("iat") ?? seconds("nbf"),
            let lifetime = Optional(expiry.subtractingReportingOverflow(start)), !lifetime.overflow
        {
            summary["lifetimeSeconds"] = .integer(lifetime.partialValue)
        }
        return .object(summary)
    }

    static func base64URLDecode(_ text: Substring) -> [UInt8]? {
        var standard = String(text).replacing("-", with: "+").replacing("_", with: "/")
        while standard.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }

    /// Letters, digits, `_`, `.`, `-`, at most 64: a JSON key or query parameter that is a name, not data.
    static func isWord(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.count <= 64
            && text.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
                    || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
            }
    }

    static func isHeaderName(_ text: some StringProtocol) -> Bool { isWord(text) }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
