import SimulatorKit

/// What only Qase's web UI does, as control routes (paths under `/sim/`, handles such as `engineer`):
///
///     PUT    defect/{code}/{id}/assignee/{handle}          assign a defect        DELETE …/assignee  unassign
///     POST   defect/{code}/{id}/reopen                     reopen (the API's status route cannot)
///     PUT    plan/{code}/{id}/case/{case}/assignee/{handle} assign a plan's case  DELETE …/assignee  unassign
///     POST   review/{code}/{id}/reviewer/{handle}  {"status": "approved|changes_requested|unapproved"}
///     PUT    review/{code}/{id}/reviewer/{handle}          add a reviewer          DELETE  remove one
///     POST   review/{code}/{id}/status  {"status": "open|merged|declined"}
///     POST   project/{code}/rename  {"code": "NEW"}
///     PUT    access/{code}/{handle}                        grant access            DELETE  revoke it
extension QaseState {
    mutating func webAction(_ method: String, _ path: [String], _ call: Call) throws -> JSONValue {
        let index = try simProject(path.count > 1 ? path[1] : "")
        switch (method, Array(path.dropFirst(2))) {
        case ("PUT", let rest) where path[0] == "access" && rest.count == 1:
            denied.remove(Access(projectKey: projects[index].key, userID: try person(rest[0]).userID))
        case ("DELETE", let rest) where path[0] == "access" && rest.count == 1:
            denied.insert(Access(projectKey: projects[index].key, userID: try person(rest[0]).userID))
        case ("POST", ["rename"]) where path[0] == "project":
            try rename(index, to: try simDecode([String: String].self, call)["code"] ?? "")
        case (_, let rest) where path[0] == "defect" && rest.count >= 2 && rest[1] == "assignee":
            try assignDefect(index, rest, method)
        case ("POST", let rest) where path[0] == "defect" && rest.count == 2 && rest[1] == "reopen":
            let position = try defectPosition(index, rest[0])
            projects[index].defects[position].setStatus(.open, now: clock.now)
        case (_, let rest) where path[0] == "plan" && rest.count >= 4 && rest[1] == "case" && rest[3] == "assignee":
            try assignPlanCase(index, rest, method)
        case (_, let rest) where path[0] == "review" && rest.count >= 2:
            try reviewAction(index, rest, method, call)
        default:
            throw APIError(404, "No control route \(method) /sim/\(path.joined(separator: "/"))")
        }
        return ["status": true]
    }

    /// `{id}/assignee/{handle}` (PUT) or `{id}/assignee` (DELETE); the defect's `updated_at` moves.
    private mutating func assignDefect(_ index: Int, _ rest: [String], _ method: String) throws {
        let position = try defectPosition(index, rest[0])
        let assignee = try assignee(rest.dropFirst(2), method)
        projects[index].defects[position].assigneeUserID = assignee
        projects[index].defects[position].updatedAt = clock.now
    }

    /// `{id}/case/{case}/assignee[/{handle}]`; `updated_at` moves unless `planAssignmentBumpsUpdatedAt` is off.
    private mutating func assignPlanCase(_ index: Int, _ rest: [String], _ method: String) throws {
        let id = try pathID(rest[0]), caseID = try pathID(rest[2])
        guard let plan = projects[index].plans.firstIndex(where: { $0.id == id }) else {
            throw APIError(404, "Plan not found")
        }
        guard let entry = projects[index].plans[plan].entries.firstIndex(where: { $0.caseID == caseID }) else {
            throw APIError(404, "Case \(caseID) is not in plan \(id)")
        }
        projects[index].plans[plan].entries[entry].assigneeUserID = try assignee(rest.dropFirst(4), method)
        if switches.planAssignmentBumpsUpdatedAt { projects[index].plans[plan].updatedAt = clock.now }
    }

    /// `{id}/reviewer/{handle}` (POST a verdict, PUT add, DELETE remove) or `{id}/status` (POST).
    private mutating func reviewAction(_ index: Int, _ rest: [String], _ method: String, _ call: Call) throws {
        let position = try reviewPosition(index, rest[0])
        var review = projects[index].reviews[position]
        switch (method, rest.count, rest[1]) {
        case ("POST", 2, "status"):
            guard let status = ReviewStatus(rawValue: try simDecode([String: String].self, call)["status"] ?? "") else {
                throw APIError(400, "status must be open, merged or declined")
            }
            review.status = status
        case (_, 3, "reviewer"):
            let authorID = try person(rest[2]).authorID
            let existing = review.reviewers.firstIndex { $0.authorID == authorID }
            switch (method, existing) {
            case ("PUT", nil): review.reviewers.append(Review.Reviewer(authorID: authorID, status: .unapproved))
            case ("PUT", _): break
            case ("DELETE", let found?): review.reviewers.remove(at: found)
            case ("POST", let found?):
                guard review.status == .open else { throw APIError(422, "Review is not open") }
                let text = try simDecode([String: String].self, call)["status"] ?? ""
                guard let status = ReviewerStatus(rawValue: text) else {
                    throw APIError(400, "status must be unapproved, approved or changes_requested")
                }
                review.reviewers[found].status = status
            default: throw APIError(404, "\(rest[2]) is not a reviewer of review \(review.id)")
            }
        default: throw APIError(404, "No control route for review \(rest.joined(separator: "/"))")
        }
        review.updatedAt = clock.now
        projects[index].reviews[position] = review
    }

    /// A new code for the project: 2–10 letters or digits, not taken. Its items keep their ids.
    private mutating func rename(_ index: Int, to code: String) throws {
        let code = code.uppercased()
        guard (2...10).contains(code.count), code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw APIError(400, "A project code is 2 to 10 letters or digits")
        }
        guard !projects.contains(where: { $0.code == code }) else {
            throw APIError(422, "Project code \(code) is taken")
        }
        projects[index].code = code
    }

    /// The user id a PUT names (`…/assignee/{handle}`), or nil for DELETE.
    private func assignee(_ rest: ArraySlice<String>, _ method: String) throws -> Int? {
        switch (method, rest.first) {
        case ("PUT", let handle?) where rest.count == 1: return try person(handle).userID
        case ("DELETE", nil): return nil
        default: throw APIError(404, "Use PUT …/assignee/{handle} or DELETE …/assignee")
        }
    }

    private func person(_ handle: String) throws -> Person {
        guard let person = Directory.person(handle: handle) else { throw APIError(404, "No user \(handle)") }
        return person
    }

    private func simProject(_ code: String) throws -> Int {
        guard let index = projects.firstIndex(where: { $0.code == code.uppercased() }) else {
            throw APIError(404, "Project \"\(code)\" not found")
        }
        return index
    }
}
