import JSONListSimulator
import SimulatorKit
import XCTest

final class MessTests: XCTestCase {
    private var server: TestServer!

    /// A fresh server per test, made when it runs (XCTest creates every test case up front).
    override func setUp() { server = TestServer() }

    /// Items with numbers read as integers or doubles and members sorted: what "no change" means.
    private func canonical(_ value: JSONValue) -> String {
        switch value {
        case .number(let text): return Double(text).map { String($0) } ?? text
        case .string(let text): return Int(text).map { String(Double($0)) } ?? "\"\(text)\""
        case .array(let values): return "[" + values.map(canonical).joined(separator: ",") + "]"
        case .object(let object):
            return "{"
                + object.members.sorted { $0.key < $1.key }.map { "\($0.key):\(canonical($0.value))" }
                .joined(separator: ",") + "}"
        default: return String(decoding: value.bytes, as: UTF8.self)
        }
    }

    private func sortedByID(_ answer: Answer) -> JSONValue {
        .array((answer.json?.array ?? []).sorted { ($0["id"]?.int ?? 0) < ($1["id"]?.int ?? 0) })
    }

    func test_spelling_changesTheBytes_butNothingElse() throws {
        let first = server.call("GET", "/mess/spelling")
        let second = server.call("GET", "/mess/spelling")
        XCTAssertNotEqual(first.body, second.body)
        XCTAssertEqual(first.json?.array?.first?["id"], .number("1"))
        XCTAssertEqual(second.json?.array?.first?["id"], .string("1"))
        XCTAssertEqual(second.json?.array?.first?["priority"], .number("1.0"))
        XCTAssertEqual(second.json?.array?.first?["estimate"], .number("1.50"))
        XCTAssertEqual(canonical(first.json ?? .null), canonical(second.json ?? .null))
        XCTAssertEqual(server.call("GET", "/mess/spelling").body, first.body, "the third answer is the first again")
    }

    func test_order_reversesItemsAndMembers() throws {
        let first = server.call("GET", "/mess/order")
        let second = server.call("GET", "/mess/order")
        XCTAssertEqual(second.ids, Array((1...12).reversed()))
        XCTAssertEqual(second.json?.array?.first?.object?.keys.first, "meta")
        XCTAssertEqual(canonical(sortedByID(first)), canonical(sortedByID(second)))
    }

    func test_timestamp_differsOnEveryAnswer_andIsTheOnlyDifference() throws {
        let answers = (0..<3).map { _ in server.call("GET", "/mess/timestamp").json?.array?.first }
        let stamps = answers.compactMap { $0?["updated_at"]?.string }
        XCTAssertEqual(Set(stamps).count, 3)
        var stripped = answers.compactMap { $0 }
        for index in stripped.indices { stripped[index]["updated_at"] = nil }
        XCTAssertEqual(Set(stripped.map { String(decoding: $0.bytes, as: UTF8.self) }).count, 1)
    }

    func test_mix_isAllThreeAtOnce() {
        server.call("GET", "/mess/mix")
        let second = server.call("GET", "/mess/mix").json?.array?.first
        XCTAssertEqual(second?["id"], .string("12"))
        XCTAssertNotNil(second?["updated_at"])
        XCTAssertEqual(second?.object?.keys.first, "updated_at")
    }
}
