import Foundation
import XCTest

/// What one poll of a `[[json]]` list may cost, whatever its server sends (issue 27, items 1 and 6): the pages of
/// one read together are held to `max_size`, and no answer becomes a tree larger than its size allows. Measured on
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
