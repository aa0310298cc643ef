import Glibc
import TrackwatchCore
import XCTest

/// Issue 36 items 1 and 12: text is cut to a bounded head before it is rewritten or split, so that a 15 MB title or
/// a comment of millions of short lines costs what its head costs — in time and in memory.
final class SafeTextBoundsTests: XCTestCase {
    private static let size = 15_000_000

    /// Runs `body` and returns its seconds and how far the process's peak resident memory rose above what was
    /// resident before (bytes), read from `/proc/self/status` after `clear_refs` reset the peak. `body` runs once
    /// before it is measured, so that the standard library's Unicode tables, first read then, are not counted.
    private func cost(_ body: () -> Void) -> (seconds: Double, peakGrowth: Int) {
        func status(_ key: String) -> Int {
            guard let file = fopen("/proc/self/status", "r") else { return 0 }
            defer { fclose(file) }
            var line = [CChar](repeating: 0, count: 256)
            while fgets(&line, Int32(line.count), file) != nil {
                let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if text.hasPrefix(key + ":") { return (Int(text.filter(\.isNumber)) ?? 0) * 1024 }
            }
            return 0
        }
        body()
        if let reset = fopen("/proc/self/clear_refs", "w") {
            fputs("5", reset)
            fclose(reset)
        }
        let before = status("VmRSS")
        var start = timespec(), end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        body()
        clock_gettime(CLOCK_MONOTONIC, &end)
        let seconds = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
        return (seconds, status("VmHWM") - before)
    }

    /// The first `count` scalars of `text`.
    private func prefix(_ text: String, _ count: Int) -> String { String(text.unicodeScalars.prefix(count)) }

    func test_aFifteenMegabyteTitle_isCutBeforeItIsRewritten() {
        let title = "Crash\u{1B}[31m on save \u{202E}" + String(repeating: "é\t", count: Self.size / 3)
        var results: [String] = []
        let cost = cost {
            results = [
                SafeText.oneLine(title, limit: 500), SafeText.bounded(title, 500),
                SafeText.oneLine(title, maxUTF8: 300), SafeText.firstLine(title, limit: 200),
            ]
        }
        let head = prefix(title, 10_000)
        XCTAssertEqual(
            results,
            [
                SafeText.oneLine(head, limit: 500), SafeText.bounded(head, 500), SafeText.oneLine(head, maxUTF8: 300),
                SafeText.firstLine(head, limit: 200),
            ])
        XCTAssert(results.allSatisfy { $0.hasSuffix("…") }, "each marked as cut")
        let lines = [results[0], results[2], results[3]]
        XCTAssert(lines.allSatisfy { $0.hasPrefix("Crash[31m on save é é") }, "one line")
        XCTAssertLessThan(cost.seconds, 0.1, "O(limit), not O(size)")
        XCTAssertLessThan(cost.peakGrowth, 2_000_000, "no copy of the text")
    }

    func test_aCommentOfMillionsOfShortLines_isNotSplitWhole() {
        let comment = "\n \n" + "Please look\r\n" + String(repeating: "x\n", count: Self.size / 2)
        var first = ""
        let cost = cost { first = SafeText.firstLine(comment, limit: 200) }
        XCTAssertEqual(first, "Please look")
        XCTAssertEqual(first, SafeText.firstLine(prefix(comment, 10_000), limit: 200))
        XCTAssertLessThan(cost.seconds, 0.1)
        XCTAssertLessThan(cost.peakGrowth, 2_000_000, "no array of every line")
    }

    func test_aCommentWhoseFirstLinesAreBlank_isReadUpToItsBlankLead() {
        XCTAssertEqual(SafeText.firstLine(String(repeating: "\n", count: 4_000) + "late", limit: 200), "late")
        let blank = String(repeating: " \n", count: Self.size / 2) + "too late"
        var first = "?"
        let cost = cost { first = SafeText.firstLine(blank, limit: 200) }
        XCTAssertEqual(first, "", "nothing said in the head")
        XCTAssertLessThan(cost.seconds, 0.1)
    }

    func test_oneHugeCharacter_isCutWithinItsScalars() {
        let zalgo = "Z" + String(repeating: "\u{0301}", count: Self.size / 2)
        var cut = ""
        let cost = cost { cut = SafeText.oneLine(zalgo, limit: 100) }
        XCTAssertLessThanOrEqual(cut.unicodeScalars.count, 400)
        XCTAssertTrue(cut.hasSuffix("…"))
        XCTAssertLessThan(cost.seconds, 0.1)
    }

    func test_aListOfManyValues_showsItsFirstValues_markingTheRest() {
        let labels = (0..<1_000_000).map { "l\($0 % 10)" }
        var shown = ""
        let cost = cost { shown = SafeText.list(labels, limit: 60) }
        XCTAssertEqual(shown, SafeText.list(Array(labels.prefix(250)), limit: 60, isCut: true))
        XCTAssertTrue(shown.hasPrefix("l0, l0, "), shown)
        XCTAssertTrue(shown.hasSuffix(", l9, …"), shown)
        XCTAssertLessThan(cost.seconds, 0.1)
        XCTAssertEqual(SafeText.list(["b", "a\u{1B}"], limit: 60), "a, b")
        XCTAssertEqual(SafeText.list(["b", "a"], limit: 60, sorted: false, separator: " "), "b a")
    }
}
