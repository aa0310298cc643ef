import Logging
import SourceKit
import Synchronization
import TrackerHTTP
import XCTest

/// One element of a tracker's list that cannot be read is left out and told once; what is no list still fails.
final class LossyListTests: XCTestCase {
    private struct Issue: Decodable, Equatable {
        var id: Int64
        var number: Int
        var title: String?
    }

    private struct Invalid: Error { var detail: String }

    private struct Page: Decodable {
        var items: LossyList<Issue>
    }

    private final class Lines: LogHandler, @unchecked Sendable {
        let lines = Mutex<[String]>([])
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let extra = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
            lines.withLock { $0.append("\(event.message)\(extra)") }
        }
    }

    private func decode<Value: Decodable>(_ type: Value.Type, _ json: String, _ skipped: SkippedItems) throws -> Value {
        try JSONAnswer.decode(type, HTTPResponse(status: 200, headers: [], body: Array(json.utf8)), skipped: skipped) {
            Invalid(detail: $0)
        }
    }

    private func skipped() -> (SkippedItems, Lines) {
        let lines = Lines()
        return (SkippedItems(tracker: "GitHub", logger: Logger(label: "test") { _ in lines }), lines)
    }

    func test_elementsWithUnusableNumbers_areLeftOutAndNamedOnce_theRestKept() throws {
        let (skipped, log) = skipped()
        let json = """
            {"items": [
              {"id": 1, "number": 1, "title": "one"},
              {"id": 1000000000000000000000000000000, "number": 2, "html_url": "https://example.org/a/b/issues/2"},
              {"id": 3, "number": 9223372036854775808, "title": "three\\nWATCHDOG=1"},
              {"id": 4, "number": "4"},
              {"id": 5, "title": "no number"},
              42,
              {"id": 6, "number": 6}
            ]}
            """
        let page = try decode(Page.self, json, skipped)
        XCTAssertEqual(page.items.elements.map(\.id), [1, 6])
        XCTAssertEqual(page.items.skipped, 5)
        XCTAssertEqual(
            log.lines.withLock { $0 },
            [
                "GitHub sent an item with an unusable id; it is skipped, the rest is watched item=https://example.org/a/b/issues/2",
                "GitHub sent an item with an unusable number; it is skipped, the rest is watched item=three WATCHDOG=1",
                "GitHub sent an item with an unusable number; it is skipped, the rest is watched",
                "GitHub sent an item with an unusable number; it is skipped, the rest is watched item=no number",
                "GitHub sent an item that cannot be read; it is skipped, the rest is watched",
            ])
        _ = try decode(Page.self, json, skipped)
        XCTAssertEqual(log.lines.withLock { $0.count }, 5, "told once while the process runs")
    }

    func test_pagesAddUp_whatWasSentCountsTheElementsLeftOut_inTheOrderOfThePages() throws {
        let (skipped, _) = skipped()
        let first = try decode(Page.self, #"{"items": [{"id": 1, "number": 1}, {"id": 2, "number": 1e30}]}"#, skipped)
        let second = try decode(Page.self, #"{"items": [{"id": 3}, {"id": 4, "number": 4}]}"#, skipped)
        XCTAssertEqual([first.items.sent, second.items.sent], [2, 2], "a page of skipped elements is no empty page")
        var read = LossyList<Issue>()
        XCTAssertEqual(read.sent, 0)
        read += first.items
        read += second.items
        XCTAssertEqual(read.elements.map(\.id), [1, 4])
        XCTAssertEqual([read.skipped, read.sent], [2, 4], "where the next page starts")
        let backwards = LossyList(merging: [second.items, first.items])
        XCTAssertEqual(backwards.elements.map(\.id), [4, 1])
        XCTAssertEqual(backwards.skipped, 2)
    }

    func test_anAnswerThatIsNoList_stillFailsWhole() {
        let (skipped, _) = skipped()
        for json in [#"{"items": {"id": 1, "number": 1}}"#, #"{"items": [{"id": 1, "number": 1}"#, "<html></html>", ""] {
            XCTAssertThrowsError(try decode(Page.self, json, skipped), json)
        }
    }

    func test_oneItemAlone_thatCannotBeRead_isNil_butAnAnswerOfAnotherShapeFails() throws {
        let (skipped, log) = skipped()
        XCTAssertEqual(try decode(LossyItem<Issue>.self, #"{"id": 7, "number": 7}"#, skipped).value?.number, 7)
        XCTAssertNil(try decode(LossyItem<Issue>.self, #"{"id": 7, "number": 1e30, "title": "seven"}"#, skipped).value)
        XCTAssertEqual(
            log.lines.withLock { $0 },
            ["GitHub sent an item with an unusable number; it is skipped, the rest is watched item=seven"])
        for json in ["[]", "42", "<html></html>"] {
            XCTAssertThrowsError(try decode(LossyItem<Issue>.self, json, skipped), json)
        }
    }
}
