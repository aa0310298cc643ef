import Foundation
import TrackerHTTP
import XCTest

/// What one poll of a `[[json]]` list may cost, whatever its server sends (issue 27, items 1 and 6): the pages of
/// one read together are held to `max_size`, and no answer becomes a tree: its items stream. Measured on
/// the real `trackwatch check` against json-sim, by the peak resident memory of the process.
final class AnswerBoundsTests: JSONSimTestCase {
    /// One-item pages of 4.8 MB each: every page was held (541 MB after 100 pages) and the whole list stored
    /// (468 MB in the state folder), since `max_size` held each answer but nothing held their sum.
    func test_aListsPagesTogether_areHeldToMaxSize_andNothingIsStored() throws {
        let quiet = try listWorkspace("/list/bare").checkPeakMemory()
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        let workspace = try Workspace(serverURL: sim.url)
        workspace.timeout = "60s"
        try workspace.useList(
            url: sim.url + "/paging/endless-fresh?per_page=1&pad=4800000&pages=100", "max_pages = 100")
        let big = try workspace.checkPeakMemory()
        XCTAssertEqual(big.status, 76, big.stderr)
        XCTAssertTrue(big.stderr.contains("larger than max_size (16 MB)"), big.stderr)
        XCTAssertTrue(big.stderr.contains("raise max_size in [[json]] items"), big.stderr)
        XCTAssertLessThanOrEqual(try sim.requests(to: "GET /paging/endless-fresh"), 4, "no page read past the limit")
        let stored = try Self.bytes(under: workspace.stateHome)
        XCTAssertLessThan(stored, 1_048_576, "nothing is stored: \(stored) bytes in the state folder")
        // The items of 16 MB of pages, the page past it and its tree: within four times max_size of an idle check.
        XCTAssertLessThan(big.megabytes - quiet.megabytes, 64, "peak \(big.megabytes) MB, idle \(quiet.megabytes) MB")
        print("one-item pages of 4.8 MB: peak \(big.megabytes) MB (ordinary check \(quiet.megabytes) MB), "
            + "\(stored) bytes in the state folder")

        let thirty = sim.url + "/paging/endless-fresh?per_page=1&pad=100000&pages=30"
        try workspace.useList(url: thirty, "max_size = \"2MB\"")
        let small = try workspace.trackwatch(["check"])
        XCTAssertEqual(small.status, 76, small.stderr)
        XCTAssertTrue(small.stderr.contains("larger than max_size (2 MB)"), small.stderr)
        try workspace.useList(url: thirty, "max_size = \"4MB\"")
        let raised = try workspace.trackwatch(["check"])
        XCTAssertEqual(raised.status, 0, "max_size raises the limit: \(raised.stderr)")
        XCTAssertTrue(raised.stdout.contains("watching 30 items"), raised.stdout)
    }

    /// 16 MB answers as dense as JSON allows became a tree before any limit was checked: `[0,0,…]` peaked at
    /// 469 MB, `[[[0]],[[0]],…]` at 592 MB. Now they are counted before they are parsed and refused, naming the
    /// count, and what the count lets through streams: each item becomes a record as it is read, and of the rest
    /// only what paging and an error need is kept. No answer costs more than four times its size (or 4 MB) above an
    /// ordinary check, however its bulk is arranged: the densest the count allows, in the items or beside them, and
    /// an ordinary list of 16 MB.
    func test_anAnswer_costsAtMostFourTimesItsSize_beforeItIsATree() throws {
        let quiet = try listWorkspace("/list/bare").checkPeakMemory()
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        let size = 16_000_000, bound = 4 * size / 1_048_576
        for kind in ["zeros", "nested-zeros"] {
            // 16 MB from a debug build of json-sim beside CI's release build: more than the workspace's 5 s.
            let workspace = try listWorkspace("/fault/\(kind)?size=\(size)")
            workspace.timeout = "60s"
            try workspace.useList(url: sim.url + "/fault/\(kind)?size=\(size)")
            let hostile = try workspace.checkPeakMemory()
            XCTAssertEqual(hostile.status, 76, "\(kind): \(hostile.stderr)")
            XCTAssertTrue(hostile.stderr.contains("values for its size"), "\(kind): \(hostile.stderr)")
            XCTAssertLessThan(
                hostile.megabytes - quiet.megabytes, bound, "\(kind): \(hostile.megabytes) MB, idle \(quiet.megabytes)")
            print("a 16 MB answer of \(kind): peak \(hostile.megabytes) MB (ordinary check \(quiet.megabytes) MB)")
        }
        // Just inside the count (the outer array counts 3, the string that fills the rest of the 16 MB 1): every
        // value it allows as `0,` or `[[0]],` (7). They fail as items, each dropped as it was read.
        let allowed = JSONBudget.values(allowedFor: size) - JSONBudget.containerWeight - 1
        for (kind, count) in [("zeros", allowed), ("nested-zeros", allowed / (2 * JSONBudget.containerWeight + 1))] {
            let densest = try listWorkspace("/fault/\(kind)?size=\(size)&values=\(count)").checkPeakMemory()
            XCTAssertFalse(densest.stderr.contains("values for its size"), "\(kind): \(densest.stderr)")
            XCTAssertLessThan(
                densest.megabytes - quiet.megabytes, bound, "\(kind): \(densest.megabytes) MB, idle \(quiet.megabytes)")
            print("\(count) \(kind) in 16 MB: peak \(densest.megabytes) MB (ordinary check \(quiet.megabytes) MB)")
        }
        // The bulk beside the items (the generic list's 12 at /items, about 400 values, and the zeros after them
        // just inside the count): read and dropped, never a tree; the list itself is read as usual.
        let beside = try listWorkspace(
            "/fault/zeros-beside?size=\(size)&values=\(allowed - 1_000)", #"items = "/items""#
        ).checkPeakMemory()
        XCTAssertEqual(beside.status, 0, beside.stderr)
        XCTAssertLessThan(beside.megabytes - quiet.megabytes, bound, "beside: \(beside.megabytes) MB")
        print("\(allowed - 1_000) zeros beside the items in 16 MB: peak \(beside.megabytes) MB (ordinary check "
            + "\(quiet.megabytes) MB)")
        // An ordinary list of nearly max_size: its records are what it costs.
        try sim.control(.post, "items/reset", #"{"count": 75000}"#)
        let listSize = try Data(contentsOf: URL(string: sim.url + "/list/bare")!).count
        let ordinary = try listWorkspace("/list/bare").checkPeakMemory()
        XCTAssertEqual(ordinary.status, 0, ordinary.stderr)
        XCTAssertLessThan(
            ordinary.megabytes - quiet.megabytes, 4 * listSize / 1_048_576, "a list of \(listSize) bytes: "
                + "\(ordinary.megabytes) MB")
        print("a list of 75,000 items (\(listSize) bytes): peak \(ordinary.megabytes) MB (ordinary check "
            + "\(quiet.megabytes) MB)")
        // A small answer may hold the count's floor, held to 4 MB.
        let floor = JSONBudget.baseValues - JSONBudget.containerWeight
        let small = try listWorkspace("/fault/zeros?size=\(2 * floor)").checkPeakMemory()
        XCTAssertEqual(small.status, 78, "not objects, but read: \(small.stderr)")
        XCTAssertLessThan(small.megabytes - quiet.megabytes, 4, "peak \(small.megabytes), idle \(quiet.megabytes)")
        print("\(floor) zeros: peak \(small.megabytes) MB (ordinary: \(quiet.megabytes) MB)")
    }

    /// The bytes of every file under `path` (none when it does not exist).
    static func bytes(under path: String) throws -> Int {
        let files = FileManager.default.enumerator(atPath: path)
        var total = 0
        while let name = files?.nextObject() as? String {
            let attributes = try FileManager.default.attributesOfItem(atPath: path + "/" + name)
            if attributes[.type] as? FileAttributeType == .typeRegular { total += attributes[.size] as? Int ?? 0 }
        }
        return total
    }
}

extension Workspace {
    /// `XDG_STATE_HOME` of the commands run here: the state folder is under it.
    var stateHome: String { environment["XDG_STATE_HOME"] ?? stateDirectory }
}

/// The same count for Qase's answers, which Foundation's `JSONDecoder` reads (issue 27, item 6): a page with 16 MB
/// of `[0,0,…]` in a member the client ignores is refused before it is decoded; 16 MB of whitespace, no values,
/// is read as before.
final class QaseAnswerBoundsTests: XCTestCase {
    func test_aDenseQasePage_isRefusedBeforeItIsDecoded() throws {
        let sim = try QaseSim()
        let workspace = try Workspace(serverURL: sim.root)
        workspace.timeout = "60s"
        try workspace.useQase(sim)
        let quiet = try workspace.checkPeakMemory()
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        let size = 16_000_000, bound = 4 * size / 1_048_576
        for kind in ["dense", "oversize"] {
            try sim.fault(kind, on: "GET /search", size: size)
            let large = try workspace.checkPeakMemory()
            if kind == "dense" {
                XCTAssertEqual(large.status, 76, large.stderr)
                XCTAssertTrue(large.stderr.contains("values for its size"), large.stderr)
            } else {
                XCTAssertEqual(large.status, 0, large.stderr)
            }
            XCTAssertLessThan(large.megabytes - quiet.megabytes, bound, "\(kind): \(large.megabytes) MB")
            print("a 16 MB Qase page (\(kind)): peak \(large.megabytes) MB (ordinary check \(quiet.megabytes) MB)")
        }
    }
}
