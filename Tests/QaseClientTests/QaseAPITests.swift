@testable import QaseClient
import Foundation
import Logging
import Synchronization
import TrackerHTTP
import TrackwatchCore
import TestSupport
import XCTest

/// A server scripted per request: answers a list of `count` items, paged as `page` says.
private final class ScriptedServer: HTTPTransport {
    let answer: @Sendable (HTTPRequest) -> HTTPResponse
    let requests = Mutex<[String]>([])

    init(_ answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse) { self.answer = answer }

    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        requests.withLock { $0.append(request.url) }
        return answer(request)
    }

    /// A list of items 1…`count`, cut to `clamp` items per page, announcing `announced` (default `count`).
    /// `alternate`: pages at offsets 0, 1, 2, 3 … × limit are the first, second, first, second page (A, B, A, B).
    /// `padding`: characters added to every title (fat items).
    static func list(
        count: Int, clamp: Int = 100, announced: Int? = nil, ignoreOffset: Bool = false, alternate: Bool = false,
        padding: Int = 0
    ) -> ScriptedServer {
        ScriptedServer { request in
            let limit = min(Int(parameter("limit", request.url) ?? "10") ?? 10, clamp)
            var offset = ignoreOffset ? 0 : Int(parameter("offset", request.url) ?? "0") ?? 0
            if alternate { offset = (offset / limit) % 2 * limit }
            let ids = offset < count ? Array((offset + 1)...min(count, offset + limit)) : []
            let pad = String(repeating: "x", count: padding)
            let entities = ids.map { #"{"id": \#($0), "title": "Defect \#($0)\#(pad)"}"# }.joined(separator: ",")
            let counts = #""total": \#(count), "filtered": \#(announced ?? count), "count": \#(ids.count)"#
            let body = #"{"status": true, "result": {\#(counts), "entities": [\#(entities)]}}"#
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array(body.utf8))
        }
    }

    static func parameter(_ name: String, _ url: String) -> String? {
        url.split(separator: "?").last?.split(separator: "&").first { $0.hasPrefix(name + "=") }
            .map { String($0.dropFirst(name.count + 1)) }
    }
}

final class QaseAPITests: XCTestCase {
    private func api(_ server: ScriptedServer, pageSize: Int = 1000, readBudget: Int = QaseAPI.largestRead) -> QaseAPI {
        QaseAPI(
            base: "https://api.qase.io/v1", token: Secret("tok-123"), transport: server, timeout: 5,
            pageSize: pageSize, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
            pacer: RequestPacer(now: { 0 }, sleep: { _ in }), readBudget: readBudget)
    }

    private func ids(_ api: QaseAPI) async throws -> [Int] {
        let defects: [WireDefect] = try await api.list(["defect", "DEMO"], endpoint: "defect list")
        return defects.map(\.id.value)
    }

    func test_paging_readsEveryItemOnce_askingAtMost100() async throws {
        let server = ScriptedServer.list(count: 250)
        await XCTAssertEqualAsync(try await ids(api(server)), Array(1...250))
        XCTAssertEqual(
            server.requests.withLock { $0.compactMap { ScriptedServer.parameter("limit", $0) } },
            ["100", "100", "100"], "page_size 1000 is cut to Qase's 100")
        XCTAssertTrue(server.requests.withLock { $0[0] }.hasPrefix("https://api.qase.io/v1/defect/DEMO?"))
    }

    /// A server that gives fewer items than asked is read on until the announced count has arrived.
    func test_paging_throughAServerThatClampsTheLimit() async throws {
        let server = ScriptedServer.list(count: 95, clamp: 30)
        await XCTAssertEqualAsync(try await ids(api(server)), Array(1...95))
        XCTAssertEqual(server.requests.withLock { $0.count }, 4)
    }

    /// A full page is never taken for the last one, whatever the count says.
    func test_paging_pastACountThatIsTooLow() async throws {
        await XCTAssertEqualAsync(try await ids(api(ScriptedServer.list(count: 230, announced: 100))), Array(1...230))
    }

    func test_paging_aServerIgnoringOffset_failsTheRead() async {
        await XCTAssertThrowsErrorAsync(try await ids(api(ScriptedServer.list(count: 250, ignoreOffset: true)))) { error in
            XCTAssertTrue("\(error)".contains("repeats the one at offset 0"), "\(error)")
        }
    }

    /// Pages A, B, A, B pass a check against the previous page only: any page seen before in the read ends it
    /// (issue 27, item 3), after the third request.
    func test_paging_alternatingPages_failTheReadAtTheFirstRepeat() async {
        let server = ScriptedServer.list(count: 2_000_000, alternate: true)
        await XCTAssertThrowsErrorAsync(try await ids(api(server))) { error in
            XCTAssertTrue("\(error)".contains("repeats the one at offset 0"), "\(error)")
        }
        XCTAssertEqual(server.requests.withLock { $0.count }, 3)
    }

    /// A `total` of 2,000,000 with one item a page was 100,000 requests (hours at the pacer's 2 a second): a
    /// read stops after the pages that Qase's largest offset needs at the size asked, saying so.
    func test_paging_aLyingTotalWithOneItemAPage_endsAtThePageLimit() async {
        let server = ScriptedServer.list(count: 2_000_000, clamp: 1)
        await XCTAssertThrowsErrorAsync(try await ids(api(server))) { error in
            XCTAssertTrue("\(error)".contains("did not end after 1001 pages"), "\(error)")
            XCTAssertTrue("\(error)".contains("total says 2000000"), "\(error)")
        }
        XCTAssertEqual(server.requests.withLock { $0.count }, 1001)
    }

    /// The pages of one read together are held to the read's budget, whatever each page's own size.
    func test_paging_fatPages_endAtTheReadsByteBudget() async {
        let server = ScriptedServer.list(count: 2_000_000, clamp: 1, padding: 100_000)
        await XCTAssertThrowsErrorAsync(try await ids(api(server, readBudget: 1_000_000))) { error in
            XCTAssertTrue("\(error)".contains("more than 1 MB in all"), "\(error)")
        }
        XCTAssertEqual(server.requests.withLock { $0.count }, 10)
    }

    /// A list re-read whole each poll (the defects assigned to me) is decoded again only where its bytes
    /// changed since the last poll: a changed page is read anew, an unchanged one is the last poll's answer, and
    /// a page is kept from one poll to the next only.
    func test_pagesAnsweredAgainByteForByte_areNotDecodedAgain_changedOnesAre() async throws {
        let suffix = Mutex("")
        let server = ScriptedServer { request in
            let offset = Int(ScriptedServer.parameter("offset", request.url) ?? "0") ?? 0
            let ids = offset < 250 ? Array((offset + 1)...min(250, offset + 100)) : []
            let entities = ids.map { id in
                let title = "Defect \(id)" + (id == 150 ? suffix.withLock { $0 } : "")
                return #"{"id": \#(id), "title": "\#(title)", "status": "open"}"#
            }
            let body = #"{"status": true, "result": {"total": 250, "entities": [\#(entities.joined(separator: ","))]}}"#
            return HTTPResponse(status: 200, headers: [], body: Array(body.utf8))
        }
        let api = api(server)
        func poll(reuse: Bool = true) async throws -> [String] {
            api.startPoll()
            let defects: [WireDefect] = try await api.search("entity = \"defect\"", endpoint: "search", reuse: reuse)
            return defects.map { $0.title?.text ?? "" }
        }
        await XCTAssertEqualAsync(try await poll().count, 250)
        XCTAssertEqual(api.pagesReused, 0)
        await XCTAssertEqualAsync(try await poll()[149], "Defect 150")
        XCTAssertEqual(api.pagesReused, 3, "all three pages came back the same")
        suffix.withLock { $0 = " (renamed)" }
        let titles = try await poll()
        XCTAssertEqual(titles[149], "Defect 150 (renamed)", "a changed page is decoded")
        XCTAssertEqual(titles.count, 250)
        XCTAssertEqual(api.pagesReused, 5, "the two others were not")
        await XCTAssertEqualAsync(try await poll(reuse: false).count, 250)
        await XCTAssertEqualAsync(try await poll()[149], "Defect 150 (renamed)")
        XCTAssertEqual(api.pagesReused, 5, "nothing kept across a poll that did not ask for it")
    }

    /// Text is cut by Unicode scalars too: one character with 200,000 combining marks is no longer kept whole.
    func test_text_isCutByScalars_notOnlyByCharacters() throws {
        let title = "Z" + String(repeating: "\u{301}", count: 200_000)
        let json = try JSONEncoder().encode(["title": title])
        let tag = try JSONDecoder().decode(WireTag.self, from: json)
        XCTAssertLessThanOrEqual(tag.title?.text.unicodeScalars.count ?? .max, 4 * LenientText.limit)
        XCTAssertTrue(tag.title?.text.unicodeScalars.starts(with: "Z\u{301}".unicodeScalars) ?? false)
    }

    func test_paging_stopsAtQasesLargestOffset() async {
        await XCTAssertThrowsErrorAsync(try await ids(api(ScriptedServer.list(count: 200_000)))) { error in
            XCTAssertTrue("\(error)".contains("more than 100000 items"), "\(error)")
        }
    }

    func test_tooManyRequests_waitsAtLeastRetryAfter_withJitter() async {
        let server = ScriptedServer { _ in HTTPResponse(status: 429, headers: [("Retry-After", "60")]) }
        var waits: Set<Double> = []
        for _ in 0..<20 {
            await XCTAssertThrowsErrorAsync(try await ids(api(server))) { error in
                guard case QaseError.rateLimited(let seconds?) = error else { return XCTFail("\(error)") }
                XCTAssertTrue((66...78).contains(seconds), "\(seconds)")
                waits.insert(seconds)
                XCTAssertTrue((error as? QaseError)?.isRateLimited == true)
            }
        }
        XCTAssertGreaterThan(waits.count, 1, "jittered")
        let hostile = ScriptedServer { _ in HTTPResponse(status: 429, headers: [("Retry-After", "99999999999999999")]) }
        await XCTAssertThrowsErrorAsync(try await ids(api(hostile))) { error in
            XCTAssertLessThanOrEqual((error as? QaseError)?.retryAfter ?? .infinity, RetryAfter.longest * 1.3)
        }
    }

    func test_errorAnswers_sayWhatWentWrong() async {
        let cases: [(HTTPResponse, String)] = [
            (
                HTTPResponse(status: 401, body: Array(#"{"status":false,"errorMessage":"API token is invalid"}"#.utf8)),
                "rejected the API token (HTTP 401: API token is invalid)"
            ),
            (
                HTTPResponse(status: 500, body: Array(#"{"status":false,"message":"boom\nfake line"}"#.utf8)),
                "HTTP 500 to the defect list request: boom fake line"
            ),
            (
                HTTPResponse(status: 200, headers: [("Content-Type", "text/html")], body: Array("<html>".utf8)),
                "an HTML page"
            ),
            (
                HTTPResponse(status: 200, body: Array(#"{"status": true, "result": {"entities": [{"id"#.utf8)),
                "not valid JSON"
            ),
            (
                HTTPResponse(
                    status: 200, body: Array(#"{"status": true, "result": {"entities": [{"title": "x"}]}}"#.utf8)),
                "no result.entities[0].id"
            ),
        ]
        for (response, words) in cases {
            await XCTAssertThrowsErrorAsync(try await ids(api(ScriptedServer { _ in response }))) { error in
                XCTAssertTrue("\(error)".contains(words), "\(error)")
            }
        }
    }

    func test_urls_encodeQueriesAndKeepFilterBrackets() {
        let url = api(ScriptedServer.list(count: 0)).url(
            ["search"], [("query", #"entity = "case" and project = "DEMO""#), ("filters[status]", "open")])
        XCTAssertEqual(
            url,
            "https://api.qase.io/v1/search?query=entity%20%3D%20%22case%22%20and%20project%20%3D%20"
                + "%22DEMO%22&filters[status]=open")
    }

    func test_theTokenIsSentAsTheTokenHeader_only() async throws {
        let seen = Mutex<[(String, String)]>([])
        let server = ScriptedServer { request in
            seen.withLock { $0 = request.headers }
            return HTTPResponse(status: 200, body: Array(#"{"status":true,"result":{"total":0,"entities":[]}}"#.utf8))
        }
        _ = try await ids(api(server))
        XCTAssertEqual(seen.withLock { $0.first { $0.0 == "Token" }?.1 }, "tok-123")
        XCTAssertFalse(server.requests.withLock { $0.joined() }.contains("tok-123"), "never in a URL")
    }
}

/// The pacer that keeps a token's requests under Qase's limit, on a clock of its own.
final class RequestPacerTests: XCTestCase {
    func test_aSteadyPollNeverWaits_aLargeOneIsSpreadOut_underTheLimitInAnyMinute() {
        final class Clock: @unchecked Sendable { var time = 0.0, waits: [Double] = [], sent: [Double] = [] }
        let clock = Clock()
        var pacer = RequestPacer(
            now: { clock.time },
            sleep: {
                clock.waits.append($0); clock.time += $0
            })
        for _ in 0..<15 { pacer.take(); clock.sent.append(clock.time) }
        XCTAssertEqual(clock.waits, [], "a steady poll")
        clock.time += 300  // the next poll
        for _ in 0..<400 {
            pacer.take()
            clock.sent.append(clock.time)
            clock.time += 0.01
        }
        XCTAssertLessThanOrEqual(clock.waits.max() ?? 0, 0.5, "each wait short: the watchdog sees progress")
        let busiest = clock.sent.map { start in clock.sent.filter { $0 >= start && $0 < start + 60 }.count }.max() ?? 0
        XCTAssertLessThanOrEqual(busiest, 181, "at most the burst and a minute's refill")
        XCTAssertGreaterThan(busiest, 150)
    }
}
