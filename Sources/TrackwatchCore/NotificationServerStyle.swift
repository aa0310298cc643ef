/// What a notification server does where the specification leaves it open, known by the name it gives in
/// `GetServerInformation`; an unknown server is taken to behave as most do (GNOME Shell, Plasma, mako,
/// notification-daemon).
public struct NotificationServerStyle: Equatable, Sendable {
    /// Whether the server shows the `default` action to the person: dunst in its context menu, xfce4-notifyd as a
    /// button. Most others only run it on a click on the bubble and draw no button for it, so trackwatch adds a
    /// visible one with the same label ("Open", "Show all"); where `default` is shown, that would be a second one.
    public var showsDefaultAction: Bool
    /// GNOME Shell shows one banner at a time and keeps a critical one up until it is dismissed: every later
    /// banner waits behind it, so later changes are folded into the critical bubble instead.
    public var queuesBehindCritical: Bool
    /// GNOME Shell keeps at most three notifications of one application: each fourth expires the oldest at once,
    /// gone from the message list as well. What it dropped unseen is folded into a running summary that stays.
    public var dropsBeyondThree: Bool

    public init(serverName: String) {
        showsDefaultAction = ["dunst", "Xfce Notify Daemon"].contains(serverName)
        queuesBehindCritical = serverName == "gnome-shell"
        dropsBeyondThree = serverName == "gnome-shell"
    }

    /// The key of the visible button added for a bubble's click.
    static func visibleKey(for action: BubbleAction) -> String {
        if case .showAll = action { return "show-all" }
        return "open"
    }

    /// `buttons` as this server should get them: exactly one visible way to open what the bubble is about.
    public func buttons(_ buttons: [BubbleButton]) -> [BubbleButton] {
        guard !showsDefaultAction, let click = buttons.first(where: { $0.key == "default" }) else { return buttons }
        let visible = BubbleButton(key: Self.visibleKey(for: click.action), label: click.label, action: click.action)
        return [click, visible] + buttons.filter { $0.key != "default" }
    }
}
