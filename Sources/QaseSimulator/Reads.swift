import SimulatorKit

/// The read routes: projects, users, authors, cases, defects, plans, reviews, runs and results.
extension QaseState {
    func listProjects(_ call: Call, _ actor: Actor) throws -> JSONValue {
        let visible = projects.filter { canSee($0, actor) }
        return try list(call, visible, total: visible.count) { $0.rest }
    }

    func user(_ id: String) throws -> JSONValue {
        guard let person = Directory.person(userID: try pathID(id)) else { throw APIError(404, "User not found") }
        return ok(person.user)
    }

    /// `search` matches names, and e-mail addresses unless `--author-search name`; `type` is `user` or `app`.
    func listAuthors(_ call: Call) throws -> JSONValue {
        var authors = Directory.people.map {
            (id: $0.authorID, name: $0.name, email: $0.email, type: "user", json: $0.author)
        }
        authors.append((Directory.app.authorID, Directory.app.name, "", "app", Directory.app.author))
        authors.sort { $0.id < $1.id }
        let total = authors.count
        if let type = filter(call, "type") { authors = authors.filter { $0.type == type } }
        if let search = filter(call, "search")?.lowercased() {
            authors = authors.filter { author in
                author.name.lowercased().contains(search)
                    || (switches.authorSearch == .nameOrEmail && author.email.lowercased().contains(search))
            }
        }
        return try list(call, authors, total: total) { $0.json }
    }

    /// By UUID, or by the deprecated integer author id.
    func author(_ id: String) throws -> JSONValue {
        let authorID = Int(id) ?? Directory.authorID(uuid: id)
        if authorID == Directory.app.authorID { return ok(Directory.app.author) }
        guard let authorID, let person = Directory.person(authorID: authorID) else {
            throw APIError(404, "Author not found")
        }
        return ok(person.author)
    }

    func listCases(_ call: Call, _ index: Int) throws -> JSONValue {
        let all = projects[index].cases
        var cases = all
        if let search = filter(call, "search")?.lowercased() {
            cases = cases.filter { $0.title.lowercased().contains(search) }
        }
        if let milestone = try intFilter(call, "milestone_id") { cases = cases.filter { $0.milestoneID == milestone } }
        if let suite = try intFilter(call, "suite_id") { cases = cases.filter { $0.suiteID == suite } }
        let enums: [(String, [String], KeyPath<TestCase, Int>)] = [
            ("severity", CaseEnums.severity, \.severity), ("priority", CaseEnums.priority, \.priority),
            ("type", CaseEnums.type, \.type), ("behavior", CaseEnums.behavior, \.behavior),
            ("status", CaseEnums.status, \.status),
        ]
        for (name, slugs, field) in enums {
            guard let wanted = listFilter(call, name) else { continue }
            let values = Set(wanted.compactMap { slugs.firstIndex(of: $0) })
            cases = cases.filter { values.contains($0[keyPath: field]) }
        }
        if let automation = listFilter(call, "automation"), !automation.contains("is-not-automated") { cases = [] }
        let external = call.query["include"]?.contains("external_issues") == true
        return try list(call, cases, total: all.count) { $0.rest(includeExternalIssues: external) }
    }

    func getCase(_ call: Call, _ index: Int, _ id: String) throws -> JSONValue {
        let id = try pathID(id)
        guard let found = projects[index].cases.first(where: { $0.id == id }) else {
            throw APIError(404, "Test case not found")
        }
        return ok(found.rest(includeExternalIssues: call.query["include"]?.contains("external_issues") == true))
    }

    /// `status` is one of open, in_progress, resolved, invalid (else 400).
    func listDefects(_ call: Call, _ index: Int) throws -> JSONValue {
        let all = projects[index].defects
        var defects = all
        if let text = filter(call, "status") {
            guard let status = DefectStatus(rawValue: text) else {
                throw APIError.invalid("status", "The selected status is invalid.")
            }
            defects = defects.filter { $0.status == status }
        }
        return try list(call, defects, total: all.count) { $0.rest(enumsAsInts: switches.defectEnumsAsInts) }
    }

    func getDefect(_ index: Int, _ id: String) throws -> JSONValue {
        let id = try pathID(id)
        guard let found = projects[index].defects.first(where: { $0.id == id }) else {
            throw APIError(404, "Defect not found")
        }
        return ok(found.rest(enumsAsInts: switches.defectEnumsAsInts))
    }

    func listPlans(_ call: Call, _ index: Int) throws -> JSONValue {
        try list(call, projects[index].plans, total: projects[index].plans.count) { $0.rest }
    }

    func getPlan(_ index: Int, _ id: String) throws -> JSONValue {
        let id = try pathID(id)
        guard let found = projects[index].plans.first(where: { $0.id == id }) else {
            throw APIError(404, "Plan not found")
        }
        return ok(found.detailed)
    }

    func listReviews(_ call: Call, _ index: Int) throws -> JSONValue {
        let all = projects[index].reviews
        var reviews = all
        if let status = filter(call, "status") { reviews = reviews.filter { $0.status.rawValue == status } }
        if let type = filter(call, "type") { reviews = reviews.filter { $0.type == type } }
        if let caseID = try intFilter(call, "case_id") { reviews = reviews.filter { $0.caseID == caseID } }
        if let uuid = filter(call, "author_uuid") {
            let authorID = Directory.authorID(uuid: uuid)
            reviews = reviews.filter { $0.authorID == authorID }
        }
        if let uuid = filter(call, "reviewer_uuid") {
            let authorID = Directory.authorID(uuid: uuid)
            reviews = reviews.filter { $0.reviewers.contains { $0.authorID == authorID } }
        }
        if let search = filter(call, "search")?.lowercased() {
            reviews = reviews.filter { $0.title.lowercased().contains(search) }
        }
        return try list(call, reviews, total: all.count) { $0.rest }
    }

    func getReview(_ index: Int, _ id: String) throws -> JSONValue {
        let id = try pathID(id)
        guard let found = projects[index].reviews.first(where: { $0.id == id }) else {
            throw APIError(404, "Review not found")
        }
        return ok(found.detailed)
    }
}
