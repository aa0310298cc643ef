/// The changes a write makes, recorded as GitLab records them: system notes for assignees, reviewers, title,
/// description; resource events for labels, milestone and state.
enum Changes {
    /// Rails' `to_sentence`: `a`, `a and b`, `a, b, and c`.
    static func sentence(_ words: [String]) -> String {
        switch words.count {
        case 0: return ""
        case 1: return words[0]
        case 2: return "\(words[0]) and \(words[1])"
        default: return words.dropLast().joined(separator: ", ") + ", and " + words[words.count - 1]
        }
    }

    static func references(_ users: [Int]) -> String { sentence(users.map { Directory.users[$0].reference }) }

    /// `assigned to @alice and unassigned @engineer`.
    static func assignNote(_ added: [Int], _ removed: [Int]) -> String {
        var parts: [String] = []
        if !added.isEmpty { parts.append("assigned to " + references(added)) }
        if !removed.isEmpty { parts.append("unassigned " + references(removed)) }
        return parts.joined(separator: " and ")
    }

    /// `requested review from @engineer and removed review request for @alice`.
    static func reviewNote(_ added: [Int], _ removed: [Int]) -> String {
        var parts: [String] = []
        if !added.isEmpty { parts.append("requested review from " + references(added)) }
        if !removed.isEmpty { parts.append("removed review request for " + references(removed)) }
        return parts.joined(separator: " and ")
    }
}

extension GitLabState {
    mutating func setTitle(_ slot: Int, _ title: String, by user: Int) {
        guard title != items[slot].title else { return }
        let old = items[slot].title
        items[slot].title = title
        items[slot].draft = items[slot].kind == .mergeRequest && Self.isDraftTitle(title)
        let (markedOld, markedNew) = Self.inlineDiff(old, title)
        addNote("changed title from **\(markedOld)** to **\(markedNew)**", on: slot, by: user, system: true)
    }

    /// GitLab's inline diff of a title change (`Gitlab::Diff::InlineDiff`, `InlineDiffMarkdownMarker`): the common
    /// prefix and suffix kept, what differs between them marked `{-…-}` in the old title and `{+…+}` in the new.
    static func inlineDiff(_ old: String, _ new: String) -> (String, String) {
        let old = Array(old), new = Array(new)
        var prefix = 0
        while prefix < min(old.count, new.count), old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < min(old.count, new.count) - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] {
            suffix += 1
        }
        func mark(_ text: [Character], _ sign: String) -> String {
            let middle = String(text[prefix..<(text.count - suffix)])
            let marked = middle.isEmpty ? "" : "{\(sign)\(middle)\(sign)}"
            return String(text[..<prefix]) + marked + String(text[(text.count - suffix)...])
        }
        return (mark(old, "-"), mark(new, "+"))
    }

    static func isDraftTitle(_ title: String) -> Bool {
        let lower = title.lowercased()
        return ["draft:", "[draft]", "(draft)", "wip:", "[wip]"].contains { lower.hasPrefix($0) }
    }

    mutating func setDescription(_ slot: Int, _ text: String, by user: Int) {
        guard text != items[slot].description else { return }
        items[slot].description = text
        addNote("changed the description", on: slot, by: user, system: true)
    }

    mutating func setAssignees(_ slot: Int, _ wanted: [Int], by user: Int) {
        let current = items[slot].assignees
        let added = wanted.filter { !current.contains($0) }, removed = current.filter { !wanted.contains($0) }
        guard !added.isEmpty || !removed.isEmpty else { return }
        items[slot].assignees = wanted
        addNote(Changes.assignNote(added, removed), on: slot, by: user, system: true)
    }

    mutating func setReviewers(_ slot: Int, _ wanted: [Int], by user: Int) {
        let current = items[slot].reviewers
        let added = wanted.filter { !current.contains($0) }, removed = current.filter { !wanted.contains($0) }
        guard !added.isEmpty || !removed.isEmpty else { return }
        items[slot].reviewers = wanted
        addNote(Changes.reviewNote(added, removed), on: slot, by: user, system: true)
    }

    mutating func setLabels(_ slot: Int, _ wanted: [String], by user: Int) {
        var unique: [String] = []
        for name in wanted where !name.isEmpty && !unique.contains(name) { unique.append(name) }
        let current = items[slot].labels
        for gone in current where !unique.contains(gone) {
            addEvent(.label(name: gone, added: false), on: slot, by: user)
        }
        for new in unique where !current.contains(new) {
            addEvent(.label(name: new, added: true), on: slot, by: user)
        }
        items[slot].labels = unique.sorted()
    }

    mutating func setMilestone(_ slot: Int, _ milestone: Int?, by user: Int) {
        let current = items[slot].milestone
        guard milestone != current else { return }
        if let current { addEvent(.milestone(iid: current, added: false), on: slot, by: user) }
        if let milestone { addEvent(.milestone(iid: milestone, added: true), on: slot, by: user) }
        items[slot].milestone = milestone
    }

    /// `close` or `reopen`; a merged merge request does neither (405 on GitLab, silently here as GitLab's
    /// state machine does for `state_event`).
    mutating func changeState(_ slot: Int, _ event: String, by user: Int) {
        let item = items[slot]
        if event == "close", item.isOpen {
            items[slot].state = "closed"
            (items[slot].closed, items[slot].closedBy) = (now, user)
            addEvent(.state("closed"), on: slot, by: user)
        } else if event == "reopen", item.state == "closed", item.movedTo == nil {
            items[slot].state = "opened"
            (items[slot].closed, items[slot].closedBy) = (nil, nil)
            addEvent(.state("reopened"), on: slot, by: user)
        }
    }

    /// Merges an open merge request: state `merged`, `merged_by`, `merged_at`, a `merged` state event.
    mutating func merge(_ slot: Int, by user: Int) {
        items[slot].state = "merged"
        (items[slot].merged, items[slot].mergedBy) = (now, user)
        addEvent(.state("merged"), on: slot, by: user)
    }
}
