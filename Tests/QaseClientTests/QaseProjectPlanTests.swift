@testable import QaseClient
import TrackwatchCore
import XCTest

/// Which projects a poll asks, and when a code that is gone is a project renamed.
final class QaseProjectPlanTests: XCTestCase {
    private let demo = QaseProject(code: "DEMO", title: "Demo Project"),
        web = QaseProject(code: "WEB", title: "Web Shop")
    private let shop = QaseProject(code: "SHOP", title: "Demo Project")

    func test_everyVisibleProject_withoutProjectsConfigured() {
        let plan = QaseProjectPlan(configured: nil, visible: [demo, web], known: [demo])
        XCTAssertEqual(plan.targets.map(\.code), ["DEMO", "WEB"])
        XCTAssertEqual(plan.renames, [:])
    }

    func test_aGoneCode_andANewOneWithItsTitle_areARename() {
        let plan = QaseProjectPlan(configured: nil, visible: [shop, web], known: [demo, web, demo, web])
        XCTAssertEqual(plan.renames, ["DEMO": "SHOP"])
        XCTAssertEqual(plan.targets.first { $0.code == "SHOP" }?.was, ["DEMO"])
    }

    func test_noRename_whenTheTitleIsAmbiguous_orTheNewCodeWasKnown() {
        let twin = QaseProject(code: "SHOP2", title: "Demo Project")
        XCTAssertEqual(QaseProjectPlan(configured: nil, visible: [shop, twin], known: [demo]).renames, [:])
        XCTAssertEqual(QaseProjectPlan(configured: nil, visible: [shop], known: [demo, shop]).renames, [:])
    }

    func test_aConfiguredCode_followsItsProjectAcrossRenames() {
        let first = QaseProjectPlan(configured: ["DEMO"], visible: [shop, web], known: [demo])
        XCTAssertEqual(first.targets.map(\.code), ["SHOP"])
        XCTAssertEqual(first.missing, [])
        XCTAssertEqual(first.outdated(configured: ["DEMO"]).map { "\($0.old)→\($0.new)" }, ["DEMO→SHOP"])
        // Later polls know SHOP by its marker, which remembers DEMO.
        let later = QaseProjectPlan(
            configured: ["DEMO"], visible: [shop, web],
            known: [QaseProject(code: "SHOP", title: "Demo Project", was: ["DEMO"])])
        XCTAssertEqual(later.targets.map(\.code), ["SHOP"])
        XCTAssertEqual(later.targets.first?.was, ["DEMO"])
    }

    func test_aConfiguredCodeNobodyHas_isMissing() {
        let plan = QaseProjectPlan(configured: ["DEMO", "NOPE"], visible: [demo], known: [])
        XCTAssertEqual(plan.targets.map(\.code), ["DEMO"])
        XCTAssertEqual(plan.missing, ["NOPE"])
    }
}
