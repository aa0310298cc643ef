import Foundation
import Glibc
@testable import JiraClient
import TrackwatchCore
import XCTest

/// Issue 36 item 12: a dense `labels` answer (15 MB of one-letter labels) is read as its first labels, each cut,
/// before anything is joined: the field is what the same issue with only those labels gives, in bounded memory.
final class JiraDenseListTests: XCTestCase {
    private struct Nothing: Decodable {}

    /// How far the peak resident memory rose above what was resident before `body` (bytes).
    private func peakGrowth(_ body: () throws -> Void) rethrows -> Int {
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
        if let reset = fopen("/proc/self/clear_refs", "w") {
            fputs("5", reset)
            fclose(reset)
        }
        let before = status("VmRSS")
        try body()
        return status("VmHWM") - before
    }

    private func issue(labels: [String]) -> Data {
        let list = labels.map { "\"\($0)\"" }.joined(separator: ",")
        return Data(#"{"id":"10001","key":"WEB-1","fields":{"summary":"S","labels":[\#(list)]}}"#.utf8)
    }

    func test_aDenseLabelsAnswer_isReadAsItsFirstLabels_inBoundedMemory() throws {
        let mapping = JiraMapping(me: "me", url: "https://jira.example.com")
        let labels = (0..<3_000_000).map { "l\($0 % 10)" }
        let dense = issue(labels: labels)
        XCTAssertGreaterThan(dense.count, 14_000_000)
        // What Foundation's decoder costs to read the answer at all (its map of every value, about 48 bytes each),
        // as the yardstick: what trackwatch adds on top of it is bounded.
        let decoding = try peakGrowth { _ = try JSONDecoder().decode(Nothing.self, from: dense) }
        var value: String?
        let growth = try peakGrowth {
            let decoded = try JSONDecoder().decode(JiraIssue.self, from: dense)
            value = mapping.item(decoded, isMine: true)?.record[JiraFields.labels]
        }
        let few = try JSONDecoder().decode(JiraIssue.self, from: issue(labels: Array(labels.prefix(250))))
        XCTAssertEqual(value, mapping.item(few, isMine: true)?.record[JiraFields.labels])
        XCTAssertEqual(value?.count, 500, "the field's bound")
        XCTAssertTrue(value?.hasPrefix("l0 l1 l2 ") == true)
        XCTAssertLessThan(
            growth - decoding, 4_000_000, "no array, copy or join of every label: \(growth) vs \(decoding)")
    }
}
