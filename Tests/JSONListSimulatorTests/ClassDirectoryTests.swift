import JSONListSimulator
import SimulatorKit
import XCTest

final class ClassDirectoryTests: XCTestCase {
    private var server: TestServer!

    /// A fresh server per test, made when it runs (XCTest creates every test case up front).
    override func setUp() { server = TestServer() }
    private let dana = TestServer.basic("dl123", "pw-dl123")

    private func everyone() throws -> [JSONValue] {
        try XCTUnwrap(server.call("GET", "/entries/all", authorization: dana).json?.array)
    }

    func test_download_needsBasicCredentials_ofSomeoneOnTheRoster() {
        let anonymous = server.call("GET", "/entries/all")
        XCTAssertEqual(anonymous.status, 401)
        XCTAssertEqual(anonymous.header("WWW-Authenticate"), #"Basic realm="ECE 564 directory""#)
        XCTAssertEqual(server.call("GET", "/entries/all", authorization: TestServer.basic("dl123", "nope")).status, 401)
        XCTAssertEqual(
            server.call("GET", "/entries/all", authorization: TestServer.basic("nj901", "pw-nj901")).status,
            200, "a newcomer without an entry may read")
    }

    func test_seed_holdsTheBadDataPeoplePush() throws {
        let entries = try everyone()
        XCTAssertEqual(entries.count, 16)
        XCTAssertTrue(entries.contains { $0["role"]?.string == "Teaching Asistant" }, "an unknown role")
        XCTAssertTrue(entries.contains { $0["netid"]?.string == "mf12" && $0["lName"] == nil }, "missing fields")
        XCTAssertTrue(entries.contains { $0["team"] == .null && $0["email"] == .null }, "nulls")
        XCTAssertTrue(entries.contains { $0["DUID"] == .string("1000012") }, "a key spelled as a string")
        XCTAssertTrue(entries.contains { ($0["picture"]?.string?.utf8.count ?? 0) >= 1_500_000 }, "a 1.5 MB picture")
        XCTAssertEqual(entries.filter { $0["DUID"]?.int == 1_000_014 }.count, 2, "two entries share a key")
        XCTAssertEqual(entries.filter { $0["DUID"] == nil && $0["netid"] == nil }.count, 1, "one has no key")
        XCTAssertTrue(entries.contains { $0["languages"] == .string("Swift, Kotlin") }, "a string for an array")
    }

    func test_join_createsYourOwnEntryOnce() throws {
        let newcomer = TestServer.basic("nj901", "pw-nj901")
        let entry: JSONValue = ["DUID": 1_000_901, "netid": "nj901", "fName": "Noor", "team": "Team Kestrel"]
        XCTAssertEqual(
            server.call("POST", "/entries/create", body: ["netid": "nj902"], authorization: newcomer).status,
            403, "not someone else's")
        XCTAssertEqual(server.call("POST", "/entries/create", body: entry, authorization: newcomer).status, 201)
        XCTAssertEqual(server.call("POST", "/entries/create", body: entry, authorization: newcomer).status, 409)
        XCTAssertEqual(try everyone().last?["fName"]?.string, "Noor")
    }

    func test_update_replacesOnlyYourOwnEntry() throws {
        var mine = try XCTUnwrap(try everyone().first { $0["netid"]?.string == "dl123" })
        mine["team"] = "Team Heron"
        XCTAssertEqual(server.call("PUT", "/entries/jp220", body: mine, authorization: dana).status, 403)
        XCTAssertEqual(server.call("PUT", "/entries/dl123", body: mine, authorization: dana).status, 200)
        XCTAssertEqual(try everyone().first { $0["netid"]?.string == "dl123" }?["team"]?.string, "Team Heron")
    }

    func test_update_ofTheDuplicatedEntry_replacesBoth() throws {
        let casey = TestServer.basic("jc78", "pw-jc78")
        let entry: JSONValue = ["DUID": 1_000_014, "netid": "jc78", "fName": "Jordan", "team": "Team Kestrel"]
        XCTAssertEqual(server.call("PUT", "/entries/jc78", body: entry, authorization: casey).status, 200)
        XCTAssertEqual(
            try everyone().filter { $0["netid"]?.string == "jc78" }.map { $0["team"]?.string },
            ["Team Kestrel", "Team Kestrel"])
    }
}
