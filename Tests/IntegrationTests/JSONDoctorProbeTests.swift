import Foundation
import XCTest

/// `doctor` and `probe` on `[[json]]` sources against json-sim: what they read, what they say, and the fix when
/// something is wrong. Both read only: nothing is stored.
final class JSONDoctorProbeTests: JSONSimTestCase {
    func test_doctor_readsTheList_andSaysWhatItFound() throws {
        let workspace = try listWorkspace("/paging/link", "title = \"{title}\"")
        let doctor = try workspace.trackwatch(["doctor"])
        XCTAssertTrue(doctor.lines.contains("✔ [[json]] items read from \(sim.url)/paging/link"), doctor.stdout)
        XCTAssertTrue(
            doctor.lines.contains(
                #"✔ 12 items at items "", 12 with the key "id"; 3 pages, found through Link headers"#),
            doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("has no state yet"), "nothing stored: \(doctor.stdout)")

        try workspace.useList(url: sim.url + "/list/data", "items = \"/items\"")
        let wrong = try workspace.trackwatch(["doctor"])
        XCTAssertEqual(wrong.status, 1)
        let failed = try XCTUnwrap(wrong.lines.firstIndex { $0.hasPrefix("✘ [[json]] items read from") }, wrong.stdout)
        XCTAssertTrue(wrong.lines[failed].contains(#"its lists are at "/data""#), wrong.stdout)
        XCTAssertEqual(wrong.lines[failed + 1], "    fix: correct the keys the message names in [[json]]")

        let refused = try listWorkspace(
            "/entries/all", "key = \"DUID\"\nusername = \"dl123\"\npassword_file = \"/nonexistent/pw\"")
        let noPassword = try refused.trackwatch(["doctor"])
        XCTAssertTrue(
            noPassword.lines.contains { $0.hasPrefix("✘ credentials of [[json]] items (HTTP Basic as dl123") },
            noPassword.stdout)
        XCTAssertTrue(
            noPassword.lines.contains("· skipped: reading [[json]] items (needs the credentials)"), noPassword.stdout)
    }

    /// `probe --save` writes the exchange, redacted: each request's path and each answer's status, no token, no item
    /// (issue 27, item 7: it wrote `[]`).
    func test_probeSave_writesTheExchange_redacted() throws {
        let workspace = try listWorkspace("/auth/bearer", "token_file = \"\(try tokenFile())\"")
        let saved = workspace.directory.appendingPathComponent("probe.json")
        let probe = try workspace.trackwatch(["probe", "--save", saved.path])
        XCTAssertEqual(probe.status, 0, probe.stdout + probe.stderr)
        let text = try String(contentsOf: saved, encoding: .utf8)
        XCTAssertTrue(text.contains(#""route" : "/auth/bearer""#), text)
        XCTAssertTrue(text.contains(#""status" : 200"#), text)
        XCTAssertFalse(text.contains("list-token"), "no token: \(text)")
        XCTAssertFalse(text.contains("127.0.0.1"), "no host: \(text)")
    }

    private func tokenFile() throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("json-token-\(UUID().uuidString)")
        try Data("list-token\n".utf8).write(to: file)
        chmod(file.path, 0o600)
        addTeardownBlock { try? FileManager.default.removeItem(at: file) }
        return file.path
    }

    func test_probe_saysWhatTheServerAnswers() throws {
        let workspace = try listWorkspace("/encoding/gzip")
        let gzip = try workspace.trackwatch(["probe"])
        XCTAssertEqual(gzip.status, 0, gzip.stdout + gzip.stderr)
        XCTAssertTrue(
            gzip.lines.contains { $0.hasPrefix("✔ \(sim.url)/encoding/gzip answered HTTP 200:") }, gzip.stdout)
        XCTAssertTrue(
            gzip.lines.contains("✔ encoding: Content-Encoding gzip, inflated, no charset (read as UTF-8)"), gzip.stdout)
        XCTAssertTrue(gzip.lines.contains(#"✔ 12 items at items ""; 12 keys in "id""#), gzip.stdout)
        XCTAssertTrue(
            gzip.lines.contains("⚠ no ETag or Last-Modified: conditional requests are not possible"), gzip.stdout)

        try workspace.useList(url: sim.url + "/conditional/both")
        let conditional = try workspace.trackwatch(["probe"])
        XCTAssertTrue(
            conditional.lines.contains("✔ conditional requests: ETag and Last-Modified answered with 304 Not Modified"),
            conditional.stdout)

        try workspace.useList(
            url: sim.url + "/paging/cursor", "items = \"/items\"\ncursor = \"/next_cursor\"\ncursor_param = \"cursor\"")
        let cursor = try workspace.trackwatch(["probe"])
        XCTAssertTrue(cursor.lines.contains("✔ paging: 3 pages, found through a cursor"), cursor.stdout)

        try workspace.useList(url: sim.url + "/list/ndjson")
        XCTAssertTrue(try workspace.trackwatch(["probe"]).stdout.contains("NDJSON, one item per line"))

        try workspace.useList(url: sim.url + "/mess/spelling")
        try sim.control(.put, "items", #"[{"id": 1}, {"id": 1, "x": 2}, {"name": "no key"}]"#)
        let mess = try workspace.trackwatch(["probe"])
        XCTAssertTrue(mess.lines.contains("⚠ 1 items without a key, 1 keys shared by items that differ"), mess.stdout)

        try workspace.useList(url: sim.url + "/fault/500")
        let down = try workspace.trackwatch(["probe"])
        XCTAssertEqual(down.status, 69, down.stdout)
        XCTAssertTrue(down.lines.contains { $0.hasPrefix("✘ [[json]] items: items answered HTTP 500") }, down.stdout)
        XCTAssertEqual(
            try XCTUnwrap(try workspace.trackwatch(["status", "--json"]).objects.first)["records"] as? [String: Int],
            [:])
    }
}
