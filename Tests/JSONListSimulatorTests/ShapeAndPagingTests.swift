import JSONListSimulator
import SimulatorKit
import XCTest

final class ShapeAndPagingTests: XCTestCase {
    private var server: TestServer!

    /// A fresh server per test, made when it runs (XCTest creates every test case up front).
    override func setUp() { server = TestServer() }
    private let all = Array(1...12)

    /// The value at a JSON Pointer of plain member names.
    private func at(_ pointer: String, _ value: JSONValue?) -> JSONValue? {
        pointer.split(separator: "/").reduce(value) { $0?[String($1)] }
    }

    func test_everyShape_holdsTheSameItems_whereItsPointerSays() throws {
        XCTAssertEqual(server.call("GET", "/list/bare").ids, all)
        XCTAssertEqual(at("/data", server.call("GET", "/list/data").json)?.array?.compactMap { $0["id"]?.int }, all)
        XCTAssertEqual(at("/result/list/items", server.call("GET", "/list/nested").json)?.array?.count, 12)
        let jsonapi = server.call("GET", "/list/jsonapi")
        XCTAssertEqual(jsonapi.header("Content-Type"), "application/vnd.api+json")
        let first = try XCTUnwrap(jsonapi.json?["data"]?.array?.first)
        XCTAssertEqual(first["id"], .string("1"), "JSON:API ids are strings")
        XCTAssertEqual(first["attributes"]?["status"]?.string, "open")
        XCTAssertNil(first["attributes"]?["id"])
        let ndjson = server.call("GET", "/list/ndjson")
        XCTAssertEqual(ndjson.header("Content-Type"), "application/x-ndjson")
        let lines = ndjson.text.split(separator: "\n").map { try? JSONValue.parse(Array($0.utf8)) }
        XCTAssertEqual(lines.compactMap { $0?["id"]?.int }, all)
    }

    func test_linkHeader_pagesThroughEveryItemOnce() {
        var ids: [Int] = []
        var next: String? = "/paging/link?per_page=5"
        while let target = next {
            let answer = server.call("GET", target)
            ids += answer.ids
            next = linkTarget(answer.header("Link"), rel: "next")
        }
        XCTAssertEqual(ids, all)
        XCTAssertEqual(server.stats["requestsByRoute"]?["GET /paging/link"]?.int, 3)
    }

    func test_nextInTheBody_absoluteAndRelative() {
        for (style, prefix) in [("next-absolute", "http://\(TestServer.http)"), ("next-relative", "")] {
            var ids: [Int] = []
            var next: String? = "/paging/\(style)"
            while let target = next {
                let body = server.call("GET", target).json
                ids += body?["items"]?.array?.compactMap { $0["id"]?.int } ?? []
                next = body?["links"]?["next"]?.string
                if let link = next {
                    XCTAssertTrue(link.hasPrefix(prefix + "/paging/\(style)?"), link)
                    next = String(link.dropFirst(prefix.count))
                }
            }
            XCTAssertEqual(ids, all, style)
        }
    }

    func test_cursor_isOpaque_andPassedBackAsAParameter() throws {
        var ids: [Int] = []
        var cursor: String?
        repeat {
            let body = server.call("GET", "/paging/cursor?limit=4" + (cursor.map { "&cursor=\($0)" } ?? "")).json
            ids += body?["items"]?.array?.compactMap { $0["id"]?.int } ?? []
            cursor = body?["next_cursor"]?.string
            XCTAssertNil(cursor.flatMap { Int($0) }, "not a number a client could guess")
        } while cursor != nil
        XCTAssertEqual(ids, all)
        XCTAssertEqual(server.call("GET", "/paging/cursor?cursor=bm9wZQ").status, 400)
    }

    func test_numberedPages_endOnAShortPage_orAtTheStatedTotal() {
        XCTAssertEqual((1...4).flatMap { server.call("GET", "/paging/page?per_page=5&page=\($0)").ids }, all)
        XCTAssertEqual(server.call("GET", "/paging/page?per_page=5&page=3").ids.count, 2)
        XCTAssertEqual(server.call("GET", "/paging/offset?offset=10&limit=5").ids, [11, 12])
        let total = server.call("GET", "/paging/total?page=2&per_page=6").json
        XCTAssertEqual(total?["total"]?.int, 12)
        XCTAssertEqual(total?["items"]?.array?.count, 6)
    }

    func test_ignoredPageParameter_repeatsPageOne() {
        XCTAssertEqual(server.call("GET", "/paging/ignore-page?page=2").ids, [1, 2, 3, 4, 5])
        XCTAssertEqual(server.call("GET", "/paging/ignore-page?offset=3&limit=3").ids, [1, 2, 3])
        XCTAssertNotNil(linkTarget(server.call("GET", "/paging/ignore-page?page=2").header("Link"), rel: "next"))
    }

    func test_endlessNext_neverStops() {
        var target = "/paging/endless"
        for _ in 0..<200 {
            let answer = server.call("GET", target)
            XCTAssertEqual(answer.ids, [1, 2, 3, 4, 5])
            target = linkTarget(answer.header("Link"), rel: "next") ?? ""
        }
        XCTAssertEqual(target, "/paging/endless?page=201")
        XCTAssertNotNil(server.call("GET", "/paging/endless-body?page=500").json?["links"]?["next"]?.string)
        XCTAssertEqual(server.call("GET", "/paging/endless-fresh?page=1000&per_page=2").ids, [1999, 2000])
    }

    /// The path and query of a `Link` relation on this server.
    private func linkTarget(_ header: String?, rel: String) -> String? {
        guard let header else { return nil }
        for part in header.split(separator: ",") where part.contains("rel=\"\(rel)\"") {
            guard let start = part.firstIndex(of: "<"), let end = part.firstIndex(of: ">") else { continue }
            let url = String(part[part.index(after: start)..<end])
            return String(url.dropFirst("http://\(TestServer.http)".count))
        }
        return nil
    }
}
