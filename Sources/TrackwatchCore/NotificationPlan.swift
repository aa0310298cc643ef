/// One desktop notification, ready for the notifier: text already escaped for the server's capabilities.
public struct DesktopNotification: Equatable, Sendable {
    public enum Urgency: UInt8, Sendable { case low = 0, normal = 1, critical = 2 }

    public var summary: String
    public var body: String
    public var urgency: Urgency
    public var category: String
    /// The rolling summary bubble: a later one replaces the earlier one in place (replaces_id).
    public var isSummary: Bool
    public var record: RecordID?

    public init(summary: String, body: String, urgency: Urgency, category: String, isSummary: Bool, record: RecordID?) {
        self.summary = summary
        self.body = body
        self.urgency = urgency
        self.category = category
        self.isSummary = isSummary
        self.record = record
    }
}

/// Which bubbles a poll's changes become: one per change, or one summary when there are more than the
/// threshold (every change is still journaled individually).
public enum NotificationPlan {
    /// Not a freedesktop category: none fits a tracker, so the spec's `x-vendor.class` form is used.
    public static let changeCategory = "x-trackwatch.record.changed"
    public static let serviceCategory = "x-trackwatch.service"
    static let headlineLimit = 200
    static let bodyLimit = 1_000

    public static func make(changes: [Change], threshold: Int, bodyMarkup: Bool) -> [DesktopNotification] {
        guard !changes.isEmpty else { return [] }
        let urgency: DesktopNotification.Urgency = changes.contains(where: isCritical) ? .critical : .normal
        if changes.count > threshold {
            let lines = changes.prefix(threshold).map { "\($0.summary): \(bounded($0.headline, headlineLimit))" }
            let more = changes.count - threshold
            return [DesktopNotification(
                summary: "\(changes.count) Compass changes",
                body: body(lines + ["and \(more) more"], markup: bodyMarkup),
                urgency: urgency, category: changeCategory, isSummary: true, record: nil)]
        }
        return changes.map { change in
            let lines = [bounded(change.headline, headlineLimit)]
                + change.changes.map { "\($0.field): \($0.old ?? "∅") → \($0.new ?? "∅")" }
            return DesktopNotification(
                summary: Markup.plain(bounded(change.summary, headlineLimit)), body: body(lines, markup: bodyMarkup, boldFirst: true),
                urgency: isCritical(change) ? .critical : .normal, category: changeCategory, isSummary: false,
                record: change.record)
        }
    }

    /// The one bubble after quiet hours: how many changes arrived meanwhile, the first few named.
    public static func quietHoursSummary(changes: [Change], bodyMarkup: Bool) -> DesktopNotification? {
        guard !changes.isEmpty else { return nil }
        let shown = 3
        var lines = changes.prefix(shown).map { "\($0.summary): \(bounded($0.headline, headlineLimit))" }
        if changes.count > shown { lines.append("and \(changes.count - shown) more (journalctl --user -u trackwatch)") }
        return DesktopNotification(
            summary: changes.count == 1 ? "1 Compass change during quiet hours" : "\(changes.count) Compass changes during quiet hours",
            body: body(lines, markup: bodyMarkup),
            urgency: changes.contains(where: isCritical) ? .critical : .normal, category: changeCategory, isSummary: false,
            record: nil)
    }

    /// "Cannot reach Compass" / "Connected again": about trackwatch itself, shown in the summary slot.
    public static func serviceProblem(summary: String, body: String, resolved: Bool, bodyMarkup: Bool) -> DesktopNotification {
        DesktopNotification(summary: summary, body: Self.body([body], markup: bodyMarkup),
                            urgency: resolved ? .low : .normal, category: serviceCategory, isSummary: false, record: nil)
    }

    /// `1-Resolve Immediately` or `1-Critical`: the two top levels of the SAMPL schema.
    public static func isCritical(_ change: Change) -> Bool {
        change.priority == "1-Resolve Immediately" || change.severity == "1-Critical"
    }

    /// A bubble body from raw lines: each line cleaned (see `Markup.plain`), the whole cut to `bodyLimit`
    /// characters of text, and only then escaped, so that a cut never splits an entity or leaves a tag open.
    static func body(_ lines: [String], markup: Bool, boldFirst: Bool = false) -> String {
        var remaining = bodyLimit
        var out: [String] = []
        for (index, line) in lines.enumerated() where remaining > 1 {
            let cut = bounded(Markup.plain(line), remaining)
            remaining -= cut.count + 1
            guard markup else { out.append(cut); continue }
            out.append(index == 0 && boldFirst ? "<b>\(Markup.escape(cut))</b>" : Markup.escape(cut))
        }
        return out.joined(separator: "\n")
    }

    static func bounded(_ value: String, _ limit: Int) -> String {
        value.count <= limit ? value : String(value.prefix(limit - 1)) + "…"
    }
}

/// Text from the server on its way into a notification.
public enum Markup {
    /// For servers that advertise `body-markup`: XML-escaped, so `&` or `<b>` in a headline is shown, not parsed.
    public static func escape(_ text: String) -> String {
        var out = ""
        for character in plain(text) {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// Literal text on one line (see `SafeText.oneLine`), so that a headline can neither fake lines nor reorder
    /// what the bubble shows.
    public static func plain(_ text: String) -> String { SafeText.oneLine(text) }
}
