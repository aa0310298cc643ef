/// Who acted in a tracker's activity log (a changelog, a timeline, notes).
public struct Actor: Equatable, Sendable {
    /// The tracker's stable id for the person or app (an account id, a user key): what "me" is compared with.
    public var id: String
    /// How people see them (`Alice Example`, an automation rule's name).
    public var name: String
    /// A login that people may also write in `ignore_users` (a user name), where the tracker has one.
    public var login: String?
    /// An app, a bot or an automation rule rather than a person.
    public var isApp: Bool

    public init(id: String, name: String, login: String? = nil, isApp: Bool = false) {
        self.id = id
        self.name = name
        self.login = login
        self.isApp = isApp
    }
}

/// One entry of an item's activity log: who changed which fields, or who commented.
public struct ActivityEvent: Equatable, Sendable {
    /// The item's stable id (`ActivityItem.id`).
    public var item: String
    /// Unique among the item's events, stable across polls (`h10100`, `c10200`): the de-duplication key.
    public var id: String
    public var at: Timestamp
    /// `nil` when the tracker does not say (an anonymous or deleted account).
    public var actor: Actor?
    /// What changed, in the tracker's display names; a comment is `FieldChange(field: "Comment", old: nil,
    /// new: its first line)`.
    public var changes: [FieldChange]
    /// Where the event is on the item's page, for a change it causes: a fragment (`#note_5`) or query
    /// (`?focusedCommentId=5`) of the item's link, made of the tracker's numeric id; `nil`: the item itself.
    public var link: String?

    public init(item: String, id: String, at: Timestamp, actor: Actor?, changes: [FieldChange], link: String? = nil) {
        self.item = item
        self.id = id
        self.at = at
        self.actor = actor
        self.changes = changes
        self.link = link
    }

    /// Its key in the store's seen history: events are told apart by the item and their own id.
    public var key: HistoryKey {
        HistoryKey(record: RecordID(item), action: id, timestamp: at, user: actor?.id ?? "")
    }
}

/// One of my items as a read saw it.
public struct ActivityItem: Equatable, Sendable {
    /// The tracker's stable id: the same when the item is moved or renamed (a numeric id, not the key).
    public var id: String
    /// Keyed by the item's key as people see it (`WEB-42`); holds the compared fields.
    public var record: Record
    public var isAssignedToMe: Bool
    /// Still one of mine (assigned, reported, watched): `false` drops it from the snapshot after this poll.
    public var isMine: Bool
    public var facts: ItemFacts

    public init(id: String, record: Record, isAssignedToMe: Bool, isMine: Bool = true, facts: ItemFacts) {
        self.id = id
        self.record = record
        self.isAssignedToMe = isAssignedToMe
        self.isMine = isMine
        self.facts = facts
    }
}

/// What one poll of an activity-log tracker read: some (or all) of my items, and the events of those that changed.
public struct ActivityObservation: Equatable, Sendable {
    public var items: [ActivityItem]
    /// Events of the items read; events seen before are skipped by their key, so an overlapping window is harmless.
    public var events: [ActivityEvent]
    /// Stable ids of stored items the tracker confirmed are gone (deleted, or no longer visible to me): dropped
    /// silently. An item merely missing from a read is kept: an eventually consistent search may lag, and a
    /// partial answer is never "gone".
    public var gone: Set<String>
    /// Stable ids of the items whose log was read in this poll, besides those with events: their differences are
    /// explained by it.
    public var logged: Set<String>
    /// Stable ids of items whose log held entries the tracker could not read (skipped and named): a colleague's
    /// change may be among them, so differences in compared fields that no read event names are told too, without
    /// a name.
    public var partlyRead: Set<String>
    /// Items read in part by the last poll in a second that was not over, with that second: their stored values
    /// were told then, without a name. An entry of that second read now that changes only fields whose stored
    /// values still stand is one of those (readable now), not news.
    public var toldUnnamed: [String: Timestamp]

    public init(
        items: [ActivityItem], events: [ActivityEvent], gone: Set<String> = [], logged: Set<String> = [],
        partlyRead: Set<String> = [], toldUnnamed: [String: Timestamp] = [:]
    ) {
        self.items = items
        self.events = events
        self.gone = gone
        self.logged = logged
        self.partlyRead = partlyRead
        self.toldUnnamed = toldUnnamed
    }
}

/// Whose events are reported.
public struct ActivityRules: Equatable, Sendable {
    /// My stable id: my own events are silent.
    public var me: String
    /// Apps and automation are silent too.
    public var ignoreApps: Bool
    /// Ids, logins or display names (any letter case) whose events are silent.
    public var ignoredPeople: Set<String>
    /// Fields compared between snapshots where no event explains a difference (reported without a name).
    public var comparedFields: [String]
    /// The fields whose events give an item to me or take it away: their actor is who "assigned" it.
    public var assignmentFields: Set<String>
    /// Stored values that people read in other words, by field (GitLab's state `opened` reads `open`).
    public var shownValues: [String: [String: String]]

    public init(
        me: String, ignoreApps: Bool = false, ignoredPeople: [String] = [], comparedFields: [String],
        assignmentFields: Set<String>, shownValues: [String: [String: String]] = [:]
    ) {
        self.me = me
        self.ignoreApps = ignoreApps
        self.ignoredPeople = Set(ignoredPeople.map { $0.lowercased() })
        self.comparedFields = comparedFields
        self.assignmentFields = assignmentFields
        self.shownValues = shownValues
    }

    /// An event that is reported: by someone, not me, not an ignored person or app.
    func reports(_ actor: Actor?) -> Bool {
        guard let actor else { return true }
        if actor.id == me || (ignoreApps && actor.isApp) { return false }
        return ![actor.id, actor.name, actor.login ?? ""].contains { ignoredPeople.contains($0.lowercased()) }
    }
}

/// Compares my items with their stored snapshot, event by event: the one mechanism behind every tracker that keeps
/// an activity log, as `ListDiff` is for lists. Each tracker module only reads its API and
/// maps items and events onto this shape.
///
/// Rules: each event counts once (seen keys, and everything up to the item's `seenUpTo`, what its stored state
/// already reflects); my own events and ignored actors'
/// are silent. An item that becomes assigned to me is `assigned`, named by whoever assigned it; one that stops
/// being mine is `unassigned` — only on the tracker's word (the item read, its assignee someone else), never
/// because a read missed it. Other items that colleagues acted on are `modified`, carrying each field change and
/// comment of theirs in order. An item that moved keeps its stable id: it is reported under its new key (the key
/// change among its fields), never as one leaving and one arriving. A difference no event explains is reported
/// without a name, never taken for my own. One item yields at most one change per poll; the first poll is a
/// silent baseline.
public enum ActivityDiff {
    /// The snapshot field holding the item's stable id, and the one saying it is assigned to me (`yes`/`no`).
    public static let idField = "_id", assignedField = "_assigned"

    /// The records of `snapshot` by the stable id they keep (`idField`).
    public static func byID(_ snapshot: Snapshot?) -> [String: Record] {
        var byID: [String: Record] = [:]
        byID.reserveCapacity(snapshot?.sortedRecords.count ?? 0)
        for record in snapshot?.sortedRecords ?? [] { if let id = record[idField] { byID[id] = record } }
        return byID
    }

    /// - Parameter storedByID: `byID(previous)`, when the caller has it already: a steady poll reads a thousand
    ///   stored items, and indexing them twice was a tenth of its CPU (perf, issue 33).
    public static func compare(
        previous: Snapshot?, storedByID: [String: Record]? = nil, seen: Set<HistoryKey>,
        observation: ActivityObservation, rules: ActivityRules, seenUpTo: (_ item: String) -> Timestamp?,
        checkpoint: Timestamp?
    ) -> DiffOutcome {
        var newlySeen: [HistoryKey] = []
        var unseen: [String: [ActivityEvent]] = [:]
        var logged = observation.logged
        for event in observation.events {
            logged.insert(event.item)
            let key = event.key
            guard !seen.contains(key) else { continue }
            newlySeen.append(key)
            if let known = seenUpTo(event.item), event.at <= known { continue }
            unseen[event.item, default: []].append(event)
        }
        let items = observation.items.map(stored)
        guard let previous else {
            return DiffOutcome(
                changes: [], delta: SnapshotDelta(upserts: items.filter(\.isMine).map(\.record)), isBaseline: true,
                newlySeen: newlySeen, checkpoint: checkpoint, silentUpdates: 0)
        }
        var outcome = DiffOutcome(
            changes: [], delta: SnapshotDelta(), isBaseline: false, newlySeen: newlySeen, checkpoint: checkpoint,
            silentUpdates: 0)
        let byID = storedByID ?? Self.byID(previous)
        var read = Set<String>()
        for item in items where read.insert(item.id).inserted {
            // Oldest first; events of the same moment keep the order the tracker gave them.
            let events = (unseen[item.id] ?? []).enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }
                .map(\.element)
            let old = byID[item.id]
            var log = logged.contains(item.id) ? events : nil
            if let toldUpTo = observation.toldUnnamed[item.id], let old {
                log?.removeAll { $0.at <= toldUpTo && Self.isReflected($0, in: old, now: item.record) }
            }
            compare(
                item, old: old, log: log, partly: observation.partlyRead.contains(item.id), rules: rules,
                into: &outcome)
        }
        for id in observation.gone.subtracting(read) {
            if let old = byID[id] { outcome.delta.removals.append(old.id) }
        }
        return outcome
    }

    /// Whether every change `event` makes is to a stored field whose value still stands: what was stored already
    /// tells it. A comment, stored nowhere, never is.
    static func isReflected(_ event: ActivityEvent, in old: Record, now: Record) -> Bool {
        !event.changes.isEmpty
            && event.changes.allSatisfy { old[$0.field] != nil && old[$0.field] == now[$0.field] }
    }

    /// Items assigned to me once `outcome` is committed over `previous`: what a source's report counts.
    public static func assignedCount(previous: Snapshot?, outcome: DiffOutcome) -> Int {
        // Counted in place, not through a dictionary of every stored item: a steady poll changes nothing, and
        // hashing a thousand ids after each poll was measurable (perf, issue 33).
        let replaced = Set(outcome.delta.removals).union(outcome.delta.upserts.map(\.id))
        var count = 0
        for record in previous?.sortedRecords ?? [] where record[assignedField] == "yes" {
            if replaced.isEmpty || !replaced.contains(record.id) { count += 1 }
        }
        var upserted: [RecordID: Bool] = [:]
        for record in outcome.delta.upserts { upserted[record.id] = record[assignedField] == "yes" }
        return count + upserted.values.filter { $0 }.count
    }

    /// The item's record with its stable id and assignment kept beside the tracker's fields.
    static func stored(_ item: ActivityItem) -> ActivityItem {
        var item = item
        var fields = item.record.fields
        fields[idField] = item.id
        fields[assignedField] = item.isAssignedToMe ? "yes" : "no"
        item.record = Record(id: item.record.id, fields: fields)
        return item
    }

    /// - Parameter log: the item's unseen events, oldest first; `nil` when its log was not read in this poll.
    /// - Parameter partly: the log left out entries it could not read.
    private static func compare(
        _ item: ActivityItem, old: Record?, log: [ActivityEvent]?, partly: Bool, rules: ActivityRules,
        into outcome: inout DiffOutcome
    ) {
        let wasAssigned = old?[assignedField] == "yes"
        let moved = old.map { $0.id != item.record.id } ?? false
        if let old, moved || !item.isMine { outcome.delta.removals.append(old.id) }
        if item.isMine, old.map({ moved || !$0.hasSameFields(as: item.record) }) ?? true {
            outcome.delta.upserts.append(item.record)
        }
        let kind: ChangeKind =
            item.isAssignedToMe && !wasAssigned ? .assigned : wasAssigned && !item.isAssignedToMe ? .unassigned : .modified
        // No log read, or no event in it that was not told before: a difference in what is compared is told without
        // a name, never taken for my own (an event no later than the item's `seenUpTo` counts as reflected in it).
        guard let log, !log.isEmpty || old == nil else {
            var fields = old.map { differences(from: $0, to: item.record, rules: rules) } ?? []
            if let old, moved { fields.insert(FieldChange(field: "Key", old: old.id.rawValue, new: item.record.id.rawValue), at: 0) }
            guard (old != nil && (!fields.isEmpty || kind != .modified)) || (old == nil && kind == .assigned) else { return }
            outcome.unexplained += 1
            outcome.changes.append(change(item, kind, fields: fields, cause: nil))
            return
        }
        // A log that left entries out may hide a colleague's change: what no read event names is told, unnamed.
        var unnamed: [FieldChange] = [], unnamedAssignment = false
        if partly, let old, !moved {
            let named = Set(log.flatMap { $0.changes.map(\.field) })
            unnamed = differences(from: old, to: item.record, rules: rules).filter { !named.contains($0.field) }
            unnamedAssignment = kind != .modified && rules.assignmentFields.isDisjoint(with: named)
        }
        let theirs = log.filter { rules.reports($0.actor) }
        if theirs.isEmpty {
            if !unnamed.isEmpty || unnamedAssignment {
                outcome.unexplained += 1
                outcome.changes.append(change(item, kind, fields: unnamed, cause: nil))
                return
            }
            if !log.isEmpty { outcome.silentUpdates += 1 }
            return  // my own doing, ignored people's, or events told before (a read that lagged behind its log)
        }
        if old == nil && kind != .assigned { return }  // newly mine without being assigned (a watch): adopted silently
        let cause = kind == .modified ? theirs.last : assigner(theirs, rules.assignmentFields) ?? theirs.last
        outcome.changes.append(change(item, kind, fields: folded(theirs.flatMap(\.changes)) + unnamed, cause: cause))
    }

    /// A field emptied and then set again within one poll, told as one change: GitLab's milestone events (`remove`
    /// then `add`) and GitHub's `demilestoned` then `milestoned` read "Milestone: v1.0 → v2.0", not
    /// "Milestone: v1.0 → , Milestone: v2.0". Only a removal of a value (old → "") followed by a setting of one
    /// (→ new, no old) folds; other changes keep their order.
    static func folded(_ changes: [FieldChange]) -> [FieldChange] {
        var result: [FieldChange] = []
        for change in changes {
            if change.old == nil, let new = change.new, !new.isEmpty,
                let index = result.lastIndex(where: { $0.field == change.field }),
                let old = result[index].old, !old.isEmpty, result[index].new == "", old != new
            {
                result[index] = FieldChange(field: change.field, old: old, new: new)
            } else {
                result.append(change)
            }
        }
        return result
    }

    private static func change(_ item: ActivityItem, _ kind: ChangeKind, fields: [FieldChange], cause: ActivityEvent?)
        -> Change
    {
        // The event's place on the item's page (`#note_5`) goes after the item's link, which has no query or fragment.
        let link = item.facts.link.map { $0.contains("#") || $0.contains("?") ? $0 : $0 + (cause?.link ?? "") }
        var change = Change(
            record: item.record.id, kind: kind, headline: item.facts.headline, by: cause?.actor?.name,
            changes: fields, at: cause?.at, priority: item.facts.priority, severity: item.facts.severity,
            state: item.facts.state, link: link)
        change.stateField = item.facts.stateField
        return change
    }

    /// The latest event that changed an assignment, among those reported.
    private static func assigner(_ events: [ActivityEvent], _ fields: Set<String>) -> ActivityEvent? {
        events.last { $0.changes.contains { fields.contains($0.field) } }
    }

    private static func differences(from old: Record, to new: Record, rules: ActivityRules) -> [FieldChange] {
        rules.comparedFields.compactMap { field in
            let before = old[field].map(Record.stored), after = new[field]
            guard before != after, let before else { return nil }
            let shown = rules.shownValues[field] ?? [:]
            return FieldChange(field: field, old: shown[before] ?? before, new: after.map { shown[$0] ?? $0 })
        }
    }
}
