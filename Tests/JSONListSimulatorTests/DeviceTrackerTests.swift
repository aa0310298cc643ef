import JSONListSimulator
import SimulatorKit
import XCTest

final class DeviceTrackerTests: XCTestCase {
    private var server: TestServer!

    /// A fresh server per test, made when it runs (XCTest creates every test case up front).
    override func setUp() { server = TestServer() }

    private func device(_ id: Int) -> JSONValue? {
        server.call("GET", "/devices").json?.array?.first { $0["id"]?.int == id }
    }

    func test_seed_isABareArray_withThePixel8CheckedIn() throws {
        let devices = try XCTUnwrap(server.call("GET", "/devices").json?.array)
        XCTAssertEqual(devices.count, 6)
        let pixel = try XCTUnwrap(devices.first { $0["device"]?.string == "Pixel 8" })
        XCTAssertEqual(pixel["isCheckedOut"], .bool(false))
        XCTAssertEqual(pixel["lastCheckedOutBy"], .null)
        XCTAssertEqual(devices[1]["lastCheckedOutBy"]?.string, "Chris Evans")
    }

    func test_checkOut_needsAName_thenRecordsWhoAndWhen() {
        XCTAssertEqual(server.call("POST", "/devices/1", body: ["isCheckedOut": true]).status, 400)
        XCTAssertEqual(device(1)?["isCheckedOut"], .bool(false), "a refused check-out changes nothing")
        let answer = server.call("POST", "/devices/1", body: ["isCheckedOut": true, "lastCheckedOutBy": "Sam Carter"])
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(device(1)?["isCheckedOut"], .bool(true))
        XCTAssertEqual(device(1)?["lastCheckedOutBy"]?.string, "Sam Carter")
        XCTAssertEqual(device(1)?["lastCheckedOutDate"]?.string, HTTPDate.iso8601(server.clock.now))
    }

    func test_checkIn_keepsWhoHadItLast() {
        XCTAssertEqual(server.call("POST", "/devices/2", body: ["isCheckedOut": false]).status, 200)
        XCTAssertEqual(device(2)?["isCheckedOut"], .bool(false))
        XCTAssertEqual(device(2)?["lastCheckedOutBy"]?.string, "Chris Evans")
    }

    func test_add_needsEveryField_andTakesTheNextID() {
        XCTAssertEqual(server.call("POST", "/devices", body: ["device": "Pixel 9", "os": "Android 15"]).status, 400)
        let added = server.call(
            "POST", "/devices",
            body: [
                "device": "Pixel 9", "os": "Android 15",
                "manufacturer": "Google",
            ])
        XCTAssertEqual(added.status, 201)
        XCTAssertEqual(added.json?["id"]?.int, 7)
        XCTAssertEqual(added.header("Location"), "/devices/7")
        XCTAssertEqual(device(7)?["device"]?.string, "Pixel 9")
    }

    func test_delete_removesTheDevice_andAnUnknownIdIs404() {
        XCTAssertEqual(server.call("DELETE", "/devices/3").status, 204)
        XCTAssertNil(device(3))
        XCTAssertEqual(server.call("DELETE", "/devices/3").status, 404)
        XCTAssertEqual(server.call("POST", "/devices/99", body: ["isCheckedOut": false]).status, 404)
        XCTAssertEqual(server.call("PUT", "/devices").status, 405)
    }
}
