/// What a change of an activity log (a changelog, a timeline, notes) says in the trackers' own words, as their
/// e-mails do: "bob asked for your review", "dave approved", "bob moved it to In Review". Decided from the field
/// changes the change carries; its kind stays what the diff found (a review request is `assigned`).
enum ActivityDeed: Equatable {
    case reviewRequested, reviewWithdrawn
    case reassigned(to: String)
    case merged, closed, reopened
    case moved(to: String)
    case renamed(from: String)
    case commented(String)
    case approved(String?), changesRequested(String?), reviewed(String?), approvalRevoked

    /// The field changes behind the words, which details do not repeat.
    struct Found {
        let deed: ActivityDeed
        let told: [Int]
    }

    static let reviewRequest = "Review request", assignees: Set = ["Assignee", "Assignees"]
    static let states: Set = ["State", "Status"], titles: Set = ["Title", "Summary"]

    /// The deed of `change`, or `nil` for a change whose words stay generic (`Changed by bob · Labels: added bug`).
    static func of(_ change: Change) -> Found? {
        guard change.isFromActivityLog else { return nil }
        let fields = Array(change.changes.enumerated())
        func said(_ names: Set<String>, _ verb: String) -> [(offset: Int, element: FieldChange)] {
            fields.filter { names.contains($0.element.field) && $0.element.new?.hasPrefix("\(verb) ") == true }
        }
        switch change.kind {
        case .assigned:
            let asked = said([reviewRequest], "added")
            guard said(assignees, "added").isEmpty, !asked.isEmpty else { return nil }
            return Found(deed: .reviewRequested, told: asked.map(\.offset))
        case .unassigned:
            let moved = fields.filter { assignees.contains($0.element.field) }
            if let to = moved.compactMap({ reassignee($0.element) }).last {
                return Found(deed: .reassigned(to: to), told: moved.map(\.offset))
            }
            let withdrawn = said([reviewRequest], "removed")
            guard moved.isEmpty, !withdrawn.isEmpty else { return nil }
            return Found(deed: .reviewWithdrawn, told: withdrawn.map(\.offset))
        case .modified:
            // A merge closes too (GitHub tells both): one line.
            let ends = fields.filter {
                states.contains($0.element.field) && ["merged", "closed"].contains($0.element.new)
            }
            if ends.contains(where: { $0.element.new == "merged" }) {
                return Found(deed: .merged, told: ends.map(\.offset))
            }
            for (offset, field) in fields {
                if let deed = deed(field, headline: change.headline) { return Found(deed: deed, told: [offset]) }
            }
            return nil
        case .entered, .left, .changed:
            return nil
        }
    }

    /// Whom an assignment field gave the item to: Jira's new assignee, GitHub's and GitLab's `added carol`.
    static func reassignee(_ field: FieldChange) -> String? {
        guard let new = field.new, !new.isEmpty, !new.hasPrefix("removed ") else { return nil }
        return new.hasPrefix("added ") ? String(new.dropFirst("added ".count)) : field.old == nil ? nil : new
    }

    /// The words of one field change of a colleague's, where the tracker has them.
    static func deed(_ field: FieldChange, headline: String) -> ActivityDeed? {
        guard let new = field.new else { return nil }
        switch field.field {
        case "Comment": return .commented(new)
        case "Review": return verdict(new)
        case "Approval": return new == "approved" ? .approved(nil) : new == "revoked" ? .approvalRevoked : nil
        case "State":
            return new == "closed" ? .closed : ["open", "opened", "reopened"].contains(new) ? .reopened : nil
        case "Status": return new.isEmpty ? nil : .moved(to: new)
        case _ where titles.contains(field.field):
            guard let old = field.old, !old.isEmpty, new == headline else { return nil }
            return .renamed(from: old)
        default: return nil
        }
    }

    /// A review as GitHub's mapping words it: `approved`, `changes requested: …`, `commented: …`.
    static func verdict(_ text: String) -> ActivityDeed? {
        func rest(_ prefix: String) -> String? {
            let rest = text.dropFirst(prefix.count).drop { $0 == ":" || $0 == " " }
            return rest.isEmpty ? nil : String(rest)
        }
        if text.hasPrefix("approved") { return .approved(rest("approved")) }
        if text.hasPrefix("changes requested") { return .changesRequested(rest("changes requested")) }
        if text.hasPrefix("commented") { return .reviewed(rest("commented")) }
        return nil
    }

    /// The body's first line: who first where the tracker names them (`⁨bob⁩ asked for your review`), else the
    /// passive (`Review requested of you`). `isolate` keeps each server value in its own writing direction.
    func line(by: String?, isolate: (String) -> String) -> String {
        let who = by.map(isolate)
        func said(_ verb: String, _ text: String?) -> String {
            let words = text.map { "\(verb): \(isolate($0))" } ?? verb
            return who.map { "\($0) \(words)" } ?? "\(words.prefix(1).uppercased())\(words.dropFirst())"
        }
        switch self {
        case .reviewRequested: return who.map { "\($0) asked for your review" } ?? "Your review was requested"
        case .reviewWithdrawn: return who.map { "\($0) withdrew the review request" } ?? "Review request withdrawn"
        case .reassigned(let to):
            return who.map { "\($0) reassigned it to \(isolate(to))" } ?? "Reassigned to \(isolate(to))"
        case .merged: return who.map { "Merged by \($0)" } ?? "Merged"
        case .closed: return who.map { "Closed by \($0)" } ?? "Closed"
        case .reopened: return who.map { "Reopened by \($0)" } ?? "Reopened"
        case .moved(let to): return who.map { "\($0) moved it to \(isolate(to))" } ?? "Moved to \(isolate(to))"
        case .renamed(let from):
            return who.map { "\($0) renamed it from \(isolate(from))" } ?? "Renamed from \(isolate(from))"
        case .commented(let text): return said("commented", text)
        case .approved(let text): return said("approved", text)
        case .changesRequested(let text): return said("requested changes", text)
        case .reviewed(let text): return said("reviewed", text)
        case .approvalRevoked: return who.map { "\($0) revoked the approval" } ?? "Approval revoked"
        }
    }

    /// The terminal's and the journal's words after the item (`review requested by bob`), or `nil` where the
    /// generic ones stay (`changed by bob`).
    func event(by: String?, isolate: (String) -> String) -> String? {
        let by = by.map { " by \($0)" } ?? ""
        switch self {
        case .reviewRequested: return "review requested\(by)"
        case .reviewWithdrawn: return "review request withdrawn\(by)"
        case .reassigned(let to): return "reassigned to \(isolate(SafeText.bounded(to, Change.nameLimit)))\(by)"
        case .merged: return "merged\(by)"
        default: return nil
        }
    }
}

extension Change {
    /// A change an activity log told (Jira, GitHub, GitLab): it carries its item's own link and no action. Compass's
    /// and Qase's changes leave the link to their source, and a list's item is named by its title or key.
    var isFromActivityLog: Bool { action == nil && link != nil && naming == nil }
}
