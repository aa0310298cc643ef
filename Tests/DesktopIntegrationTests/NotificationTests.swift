import DesktopNotifier
import Foundation
import Logging
import Synchronization
import TestSupport
import TrackwatchCore
import XCTest

/// Collects log messages in memory, so that tests can count warnings without bootstrapping LoggingSystem.
final class LogCapture: Sendable {
    let lines = Mutex<[(Logger.Level, String)]>([])

    var logger: Logger {
        Logger(label: "test") { _ in CaptureHandler(capture: self) }
    }

    func count(_ level: Logger.Level, containing text: String) -> Int {
        lines.withLock { $0.filter { $0.0 == level && $0.1.contains(text) }.count }
    }

    struct CaptureHandler: LogHandler {
        let capture: LogCapture
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            capture.lines.withLock { $0.append((event.level, "\(event.message)")) }
        }
    }
}

/// The package's root directory (holding Package.swift), found from this file's path.
private let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// libnotify → a private session bus → python-dbusmock's notification server. One bus per process (GDBus
/// caches the connection), so the scenarios run in order inside one test.
final class NotificationTests: XCTestCase {
    private func change(_ n: Int, headline: String = "Crash on save", priority: String = "3-Normal Queue") -> Change {
        Change(record: RecordID("SAMPL0000000\(n)"), kind: .modified, headline: headline, by: "lead", action: "Resolve",
               changes: [FieldChange(field: "State", old: "Opened", new: "Resolved")], priority: priority)
    }

    private func raisedToOne(_ n: Int) -> Change {
        Change(record: RecordID("SAMPL0000000\(n)"), kind: .modified, headline: "Crash", by: "lead", action: "Modify",
               changes: [FieldChange(field: "Priority", old: "2-Give High Attention", new: "1-Resolve Immediately")],
               priority: "1-Resolve Immediately")
    }

    func test_notifications_throughARealNotificationServer() throws {
        let bus = try SessionBus.shared.get()
        let capture = LogCapture()
        let notifier = try DesktopNotifier(logger: capture.logger, whereChangesStillGo: { "changes are kept somewhere true" })

        // One bubble per change; server text escaped because the mock advertises body-markup.
        try bus.startNotificationServer()
        notifier.announce([change(1, headline: "Crash <b>&</b> burn", priority: "1-Resolve Immediately")], summaryThreshold: 3)
        var calls = try bus.waitForNotifyCalls(1)
        XCTAssertEqual(calls.count, 1)
        XCTAssertEqual(calls.first?.appName, "trackwatch")
        XCTAssertEqual(calls.first?.summary, "SAMPL00000001: \u{2068}Crash <b>&</b> burn\u{2069}",
                       "a title is plain text")
        XCTAssertEqual(calls.first?.body,
            "Resolved by \u{2068}lead\u{2069} · \u{2068}State\u{2069}: "
                + "\u{2068}Opened\u{2069} → \u{2068}Resolved\u{2069}")
        XCTAssertEqual(calls.first?.hints["urgency"] as? Int, 1, "a priority-1 record resolved is no emergency")
        XCTAssertEqual(calls.first?.appIcon, packageRoot + "/data/icons/hicolor/scalable/apps/trackwatch.svg",
                       "from the build tree, not installed: the source tree's icon, by its path")
        try bus.clearCalls()
        notifier.announce([raisedToOne(1)], summaryThreshold: 3)
        XCTAssertEqual(try bus.waitForNotifyCalls(1).first?.hints["urgency"] as? Int, 2, "raised to priority 1 is critical")
        try bus.clearCalls()
        XCTAssertEqual(calls.first?.hints["category"] as? String, "x-trackwatch.record.changed")
        XCTAssertEqual(calls.first?.hints["desktop-entry"] as? String, "trackwatch")
        XCTAssertEqual(calls.first?.replacesID, 0)

        // A burst becomes one summary bubble; the next burst replaces it in place, counting both (issue 20, item 5).
        try bus.clearCalls()
        notifier.announce((1...5).map { change($0) }, summaryThreshold: 3, tracker: "Compass")
        notifier.announce((1...4).map { change($0) }, summaryThreshold: 3, tracker: "Compass")
        calls = try bus.waitForNotifyCalls(2)
        XCTAssertEqual(calls.map(\.summary), ["5 Compass changes", "9 Compass changes"])
        XCTAssertTrue(calls.first?.body.hasSuffix("and 2 more") == true, calls.first?.body ?? "")
        XCTAssertEqual(calls.first?.replacesID, 0)
        XCTAssertGreaterThan(calls.last?.replacesID ?? 0, 0, "the second summary replaces the first")
        XCTAssertEqual(calls.last?.hints["urgency"] as? Int, 1)

        // Without body-markup the text goes literally.
        try bus.startNotificationServer(capabilities: "body")
        notifier.announce([change(2, headline: "A & <b>B</b>")], summaryThreshold: 3)
        calls = try bus.waitForNotifyCalls(1)
        XCTAssertEqual(calls.first?.summary, "SAMPL00000002: \u{2068}A & <b>B</b>\u{2069}")
        XCTAssertEqual(calls.first?.body,
            "Resolved by \u{2068}lead\u{2069} · \u{2068}State\u{2069}: "
                + "\u{2068}Opened\u{2069} → \u{2068}Resolved\u{2069}")

        // No server: announcing returns, and the outage is logged once, not per call.
        bus.stopServers()
        notifier.announce([change(3)], summaryThreshold: 3)
        notifier.announce([change(4)], summaryThreshold: 3)
        XCTAssertTrue(notifier.drain(timeout: 10))
        XCTAssertEqual(capture.count(.warning, containing: "desktop notifications unavailable; changes are kept somewhere true"), 1,
                       "once, saying what the caller knows to be true")

        // Back again: logged once, and bubbles flow.
        try bus.startNotificationServer()
        notifier.announce([change(5)], summaryThreshold: 3)
        XCTAssertEqual(try bus.waitForNotifyCalls(1).first?.summary, "SAMPL00000005: \u{2068}Crash on save\u{2069}")
        XCTAssertTrue(notifier.drain(timeout: 10))
        XCTAssertEqual(capture.count(.notice, containing: "available again"), 1)

        // Issue 13, item 1: a restarted server numbers its bubbles from 1 again. A click on the new bubble 1 acts
        // on it alone, not also on the old server's bubble 1; and the next summary does not replace the old
        // server's summary id, which may now be a stranger's bubble.
        try bus.startNotificationServer(capabilities: "body body-markup actions")
        let clicks = Mutex<[BubbleAction]>([])
        notifier.onAction { action in clicks.withLock { $0.append(action) } }
        notifier.announce([change(7)], summaryThreshold: 3)
        notifier.announce((1...5).map { change($0) }, summaryThreshold: 3)
        calls = try bus.waitForNotifyCalls(2)
        // dbusmock is none of the servers known to show the click (dunst, xfce4-notifyd): a visible button too.
        XCTAssertEqual(calls.map(\.actions), [["default", "Open", "open", "Open", "mute", "Mute this record"],
                                              ["default", "Show all", "show-all", "Show all"]])
        try bus.startNotificationServer(capabilities: "body body-markup actions")
        notifier.announce([change(3)], summaryThreshold: 3)
        notifier.announce((1...4).map { change($0) }, summaryThreshold: 3, tracker: "Compass")
        calls = try bus.waitForNotifyCalls(2)
        XCTAssertEqual(calls.map(\.summary), ["SAMPL00000003: \u{2068}Crash on save\u{2069}", "4 Compass changes"])
        XCTAssertEqual(calls.map(\.replacesID), [0, 0], "nothing of the previous server is replaced")
        try bus.invokeAction("default", onNotification: 1)
        let deadline = Date().addingTimeInterval(10)
        while clicks.withLock({ $0.isEmpty }) && Date() < deadline { usleep(20_000) }
        XCTAssertTrue(notifier.drain(timeout: 10))  // after the signal's every handler ran
        XCTAssertEqual(clicks.withLock { $0 }, [.open(RecordID("SAMPL00000003"))], "exactly the bubble clicked")
        try bus.invokeAction("default", onNotification: 2)
        while clicks.withLock({ $0.count < 2 }) && Date() < deadline { usleep(20_000) }
        XCTAssertTrue(notifier.drain(timeout: 10))
        XCTAssertEqual(clicks.withLock { $0 }.last, .showAll, "the new summary's click")
        XCTAssertEqual(clicks.withLock { $0.count }, 2)

        // A hung server never blocks the caller: the work waits on the notifier's own queue.
        try bus.startHungServer()
        let started = Date()
        notifier.announce([change(6)], summaryThreshold: 3)
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.1)
        XCTAssertFalse(notifier.drain(timeout: 1), "libnotify is still blocked on the hung server")
        bus.stopServers()
    }
}
