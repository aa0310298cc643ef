#if canImport(Glibc)
import Glibc
#endif
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
/// callers (the poll loop, the watchdog) never wait for it, and button clicks are heard without blocking
/// polls. Markup is used only when the server advertises `body-markup`, buttons only when it advertises
/// `actions`.
///
/// Notification ids belong to one server process: a restarted server numbers its bubbles from 1 again, so a
/// bubble kept from before would answer a click on a new bubble with its id (both would act), and a summary
/// updated in place would replace a stranger. So each kept bubble remembers the server (the unique bus name
/// owning `org.freedesktop.Notifications`) that showed it, and bubbles of a server that is gone are forgotten
/// as soon as the bus says so (`NameOwnerChanged`), and checked again before a click is acted on.
public final class DesktopNotifier: @unchecked Sendable {  // all mutable state is confined to `queue`
    static let serverName = "org.freedesktop.Notifications"

    private let lib: LibNotify
    private let queue: GLibThread
    private let logger: Logger
    private let desktopEntry: String
    private let appName: String
    /// What each bubble names as its icon (`BubbleIcon`).
    private let icon: String
    /// The style of the server running now, with its unique bus name (asked again when another takes its place).
    private var style: (owner: String, style: NotificationServerStyle)?
    private var outage = false
    private var serverLogged = false
    /// Bubbles kept after `show`: the latest of each slot (updated in place), bubbles with buttons until the
    /// server closes them (libnotify forgets the buttons of a freed bubble), and bubbles that stand for changes
    /// later ones may join (`digest`); the oldest go first beyond `keptLimit`.
    private var kept: [KeptBubble] = []
    private static let keptLimit = 100
    /// The unique bus name of the notification server, as the bus last said; `nil` while none runs.
    private var serverOwner: String?
    private var nameWatch: UInt32 = 0
    private var actionHandler: (@Sendable (BubbleAction) -> Void)?
    /// What the server dropped before anyone saw it (GNOME keeps three), and since when (local time): the running
    /// summary's content, until the person dismisses or opens it.
    private var missed: (digest: BubbleDigest, since: String)?
    /// Whether the running summary was shown again after the server dropped it, with nothing dropped since: once
    /// only, so a server that drops every bubble at once (notifications off for trackwatch) is not asked forever.
    private var missedReshown = false
    /// Where changes still go while no bubble can be shown, said when notifications become unavailable.
    private let whereChangesStillGo: (@Sendable () -> String)?

    private struct KeptBubble {
        let bubble: LibNotify.Bubble
        /// The server process that holds it: its unique bus name.
        let owner: String
        let slot: String?
        var buttons: [String: BubbleAction]
        /// The changes it stands for while it is open: a summary, or a critical bubble on a server that holds later
        /// banners back behind it. `nil` once the server closed it (the person has seen it).
        var digest: BubbleDigest?
        let critical: Bool
        /// The change a single bubble stands for, on a server that drops bubbles unseen (`dropsBeyondThree`).
        var unseen: BubbleDigest?
    }

    /// - Parameter whereChangesStillGo: completes "desktop notifications unavailable; …" when they are (e.g.
    ///   "changes are still journaled"); asked at that moment, because only the caller knows what else runs.
    /// - Parameter icon: what each bubble names as its icon; `BubbleIcon.current()` finds trackwatch's own.
    public init(appName: String = "trackwatch", desktopEntry: String = "trackwatch",
                icon: String = BubbleIcon.current().appIcon, logger: Logger,
                whereChangesStillGo: (@Sendable () -> String)? = nil) throws(LibNotifyUnavailable) {
        lib = try LibNotify.open()
        queue = GLibThread(lib)
        self.logger = logger
        self.whereChangesStillGo = whereChangesStillGo
        self.desktopEntry = desktopEntry
        self.appName = appName
        self.icon = icon
        queue.async { [lib] in
            // libnotify also prints its own GLib warnings for every failed call; trackwatch logs one per outage.
            _ = lib.g_log_set_handler("libnotify", LibNotify.logLevelWarning | LibNotify.logLevelMessage, { _, _, _, _ in }, nil)
            _ = lib.notify_init(appName)
        }
    }

    deinit {
        if nameWatch != 0 { lib.g_bus_unwatch_name(nameWatch) }
        for bubble in kept { lib.g_object_unref(bubble.bubble) }
    }

    /// What GLib's C callbacks (buttons, closing, the name watch) hold: the notifier, weakly, so that a callback
    /// arriving after the notifier is gone (in tests, which make several) does nothing.
    private final class CallbackTarget {
        weak var notifier: DesktopNotifier?
        init(_ notifier: DesktopNotifier) { self.notifier = notifier }

        /// A reference for C, released by `release` when GLib drops the callback.
        static func retained(_ notifier: DesktopNotifier) -> LibNotify.Data {
            Unmanaged.passRetained(CallbackTarget(notifier)).toOpaque()
        }

        static func notifier(_ pointer: LibNotify.Data?) -> DesktopNotifier? {
            pointer.flatMap { Unmanaged<CallbackTarget>.fromOpaque($0).takeUnretainedValue().notifier }
        }

        static let release: @convention(c) (LibNotify.Data?) -> Void = { pointer in
            if let pointer { Unmanaged<CallbackTarget>.fromOpaque(pointer).release() }
        }
    }

    /// Shows one bubble per change, or a summary ("4 `tracker` changes"); returns at once.
    public func announce(_ changes: [Change], summaryThreshold: Int, tracker: String? = nil) {
        announce([SourceChanges(tracker: tracker, changes: changes)], summaryThreshold: summaryThreshold)
    }

    /// Shows one bubble per change, or, when all the sources together bring more than `summaryThreshold`, one
    /// summary ("7 changes: 5 in devices, 2 in Qase"); returns at once. A summary still open takes a later burst in
    /// (its count is what it stands for); on a server that holds banners back behind a critical one, an open
    /// critical bubble takes in every later change.
    public func announce(_ sources: [SourceChanges], summaryThreshold: Int) {
        let sources = sources.filter { !$0.changes.isEmpty }
        guard !sources.isEmpty else { return }
        queue.async { [self] in
            guard let capabilities = serverCapabilities(), let style = serverStyle() else { return }
            let markup = capabilities.contains("body-markup"), buttons = capabilities.contains("actions")
            let how = (markup: markup, buttons: buttons, style: style)
            if style.queuesBehindCritical, let critical = kept.last(where: { $0.critical && $0.digest != nil }) {
                showSummary(adding: sources, to: critical.bubble, how)
            } else if sources.reduce(0, { $0 + $1.changes.count }) > summaryThreshold {
                let open = kept.last { $0.slot == NotificationPlan.summarySlot && $0.digest != nil }
                showSummary(adding: sources, to: open?.bubble, how)
            } else {
                for source in sources {
                    for change in source.changes {
                        let bubble = NotificationPlan.single(change, bodyMarkup: markup)
                        let waits = style.queuesBehindCritical && bubble.urgency == .critical
                        let digest = waits ? BubbleDigest([change], tracker: source.tracker) : nil
                        let unseen = style.dropsBeyondThree ? BubbleDigest([change], tracker: source.tracker) : nil
                        show(bubble, buttons: buttons, style: style, digest: digest, unseen: unseen)
                    }
                }
            }
        }
    }

    /// The summary of `sources` and of what the bubble `open` already stands for, in its place.
    private func showSummary(
        adding sources: [SourceChanges], to open: LibNotify.Bubble?,
        _ how: (markup: Bool, buttons: Bool, style: NotificationServerStyle)
    ) {
        var digest = kept.first { $0.bubble == open }?.digest ?? BubbleDigest()
        digest.add(sources)
        show(NotificationPlan.summary(digest, bodyMarkup: how.markup), buttons: how.buttons, style: how.style,
             digest: digest, replacing: open)
    }

    /// The summary of the changes held back during quiet hours; returns at once.
    public func announceQuietHoursSummary(_ changes: [Change], tracker: String? = nil) {
        guard !changes.isEmpty else { return }
        queue.async { [self] in
            guard let capabilities = serverCapabilities(),
                let bubble = NotificationPlan.quietHoursSummary(
                    changes: changes, bodyMarkup: capabilities.contains("body-markup"), tracker: tracker)
            else { return }
            show(bubble, buttons: capabilities.contains("actions"), style: serverStyle())
        }
    }

    /// A message about trackwatch and `server` (its label); the recovery replaces the outage bubble in place.
    /// Returns at once.
    public func announceServiceProblem(summary: String, body: [String], resolved: Bool, server: String) {
        queue.async { [self] in
            guard let capabilities = serverCapabilities() else { return }
            show(NotificationPlan.serviceProblem(summary: summary, body: body, resolved: resolved, server: server,
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
            guard let capabilities = serverCapabilities(), let info = serverInfo() else { return }
            let server = NotificationServer(name: info[0], vendor: info[1], version: info[2], specVersion: info[3],
                                            capabilities: capabilities)
            result.withLock { $0 = server }
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

    /// Called on the notifier's thread when someone clicks a bubble or one of its buttons. Until a handler is
    /// set, bubbles get no buttons.
    public func onAction(_ handler: @escaping @Sendable (BubbleAction) -> Void) {
        queue.async { [self] in actionHandler = handler }
    }

    /// Waits until everything queued before it ran on the notifier's thread (for tests and shutdown).
    public func drain(timeout seconds: Double) -> Bool {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        return done.wait(timeout: .now() + .milliseconds(Int(seconds * 1000))) == .success
    }

    // MARK: - On the queue

    /// The server's capabilities, or nil (with one warning per outage) when there is no server.
    private func serverCapabilities() -> Set<String>? {
        watchServerName()
        var list = lib.notify_get_server_caps()
        if list == nil {
            reconnect()
            list = lib.notify_get_server_caps()
        }
        guard let list else {
            reportFailure("no notification server on the session bus")
            return nil
        }
        defer { lib.g_list_free_full(list, lib.g_free) }
        let capabilities = Set(LibNotify.strings(of: list))
        if !serverLogged {
            serverLogged = true
            logger.info("notification server found", metadata: ["capabilities": "\(capabilities.sorted().joined(separator: ","))"])
        }
        return capabilities
    }

    /// Name, vendor, version and spec version (`GetServerInformation`).
    private func serverInfo() -> [String]? {
        var name: UnsafeMutablePointer<CChar>?, vendor: UnsafeMutablePointer<CChar>?
        var version: UnsafeMutablePointer<CChar>?, spec: UnsafeMutablePointer<CChar>?
        guard lib.notify_get_server_info(&name, &vendor, &version, &spec) != 0 else { return nil }
        defer { for pointer in [name, vendor, version, spec] { lib.g_free(pointer) } }
        return [name, vendor, version, spec].map { pointer in pointer.map { String(cString: $0) } ?? "" }
    }

    /// What the server running now does with bubbles, by its name; asked once per server process.
    private func serverStyle() -> NotificationServerStyle? {
        guard let owner = nameOwner() else { return nil }
        if let style, style.owner == owner { return style.style }
        guard let name = serverInfo()?.first else { return nil }
        let found = NotificationServerStyle(serverName: name)
        style = (owner, found)
        return found
    }

    /// Shows `notification`, in place of the bubble `replacing` or of its slot's bubble where one is kept.
    private func show(_ notification: DesktopNotification, buttons offered: Bool, style: NotificationServerStyle? = nil,
                      digest: BubbleDigest? = nil, unseen: BubbleDigest? = nil,
                      replacing: LibNotify.Bubble? = nil) {
        // Asked of the bus, not of the watch: its news of a restart may still wait in the main loop's queue.
        guard let owner = nameOwner() else {
            reportFailure("no notification server on the session bus")
            return
        }
        forgetBubbles { $0.owner != owner }
        let wanted = style?.buttons(notification.buttons) ?? notification.buttons
        let buttons = offered && actionHandler != nil ? wanted : []
        let bubble: LibNotify.Bubble
        let reused = replacing.flatMap { old in kept.firstIndex { $0.bubble == old } }
            ?? notification.slot.flatMap { slot in kept.firstIndex { $0.slot == slot } }
        var watched = false
        if let reused {
            // Shown again below: the server replaces it (replaces_id).
            bubble = kept.remove(at: reused).bubble
            watched = true
            _ = lib.notify_notification_update(bubble, notification.summary, notification.body, icon)
            lib.notify_notification_clear_actions(bubble)
        } else {
            // GObject aborts the process rather than return no object; checked all the same.
            guard let new = lib.notify_notification_new(notification.summary, notification.body, icon) else { return }
            bubble = new
        }
        lib.notify_notification_set_urgency(bubble, UInt32(notification.urgency.rawValue))
        lib.notify_notification_set_category(bubble, notification.category)
        lib.notify_notification_set_hint(bubble, "desktop-entry", lib.g_variant_new_string(desktopEntry))
        let record = notification.record.flatMap { lib.g_variant_new_string($0.rawValue) }
        lib.notify_notification_set_hint(bubble, "x-trackwatch-record", record)
        for button in buttons { addButton(bubble, button) }
        var error: UnsafeMutableRawPointer?
        let shown = lib.notify_notification_show(bubble, &error) != 0
        if shown {
            reportSuccess()
        } else {
            reportFailure(error.map(LibNotify.message) ?? "unknown error")
        }
        if let error { lib.g_error_free(error) }
        guard shown, notification.slot != nil || !buttons.isEmpty || digest != nil || unseen != nil else {
            lib.g_object_unref(bubble)
            return
        }
        if !watched { watchClosing(bubble) }
        kept.append(KeptBubble(bubble: bubble, owner: owner, slot: notification.slot,
                               buttons: Dictionary(buttons.map { ($0.key, $0.action) }) { first, _ in first },
                               digest: digest, critical: notification.urgency == .critical, unseen: unseen))
        while kept.count > Self.keptLimit { lib.g_object_unref(kept.removeFirst().bubble) }
    }

    // MARK: - Buttons (on the GLib thread)

    private func addButton(_ bubble: LibNotify.Bubble, _ button: BubbleButton) {
        let callback: LibNotify.ActionCallback = { bubble, key, target in
            guard let bubble, let key else { return }
            CallbackTarget.notifier(target)?.invoked(bubble, key: String(cString: key))
        }
        lib.notify_notification_add_action(bubble, button.key, button.label, callback, CallbackTarget.retained(self),
                                       CallbackTarget.release)
    }

    private func watchClosing(_ bubble: LibNotify.Bubble) {
        let closed: LibNotify.ClosedCallback = { bubble, target in
            guard let bubble else { return }
            CallbackTarget.notifier(target)?.closed(bubble)
        }
        let release: LibNotify.ClosureNotify = { target, _ in CallbackTarget.release(target) }
        _ = lib.g_signal_connect_data(bubble, "closed", closed, CallbackTarget.retained(self),
                                      release, 0)
    }

    private func invoked(_ bubble: LibNotify.Bubble, key: String) {
        guard let index = kept.firstIndex(where: { $0.bubble == bubble }), let action = kept[index].buttons[key] else {
            return
        }
        // A click arrives from the server running now; a bubble of an earlier server with the same id is not it.
        guard kept[index].owner == serverOwner || serverOwner == nil else {
            forgetBubbles { $0.bubble == bubble }
            return
        }
        logger.info("bubble action", metadata: ["action": "\(action)"])
        if kept[index].slot == NotificationPlan.missedSlot { missed = nil }
        actionHandler?(action)
        if case .mute = action { _ = lib.notify_notification_close(bubble, nil) }
    }

    private func closed(_ bubble: LibNotify.Bubble) {
        // A slot's bubble stays: the next one of its slot replaces it, or shows anew if the server says it is gone;
        // but it stands for nothing any more: the person has seen it.
        guard let index = kept.firstIndex(where: { $0.bubble == bubble }) else { return }
        let closed = kept[index]
        kept[index].digest = nil
        kept[index].unseen = nil
        forgetBubbles { $0.bubble == bubble && $0.slot == nil }
        // Reason 1, expired: on GNOME, dropped for a newer one of ours — not seen. 2 (dismissed) and 3 (closed by
        // us, replaced) are not news of a loss.
        let expired = lib.notify_notification_get_closed_reason(bubble) == 1
        guard expired, style?.style.dropsBeyondThree == true else {
            if closed.slot == NotificationPlan.missedSlot, !expired { missed = nil }
            return
        }
        if closed.slot == NotificationPlan.missedSlot {
            guard !missedReshown else { return }
            missedReshown = true
        } else if let dropped = closed.digest ?? closed.unseen {
            var folded = missed ?? (BubbleDigest(), Self.localTime())
            folded.digest.add(dropped)
            missed = folded
            missedReshown = false
        } else {
            return
        }
        showMissed()
    }

    /// The running summary of what the server dropped unseen, in its slot.
    private func showMissed() {
        guard let missed, let capabilities = serverCapabilities() else { return }
        logger.info("bubbles dropped by the notification server folded into a summary",
                    metadata: ["changes": "\(missed.digest.count)"])
        show(NotificationPlan.missed(missed.digest, since: missed.since, bodyMarkup: capabilities.contains("body-markup")),
             buttons: capabilities.contains("actions"), style: serverStyle())
    }

    /// `9:40`: the local time now, as the running summary says since when.
    private static func localTime() -> String {
        var now = time(nil), parts = tm()
        localtime_r(&now, &parts)
        return "\(parts.tm_hour):\(parts.tm_min < 10 ? "0" : "")\(parts.tm_min)"
    }

    private func forgetBubbles(where gone: (KeptBubble) -> Bool) {
        for bubble in kept where gone(bubble) { lib.g_object_unref(bubble.bubble) }
        kept.removeAll(where: gone)
    }

    // MARK: - The server's identity

    /// Follows the owner of `org.freedesktop.Notifications`: when the server exits or another takes its place,
    /// its bubbles are forgotten at once. Set up on first use and again after the bus was unreachable.
    private func watchServerName() {
        guard nameWatch == 0, let connection = sessionBus() else { return }
        defer { lib.g_object_unref(connection) }
        nameWatch = lib.g_bus_watch_name_on_connection(
            connection, Self.serverName, 0,
            { _, _, owner, target in
                guard let owner else { return }
                CallbackTarget.notifier(target)?.serverAppeared(String(cString: owner))
            },
            { _, _, target in CallbackTarget.notifier(target)?.serverAppeared(nil) },
            CallbackTarget.retained(self), CallbackTarget.release)
    }

    private func serverAppeared(_ owner: String?) {
        guard owner != serverOwner else { return }
        if serverOwner != nil || owner == nil {
            logger.info(owner == nil ? "notification server gone" : "notification server replaced; its bubbles forgotten")
        }
        serverOwner = owner
        forgetBubbles { $0.owner != owner }
    }

    /// The unique bus name of the notification server now, or `nil` when none runs (or the bus is gone).
    private func nameOwner() -> String? {
        guard let connection = sessionBus() else { return nil }
        defer { lib.g_object_unref(connection) }
        var name = lib.g_variant_new_string(Self.serverName)
        let arguments = withUnsafeMutablePointer(to: &name) { lib.g_variant_new_tuple($0, 1) }
        guard let reply = lib.g_dbus_connection_call_sync(
            connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
            arguments, nil, 0, 5_000, nil, nil)
        else { return nil }
        defer { lib.g_variant_unref(reply) }
        guard lib.g_variant_n_children(reply) == 1 else { return nil }
        let child = lib.g_variant_get_child_value(reply, 0)
        defer { lib.g_variant_unref(child) }
        guard lib.g_variant_classify(child) == LibNotify.variantClassString else { return nil }
        return lib.g_variant_get_string(child, nil).map { String(cString: $0) }
    }

    /// The session bus connection libnotify uses (GDBus shares one per process), with a reference to release.
    private func sessionBus() -> OpaquePointer? {
        lib.g_bus_get_sync(LibNotify.sessionBus, nil, nil)
    }

    /// Drops libnotify's cached D-Bus proxy, so that the next call finds the current server.
    private func reconnect() {
        forgetBubbles { _ in true }
        lib.notify_uninit()
        _ = lib.notify_init(appName)
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
