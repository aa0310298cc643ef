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
    /// "Mute this record" mutes it. Where a server draws no button for the click, `NotificationServerStyle` adds a
    /// visible "Open"; where it does (xfce4-notifyd, dunst's menu), that would be a second one.
    /// - Parameter noun: what the tracker's items are called to people (`record`; `item` for an issue or pull request).
    static func forRecord(_ record: RecordID, source: String? = nil, noun: String = "record") -> [BubbleButton] {
        [BubbleButton(key: "default", label: "Open", action: .open(record, source: source)),
         BubbleButton(key: "mute", label: "Mute this \(noun)", action: .mute(record, source: source))]
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
    /// The running summary of what the server dropped unseen (`NotificationServerStyle.dropsBeyondThree`).
    public static let missedSlot = "missed"
    static let lineLimit = 120
    static let valueLimit = 48
    static let fieldNameLimit = 32
    static let fieldLineLimit = 6
    static let bodyLimit = 1_000
    /// A summary's line per change: one line of a 500-pixel GNOME banner (about 56 characters of its font).
    static let itemLimit = 56

    /// - Parameter tracker: what the changes' tracker is called (`SourceSettings.trackerName`), for the summary's
    ///   "4 … changes"; `nil` when they come from several.
    public static func make(changes: [Change], threshold: Int, bodyMarkup: Bool, tracker: String? = nil) -> [DesktopNotification] {
        guard !changes.isEmpty else { return [] }
        if changes.count > threshold {
            return [summary(BubbleDigest(changes, tracker: tracker), bodyMarkup: bodyMarkup)]
        }
        return changes.map { single($0, bodyMarkup: bodyMarkup) }
    }

    /// One change's bubble.
    public static func single(_ change: Change, bodyMarkup: Bool) -> DesktopNotification {
        DesktopNotification(
            summary: line(title(change)), body: body(lines(change), markup: bodyMarkup),
            urgency: criticalReason(change) == nil ? .normal : .critical, category: changeCategory,
            buttons: BubbleButton.forRecord(
                change.record, source: change.source, noun: change.isFromActivityLog ? "item" : "record"),
            record: change.record)
    }

    /// The summary bubble of what `digest` stands for: `8 … changes`, a short line for each change it names
    /// (critical ones first, newest first), and `and 5 more`.
    public static func summary(_ digest: BubbleDigest, bodyMarkup: Bool) -> DesktopNotification {
        DesktopNotification(
            summary: summaryTitle(digest), body: body(summaryLines(digest), markup: bodyMarkup),
            urgency: digest.isCritical ? .critical : .normal, category: changeCategory, slot: summarySlot,
            buttons: BubbleButton.showAll)
    }

    /// `8 <tracker> changes`, or `8 changes` of several trackers: short enough that no server cuts it (GNOME and
    /// xfce cut a title of about 40 characters); the body's last line counts each tracker.
    static func summaryTitle(_ digest: BubbleDigest) -> String {
        "\(digest.count) \(noun(digest.tracker, plural: digest.count != 1))"
    }

    /// `5 in GitHub · 2 in Jira · 1 in devices`, the largest share first, when the changes come from several named
    /// trackers; `nil` otherwise.
    static func shareLine(_ digest: BubbleDigest) -> String? {
        let shares = digest.shares.enumerated().filter { $0.element.tracker != nil }
        guard shares.count > 1, shares.count == digest.shares.count else { return nil }
        // Largest first; among equals, the order they came in.
        let ordered = shares.sorted { ($0.element.count, -$0.offset) > ($1.element.count, -$1.offset) }
        return ordered.map { "\($0.element.count) in \(Markup.plain($0.element.tracker ?? ""))" }.joined(separator: " · ")
    }

    /// The running summary of changes whose bubbles the server dropped before anyone saw them (GNOME keeps three):
    /// `5 changes since 9:40`, their short lines, and Show all. It is replaced in place as more are dropped, and
    /// stays until it is dismissed or opened. `since`: the local time of the first one dropped.
    public static func missed(_ digest: BubbleDigest, since: String, bodyMarkup: Bool) -> DesktopNotification {
        DesktopNotification(
            summary: line("\(digest.count) \(noun(digest.tracker, plural: digest.count != 1)) since \(since)"),
            body: body(summaryLines(digest), markup: bodyMarkup), urgency: .normal, category: changeCategory,
            slot: missedSlot, buttons: BubbleButton.showAll)
    }

    /// The one bubble after quiet hours: how many changes arrived meanwhile, the first few named.
    public static func quietHoursSummary(changes: [Change], bodyMarkup: Bool, tracker: String? = nil) -> DesktopNotification? {
        guard !changes.isEmpty else { return nil }
        return DesktopNotification(
            summary: "\(changes.count) \(noun(tracker, plural: changes.count != 1)) during quiet hours",
            body: body(summaryLines(BubbleDigest(changes)), markup: bodyMarkup),
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
        criticalCause(change).map { "\($0.field) \($0.raised ? "raised to " : "")\($0.value)" }
    }

    /// `Priority 1`, `Severity raised to 1`: the reason with the level alone, for a summary's short lines.
    static func shortCriticalReason(_ change: Change) -> String? {
        criticalCause(change).map { cause in
            // A numbered level by its number, a named one (Jira's `Highest`) by its name.
            let level = cause.value.first?.isNumber == true ? "1" : Markup.isolated(bounded(Markup.plain(cause.value), 16))
            return "\(cause.field) \(cause.raised ? "raised to " : "")\(level)"
        }
    }

    /// The field at level 1, its value, and whether the change raised it there.
    static func criticalCause(_ change: Change) -> (field: String, value: String, raised: Bool)? {
        switch change.kind {
        case .assigned:
            if BubbleRules.level(change.priority) == 1, let level = change.priority {
                return ("Priority", level, false)
            }
            if BubbleRules.level(change.severity) == 1, let level = change.severity {
                return ("Severity", level, false)
            }
        case .modified:
            for field in ["Priority", "Severity"] {
                if let raised = change.change(of: field), let new = raised.new,
                    BubbleRules.level(new) == 1, BubbleRules.level(raised.old) != 1 {
                    return (field, new, true)
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

    /// `A-6: ⁨Dark mode contrast too low⁩` — the record first, because GNOME's message list keeps only
    /// about 22 characters of a title; the headline follows as far as the banner's width allows. A list's item:
    /// its title alone (`⁨Pixel 8 (Android 14)⁩`), or `Item ⁨3⁩`.
    static func title(_ change: Change) -> String {
        guard change.naming == nil else { return change.name(isolating: Markup.isolated) }
        return "\(change.record): \(Markup.isolated(change.headline))"
    }

    /// `assigned to you by ⁨lead⁩`, `resolved by ⁨lead⁩`: what happened and who did it, names isolated.
    static func event(_ change: Change) -> String {
        let event = change.event(isolating: Markup.isolated)
        if change.kind == .assigned, !change.saysWho, let by = change.by { return "\(event) by \(Markup.isolated(by))" }
        return event
    }

    /// What happened and who did it, with the first detail — `Resolved by ⁨lead⁩ · State: ⁨Opened⁩ → ⁨Resolved⁩` —
    /// since a banner and GNOME's message list show only a body's first line; then the other details.
    /// An activity log's change says it in the tracker's words (`⁨bob⁩ commented: …`), bounded by the line, not by
    /// a field value's room.
    static func lines(_ change: Change) -> [String] {
        let found = ActivityDeed.of(change)
        var told = change
        if let found {
            told.changes = change.changes.enumerated().filter { !found.told.contains($0.offset) }.map(\.element)
        }
        // What the words said is not said again; what is left are the details.
        let details = found != nil && change.kind == .modified && told.changes.isEmpty ? [] : self.details(told)
        let first = found.map { $0.deed.line(by: change.by, isolate: Markup.isolated) } ?? capitalized(event(change))
        return [([first] + details.prefix(1)).joined(separator: " · ")] + details.dropFirst()
    }

    /// For a record arriving, its priority, severity where it matters and state; for a record changed, every changed
    /// field (the one that makes it critical first), then the headline it had before.
    static func details(_ change: Change) -> [String] {
        switch change.kind {
        case .assigned, .entered:
            let facts = self.facts(change)
            return facts.isEmpty ? [] : [facts]
        case .modified, .changed:
            let reason = criticalCause(change)?.field
            let fields = change.changes.filter { $0.field != "Headline" }
            let ordered = fields.filter { $0.field == reason } + fields.filter { $0.field != reason }
            var lines = ordered.prefix(fieldLineLimit).map { field in
                // A rename: the new title is the bubble's title already.
                if change.isFromActivityLog,
                    case .renamed(let old)? = ActivityDeed.deed(field, headline: change.headline) {
                    return "\(Markup.isolated(bounded(Markup.plain(field.field), fieldNameLimit))) was: \(value(old))"
                }
                return change.described(
                    field, name: { Markup.isolated(bounded(Markup.plain($0), fieldNameLimit)) }, value: value)
            }
            if change.changes.isEmpty, change.by != nil { lines.append(unknownFields) }
            if ordered.count > fieldLineLimit { lines.append("and \(ordered.count - fieldLineLimit) more fields") }
            if let headline = change.change(of: "Headline"), let old = headline.old {
                lines.append("Headline was: \(Markup.isolated(old))")
            }
            return lines
        case .unassigned, .left:
            return []
        }
    }

    /// Said of a colleague's change that touched none of the compared fields.
    static let unknownFields = "no compared field changed"

    /// `Priority: ⁨1-Resolve Immediately⁩ · Severity: ⁨2-Major⁩ · State: ⁨Opened⁩`; severity only at its two top
    /// levels.
    static func facts(_ change: Change) -> String {
        var facts: [String] = []
        if let priority = change.priority, !priority.isEmpty { facts.append("Priority: \(value(priority))") }
        if let severity = change.severity, !severity.isEmpty, let level = BubbleRules.level(severity), level <= 2 {
            facts.append("Severity: \(value(severity))")
        }
        if let state = change.state, !state.isEmpty { facts.append("\(change.stateField ?? "State"): \(value(state))") }
        return facts.joined(separator: " · ")
    }

    /// A short line per change the digest names, then `and N more`: each fits one line of a 500-pixel GNOME banner.
    static func summaryLines(_ digest: BubbleDigest) -> [String] {
        let named = digest.changes
        var lines = named.map(item)
        if digest.count > named.count { lines.append("and \(digest.count - named.count) more") }
        if let shares = shareLine(digest) { lines.append(shares) }
        return lines
    }

    /// `A-17 resolved by ⁨lead⁩: ⁨Printing cuts the…⁩`, at most `itemLimit` characters; the headline
    /// only where a few words of it fit. A list's item: `⁨Pixel 8 (Android 14)⁩ changed by ⁨Sam Carter⁩ in …`.
    static func item(_ change: Change) -> String {
        let reason = shortCriticalReason(change).map { " (\($0))" } ?? ""
        // An activity log's change says what was done, in the tracker's words: `acme/web#7: ⁨bob⁩ commented: …`.
        if change.naming == nil, let found = ActivityDeed.of(change) {
            return bounded("\(Markup.plain(change.record.rawValue)): \(found.deed.line(by: change.by, isolate: Markup.isolated))\(reason)", itemLimit)
        }
        guard change.naming == nil else {
            return bounded("\(change.name(isolating: Markup.isolated)) \(event(change))\(reason)", itemLimit)
        }
        let what = "\(Markup.plain(change.record.rawValue)) \(event(change))\(reason)"
        guard what.count + 12 <= itemLimit else { return bounded(what, itemLimit) }
        return bounded("\(what): \(Markup.isolated(change.headline))", itemLimit)
    }

    static func value(_ text: String?) -> String {
        text.map { Markup.isolated(bounded(Markup.plain($0), valueLimit)) } ?? "∅"
    }

    /// `resolved by` → `Resolved by`, for the start of a line.
    static func capitalized(_ text: String) -> String {
        guard let first = text.first, first.isASCII, first.isLowercase else { return text }
        return first.uppercased() + text.dropFirst()
    }

    /// A summary line: cleaned and bounded.
    static func line(_ text: String) -> String { bounded(Markup.oneLine(text), lineLimit) }

    /// A bubble body from raw lines: each line cleaned (see `Markup.oneLine`) and cut to `lineLimit`, the whole
    /// to `bodyLimit` characters of text, and only then escaped, so that a cut never splits an entity or leaves
    /// a tag open.
    static func body(_ lines: [String], markup: Bool, lineLimit: Int = lineLimit) -> String {
        var remaining = bodyLimit
        var out: [String] = []
        for line in lines where remaining > 1 {
            let cut = bounded(Markup.oneLine(line), min(lineLimit, remaining))
            remaining -= cut.count + 1
            out.append(markup ? Markup.escape(cut) : cut)
        }
        return out.joined(separator: "\n")
    }

    /// At most `limit` characters and `4 × limit` Unicode scalars (`SafeText.bounded`: one character may carry any
    /// number of combining marks), `…` marking a cut; an isolate the cut leaves open is closed (within the limit),
    /// so that nothing after the text is drawn in its direction.
    static func bounded(_ value: String, _ limit: Int) -> String {
        let maxScalars = limit * 4
        guard value.count > limit || value.unicodeScalars.count > maxScalars else { return value }
        var kept = "", count = 0, scalars = 0, open = 0
        for character in value {
            let opened = open + (character == Markup.isolateStart ? 1 : character == Markup.isolateEnd ? -1 : 0)
            let size = character.unicodeScalars.count
            // The character, the ellipsis, the closing isolates.
            guard count + 2 + opened <= limit, scalars + size + 2 + opened <= maxScalars else { break }
            kept.append(character)
            count += 1
            scalars += size
            open = opened
        }
        return kept + "…" + String(repeating: Markup.isolateEnd, count: open)
    }
}

/// Text from the server on its way into a notification.
public enum Markup {
    /// For servers that advertise `body-markup`: XML-escaped, so `&` or `<b>` in a headline is shown, not parsed.
    public static func escape(_ text: String) -> String {
        var out = ""
        for character in oneLine(text) {
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

    static let isolateStart: Character = "\u{2068}"  // FIRST STRONG ISOLATE
    static let isolateEnd: Character = "\u{2069}"  // POP DIRECTIONAL ISOLATE

    /// Server text in its own writing direction, whatever surrounds it: cleaned (`plain`) and isolated, so that a
    /// right-to-left headline neither reorders the words around it nor, inside a line, turns the line around.
    public static func isolated(_ text: String) -> String { "\(isolateStart)\(plain(text))\(isolateEnd)" }

    /// `plain`, keeping the isolates that `isolated` adds, balanced: one line whose server text may be isolated.
    public static func oneLine(_ text: String) -> String {
        var scalars = String.UnicodeScalarView(), open = 0
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x2068: open += 1
            case 0x2069 where open > 0: open -= 1
            case 0x09...0x0D, 0x85, 0x2028, 0x2029: scalars.append(" "); continue
            case _ where SafeText.isControl(scalar): continue
            default: break
            }
            scalars.append(scalar)
        }
        return String(scalars) + String(repeating: isolateEnd, count: open)
    }
}
