/// The words people read for a change: the same sentence goes to the terminal, the journal's MESSAGE and
/// the notification summary. Plain text; escaping for notification markup happens where markup is built. Every
/// value in them is the server's and bounded here (`SafeText.bounded`), so that no line grows with what it sent.
extension Change {
    static let idLimit = 80, nameLimit = 80, headlineLimit = 200, valueLimit = 80, fieldNameLimit = 40
    /// Fields named in one sentence; the rest are counted.
    static let fieldsInASentence = 6

    /// `A-42 assigned to you`, `A-17 resolved by lead`, `A-3 no longer assigned to you`, `A-8 now in Team P1s`
    /// (a watched query or list), `Pixel 8 (Android 14) changed by Sam Carter in devices` (a list's item).
    public var summary: String { "\(name(isolating: { $0 })) \(event)" }

    /// What the words call the item: its id, or a list item's title or `Item <key>` (`naming`).
    func name(isolating isolate: (String) -> String) -> String {
        switch naming {
        case .title?: isolate(SafeText.bounded(headline, Self.headlineLimit))
        case .key?: "Item \(isolate(SafeText.bounded(record.rawValue, Self.idLimit)))"
        case nil: SafeText.bounded(record.rawValue, Self.idLimit)
        }
    }

    /// What happened, without the record: `assigned to you`, `resolved by lead`, `now in Team P1s`.
    public var event: String { event(isolating: { $0 }) }

    /// `event`, with the names that come from the server or the configuration (who, the watch) passed through
    /// `isolate` (a bubble keeps each in its own writing direction).
    public func event(isolating isolate: (String) -> String) -> String {
        let by = self.by.map { isolate(SafeText.bounded($0, Self.nameLimit)) }
        let watch = self.watch.map { isolate(SafeText.bounded($0, Self.nameLimit)) } ?? "a watched query"
        if let words = ActivityDeed.of(self)?.deed.event(by: by, isolate: isolate) { return words }
        switch kind {
        case .assigned:
            return "assigned to you"
        case .unassigned:
            return by.map { "no longer assigned to you, by \($0)" } ?? "no longer assigned to you"
        case .modified:
            let verb = action.map { Self.pastTense(ofAction: SafeText.bounded($0, Self.nameLimit)) } ?? "changed"
            return by.map { "\(verb) by \($0)" } ?? verb
        // A list's item says who whenever it names someone (`by`); a tracker's watched records stay as they were.
        case .entered:
            guard naming != nil, let by else { return "now in \(watch)" }
            return "now in \(watch), by \(by)"
        case .left:
            return "no longer in \(watch)"
        case .changed:
            guard naming != nil, let by else { return "changed in \(watch)" }
            return "changed by \(by) in \(watch)"
        }
    }

    /// `A-42 assigned to you by lead: Crash on save [2-Give High Attention]`, `Pixel 8 (Android 14) changed by Sam
    /// Carter in devices (Checked out: no → yes)` — one line for the terminal and the journal.
    public var sentence: String {
        var text = summary
        if kind == .assigned, let by, !saysWho { text += " by \(SafeText.bounded(by, Self.nameLimit))" }
        // A list's item is named by its title already (or has none): the headline is not said again.
        if naming == nil { text += ": \(SafeText.bounded(headline, Self.headlineLimit))" }
        if let priority, !priority.isEmpty { text += " [\(SafeText.bounded(priority, Self.nameLimit))]" }
        let fields = fieldSummary
        if !fields.isEmpty { text += " (\(fields))" }
        return text
    }

    /// Whether `event` names who did it already: an assignment says it after (`assigned to you by lead`), a review
    /// request in its own words (`review requested by bob`).
    var saysWho: Bool { kind != .assigned || ActivityDeed.of(self)?.deed.event(by: nil, isolate: { $0 }) != nil }

    /// `State: Opened → Resolved, Priority: 3-Normal Queue → 1-Resolve Immediately`.
    public var fieldSummary: String {
        func value(_ text: String?) -> String { text.map { SafeText.bounded($0, Self.valueLimit) } ?? "∅" }
        var parts = changes.prefix(Self.fieldsInASentence).map {
            described($0, name: { SafeText.bounded($0, Self.fieldNameLimit) }, value: value)
        }
        if changes.count > Self.fieldsInASentence { parts.append("and \(changes.count - Self.fieldsInASentence) more") }
        return parts.joined(separator: ", ")
    }

    /// `Resolve` → `resolved`, `Re_open` → `reopened`, `request_changes` → `sent back for changes`; unknown actions
    /// read as `<action> applied`.
    public static func pastTense(ofAction action: String) -> String {
        switch action.lowercased() {
        case "assign": return "assigned"
        case "open": return "opened"
        case "resolve": return "resolved"
        case "close": return "closed"
        case "validate": return "validated"
        case "re_open", "reopen": return "reopened"
        case "postpone": return "postponed"
        case "duplicate": return "marked duplicate"
        case "unduplicate": return "marked not duplicate"
        case "modify": return "modified"
        case "submit": return "submitted"
        case "delete": return "deleted"
        case "import": return "imported"
        case "edit": return "edited"
        case "approve": return "approved"
        case "unapprove": return "no longer approved"
        case "request_changes": return "sent back for changes"
        case "merge": return "merged"
        case "decline": return "declined"
        case "invalidate": return "marked invalid"
        case "start": return "put in progress"
        case "deprecate": return "deprecated"
        default: return "\(action) applied"
        }
    }
}
