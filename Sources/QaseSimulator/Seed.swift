/// The seeded projects. Authors, assignees, statuses and times follow fixed rules (docs/qase-sim.md lists them;
/// tests rely on them). `t0` is the server clock at start; n is an item's id.
enum Seed {
    struct Sizes: Sendable {
        var cases = 12
        var defects = 16
        var plans = 3
        var reviews = 6
        var runs = 3
    }

    static let day = 86_400
    static let hour = 3_600
    private static let lead = Directory.lead, engineer = Directory.engineer, alice = Directory.alice

    static func project(key: Int, code: String, sizes: Sizes, t0: Int) -> Project {
        let titles = ["DEMO": "Demo Project", "WEB": "Web Shop"]
        var project = Project(key: key, code: code, title: titles[code] ?? "\(code) project")
        project.cases = (0..<max(0, sizes.cases)).map { testCase($0 + 1, t0: t0) }
        project.lastCaseID = project.cases.count
        project.defects = (0..<max(0, sizes.defects)).map { defect($0 + 1, t0: t0) }
        project.lastDefectID = project.defects.count
        project.plans = (0..<max(0, sizes.plans)).map {
            plan($0 + 1, of: sizes.plans, cases: project.cases.count, t0: t0)
        }
        project.reviews = (0..<max(0, sizes.reviews)).map { review($0 + 1, cases: project.cases, t0: t0) }
        project.runs = (0..<max(0, sizes.runs)).map { run($0 + 1, of: sizes.runs, cases: project.cases.count, t0: t0) }
        project.results = project.runs.flatMap { results(of: $0, projectKey: key) }
        return project
    }

    static let caseTitles = [
        "Login & logout <b>works</b>", "\"Remember me\" keeps the session", "Ünïcödé names — 日本語 in the cart",
        "Checkout totals include tax", "Password reset sends one e-mail", "Search finds accented words",
        "Export to CSV keeps quotes", "Dark mode contrast is readable",
    ]

    /// Author [engineer, alice, lead][(n-1) % 3]; last editor the author for odd n, else
    /// [lead, engineer, alice][(n-1) % 3]; created t0 − 30 d + n min, updated a day after that.
    static func testCase(_ n: Int, t0: Int) -> TestCase {
        let author = [engineer, alice, lead][(n - 1) % 3]
        let editor = n % 2 == 1 ? author : [lead, engineer, alice][(n - 1) % 3]
        let created = t0 - 30 * day + n * 60
        return TestCase(
            id: n, title: title(caseTitles, n), description: n % 3 == 0 ? nil : "Checks case \(n).",
            severity: n % 7, priority: n % 4, type: 1 + n % 7, behavior: n % 4, status: [0, 0, 0, 1, 2][(n - 1) % 5],
            milestoneID: n % 2 == 1 ? nil : 1 + n % 3, suiteID: 1 + (n - 1) % 4, tags: n % 2 == 0 ? ["smoke"] : [],
            authorID: author.authorID, updatedBy: editor.authorID, createdAt: created, updatedAt: created + day)
    }

    static let defectTitles = [
        "Crash on save & exit <b>now</b>", "\"Save as\" dialog forgets folder", "Ünïcödé path — 日本語 fails",
        "Login times out after 30 s", "Report totals off by one", "Memory grows while idle",
    ]

    /// Author [alice, engineer, lead][(n-1) % 3]; assignee [engineer, lead, nobody, alice][(n-1) % 4]; status
    /// [open, in_progress, resolved, invalid][((n-1)/4) % 4]; severity [normal, major, critical, minor, blocker,
    /// trivial][(n-1) % 6]; created t0 − 20 d + n min, updated two days after that.
    static func defect(_ n: Int, t0: Int) -> Defect {
        let author = [alice, engineer, lead][(n - 1) % 3]
        let assignee = [engineer, lead, nil, alice][(n - 1) % 4]
        let status = [DefectStatus.open, .inProgress, .resolved, .invalid][((n - 1) / 4) % 4]
        let severity = ["normal", "major", "critical", "minor", "blocker", "trivial"][(n - 1) % 6]
        let created = t0 - 20 * day + n * 60
        return Defect(
            id: n, title: title(defectTitles, n), actualResult: "Observed in build \(n).",
            severity: CaseEnums.severity.firstIndex(of: severity) ?? 0, status: status, milestoneID: nil,
            tags: n % 3 == 0 ? ["regression"] : [], authorID: author.authorID, assigneeUserID: assignee?.userID,
            resolvedAt: status == .resolved ? created + 2 * day : nil, createdAt: created, updatedAt: created + 2 * day)
    }

    /// Plan k holds every case n with (n-1) % plans == k-1, assigned to
    /// [engineer, alice, nobody, lead][((n-1) / plans) % 4]; created t0 − 15 d + k h, updated t0 − 5 d + k h.
    static func plan(_ k: Int, of plans: Int, cases: Int, t0: Int) -> Plan {
        let members = stride(from: k, through: cases, by: plans).map { n in
            Plan.Entry(caseID: n, assigneeUserID: [engineer, alice, nil, lead][((n - 1) / plans) % 4]?.userID)
        }
        let names = ["Release 2.0 regression", "Smoke before deploy", "Accessibility pass"]
        return Plan(
            id: k, title: title(names, k), description: k % 2 == 0 ? nil : "Plan \(k) & its cases.", entries: members,
            createdAt: t0 - 15 * day + k * hour, updatedAt: t0 - 5 * day + k * hour)
    }

    /// Review r: author [lead, engineer, alice][(r-1) % 3]; reviewers the other two of [engineer, alice, lead]
    /// in that order, the first [unapproved, approved, changes_requested][((r-1)/3) % 3], the second unapproved;
    /// status [open, open, open, merged, open, declined][(r-1) % 6]; odd r reviews an edit of case r (a `create`
    /// review when there is no such case), even r proposes a new case; created t0 − 7 d + r h; updated an hour
    /// later, or never (null) when r % 4 == 1.
    static func review(_ r: Int, cases: [TestCase], t0: Int) -> Review {
        let author = [lead, engineer, alice][(r - 1) % 3]
        let others = [engineer, alice, lead].filter { $0 != author }
        let first = [ReviewerStatus.unapproved, .approved, .changesRequested][((r - 1) / 3) % 3]
        let caseID = r % 2 == 1 && r <= cases.count ? r : nil
        let created = t0 - 7 * day + r * hour
        return Review(
            id: r, title: caseID.map { "Review: \(cases[$0 - 1].title)" } ?? "New case proposal \(r)",
            status: [ReviewStatus.open, .open, .open, .merged, .open, .declined][(r - 1) % 6], caseID: caseID,
            authorID: author.authorID,
            reviewers: [
                Review.Reviewer(authorID: others[0].authorID, status: first),
                Review.Reviewer(authorID: others[1].authorID, status: .unapproved),
            ],
            createdAt: created, updatedAt: r % 4 == 1 ? nil : created + hour)
    }

    /// Run k covers every case n with (n-1) % runs == k-1; started by [lead, alice, engineer][(k-1) % 3] at
    /// t0 − (runs − k + 1) d; ended an hour later, except the last run, which is still in progress.
    static func run(_ k: Int, of runs: Int, cases: Int, t0: Int) -> Run {
        let start = t0 - (runs - k + 1) * day
        let names = ["Nightly regression", "Release smoke", "Accessibility sweep"]
        return Run(
            id: k, title: title(names, k), caseIDs: Array(stride(from: k, through: cases, by: runs)),
            authorID: [lead, alice, engineer][(k - 1) % 3].authorID, startTime: start,
            endTime: k == runs ? nil : start + hour)
    }

    /// One result per case of a run: [passed, failed, passed, blocked, skipped][(n-1) % 5], reported by
    /// [engineer, alice, lead][(n-1) % 3], ended at the run's start + n min.
    static func results(of run: Run, projectKey: Int) -> [TestResult] {
        run.caseIDs.map { n in
            TestResult(
                hash: hash(projectKey, run.id, n), runID: run.id, caseID: n,
                status: ["passed", "failed", "passed", "blocked", "skipped"][(n - 1) % 5],
                authorID: [engineer, alice, lead][(n - 1) % 3].authorID, endTime: run.startTime + n * 60,
                timeSpentMS: 1_000 * (1 + n % 9))
        }
    }

    /// A 40-hex-digit result hash, the same for the same project, run and case.
    static func hash(_ parts: Int...) -> String {
        var state = UInt64(0x5EED)
        for part in parts { state = state &* 1_099_511_628_211 ^ UInt64(truncatingIfNeeded: part) }
        var text = ""
        while text.count < 40 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            let word = String(z ^ (z >> 31), radix: 16)
            text += String(repeating: "0", count: 16 - word.count) + word
        }
        return String(text.prefix(40))
    }

    /// The list's title for the first items, then "title (n)" cycling through it.
    private static func title(_ list: [String], _ n: Int) -> String {
        n <= list.count ? list[n - 1] : "\(list[(n - 1) % list.count]) (\(n))"
    }
}
