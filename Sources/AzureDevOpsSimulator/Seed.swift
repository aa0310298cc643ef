/// The seeded work items and pull requests (docs/azure-devops-sim.md, "Fixture"): everything follows from the
/// project and the number, so tests can compute what to expect.
enum Seed {
    static let types = ["Bug", "Task", "User Story"]

    /// Work item n of a project (1-based): created by lead, alice, engineer for n % 3 = 0, 1, 2.
    static func creator(_ n: Int) -> Int { [Directory.lead, Directory.alice, Directory.engineer][n % 3] }

    /// Assigned to engineer (n % 4 = 1), alice (2), nobody (3), lead (0).
    static func assignee(_ n: Int) -> Int? { [Directory.lead, Directory.engineer, Directory.alice, nil][n % 4] }

    /// Pull request n of a project: opened by alice, engineer, lead for n % 3 = 0, 1, 2.
    static func author(_ n: Int) -> Int { [Directory.alice, Directory.engineer, Directory.lead][n % 3] }

    static func populate(_ state: inout AzureDevOpsState) {
        let t0 = state.now / 1000 * 1000 - 30 * 86_400_000
        let count = state.options.workItems
        state.workItems.reserveCapacity(Directory.projectNames.count * count)
        for project in Directory.projectNames.indices {
            for n in stride(from: 1, through: count, by: 1) {
                workItem(n, id: project * count + n, project: project, t0: t0, state: &state)
            }
        }
        let pulls = state.options.pullRequests
        for project in Directory.projectNames.indices {
            for n in stride(from: 1, through: pulls, by: 1) {
                pullRequest(n, id: project * pulls + n, project: project, t0: t0, state: &state)
            }
        }
    }

    /// Created (rev 1) at t0 + n minutes; alice comments at +15 min when n % 5 = 0; lead closes at +30 min when
    /// n % 7 = 0; engineer follows it when n % 6 = 3.
    private static func workItem(_ n: Int, id: Int, project: Int, t0: Int, state: inout AzureDevOpsState) {
        let name = Directory.projectNames[project], created = t0 + project * 7_000 + n * 60_000 + n * 137 % 1000
        let type = types[n % 3], by = creator(n)
        let title = type == "Bug" ? "Fix bug \(n) of \(name)" : "\(type) \(n) of \(name)"
        var set: [(String, FieldValue?)] = [
            ("System.Id", .number(id)), ("System.AreaPath", .text(name)), ("System.TeamProject", .text(name)),
            ("System.IterationPath", .text(name)), ("System.WorkItemType", .text(type)),
            ("System.State", .text("New")), ("System.Reason", .text("New")),
            ("System.CreatedDate", .date(created)), ("System.CreatedBy", .person(by)),
            ("System.CommentCount", .number(0)), ("System.Title", .text(title)),
            ("Microsoft.VSTS.Common.Priority", .number(n % 2 == 0 ? 1 : 2)),
        ]
        if let assignee = assignee(n) { set.insert(("System.AssignedTo", .person(assignee)), at: 5) }
        if n % 2 == 0 { set.append(("System.Tags", .text("backend"))) }
        state.workItems.append(WorkItem(id: id, project: project, fields: [:]))
        let slot = state.workItems.count - 1
        state.change(slot, by: by, at: created, set: set)
        if n % 6 == 3 { state.workItems[slot].followers.insert(Directory.engineer) }
        if n % 5 == 0 { _ = state.comment(slot, "Looks good to me.", by: Directory.alice, at: created + 900_000) }
        if n % 7 == 0 {
            state.change(slot, by: Directory.lead, at: created + 1_800_000, set: [
                ("System.State", .text("Closed")), ("System.Reason", .text("Completed")),
            ])
        }
    }

    /// Opened at t0 + n minutes + 30 s; reviewers: alice and lead on engineer's, else engineer (n even) or the
    /// Web Team group (n odd), each added by the author at +1 min; alice votes 5 at +20 min on engineer's when
    /// n % 4 = 1; a comment by alice (lead on alice's) at +15 min when n % 5 = 0; completed by lead (n % 7 = 0)
    /// or abandoned by the author (n % 11 = 0) at +30 min.
    private static func pullRequest(_ n: Int, id: Int, project: Int, t0: Int, state: inout AzureDevOpsState) {
        let name = Directory.projectNames[project]
        let created = t0 + project * 7_000 + n * 60_000 + 30_000 + n * 89 % 1000
        let by = author(n)
        var pull = PullRequest(id: id, project: project, title: "Pull request \(n) of \(name)",
            description: "What pull request \(n) of \(name) changes.", author: by, created: created,
            sourceBranch: "refs/heads/feature-\(id)")
        pull.iterations = [Iteration(id: 1, author: by, at: created, commit: AzureDevOpsState.sha("\(id)/1"),
            reason: "create")]
        pull.isDraft = n % 6 == 5
        state.pullRequests.append(pull)
        let slot = state.pullRequests.count - 1
        let reviewers = by == Directory.engineer
            ? [Directory.alice, Directory.lead] : [n % 2 == 0 ? Directory.engineer : Directory.webTeam]
        for reviewer in reviewers { state.requestReview(slot, reviewer: reviewer, by: by, at: created + 60_000) }
        if n % 5 == 0 {
            let commenter = by == Directory.alice ? Directory.lead : Directory.alice
            state.addThread(slot, at: created + 900_000, text: "Please add a test for this.", by: commenter)
        }
        if by == Directory.engineer, n % 4 == 1 { state.vote(slot, 5, by: Directory.alice, at: created + 1_200_000) }
        if n % 7 == 0 {
            state.close(slot, completed: true, by: Directory.lead, at: created + 1_800_000)
        } else if n % 11 == 0 {
            state.close(slot, completed: false, by: by, at: created + 1_800_000)
        }
    }
}
