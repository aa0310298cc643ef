import TrackerHTTP
import TrackwatchCore

/// One GET of a list's page, as the server is allowed to answer it: redirects followed (a few at most, never in
/// a loop), credentials and the configured `headers` sent only to the configured URL's origin (never to another
/// host or port, never from https down to http), the validators of the last answer sent when asked, and every
/// refusal turned into a `JSONListError` that says what to do.
struct ListFetcher {
    static let maximumRedirects = 5

    let config: JSONListConfig
    let transport: any HTTPTransport
    /// The password or token, loaded; `nil` without credentials.
    let secret: Secret?
    let wallClock: () -> Double
    /// Where credentials may go: the configured URL's scheme, host and port.
    let origin: String

    init(config: JSONListConfig, transport: any HTTPTransport, secret: Secret?, wallClock: @escaping () -> Double) {
        self.config = config
        self.transport = transport
        self.secret = secret
        self.wallClock = wallClock
        origin = ListURL(config.url)?.origin ?? config.url
    }

    enum Outcome {
        case answer(Answer)
        /// 304: what the validators named is still current.
        case notModified(Answer)
    }

    struct Answer {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: [UInt8]
        /// Where the answer finally came from, after redirects.
        var url: ListURL
        var redirects: Int

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        func headers(_ name: String) -> [String] {
            headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        }
    }

    /// GETs `url`, following redirects; `validators` (the first page's) make it conditional.
    func get(_ url: ListURL, validators: Validators? = nil) async throws -> Outcome {
        var current = url
        var visited: [String] = []
        for hop in 0...Self.maximumRedirects {
            let trusted = current.origin == origin
            let response = try await send(current, credentials: trusted, validators: validators)
            if (300..<400).contains(response.status), response.status != 304 {
                guard let location = response.header("Location"), let next = current.resolving(location) else {
                    throw JSONListError.badAnswer(
                        "HTTP \(response.status) without a Location to follow", list: config.name)
                }
                visited.append(current.description)
                if visited.contains(next.description) {
                    throw JSONListError.paging(
                        "\(config.name): a redirect loop (\(visited.count) redirects lead back to "
                            + "\(SafeText.oneLine(next.description, limit: 120))); correct url in [[json]] "
                            + "\(config.name)."
                    )
                }
                guard hop < Self.maximumRedirects else { break }
                current = next
                continue
            }
            let answer = Answer(
                status: response.status, headers: response.headers, body: response.body, url: current,
                redirects: hop)
            return try judge(answer, trusted: trusted, conditional: validators != nil)
        }
        throw JSONListError.paging(
            "\(config.name): more than \(Self.maximumRedirects) redirects from "
                + "\(SafeText.oneLine(url.description, limit: 120)); point url in [[json]] \(config.name) at the "
                + "final address."
        )
    }

    private func send(_ url: ListURL, credentials: Bool, validators: Validators?) async throws -> HTTPResponse {
        var headers: [(name: String, value: String)] = [
            ("User-Agent", "trackwatch"), ("Accept", "application/json"), ("Accept-Encoding", "gzip"),
        ]
        // Every configured header may carry a token (GitLab's docs put PRIVATE-TOKEN there): a credential.
        if credentials {
            headers += config.headers.map { ($0.name, $0.value) }
            if let authorization = authorization() { headers.append(authorization) }
        }
        if let validators { headers += validators.requestHeaders }
        do {
            return try await transport.send(
                HTTPRequest(
                    method: .get, url: url.description, headers: headers,
                    timeout: config.requestTimeout))
        } catch let error as TransportError {
            throw JSONListError.unreachable(error, list: config.name, maxSize: config.maxSize)
        }
    }

    /// The credentials header, as the configuration says.
    func authorization() -> (name: String, value: String)? {
        guard let secret else { return nil }
        switch config.credentials {
        case .none: return nil
        case .basic(let username, _):
            return ("Authorization", "Basic " + Base64.encode(Array("\(username):\(secret.value)".utf8)))
        case .bearer: return ("Authorization", "Bearer \(secret.value)")
        case .header(let name, _): return (name, secret.value)
        }
    }

    /// The answer as a page, a 304, or the error its status means.
    private func judge(_ answer: Answer, trusted: Bool, conditional: Bool) throws -> Outcome {
        switch answer.status {
        case 304 where conditional: return .notModified(answer)
        case 200..<300: return .answer(answer)
        case 401, 403:
            throw JSONListError.credentialsRefused(
                status: answer.status, message: Self.message(answer.body), list: config.name,
                sent: config.credentials == .none && config.headers.isEmpty
                    ? .notConfigured : trusted ? .sent : .withheldAfterRedirect)
        case 404, 410:
            throw JSONListError.notFound(
                status: answer.status, url: SafeText.oneLine(answer.url.description, limit: 200))
        default:
            let wait =
                answer.status == 429 || answer.status == 503
                ? RetryAfter.seconds(answer.header("Retry-After"), now: wallClock()) : nil
            throw JSONListError.status(
                answer.status, message: Self.message(answer.body), list: config.name,
                retryAfter: wait)
        }
    }

    /// The server's own words in an error answer (`message`, `error`, Jira's `errorMessages`), one line, bounded.
    static func message(_ body: [UInt8]) -> String {
        guard body.count <= 65_536, let value = try? JSONParser.parse(body) else { return "" }
        let candidates = [
            value[member: "message"], value[member: "error_description"], value[member: "error"],
            value[member: "errorMessages"].flatMap { if case .array(let items) = $0 { items.first } else { nil } },
        ]
        for case .string(let text)? in candidates where !text.isEmpty { return SafeText.oneLine(text, limit: 200) }
        return ""
    }
}

/// The validators of the last answer, sent back so that an unchanged list costs a 304.
struct Validators: Equatable {
    var etag: String?
    var lastModified: String?

    /// From an answer's headers; `nil` when it had neither (or only absurd ones).
    init?(headers answer: ListFetcher.Answer) {
        etag = answer.header("ETag").flatMap { Self.usable($0) }
        lastModified = answer.header("Last-Modified").flatMap { Self.usable($0) }
        if etag == nil, lastModified == nil { return nil }
    }

    init(etag: String?, lastModified: String?) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Server text goes back to the server only when it is a short printable line.
    private static func usable(_ value: String) -> String? {
        value.count <= 256 && !value.isEmpty && value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F })
            ? value : nil
    }

    var requestHeaders: [(name: String, value: String)] {
        (etag.map { [("If-None-Match", $0)] } ?? []) + (lastModified.map { [("If-Modified-Since", $0)] } ?? [])
    }
}

/// Base64 (RFC 4648) for HTTP Basic.
enum Base64 {
    static func encode(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            let value = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
            for position in 0..<4 {
                out.append(
                    position <= chunk.count ? alphabet[(value >> (18 - 6 * position)) & 0x3F] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
