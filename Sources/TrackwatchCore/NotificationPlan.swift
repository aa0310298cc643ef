/// One desktop notification, ready for the notifier: text already escaped for the server's capabilities.
public struct DesktopNotification: Equatable, Sendable {
    public enum Urgency: UInt8, Sendable { case low = 0, normal = 1, critical = 2 }

    public var summary: String
    public var body: String
    public var urgency: Urgency
    public var category: String
    /// Bubbles of one slot replace each other in place (replaces_id): the rolling summary, and each server's
    /// outage bubble, which its "Connected to … again" replaces. `nil`: a bubble of its own.
    public var slot: String?
    /// Offered when the server advertises `actions`; a `default` key is a click on the bubble itself.
    public var buttons: [BubbleButton]
    public var record: RecordID?

    public init(summary: String, body: String, urgency: Urgency, category: String, slot: String? = nil,
                buttons: [BubbleButton] = [], record: RecordID? = nil) {
        self.summary = summary
        self.body = body
        self.urgency = urgency
        self.category = category
        self.slot = slot
        self.buttons = buttons
        self.record = record
    }
}

/// A bubble's button: the D-Bus action key, its label, and what a click on it does.
public struct BubbleButton: Equatable, Sendable {
    public let key: String
    public let label: String
    public let action: BubbleAction

    public init(key: String, label: String, action: BubbleAction) {
        self.key = key
        self.label = label
        self.action = action
    }

    /// A change's bubble: a click (or "Open", where the server draws the click as a button) opens the record,
    /// "Mute this record" mutes it. One of each: servers that show every action as a button (xfce4-notifyd,
    /// dunst's menu) would show a second "Open" for a separate `open` action.
    static func forRecord(_ record: RecordID, source: String? = nil) -> [BubbleButton] {
        [BubbleButton(key: "default", label: "Open", action: .open(record, source: source)),
         BubbleButton(key: "mute", label: "Mute this record", action: .mute(record, source: source))]
    }

    /// A summary's one way on: the page of recent changes.
    static let showAll = [BubbleButton(key: "default", label: "Show all", action: .showAll)]
}

/// Which bubbles a poll's changes become, and what each says: one per change, or one summary when there are
/// more than the threshold (every change is still journaled individually).
///
/// Every line is bounded (`lineLimit`, field values `valueLimit`), so that no server text can grow a bubble
/// beyond a few lines, and urgency says what a change means for me, not what the record is (see `criticalReason`).
public enum NotificationPlan {
    /// Not a freedesktop category: none fits a tracker, so the spec's `x-vendor.class` form is used.
    public static let changeCategory = "x-trackwatch.record.changed"
    public static let serviceCategory = "x-trackwatch.service"
    public static let summarySlot = "summary"
    static let lineLimit = 120
    static let valueLimit = 48
    static let fieldNameLimit = 32
    static let fieldLineLimit = 6
    static let bodyLimit = 1_000

    /// - Parameter tracker: what the changes' tracker is called (`SourceSettings.trackerName`), for the summary's
    ///   "4 … changes"; `nil` when they come from several.
    public static func make(changes: [Change], threshold: Int, bodyMarkup: Bool, tracker: String? = nil) -> [DesktopNotification] {
        guard !changes.isEmpty else { return [] }
        if changes.count > threshold {
            return [DesktopNotification(
                summary: "\(changes.count) \(noun(tracker, plural: true))",
                body: body(summaryLines(changes, shown: threshold), markup: bodyMarkup),
                urgency: urgency(of: changes), category: changeCategory, slot: summarySlot,
                buttons: BubbleButton.showAll)]
        }
        return changes.map { change in
            DesktopNotification(
                summary: line(title(change)), body: body(lines(change), markup: bodyMarkup, boldFirst: true),
                urgency: criticalReason(change) == nil ? .normal : .critical, category: changeCategory,
                buttons: BubbleButton.forRecord(change.record, source: change.source), record: change.record)
        }
    }

    /// The one bubble after quiet hours: how many changes arrived meanwhile, the first few named.
    public static func quietHoursSummary(changes: [Change], bodyMarkup: Bool, tracker: String? = nil) -> DesktopNotification? {
        guard !changes.isEmpty else { return nil }
        return DesktopNotification(
            summary: "\(changes.count) \(noun(tracker, plural: changes.count != 1)) during quiet hours",
            body: body(summaryLines(changes, shown: 3), markup: bodyMarkup),
            urgency: urgency(of: changes), category: changeCategory, buttons: BubbleButton.showAll)
    }

    /// `<tracker> changes`, or `changes` without a tracker's name.
    static func noun(_ tracker: String?, plural: Bool) -> String {
        (tracker.map { line($0) + " " } ?? "") + (plural ? "changes" : "change")
    }

    /// A message about trackwatch itself, in the source's own slot: an outage bubble ("Cannot reach …"), then
    /// the recovery ("Connected to … again") in its place.
    /// Its lines are trackwatch's own words and an error message, which may quote the server: longer lines
    /// than a change's, still bounded.
    public static func serviceProblem(summary: String, body: [String], resolved: Bool, server: String,
                                      bodyMarkup: Bool) -> DesktopNotification {
        DesktopNotification(summary: line(summary), body: Self.body(body, markup: bodyMarkup, lineLimit: 300),
                            urgency: resolved ? .low : .normal, category: serviceCategory, slot: "service \(server)")
    }

    // MARK: - Urgency

    /// Why a change needs me now, shown wherever the change is: a record of the top priority (or severity)
    /// put in my hands, or one of my records raised to it. `nil` for everything else — a record leaving me,
    /// a priority drop, a watched query's view of a colleague's record — whatever the record's current level.
    public static func criticalReason(_ change: Change) -> String? {
        switch change.kind {
        case .assigned:
            if BubbleRules.level(change.priority) == 1, let priority = change.priority { return "Priority \(priority)" }
            if BubbleRules.level(change.severity) == 1, let severity = change.severity { return "Severity \(severity)" }
        case .modified:
            for field in ["Priority", "Severity"] {
                if let raised = change.change(of: field), let new = raised.new,
                    BubbleRules.level(new) == 1, BubbleRules.level(raised.old) != 1 {
                    return "\(field) raised to \(new)"
                }
            }
        case .unassigned, .entered, .left, .changed:
            break
        }
        return nil
    }

    static func urgency(of changes: [Change]) -> DesktopNotification.Urgency {
        changes.contains { criticalReason($0) != nil } ? .critical : .normal
    }

    // MARK: - Text

    /// `A-42 assigned to you by lead`: who put it in my hands belongs in the summary line.
    static func title(_ change: Change) -> String { "\(change.record) \(event(change))" }

    /// `assigned to you by lead`, `resolved by lead`.
    static func event(_ change: Change) -> String {
        if change.kind == .assigned, let by = change.by { return "\(change.event) by \(by)" }
        return change.event
    }

    /// The headline (once, also when it changed: the old one follows as "Headline was"), then the facts a person
    /// decides on: for a record arriving, its priority, severity where it matters and state; for a record
    /// changed, every changed field, the one that makes it critical first.
    static func lines(_ change: Change) -> [String] {
        var lines = [change.headline]
        if let headline = change.change(of: "Headline"), let old = headline.old { lines.append("Headline was: \(old)") }
        switch change.kind {
        case .assigned, .entered:
            let facts = self.facts(change)
            if !facts.isEmpty { lines.append(facts) }
        case .modified, .changed:
            let reason = criticalReason(change)
            let fields = change.changes.filter { $0.field != "Headline" }
            let first = fields.filter { reason?.hasPrefix($0.field + " ") == true }
            let ordered = first + fields.filter { reason?.hasPrefix($0.field + " ") != true }
            for field in ordered.prefix(fieldLineLimit) {
                lines.append("\(bounded(field.field, fieldNameLimit)): \(value(field.old)) → \(value(field.new))")
            }
            if ordered.count > fieldLineLimit { lines.append("and \(ordered.count - fieldLineLimit) more fields") }
        case .unassigned, .left:
            break
        }
        return lines
    }

    /// `Priority: 1-Resolve Immediately · Severity: 2-Major · State: Opened`; severity only at its two top levels.
    static func facts(_ change: Change) -> String {
        var facts: [String] = []
        if let priority = change.priority, !priority.isEmpty { facts.append("Priority: \(value(priority))") }
        if let severity = change.severity, !severity.isEmpty, let level = BubbleRules.level(severity), level <= 2 {
            facts.append("Severity: \(value(severity))")
        }
        if let state = change.state, !state.isEmpty { facts.append("State: \(value(state))") }
        return facts.joined(separator: " · ")
    }

    /// One line per change, the critical ones first (with what makes them critical), then `and N more`.
    static func summaryLines(_ changes: [Change], shown: Int) -> [String] {
        let ordered = changes.filter { criticalReason($0) != nil } + changes.filter { criticalReason($0) == nil }
        var lines = ordered.prefix(shown).map { change in
            let reason = criticalReason(change).map { " (\($0))" } ?? ""
            return "\(title(change))\(reason): \(change.headline)"
        }
        if changes.count > shown { lines.append("and \(changes.count - shown) more") }
        return lines
    }

    static func value(_ text: String?) -> String { text.map { bounded(Markup.plain($0), valueLimit) } ?? "∅" }

    /// A summary line: cleaned and bounded.
    static func line(_ text: String) -> String { bounded(Markup.plain(text), lineLimit) }

    /// A bubble body from raw lines: each line cleaned (see `Markup.plain`) and cut to `lineLimit`, the whole
    /// to `bodyLimit` characters of text, and only then escaped, so that a cut never splits an entity or leaves
    /// a tag open.
    static func body(_ lines: [String], markup: Bool, boldFirst: Bool = false, lineLimit: Int = lineLimit) -> String {
        var remaining = bodyLimit
        var out: [String] = []
        for (index, line) in lines.enumerated() where remaining > 1 {
            let cut = bounded(Markup.plain(line), min(lineLimit, remaining))
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
