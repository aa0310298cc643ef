import CLibnotify
import Dispatch
import Logging
import Synchronization
import TrackwatchCore

/// What `GetServerInformation` and `GetCapabilities` said.
public struct NotificationServer: Sendable {
    public let name: String
    public let vendor: String
    public let version: String
    public let specVersion: String
    public let capabilities: Set<String>
}

/// Desktop notifications through libnotify, over the session bus.
///
/// Every libnotify call runs on the notifier's own thread, which also runs GLib's main loop (see
/// `GLibThread`): libnotify is synchronous and blocks up to 25 s per D-Bus call on a hung server, so
/// callers (the poll loop, the watchdog) never wait for it, and action buttons are heard without blocking
/// polls. Markup is used only when the server advertises `body-markup`; the rolling summary bubble is
/// updated in place, which reuses its id (replaces_id). "Open" and "Mute" buttons are added only when the
/// server advertises `actions`.
public final class DesktopNotifier: @unchecked Sendable {  // all mutable state is confined to `queue`
    private let queue = GLibThread()
    private let logger: Logger
    private let desktopEntry: String
    private let appName: String
    private var summaryBubble: UnsafeMutablePointer<NotifyNotification>?
    private var outage = false
    private var serverLogged = false
    /// Bubbles with buttons, kept alive until the server closes them (libnotify forgets the buttons of a
    /// freed bubble); the oldest go first beyond `liveBubbleLimit`.
    private var liveBubbles: [(bubble: UnsafeMutablePointer<NotifyNotification>, record: RecordID)] = []
    private static let liveBubbleLimit = 100
    private var actionHandler: (@Sendable (RecordID, BubbleAction) -> Void)?
    /// Where changes still go while no bubble can be shown, said when notifications become unavailable.
    private let whereChangesStillGo: (@Sendable () -> String)?

    /// - Parameter whereChangesStillGo: completes "desktop notifications unavailable; …" when they are (e.g.
    ///   "changes are still journaled"); asked at that moment, because only the caller knows what else runs.
    public init(appName: String = "trackwatch", desktopEntry: String = "trackwatch", logger: Logger,
                whereChangesStillGo: (@Sendable () -> String)? = nil) {
        self.logger = logger
        self.whereChangesStillGo = whereChangesStillGo
        self.desktopEntry = desktopEntry
        self.appName = appName
        queue.async {
            // libnotify also prints its own GLib warnings for every failed call; trackwatch logs one per outage.
            g_log_set_handler("libnotify", GLogLevelFlags(rawValue: G_LOG_LEVEL_WARNING.rawValue | G_LOG_LEVEL_MESSAGE.rawValue),
                              { _, _, _, _ in }, nil)
            _ = notify_init(appName)
        }
    }

    deinit {
        if let summaryBubble { g_object_unref(summaryBubble) }
    }

    /// Shows one bubble per change, or a summary; returns at once.
    public func announce(_ changes: [Change], summaryThreshold: Int) {
        guard !changes.isEmpty else { return }
        queue.async { [self] in
            guard let capabilities = serverCapabilities() else { return }
            let plan = NotificationPlan.make(changes: changes, threshold: summaryThreshold,
                                             bodyMarkup: capabilities.contains("body-markup"))
            let buttons = capabilities.contains("actions") && actionHandler != nil
            for bubble in plan { show(bubble, buttons: buttons) }
        }
    }

    /// The summary of the changes held back during quiet hours; returns at once.
    public func announceQuietHoursSummary(_ changes: [Change]) {
        guard !changes.isEmpty else { return }
        queue.async { [self] in
            guard let capabilities = serverCapabilities(),
                let bubble = NotificationPlan.quietHoursSummary(changes: changes, bodyMarkup: capabilities.contains("body-markup"))
            else { return }
            show(bubble, buttons: false)
        }
    }

    /// A message about trackwatch itself; returns at once.
    public func announceServiceProblem(summary: String, body: String, resolved: Bool) {
        queue.async { [self] in
            guard let capabilities = serverCapabilities() else { return }
            show(NotificationPlan.serviceProblem(summary: summary, body: body, resolved: resolved,
                                                 bodyMarkup: capabilities.contains("body-markup")), buttons: false)
        }
    }

    /// The notification server's name, vendor, version, spec version and capabilities, or `nil` when none
    /// answers within `timeout` seconds.
    public func serverInformation(timeout: Double) -> NotificationServer? {
        let result = Mutex<NotificationServer?>(nil)
        let done = DispatchSemaphore(value: 0)
        queue.async { [self] in
            defer { done.signal() }
            guard let capabilities = serverCapabilities() else { return }
            var name: UnsafeMutablePointer<CChar>?, vendor: UnsafeMutablePointer<CChar>?
            var version: UnsafeMutablePointer<CChar>?, spec: UnsafeMutablePointer<CChar>?
            guard notify_get_server_info(&name, &vendor, &version, &spec) != 0 else { return }
            defer { for pointer in [name, vendor, version, spec] { g_free(pointer) } }
            func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
            result.withLock { $0 = NotificationServer(name: text(name), vendor: text(vendor), version: text(version),
                                                      specVersion: text(spec), capabilities: capabilities) }
        }
        guard done.wait(timeout: .now() + .milliseconds(Int(timeout * 1000))) == .success else { return nil }
        return result.withLock { $0 }
    }

    /// Shows `changes` now and says whether the server took them: `nil`, or why not.
    public func showNow(_ changes: [Change], timeout: Double) -> String? {
        let failure = Mutex<String?>("the notification server did not answer within \(Int(timeout)) s")
        let done = DispatchSemaphore(value: 0)
        queue.async { [self] in
            defer { done.signal() }
            guard let capabilities = serverCapabilities() else {
                failure.withLock { $0 = "no notification server on the session bus" }
                return
            }
            let wasOutage = outage
            outage = false
            for bubble in NotificationPlan.make(changes: changes, threshold: 100, bodyMarkup: capabilities.contains("body-markup")) {
                show(bubble, buttons: false)
            }
            failure.withLock { $0 = outage ? "the notification server refused the bubble" : nil }
            outage = outage || wasOutage
        }
        guard done.wait(timeout: .now() + .milliseconds(Int(timeout * 1000))) == .success else {
            return failure.withLock { $0 }
        }
        return failure.withLock { $0 }
    }

    /// Called on the notifier's thread when someone clicks a bubble or one of its buttons.
    public func onAction(_ handler: @escaping @Sendable (RecordID, BubbleAction) -> Void) {
        queue.async { [self] in actionHandler = handler }
    }

    /// Runs `body` on the notifier's queue after everything queued before it (for tests and shutdown).
    public func drain(timeout seconds: Double) -> Bool {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        return done.wait(timeout: .now() + .milliseconds(Int(seconds * 1000))) == .success
    }

    // MARK: - On the queue

    /// The server's capabilities, or nil (with one warning per outage) when there is no server.
    private func serverCapabilities() -> Set<String>? {
        // GDBus learns that the notification server restarted (a new owner of the name) from a signal, which
        // the GLib thread's main loop dispatches before this runs.
        var list = notify_get_server_caps()
        if list == nil {
            reconnect()
            list = notify_get_server_caps()
        }
        guard let list else {
            reportFailure("no notification server on the session bus")
            return nil
        }
        defer { g_list_free_full(list, g_free) }
        var capabilities = Set<String>()
        var node: UnsafeMutablePointer<GList>? = list
        while let current = node {
            if let data = current.pointee.data { capabilities.insert(String(cString: data.assumingMemoryBound(to: CChar.self))) }
            node = current.pointee.next
        }
        if !serverLogged {
            serverLogged = true
            logger.info("notification server found", metadata: ["capabilities": "\(capabilities.sorted().joined(separator: ","))"])
        }
        return capabilities
    }

    private func show(_ notification: DesktopNotification, buttons: Bool) {
        let bubble: UnsafeMutablePointer<NotifyNotification>
        if notification.isSummary, let existing = summaryBubble {
            notify_notification_update(existing, notification.summary, notification.body, nil)
            bubble = existing
        } else {
            bubble = notify_notification_new(notification.summary, notification.body, nil)
        }
        notify_notification_set_urgency(bubble, NotifyUrgency(UInt32(notification.urgency.rawValue)))
        notify_notification_set_category(bubble, notification.category)
        notify_notification_set_hint(bubble, "desktop-entry", g_variant_new_string(desktopEntry))
        if let record = notification.record {
            notify_notification_set_hint(bubble, "x-trackwatch-record", g_variant_new_string(record.rawValue))
        }
        if let record = notification.record, buttons {
            addButtons(bubble, record: record)
        }
        var error: UnsafeMutablePointer<GError>?
        let shown = notify_notification_show(bubble, &error) != 0
        if shown {
            reportSuccess()
        } else {
            reportFailure(error.map { String(cString: $0.pointee.message) } ?? "unknown error")
        }
        if let error { g_error_free(error) }
        if let record = notification.record, buttons, shown {
            keepForActions(bubble, record: record)
        } else if notification.isSummary {
            if shown { summaryBubble = bubble } else {
                // A server restart invalidates ids: start a fresh summary bubble next time.
                g_object_unref(bubble)
                summaryBubble = nil
            }
        } else {
            g_object_unref(bubble)
        }
    }

    // MARK: - Buttons (on the GLib thread)

    private func addButtons(_ bubble: UnsafeMutablePointer<NotifyNotification>, record: RecordID) {
        let me = Unmanaged.passUnretained(self).toOpaque()  // the notifier lives as long as the process
        let callback: NotifyActionCallback = { bubble, action, me in
            guard let bubble, let action, let me else { return }
            Unmanaged<DesktopNotifier>.fromOpaque(me).takeUnretainedValue().invoked(bubble, action: String(cString: action))
        }
        // "default" is a click on the bubble itself.
        for (key, label) in [("default", "Open"), (BubbleAction.open.rawValue, "Open"), (BubbleAction.mute.rawValue, "Mute this record")] {
            notify_notification_add_action(bubble, key, label, callback, me, nil)
        }
    }

    private func keepForActions(_ bubble: UnsafeMutablePointer<NotifyNotification>, record: RecordID) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        let closed: @convention(c) (UnsafeMutablePointer<NotifyNotification>?, gpointer?) -> Void = { bubble, me in
            guard let bubble, let me else { return }
            Unmanaged<DesktopNotifier>.fromOpaque(me).takeUnretainedValue().closed(bubble)
        }
        g_signal_connect_data(bubble, "closed", unsafeBitCast(closed, to: GCallback.self), me, nil, GConnectFlags(rawValue: 0))
        liveBubbles.append((bubble, record))
        while liveBubbles.count > Self.liveBubbleLimit { g_object_unref(liveBubbles.removeFirst().bubble) }
    }

    private func invoked(_ bubble: UnsafeMutablePointer<NotifyNotification>, action: String) {
        guard let record = liveBubbles.first(where: { $0.bubble == bubble })?.record else { return }
        let chosen: BubbleAction = action == BubbleAction.mute.rawValue ? .mute : .open
        logger.info("bubble action", metadata: ["record": "\(record)", "action": "\(chosen.rawValue)"])
        actionHandler?(record, chosen)
        if chosen == .mute { notify_notification_close(bubble, nil) }
    }

    private func closed(_ bubble: UnsafeMutablePointer<NotifyNotification>) {
        guard let index = liveBubbles.firstIndex(where: { $0.bubble == bubble }) else { return }
        liveBubbles.remove(at: index)
        g_object_unref(bubble)
    }

    /// Drops libnotify's cached D-Bus proxy, so that the next call finds the current server.
    private func reconnect() {
        if let summaryBubble { g_object_unref(summaryBubble) }
        summaryBubble = nil
        for live in liveBubbles { g_object_unref(live.bubble) }
        liveBubbles.removeAll()
        notify_uninit()
        _ = notify_init(appName)
    }

    private func reportFailure(_ reason: String) {
        guard !outage else { return }
        outage = true
        serverLogged = false
        let elsewhere = whereChangesStillGo.map { "; \($0())" } ?? ""
        logger.warning("desktop notifications unavailable\(elsewhere)", metadata: ["reason": "\(reason)"])
    }

    private func reportSuccess() {
        guard outage else { return }
        outage = false
        logger.notice("desktop notifications available again")
    }
}
