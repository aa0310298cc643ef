import Foundation
import XCTest

/// Answers that change without meaning anything (`/mess/…`), every encoding a server uses (`/encoding/…`), and
/// conditional requests (`/conditional/…`), against json-sim over real HTTP.
final class JSONMessTests: JSONSimTestCase {
    /// `42` vs `"42"`, `1.0` vs `1`, items and members in another order: no change, poll after poll (the answers
    /// alternate); a real change among the mess is still reported, once.
    func test_spellingAndOrderChanges_areNoChange() throws {
        for variant in ["spelling", "order"] {
            try sim.reset()
            let workspace = try listWorkspace("/mess/\(variant)")
            XCTAssertEqual(try workspace.checkChanges().count, 0, variant)
            for _ in 1...3 { XCTAssertEqual(changeSummaries(try workspace.checkChanges()), [], variant) }
            try sim.setItem(2, #"{"priority": 4}"#)
            for _ in 1...2 { _ = try workspace.checkChanges() }  // both spellings of the answer seen since
            XCTAssertEqual(
                try workspace.trackwatch(["log", "--json"]).objects.map(fieldChanges), [["priority: 2 → 4"]],
                "\(variant): once")
        }
    }

    /// `updated_at` changes on every answer: with `ignore` nothing is reported; without, every poll would be.
    func test_aFieldThatChangesOnEveryAnswer_isIgnored() throws {
        let ignoring = try listWorkspace("/mess/mix", "ignore = [\"updated_at\"]")
        XCTAssertEqual(try ignoring.checkChanges().count, 0)
        for _ in 1...3 { XCTAssertEqual(changeSummaries(try ignoring.checkChanges()), []) }

        let comparing = try listWorkspace("/mess/timestamp")
        XCTAssertEqual(try comparing.checkChanges().count, 0)
        XCTAssertEqual(try comparing.checkChanges().count, 12, "the control: without ignore, every item changes")
    }

    /// gzip (asked for, and sent unasked), chunked, a byte order mark, a charset, text/plain without one: the same
    /// list, its non-ASCII text intact.
    func test_everyEncoding_readsTheSameList() throws {
        for variant in ["gzip", "gzip-always", "chunked", "bom", "charset", "text-plain"] {
            try sim.reset()
            let workspace = try listWorkspace("/encoding/\(variant)", "title = \"{title}\"")
            XCTAssertEqual(try workspace.checkChanges().count, 0, variant)
            try sim.setItem(1, #"{"assignee": "sam"}"#)
            let changes = try workspace.checkChanges()
            XCTAssertEqual(changeSummaries(changes), ["1 changed"], variant)
            XCTAssertEqual(changes.first?["headline"] as? String, "Crash on save – Müller’s “Straße” report", variant)
            if variant == "gzip" {
                XCTAssertEqual(try sim.stats()["gzipped"] as? Int, 2, "asked for gzip, and got it")
            }
        }
    }

    /// `If-None-Match` and `If-Modified-Since` from the last answer: an unchanged list is a quiet 304 poll; a change
    /// is reported once; and an answer that was never committed (`check --dry-run`) is never vouched for by a 304.
    func test_conditionalRequests_304IsQuiet_andNothingIsLost() throws {
        for variant in ["etag", "weak-etag", "last-modified", "both"] {
            try sim.reset()
            let workspace = try listWorkspace("/conditional/\(variant)")
            XCTAssertEqual(try workspace.checkChanges().count, 0, variant)
            XCTAssertEqual(try workspace.checkChanges().count, 0, variant)
            XCTAssertEqual(try sim.stats()["notModified"] as? Int, 1, "\(variant): the second poll was a 304")
            XCTAssertTrue(try workspace.trackwatch(["status"]).stdout.contains("(ok,"), variant)

            try sim.setItem(4, #"{"status": "open"}"#)
            let dryRun = try workspace.trackwatch(["check", "--dry-run", "--json"])
            XCTAssertEqual(changeSummaries(dryRun.objects), ["4 changed"], variant)
            XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["4 changed"], "\(variant): not lost to a 304")
            XCTAssertEqual(try workspace.checkChanges().count, 0, "\(variant): once")
            XCTAssertEqual(try sim.stats()["notModified"] as? Int, 2, "\(variant): quiet again")
        }
    }
}
