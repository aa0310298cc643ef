import Foundation
import XCTest

/// Every paging style of issue 19 against json-sim's `/paging/…` (12 items, pages of 5): each list is read whole
/// (a change on the last page and an item gone from the middle are reported once, in as many requests as there
/// are pages), and a server that ignores paging or never ends fails the poll with a message saying so, having
/// stored nothing.
final class JSONPagingTests: JSONSimTestCase {
    /// Each style's path, its keys, and the requests one poll takes (pages of 5: 5, 5, 2; of 4: 4, 4, 4 and the
    /// empty page that ends them).
    private static let styles: [(path: String, lines: String, pages: Int)] = [
        ("/paging/link", "", 3),
        ("/paging/next-absolute", "items = \"/items\"\nnext = \"/links/next\"", 3),
        ("/paging/next-relative", "items = \"/items\"\nnext = \"/links/next\"", 3),
        ("/paging/cursor", "items = \"/items\"\ncursor = \"/next_cursor\"\ncursor_param = \"cursor\"", 3),
        ("/paging/page", "page_param = \"page\"", 3),
        ("/paging/page", "page_param = \"page\"\nper_page_param = \"per_page\"\nper_page = 4", 4),
        ("/paging/offset", "offset_param = \"offset\"\nlimit_param = \"limit\"\nlimit = 5", 3),
        ("/paging/total", "items = \"/items\"\npage_param = \"page\"\ntotal = \"/total\"", 3),
    ]

    func test_everyPagingStyle_readsTheWholeList_andReportsOnce() throws {
        for (path, lines, pages) in Self.styles {
            try sim.reset()
            let workspace = try listWorkspace(path, lines)
            let baseline = try workspace.trackwatch(["check"])
            XCTAssertEqual(baseline.status, 0, "\(path) \(lines): \(baseline.stderr)")
            XCTAssertTrue(baseline.stdout.contains("watching 12 items"), "\(path) \(lines): \(baseline.stdout)")
            XCTAssertEqual(try sim.requests(to: "GET " + path), pages, "\(path) \(lines)")

            try sim.setItem(12, #"{"status": "reopened"}"#)  // on the last page
            try sim.removeItem(6)
            let changes = try workspace.checkChanges()
            XCTAssertEqual(changeSummaries(changes), ["12 changed", "6 left"], "\(path) \(lines)")
            XCTAssertEqual(fieldChanges(changes.first), ["status: closed → reopened"], "\(path) \(lines)")
            XCTAssertEqual(try workspace.checkChanges().count, 0, "\(path) \(lines): reported once")
        }
    }

    /// Page 2 repeats page 1 (the parameter ignored), a `next` link or body pointer that never ends, fresh pages
    /// forever: each poll fails with what the server does wrong, reads a bounded number of pages and stores
    /// nothing — no baseline, no keys counted twice.
    func test_paginationTheServerIgnoresOrNeverEnds_failsThePoll_sayingSo() throws {
        let cases: [(path: String, lines: String, says: String, pages: Int)] = [
            ("/paging/ignore-page", "page_param = \"page\"", "page 2 repeats the items of an earlier page", 2),
            ("/paging/ignore-page", "", "page 2 repeats the items of an earlier page", 2),
            ("/paging/endless", "", "page 2 repeats the items of an earlier page", 2),
            ("/paging/endless-body", "items = \"/items\"\nnext = \"/links/next\"", "page 2 repeats", 2),
            ("/paging/endless-fresh", "max_pages = 7", "did not end after 7 pages (max_pages)", 7),
        ]
        for (path, lines, says, pages) in cases {
            try sim.reset()
            let workspace = try listWorkspace(path, lines)
            let result = try workspace.trackwatch(["check"])
            XCTAssertEqual(result.status, 76, "\(path) \(lines): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(says), "\(path) \(lines): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "no baseline")
            XCTAssertEqual(try sim.requests(to: "GET " + path), pages, "\(path) \(lines): never a loop")
            let status = try XCTUnwrap(try workspace.trackwatch(["status", "--json"]).objects.first)
            XCTAssertEqual(status["records"] as? [String: Int], [:], "\(path): nothing stored")
        }
    }

    /// The list's shapes: `{"data": …}`, nested, JSON:API (a field by JSON Pointer) and NDJSON.
    func test_shapes_itemsFoundByPointer_fieldsByPointer() throws {
        let cases: [(path: String, lines: String, field: String)] = [
            ("/list/data", "items = \"/data\"", "status"),
            ("/list/nested", "items = \"/result/list/items\"", "status"),
            (
                "/list/jsonapi",
                "items = \"/data\"\nfields = [\"/attributes/status\"]\ntitle = \"{/attributes/title}\"",
                "/attributes/status"
            ),
            ("/list/ndjson", "", "status"),
        ]
        for (path, lines, field) in cases {
            try sim.reset()
            let workspace = try listWorkspace(path, lines.contains("title") ? lines : lines + "\ntitle = \"{title}\"")
            XCTAssertEqual(try workspace.checkChanges().count, 0, path)
            try sim.setItem(3, #"{"status": "closed"}"#)
            let changes = try workspace.checkChanges()
            XCTAssertEqual(changeSummaries(changes), ["3 changed"], path)
            XCTAssertEqual(fieldChanges(changes.first), ["\(field): blocked → closed"], path)
            XCTAssertEqual(changes.first?["headline"] as? String, "東京 office printer offline", path)
        }
    }
}
