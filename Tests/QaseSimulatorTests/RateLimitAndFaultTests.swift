import SimulatorKit
import XCTest

@testable import QaseSimulator

/// 429s with Retry-After and no body, armed faults, and the stats a benchmark quotes.
final class RateLimitAndFaultTests: XCTestCase {
    func test_overTheLimit_429WithRetryAfterAndNoBody_forTheTimeout_perToken() {
        let sim = SimHarness {
            $0.switches.rateLimit = 3
            $0.switches.rateLimitTimeout = 60
        }
        for _ in 1...3 { XCTAssertEqual(sim.get("/project").status, 200) }
        let refused = sim.get("/project")
        XCTAssertEqual(refused.status, 429)
        XCTAssertEqual(refused.body, [])
        XCTAssertEqual(refused.header("Retry-After"), "60")
        XCTAssertEqual(sim.get("/project", as: "alice").status, 200, "another token has its own budget")
        sim.sim("POST", "clock", #"{"advance": 20}"#)
        XCTAssertEqual(sim.get("/project").header("Retry-After"), "40", "the timeout counts down")
        sim.sim("POST", "clock", #"{"advance": 40}"#)
        XCTAssertEqual(sim.get("/project").status, 200, "after the timeout")
        XCTAssertEqual(sim.stats["rateLimited"] as? Int, 2)
        XCTAssertEqual(sim.stats["requests"] as? Int, 7, "refused requests count too")
    }

    func test_aTimeoutShorterThanTheWindow_startsAFreshMinute() {
        let sim = SimHarness {
            $0.switches.rateLimit = 2
            $0.switches.rateLimitTimeout = 10
        }
        for _ in 1...2 { XCTAssertEqual(sim.get("/project").status, 200) }
        XCTAssertEqual(sim.get("/project").status, 429)
        sim.sim("POST", "clock", #"{"advance": 10}"#)
        XCTAssertEqual(sim.get("/project").status, 200)
        XCTAssertEqual(sim.get("/project").status, 200)
        XCTAssertEqual(sim.get("/project").header("Retry-After"), "10", "over again")
    }

    func test_rateLimitZero_isUnlimited_andDefaultIs600() {
        XCTAssertEqual(QaseSwitches().rateLimit, 600)
        let sim = SimHarness { $0.switches.rateLimit = 0 }
        for _ in 1...700 where sim.get("/user").status != 200 { XCTFail("refused") }
    }

    func test_injected429_hasNoBody_andRetryAfter() {
        let sim = SimHarness()
        sim.sim(
            "POST", "faults", #"{"route": "GET /search", "kind": "status", "status": 429, "count": 1, "retryAfter": 7}"#
        )
        XCTAssertEqual(sim.get("/project").status, 200, "another route")
        let refused = sim.search(#"entity = "case""#)
        XCTAssertEqual(refused.status, 429)
        XCTAssertEqual(refused.body, [])
        XCTAssertEqual(refused.header("Retry-After"), "7")
        XCTAssertEqual(sim.search(#"entity = "case""#).status, 200, "count 1")
        XCTAssertEqual(sim.stats["rateLimited"] as? Int, 1)
    }

    func test_faults_afterCount_andEveryKind() {
        let sim = SimHarness()
        sim.sim(
            "POST", "faults",
            #"{"route": "GET /defect/{code}", "kind": "status", "status": 503, "count": 2, "after": 1}"#)
        XCTAssertEqual(sim.get("/defect/DEMO").status, 200)
        let failed = sim.get("/defect/DEMO")
        XCTAssertEqual(failed.status, 503)
        XCTAssertEqual(failed.errorMessage, "injected fault")
        XCTAssertEqual(failed.header("Retry-After"), "2")
        XCTAssertEqual(sim.get("/defect/DEMO").status, 503)
        XCTAssertEqual(sim.get("/defect/DEMO").status, 200)

        let expectations: [(String, (SimHarness.Answer) -> Bool)] = [
            ("html", { $0.status == 200 && $0.header("Content-Type") == "text/html" }),
            ("garbage", { $0.status == 200 && $0.json.isEmpty && !$0.body.isEmpty }),
            ("truncate", { $0.delivery == .truncated }),
            ("hang", { $0.delivery == .never }),
            ("drop", { $0.delivery == .dropped }),
            ("oversize", { $0.body.count >= 2_000_000 && $0.result["total"] as? Int == 3 }),
        ]
        for (kind, expected) in expectations {
            sim.sim("POST", "faults", #"{"route": "", "kind": "\#(kind)", "count": 1}"#)
            XCTAssertTrue(expected(sim.get("/plan/DEMO")), kind)
            XCTAssertEqual(sim.get("/plan/DEMO").status, 200, "\(kind) used up")
        }
        sim.sim("POST", "faults", #"{"route": "", "kind": "status", "count": 5}"#)
        sim.sim("DELETE", "faults")
        XCTAssertEqual(sim.get("/plan/DEMO").status, 200, "cleared")
        XCTAssertEqual(sim.raw("POST", "/sim/faults", token: nil, body: #"{"kind": "melt"}"#).status, 400)
    }

    func test_stats_byRouteAndUser_notCountingSimRoutes_andReset() {
        let sim = SimHarness()
        _ = sim.search(#"entity = "case""#)
        _ = sim.get("/plan/DEMO/1")
        _ = sim.get("/plan/DEMO/2", as: "alice")
        _ = sim.call("GET", "/plan/DEMO/2", token: "wrong")
        let stats = sim.stats
        XCTAssertEqual(stats["requests"] as? Int, 4)
        XCTAssertEqual(stats["requestsByRoute"] as? [String: Int], ["GET /search": 1, "GET /plan/{code}/{id}": 3])
        XCTAssertEqual(stats["requestsByUser"] as? [String: Int], ["engineer": 2, "alice": 1])
        XCTAssertEqual(stats["unauthorized"] as? Int, 1)
        sim.sim("DELETE", "stats")
        XCTAssertEqual(sim.stats["requests"] as? Int, 0)
    }

    func test_clockRoute_andDateHeader() {
        let sim = SimHarness { $0.clockOffset = 86_400 }
        let clock = sim.sim("GET", "clock").json
        let now = clock["epochMs"] as? Int ?? 0
        XCTAssertEqual(clock["offset"] as? Int, 86_400)
        let moved = sim.sim("POST", "clock", #"{"advance": 3600}"#).json["epochMs"] as? Int ?? 0
        XCTAssertEqual(Double(moved - now), 3_600_000, accuracy: 2_000)
        XCTAssertNotNil(sim.get("/project").header("Date"))
        XCTAssertEqual(sim.raw("POST", "/sim/clock", token: nil, body: "{}").status, 400)
    }
}
