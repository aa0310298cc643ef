import SimulatorKit

/// `PATCH /repos/{owner}/{repo}/issues/{issue_number}` and the pull request writes.
extension GitHubState {
    /// Applies the members present: title, body, state (+ state_reason), labels, milestone, assignees (assignee).
    mutating func edit(_ slot: Int, _ body: WriteBody, by actor: Int) throws {
        let wantedAssignees = try assignees(in: body)
        let milestone = try milestone(in: body)
        if let state = body.string("state"), !["open", "closed"].contains(state) {
            throw GitHubError.invalid("Issue", "state")
        }
        if let title = body.string("title"), title != issues[slot].title {
            record(.renamed(from: issues[slot].title, to: title), on: slot, by: actor)
            issues[slot].title = title
        }
        if let text = body.string("body"), text != issues[slot].body {
            issues[slot].body = text
            issues[slot].updated = now
            noteMentions(text, on: slot)
        }
        if body.has("labels") { relabel(slot, body.strings("labels"), by: actor) }
        if let milestone, milestone != issues[slot].milestone {
            if let old = issues[slot].milestone { record(.demilestoned(Milestones.titles[old]!), on: slot, by: actor) }
            if let new = milestone { record(.milestoned(Milestones.titles[new]!), on: slot, by: actor) }
            issues[slot].milestone = milestone
        }
        if let wantedAssignees { assign(slot, wantedAssignees, by: actor) }
        if let state = body.string("state") { try setState(slot, open: state == "open", body, by: actor) }
    }

    private func assignees(in body: WriteBody) throws -> [Int]? {
        let logins: [String]
        if body.has("assignees") {
            logins = body.strings("assignees")
        } else if body.has("assignee") {
            logins = body.strings("assignee")
        } else {
            return nil
        }
        return try logins.map { login in
            guard let index = assignable(login) else { throw GitHubError.invalid("Issue", "assignees") }
            return index
        }
    }

    /// `.some(nil)` for `"milestone": null`, nil when absent; 422 for an unknown number.
    private func milestone(in body: WriteBody) throws -> Int?? {
        guard let value = body.members["milestone"] else { return nil }
        if value == .null { return .some(nil) }
        guard let number = value.int, Milestones.titles[number] != nil else {
            throw GitHubError.invalid("Issue", "milestone")
        }
        return .some(number)
    }

    private mutating func relabel(_ slot: Int, _ names: [String], by actor: Int) {
        let current = issues[slot].labels
        for gone in current where !names.contains(gone) { record(.unlabeled(gone), on: slot, by: actor) }
        for new in names where !current.contains(new) { record(.labeled(new), on: slot, by: actor) }
        var unique: [String] = []
        for name in names where !unique.contains(name) { unique.append(name) }
        issues[slot].labels = unique
    }

    private mutating func setState(_ slot: Int, open: Bool, _ body: WriteBody, by actor: Int) throws {
        guard open != issues[slot].isOpen else { return }
        if open {
            guard issues[slot].merged == nil else {
                throw GitHubError.invalid("PullRequest", "state", code: "custom",
                    message: "state cannot be changed. The pull request cannot be reopened.")
            }
            record(.reopened, on: slot, by: actor)
            issues[slot].isOpen = true
            issues[slot].closed = nil
            issues[slot].stateReason = issues[slot].isPull ? nil : "reopened"
        } else {
            let reason = issues[slot].isPull ? nil : (body.string("state_reason") ?? "completed")
            guard reason.map({ ["completed", "not_planned", "duplicate"].contains($0) }) ?? true else {
                throw GitHubError.invalid("Issue", "state_reason")
            }
            record(.closed(reason: reason, commit: nil), on: slot, by: actor)
            issues[slot].isOpen = false
            issues[slot].closed = now
            issues[slot].stateReason = reason
        }
    }

    /// Adds (POST) or removes (DELETE) the `reviewers` and `team_reviewers` named.
    mutating func requestReviews(_ slot: Int, _ body: WriteBody, adding: Bool, by actor: Int) throws {
        var named: [Reviewer] = []
        for login in body.strings("reviewers") {
            guard let user = assignable(login) else { throw Self.notCollaborator(repos[issues[slot].repo]) }
            if adding && user == issues[slot].author {
                throw GitHubError(422, "Review cannot be requested from pull request author.")
            }
            named.append(.user(user))
        }
        for slug in body.strings("team_reviewers") {
            guard let team = Directory.team(slug: slug) else { throw Self.notCollaborator(repos[issues[slot].repo]) }
            named.append(.team(team))
        }
        for reviewer in named {
            let present = issues[slot].requested.contains(reviewer)
            if adding && !present {
                issues[slot].requested.append(reviewer)
                if case .user(let user) = reviewer { issues[slot].reviewedBy.remove(user) }
                record(.reviewRequested(reviewer), on: slot, by: actor)
            } else if !adding && present {
                issues[slot].requested.removeAll { $0 == reviewer }
                record(.reviewRequestRemoved(reviewer), on: slot, by: actor)
            }
        }
    }

    static func notCollaborator(_ repo: Repository) -> GitHubError {
        GitHubError(422, "Reviews may only be requested from collaborators. One or more of the users or teams you "
            + "specified is not a collaborator of the \(repo.fullName) repository.")
    }

    /// `POST …/reviews`: APPROVE, REQUEST_CHANGES or COMMENT submits a review; without `event` it stays PENDING.
    mutating func review(_ slot: Int, _ body: WriteBody, _ view: View) throws -> Answer {
        let text = body.string("body") ?? ""
        let states = ["APPROVE": "approved", "REQUEST_CHANGES": "changes_requested", "COMMENT": "commented"]
        guard let event = body.string("event") else {
            let pending = Event(id: nextReviewID, kind: .commented(body: text), actor: view.me, created: now)
            nextReviewID += 1
            return Answer(view.review(pending, state: "PENDING", body: text, commit: issues[slot].headSHA,
                of: issues[slot]).with("submitted_at", .null))
        }
        guard let state = states[event] else { throw GitHubError.invalid("PullRequestReview", "event") }
        if event != "COMMENT", view.me == issues[slot].author {
            var error = GitHubError(422, "Unprocessable Entity")
            let verb = event == "APPROVE" ? "approve" : "request changes on"
            error.extra = [("errors", [.string("Can not \(verb) your own pull request")])]
            throw error
        }
        if event != "APPROVE", text.isEmpty {
            throw GitHubError.invalid("PullRequestReview", "body", code: "missing_field")
        }
        record(.reviewed(state: state, body: text, commit: issues[slot].headSHA), on: slot, by: view.me)
        issues[slot].reviewedBy.insert(view.me)
        issues[slot].requested.removeAll { $0 == .user(view.me) }
        let saved = issues[slot].timeline.last!
        return Answer(view.review(saved, state: state, body: text, commit: issues[slot].headSHA, of: issues[slot],
            upper: true))
    }

    /// `PUT …/merge`: 405 unless open and not a draft; 409 when `sha` is not the head.
    mutating func merge(_ slot: Int, _ body: WriteBody, by actor: Int) throws -> Answer {
        guard issues[slot].isOpen, !issues[slot].draft else {
            throw GitHubError(405, "Pull Request is not mergeable")
        }
        if let sha = body.string("sha"), sha != issues[slot].headSHA {
            throw GitHubError(409, "Head branch was modified. Review and try the merge again.")
        }
        let sha = GitHubState.sha("merge \(issues[slot].id) \(now)")
        record(.merged(commit: sha), on: slot, by: actor)
        record(.closed(reason: nil, commit: sha), on: slot, by: actor)
        issues[slot].isOpen = false
        issues[slot].merged = now
        issues[slot].closed = now
        issues[slot].mergeSHA = sha
        return Answer(["sha": .string(sha), "merged": true, "message": "Pull Request successfully merged"])
    }
}
