import Foundation
import TrackerHTTP
import TestSupport
import XCTest

/// `[[json]]` against json-sim over real HTTP: the device tracker and the class directory as issue 19 describes
/// them, each change reported once, field by field; and the commands that read the state through the seam.
final class JSONListTests: JSONSimTestCase {
    private func devices() throws -> Workspace {
        try listWorkspace(
            "/devices", name: "devices",
            """
            title = "{device} ({os})"
            by = "lastCheckedOutBy"
            link = "https://devices.example.com/#/device/{id}"
            """)
    }

    func test_deviceTracker_aColleagueChecksOutTheDevice_reportedOnceWithWhoAndWhat() throws {
        let workspace = try devices()
        let baseline = try workspace.trackwatch(["check"])
        XCTAssertEqual(baseline.status, 0, baseline.stderr)
        XCTAssertEqual(
            baseline.stdout, "Baseline: watching 6 items of devices; changes are reported from the next check on.\n")

        try sim.act("checkout", "--device", "1", "--as", "Sam Carter")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(changes), ["1 changed"])
        let change = changes.first
        XCTAssertEqual(change?["headline"] as? String, "Pixel 8 (Android 14)")
        XCTAssertEqual(change?["by"] as? String, "Sam Carter")
        XCTAssertEqual(change?["source"] as? String, "devices")
        XCTAssertEqual(change?["watch"] as? String, "devices")
        XCTAssertEqual(
            Array(fieldChanges(change).prefix(2)), ["isCheckedOut: false → true", "lastCheckedOutBy: ∅ → Sam Carter"])
        XCTAssertEqual(try workspace.checkChanges().count, 0, "reported once")

        try sim.act("checkin", "--device", "1")
        try sim.act("add-device", "--device", "Pixel 9", "--os", "Android 15", "--manufacturer", "Google")
        try sim.act("delete-device", "--device", "5")
        let next = try workspace.trackwatch(["check"])
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertEqual(
            next.lines,
            [
                // Issue 27, item 11: each item named by its title, with who (before: `1 changed in devices: …`).
                "Pixel 8 (Android 14) changed by Sam Carter in devices (isCheckedOut: true → false)",
                "Pixel 9 (Android 15) now in devices",
                "Moto G Power (Android 13) no longer in devices",
            ])
    }

    /// The class directory's bad data: nothing crashes; the entry without a key and the key shared by two entries
    /// that differ are never entered or left, and one warning per poll names them.
    func test_classDirectory_badData_keylessAndDuplicatedNeverEnteredOrLeft_oneWarningNamesThem() throws {
        let workspace = try Workspace(serverURL: sim.url)
        let password = try workspace.secretFile("directory-password", "pw-dl123")
        try workspace.useList(
            url: sim.url + "/entries/all", name: "directory",
            """
            key = "DUID"
            title = "{fName} {lName}"
            fields = ["team", "role"]
            username = "dl123"
            password_file = "\(password)"
            """)
        let baseline = try workspace.trackwatch(["check"])
        XCTAssertEqual(baseline.status, 0, baseline.stderr)
        XCTAssertTrue(baseline.stdout.contains("watching 14 items of directory"), baseline.stdout)
        let warnings = baseline.stderr.split(separator: "\n").filter { $0.contains("left out") }
        XCTAssertEqual(warnings.count, 1, baseline.stderr)
        XCTAssertTrue(warnings.first?.contains("item 16 (Guest User)") == true, baseline.stderr)
        XCTAssertTrue(warnings.first?.contains("1000014 (2 items)") == true, baseline.stderr)

        try sim.act(
            "join", "--netid", "nj901", "--duid", "1000020", "--first", "Nia", "--last", "Jones", "--team", "Team Heron"
        )
        try sim.act("change-team", "--netid", "jp220", "--team", "Team Osprey")
        try sim.act("edit-entry", "--netid", "bp56", "--set", "hobby=sailing")  // not a compared field
        let changes = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(changes.status, 0, changes.stderr)
        XCTAssertEqual(changeSummaries(changes.objects), ["1000004 changed", "1000020 entered"])
        XCTAssertEqual(fieldChanges(changes.objects.first), ["team: Team Kestrel → Team Osprey"])
        XCTAssertEqual(
            changes.stderr.split(separator: "\n").filter { $0.contains("left out") }.count, 1,
            "one warning per poll: \(changes.stderr)")

        // Jordan's two entries made one (in Team Osprey): the key is no longer ambiguous, and what the baseline kept
        // for it (the first entry, Team Heron) changed — not an entry.
        try sim.act("edit-entry", "--netid", "jc78", "--set", "team=Team Osprey")
        let resolved = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(resolved), ["1000014 changed"])
        XCTAssertEqual(fieldChanges(resolved.first), ["team: Team Heron → Team Osprey"])
    }

    /// Every field of the directory compared, the 1.5 MB picture among them: what is stored per item is bounded
    /// (a long value keeps its start, its length and a digest), and a new picture is still a change.
    func test_longValues_areStoredCut_keepingTheirLength_andAChangeIsStillSeen() throws {
        let workspace = try Workspace(serverURL: sim.url)
        let password = try workspace.secretFile("directory-password", "pw-bp56")
        try workspace.useList(
            url: sim.url + "/entries/all", name: "directory",
            """
            key = "DUID"
            username = "bp56"
            password_file = "\(password)"
            """)
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        XCTAssertEqual(try workspace.checkChanges().count, 0, "a long value unchanged is no change")
        let database = workspace.directory.appendingPathComponent("xdg-state/trackwatch/sources/directory/state.sqlite")
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: database.path)[.size] as? Int)
        XCTAssertLessThan(size, 200_000, "16 entries, one with a 1.5 MB picture: \(size) bytes stored")

        // A new picture, as bp56's app uploads it (too long for `act`'s command line).
        let http = try AsyncHTTPTransport()
        let basic = [("Authorization", "Basic " + Data("bp56:pw-bp56".utf8).base64EncodedString())]
        let all = try http.sendWaiting(HTTPRequest(method: .get, url: sim.url + "/entries/all", headers: basic, timeout: 10))
        var entry = try XCTUnwrap(
            (try JSONSerialization.jsonObject(with: Data(all.body)) as? [[String: Any]])?
                .first { $0["netid"] as? String == "bp56" })
        entry["picture"] = String(repeating: "B", count: 1_500_000)
        let put = try http.sendWaiting(
            HTTPRequest(
                method: .put, url: sim.url + "/entries/bp56",
                headers: basic + [("Content-Type", "application/json")],
                body: Array(try JSONSerialization.data(withJSONObject: entry)), timeout: 10))
        XCTAssertEqual(put.status, 200)
        let changes = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(changeSummaries(changes.objects), ["1000013 changed"], changes.stderr)
        let picture = (changes.objects.first?["changes"] as? [[String: Any]])?.first
        XCTAssertEqual(picture?["field"] as? String, "picture")
        XCTAssertTrue((picture?["old"] as? String)?.contains("… (1500000 characters, #") == true, "\(picture ?? [:])")
        XCTAssertTrue(
            (picture?["new"] as? String)?.hasPrefix(String(repeating: "B", count: 900)) == true
                && (picture?["new"] as? String)?.contains("… (1500000 characters, #") == true)
        XCTAssertLessThan(changes.rawStdout.count, 3_000, "the change's line stays small")
        let page = try workspace.trackwatch(["log", "--html"])
        XCTAssertLessThan(page.rawStdout.count, 50_000, "the page stays small")
    }

    /// `status`, `log` (lines, JSON and the page) and `mute` read a list's state through the seam.
    func test_statusLogPageAndMute_coverAListSource() throws {
        let workspace = try devices()
        _ = try workspace.checkChanges()
        try sim.act("checkout", "--device", "3", "--as", "Priya <b>Nair</b>")
        XCTAssertEqual(try workspace.checkChanges().count, 1)

        let status = try workspace.trackwatch(["status"])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.contains("Watching:     6 records (items)"), status.stdout)
        let json = try XCTUnwrap(try workspace.trackwatch(["status", "--json"]).objects.first)
        XCTAssertEqual(json["lastPollOK"] as? Bool, true)
        XCTAssertEqual(json["records"] as? [String: Int], ["items": 6])

        let log = try workspace.trackwatch(["log"])
        XCTAssertEqual(log.status, 0, log.stderr)
        XCTAssertTrue(log.stdout.contains("[devices] Galaxy S23 (Android 14) changed"), log.stdout)
        XCTAssertEqual(try workspace.trackwatch(["log", "--json"]).objects.first?["source"] as? String, "devices")
        let page = try workspace.trackwatch(["log", "--html"])
        XCTAssertTrue(page.stdout.contains(#"href="https://devices.example.com/#/device/3""#), "linked: \(page.stdout)")
        XCTAssertTrue(page.stdout.contains("Priya &lt;b&gt;Nair&lt;/b&gt;"), "server text escaped")

        let mute = try workspace.trackwatch(["mute", "3"])
        XCTAssertEqual(mute.status, 0, mute.stderr)
        XCTAssertTrue(mute.stdout.contains("until its lastCheckedOutBy changes"), mute.stdout)
        XCTAssertFalse(mute.stdout.contains("enters or leaves"), "entering or leaving a list lifts no mute: \(mute.stdout)")
        XCTAssertTrue(try workspace.trackwatch(["mute"]).stdout.contains("3  muted since"))
        XCTAssertEqual(try workspace.trackwatch(["unmute", "3"]).status, 0)
        XCTAssertEqual(try workspace.trackwatch(["mute"]).stdout, "")
    }
}
