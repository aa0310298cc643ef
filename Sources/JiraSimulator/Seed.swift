/// The seeded issues (docs/jira-sim.md, "Seeded issues"): issue n of the project with index p has id
/// 10000 + p·100000 + n and key PROJ-n; everything else follows from n, so tests can compute what to expect.
enum Seed {
    static let assignees: [Int?] = [Directory.engineer, Directory.alice, nil, Directory.lead]
    static let reporters = [Directory.alice, Directory.engineer, Directory.lead]
    static let priorities = ["Medium", "High", "Low", "Highest"]

    static func populate(_ state: inout JiraState) {
        let t0 = state.now
        state.issues.reserveCapacity(state.projects.count * state.options.issues)
        for project in state.projects {
            for n in stride(from: 1, through: state.options.issues, by: 1) {
                state.insert(issue(n, of: project, t0: t0, state: &state))
            }
        }
    }

    static func summary(_ n: Int, _ key: String) -> String {
        n % 4 == 0 ? "Issue \(n) of \(key) & <b>\"Grüße\"</b> — naïve café" : "Issue \(n) of \(key)"
    }

    private static func issue(_ n: Int, of project: Project, t0: Int, state: inout JiraState) -> Issue {
        let assignee = assignees[(n - 1) % 4]
        let reporter = reporters[(n - 1) % 3]
        var watchers = [reporter]
        if let assignee, assignee != reporter { watchers.append(assignee) }
        if n % 5 == 0, !watchers.contains(Directory.engineer) { watchers.append(Directory.engineer) }
        let created = t0 - 10 * 86_400 + n * 60
        let status = (n - 1) % 3
        var issue = Issue(
            id: 10000 + project.index * 100_000 + n, projectIndex: project.index, number: n,
            summary: summary(n, project.key), description: "What issue \(n) of \(project.key) is about.",
            issueType: "Task", assignee: assignee, reporter: reporter, creator: reporter, watchers: watchers,
            status: status, priority: priorities[(n - 1) % 4], labels: n % 2 == 0 ? ["backend"] : [],
            fixVersions: [], sprint: n % 2 == 1 ? 1 : nil, created: created, updated: created + 3600)
        if status != Workflow.toDo {
            let to = Workflow.statuses[status]
            let item = HistoryItem(
                field: "status", fieldtype: "jira", fieldId: "status",
                from: .text(id: Workflow.statuses[0].id, Workflow.statuses[0].name), to: .text(id: to.id, to.name))
            issue.histories.append(History(id: state.nextHistoryID, author: reporter, created: created, items: [item]))
            state.nextHistoryID += 1
        }
        if n % 3 == 0 {
            issue.comments.append(Comment(
                id: state.nextCommentID, author: reporter, updateAuthor: reporter, body: "Looks good to me.",
                created: created + 1800, updated: created + 1800))
            state.nextCommentID += 1
        }
        return issue
    }
}
