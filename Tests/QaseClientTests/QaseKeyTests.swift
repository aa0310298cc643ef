@testable import QaseClient
import TrackwatchCore
import XCTest

/// Keys as qase-api.md §9 gives them, read back, moved to a renamed project, and linked into the web app.
final class QaseKeyTests: XCTestCase {
    func test_keys_areTheIssuesForms_andParseBack() {
        let keys: [(RecordID, String, QaseItem, Int?)] = [
            (QaseKey.testCase("DEMO", 9), "DEMO-9", .testCase, 9),
            (QaseKey.defect("DEMO", 7), "DEMO/defect/7", .defect, 7),
            (QaseKey.plan("DEMO", 3), "DEMO/plan/3", .plan, 3),
            (QaseKey.review("DEMO", 5), "DEMO/review/5", .review, 5),
            (QaseKey.project("DEMO"), "DEMO/project", .project, nil),
        ]
        for (key, text, item, id) in keys {
            XCTAssertEqual(key.rawValue, text)
            XCTAssertEqual(QaseKey.parse(key)?.segment, QaseSegment("DEMO", item), text)
            XCTAssertEqual(QaseKey.parse(key)?.id, id, text)
        }
    }

    func test_parse_refusesWhatIsNoQaseKey() {
        for text in [
            "SAMPL00000001", "DEMO", "DE MO-1", "DEMO/run/3", "DEMO/defect", "DEMO/defect/x", "DEMO/case/3",
            "DEMO/project/1", "-1", "DEMO/defect/7/8", "DEMO/defect/7/8/9", "DEMO/project/", "DEMO/\u{301}defect/7",
            "DEMO/defect/\u{301}7", "DEMO-\u{301}9", "DEMO\u{301}-9", "DEMO\u{301}/defect/7", "\u{600}DEMO-9",
        ] {
            XCTAssertNil(QaseKey.parse(RecordID(text)), text)
        }
    }

    func test_renamed_movesOnlyTheOldProjectsKeys() {
        XCTAssertEqual(QaseKey.renamed(RecordID("DEMO-9"), from: "DEMO", to: "SHOP").rawValue, "SHOP-9")
        XCTAssertEqual(QaseKey.renamed(RecordID("DEMO/review/5"), from: "DEMO", to: "SHOP").rawValue, "SHOP/review/5")
        XCTAssertEqual(QaseKey.renamed(RecordID("DEMO/project"), from: "DEMO", to: "SHOP").rawValue, "SHOP/project")
        XCTAssertEqual(QaseKey.renamed(RecordID("WEB-9"), from: "DEMO", to: "SHOP").rawValue, "WEB-9")
    }

    func test_links_pointIntoTheWebApp() {
        let web = "https://app.qase.io"
        XCTAssertEqual(QaseLink.url(for: RecordID("DEMO-9"), web: web), "https://app.qase.io/case/DEMO-9")
        XCTAssertEqual(QaseLink.url(for: RecordID("DEMO/plan/3"), web: web), "https://app.qase.io/plan/DEMO/3")
        XCTAssertEqual(QaseLink.url(for: RecordID("DEMO/defect/7"), web: web), "https://app.qase.io/defect/DEMO")
        XCTAssertEqual(QaseLink.url(for: RecordID("DEMO/review/5"), web: web), "https://app.qase.io/project/DEMO")
        XCTAssertNil(QaseLink.url(for: RecordID("SAMPL00000001"), web: web))
    }

    func test_settingsLink_usesWebURL_orTheCloudApp_orNothing() {
        let change = Change(record: RecordID("DEMO-9"), kind: .modified, headline: "")
        var settings = QaseSettings(
            url: "https://api.qase.io/v1", email: "me@example.com", credential: .tokenFile(path: "t"))
        XCTAssertEqual(settings.link(for: change), "https://app.qase.io/case/DEMO-9")
        settings.url = "https://api-acme.qase.io/v1"
        XCTAssertNil(settings.link(for: change), "a dedicated host's web app is not derived from its API host")
        settings.webURL = "https://acme.qase.io"
        XCTAssertEqual(settings.link(for: change), "https://acme.qase.io/case/DEMO-9")
    }
}
