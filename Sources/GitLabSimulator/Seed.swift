/// The seeded issues and merge requests (docs/gitlab-sim.md, "Seeded issues and merge requests"): everything
/// follows from the project and the iid, so tests can compute what to expect.
enum Seed {
    static let assignees: [[Int]] = [
        [Directory.engineer], [Directory.alice], [], [Directory.lead, Directory.engineer],
    ]

    static func populate(_ state: inout GitLabState) {
        let t0 = state.now / 1000 * 1000 - 30 * 86_400_000
        state.items.reserveCapacity(state.projects.count * (state.options.issues + state.options.mergeRequests))
        for project in state.projects.indices {
            for n in stride(from: 1, through: state.options.issues, by: 1) {
                state.insert(issue(n, project: project, t0: t0, state: &state))
            }
            for n in stride(from: 1, through: state.options.mergeRequests, by: 1) {
                state.insert(mergeRequest(n, project: project, t0: t0, state: &state))
            }
        }
    }

    static func issueAuthor(_ n: Int) -> Int {
        n % 10 == 0 ? Directory.bot : [Directory.lead, Directory.alice, Directory.engineer][n % 3]
    }

    static func mergeRequestAuthor(_ n: Int) -> Int {
        n % 10 == 0 ? Directory.bot : [Directory.engineer, Directory.alice, Directory.lead][n % 3]
    }

    /// engineer reviews what alice opened; alice reviews the others.
    static func reviewers(_ n: Int) -> [Int] { n % 3 == 1 ? [Directory.engineer] : [Directory.alice] }

    static func issueID(project: Int, iid: Int) -> Int { project * 1_000_000 + iid }
    static func mergeRequestID(project: Int, iid: Int) -> Int { project * 1_000_000 + 500_000 + iid }

    private static func issue(_ n: Int, project: Int, t0: Int, state: inout GitLabState) -> Item {
        let path = state.projects[project].fullPath, created = t0 + project * 7_000 + n * 60_000 + n * 137 % 1000
        var item = Item(
            kind: .issue, id: issueID(project: state.projects[project].id, iid: n), project: project, iid: n,
            title: n % 10 == 0 ? "Rotate the deploy key of \(path)" : "Issue \(n) of \(path)",
            description: "What issue \(n) of \(path) is about.", author: issueAuthor(n),
            assignees: assignees[(n - 1) % 4], labels: n % 2 == 0 ? ["bug"] : [], milestone: n % 4 == 0 ? 1 : nil,
            created: created, updated: created, lastChange: created)
        history(&item, n: n, state: &state)
        return item
    }

    private static func mergeRequest(_ n: Int, project: Int, t0: Int, state: inout GitLabState) -> Item {
        let path = state.projects[project].fullPath
        let created = t0 + project * 7_000 + n * 60_000 + 30_000 + n * 89 % 1000
        let author = mergeRequestAuthor(n)
        var item = Item(
            kind: .mergeRequest, id: mergeRequestID(project: state.projects[project].id, iid: n), project: project,
            iid: n, title: (n % 6 == 5 ? "Draft: " : "") + "Merge request \(n) of \(path)",
            description: "What merge request \(n) of \(path) changes.", author: author,
            assignees: assignees[(n - 1) % 4], labels: n % 2 == 0 ? ["backend"] : [],
            milestone: n % 4 == 0 ? 2 : nil, created: created, updated: created, lastChange: created)
        item.draft = n % 6 == 5
        item.reviewers = state.switches.noReviewers ? [] : reviewers(n)
        let person = Directory.users[author]
        item.commits = [Commit(
            sha: GitLabState.sha("\(path)!\(n)/1"), title: "Start merge request \(n)", authorName: person.name,
            authorEmail: person.email, created: created)]
        history(&item, n: n, state: &state)
        return item
    }

    /// Notes and events, in this order: assignment (author, +1 min), review request (author, +2 min), labels
    /// (author, +3 min), milestone (lead, +4 min), a comment (alice, +15 min, n % 5 = 0), an approval (merge
    /// requests, n % 4 = 2, +20 min), then merged (n % 7 = 0, merge requests) or closed (n % 7 = 0 issues,
    /// n % 11 = 0 merge requests) at +30 min.
    private static func history(_ item: inout Item, n: Int, state: inout GitLabState) {
        let start = item.created
        func note(_ body: String, by user: Int, at minutes: Int, system: Bool = true) {
            let time = start + minutes * 60_000
            item.notes.append(Note(id: state.nextNoteID, body: body, author: user, created: time, updated: time,
                system: system))
            state.nextNoteID += 1
            item.updated = time
        }
        func event(_ change: ResourceEvent.Change, by user: Int, at minutes: Int) {
            let time = start + minutes * 60_000
            if state.switches.noResourceEvents {
                return note(GitLabState.legacyNote(change), by: user, at: minutes)
            }
            item.events.append(ResourceEvent(id: state.nextEventID, change: change, user: user, created: time))
            state.nextEventID += 1
            item.updated = time
        }
        if !item.assignees.isEmpty { note(Changes.assignNote(item.assignees, []), by: item.author, at: 1) }
        if !item.reviewers.isEmpty { note(Changes.reviewNote(item.reviewers, []), by: item.author, at: 2) }
        for label in item.labels { event(.label(name: label, added: true), by: item.author, at: 3) }
        if let milestone = item.milestone { event(.milestone(iid: milestone, added: true), by: Directory.lead, at: 4) }
        if n % 5 == 0 { note("Looks good to me.", by: Directory.alice, at: 15, system: false) }
        if item.kind == .mergeRequest, n % 4 == 2 {
            let approver = item.author == Directory.alice ? Directory.lead : Directory.alice
            item.approvedBy = [approver]
            note("approved this merge request", by: approver, at: 20)
        }
        if item.kind == .mergeRequest, n % 7 == 0 {
            event(.state("merged"), by: Directory.lead, at: 30)
            (item.state, item.merged, item.mergedBy) = ("merged", start + 1_800_000, Directory.lead)
        } else if n % (item.kind == .issue ? 7 : 11) == 0 {
            event(.state("closed"), by: Directory.lead, at: 30)
            (item.state, item.closed, item.closedBy) = ("closed", start + 1_800_000, Directory.lead)
        }
        item.lastChange = item.updated
    }
}
