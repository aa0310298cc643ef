import SimulatorKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The write routes a colleague uses with their own token, in the spec's shapes: cases (create, update,
/// delete), defects (create, update, resolve, status, delete), plans (title, description, case list) and
/// reviews (reviewers, proposal).
extension QaseState {
    mutating func write(_ name: String, _ parameters: [String], _ call: Call, _ actor: Actor) throws -> JSONValue {
        let code = parameters.first ?? ""
        switch name {
        case "POST /case/{code}": return try createCase(try projectIndex(code, for: actor), call, actor)
        case "PATCH /case/{code}/{id}":
            return try updateCase(try projectIndex(code, for: actor), parameters[1], call, actor)
        case "DELETE /case/{code}/{id}": return try deleteCase(try projectIndex(code, for: actor), parameters[1])
        case "POST /defect/{code}": return try createDefect(try projectIndex(code, for: actor), call, actor)
        case "PATCH /defect/{code}/{id}":
            return try updateDefect(try projectIndex(code, for: actor), parameters[1], call)
        case "DELETE /defect/{code}/{id}":
            let index = try projectIndex(code, for: actor)
            let position = try defectPosition(index, parameters[1])
            return ok(["id": .int(projects[index].defects.remove(at: position).id)])
        case "PATCH /defect/{code}/resolve/{id}":
            let index = try projectIndex(code, for: actor)
            let position = try defectPosition(index, parameters[1])
            projects[index].defects[position].setStatus(.resolved, now: clock.now)
            return ok(["id": .int(projects[index].defects[position].id)])
        case "PATCH /defect/{code}/status/{id}":
            return try changeDefectStatus(try projectIndex(code, for: actor), parameters[1], call)
        case "PATCH /plan/{code}/{id}": return try updatePlan(try projectIndex(code, for: actor), parameters[1], call)
        case "PATCH /review/{code}/{id}": return try updateReview(try reviewProject(code, actor), parameters[1], call)
        default: throw APIError(404, "Not found")
        }
    }

    // MARK: - Cases

    private mutating func createCase(_ index: Int, _ call: Call, _ actor: Actor) throws -> JSONValue {
        let body = try decode(CaseBody.self, call)
        guard let title = body.title else { throw APIError.invalid("title", "The title field is required.") }
        projects[index].lastCaseID += 1
        let now = clock.now
        var item = TestCase(
            id: projects[index].lastCaseID, title: title, description: nil, severity: 0, priority: 0, type: 1,
            behavior: 0,
            status: 0, milestoneID: nil, suiteID: nil, tags: [], authorID: actor.authorID, updatedBy: actor.authorID,
            createdAt: now, updatedAt: now)
        try body.apply(to: &item)
        projects[index].cases.append(item)
        return ok(["id": .int(item.id)])
    }

    /// Sets the fields sent; the actor becomes `updated_by` and `updated_at` is now.
    private mutating func updateCase(_ index: Int, _ id: String, _ call: Call, _ actor: Actor) throws -> JSONValue {
        let id = try pathID(id)
        guard let position = projects[index].cases.firstIndex(where: { $0.id == id }) else {
            throw APIError(404, "Test case not found")
        }
        try decode(CaseBody.self, call).apply(to: &projects[index].cases[position])
        projects[index].cases[position].updatedBy = actor.authorID
        projects[index].cases[position].updatedAt = clock.now
        return ok(["id": .int(id)])
    }

    /// Removes the case, and its entries from plans (a plan change, so `updated_at` moves as for assignments).
    private mutating func deleteCase(_ index: Int, _ id: String) throws -> JSONValue {
        let id = try pathID(id)
        guard let position = projects[index].cases.firstIndex(where: { $0.id == id }) else {
            throw APIError(404, "Test case not found")
        }
        projects[index].cases.remove(at: position)
        for plan in projects[index].plans.indices
        where projects[index].plans[plan].entries.contains(where: { $0.caseID == id }) {
            projects[index].plans[plan].entries.removeAll { $0.caseID == id }
            if switches.planAssignmentBumpsUpdatedAt { projects[index].plans[plan].updatedAt = clock.now }
        }
        return ok(["id": .int(id)])
    }

    // MARK: - Defects

    private mutating func createDefect(_ index: Int, _ call: Call, _ actor: Actor) throws -> JSONValue {
        let body = try decode(DefectBody.self, call)
        guard let title = body.title, let actual = body.actualResult, let severity = body.severity else {
            throw APIError(
                400, "Data is invalid.", fields: [("title", "title, actual_result and severity are required.")])
        }
        projects[index].lastDefectID += 1
        let now = clock.now
        var item = Defect(
            id: projects[index].lastDefectID, title: title, actualResult: actual, severity: severity, status: .open,
            milestoneID: nil, tags: [], authorID: actor.authorID, assigneeUserID: nil, resolvedAt: nil, createdAt: now,
            updatedAt: now)
        try body.apply(to: &item)
        projects[index].defects.append(item)
        return ok(["id": .int(item.id)])
    }

    private mutating func updateDefect(_ index: Int, _ id: String, _ call: Call) throws -> JSONValue {
        let position = try defectPosition(index, id)
        try decode(DefectBody.self, call).apply(to: &projects[index].defects[position])
        projects[index].defects[position].updatedAt = clock.now
        return ok(["id": .int(projects[index].defects[position].id)])
    }

    /// `{"status": "in_progress|resolved|invalid"}`; answers `{"status": true}` only, as the spec says.
    private mutating func changeDefectStatus(_ index: Int, _ id: String, _ call: Call) throws -> JSONValue {
        let position = try defectPosition(index, id)
        let body = try decode([String: String].self, call)
        guard let status = body["status"].flatMap(DefectStatus.init(rawValue:)), status != .open else {
            throw APIError.invalid("status", "The status must be one of in_progress, resolved, invalid.")
        }
        projects[index].defects[position].setStatus(status, now: clock.now)
        return ["status": true]
    }

    func defectPosition(_ index: Int, _ id: String) throws -> Int {
        let id = try pathID(id)
        guard let position = projects[index].defects.firstIndex(where: { $0.id == id }) else {
            throw APIError(404, "Defect not found")
        }
        return position
    }

    // MARK: - Plans and reviews

    /// Title, description and the list of case ids (PlanUpdate has no assignees: assigning is the web UI's, see
    /// the control routes). Kept cases keep their assignee; new ones have none.
    private mutating func updatePlan(_ index: Int, _ id: String, _ call: Call) throws -> JSONValue {
        let id = try pathID(id)
        guard let position = projects[index].plans.firstIndex(where: { $0.id == id }) else {
            throw APIError(404, "Plan not found")
        }
        let body = try decode(PlanBody.self, call)
        var plan = projects[index].plans[position]
        if let title = body.title { plan.title = title }
        if let description = body.description { plan.description = description }
        if let cases = body.cases {
            let known = Set(projects[index].cases.map(\.id))
            guard cases.allSatisfy(known.contains) else {
                throw APIError.invalid("cases", "The selected cases are invalid.")
            }
            plan.entries = cases.map { caseID in
                plan.entries.first { $0.caseID == caseID } ?? Plan.Entry(caseID: caseID, assigneeUserID: nil)
            }
        }
        plan.updatedAt = clock.now
        projects[index].plans[position] = plan
        return ok(["id": .int(id)])
    }

    /// `reviewers` (author UUIDs) replaces the list: kept reviewers keep their status, new ones are unapproved;
    /// a `proposed_case` resets every approval. Only open reviews change.
    private mutating func updateReview(_ index: Int, _ id: String, _ call: Call) throws -> JSONValue {
        let position = try reviewPosition(index, id)
        let body = try decode(ReviewBody.self, call)
        var review = projects[index].reviews[position]
        guard review.status == .open else { throw APIError(422, "Review is not open") }
        if let uuids = body.reviewers {
            let ids = uuids.compactMap(Directory.authorID(uuid:))
            guard ids.count == uuids.count, uuids.count <= 20 else {
                throw APIError.invalid("reviewers", "The selected reviewers are invalid.")
            }
            review.reviewers = ids.map { id in
                review.reviewers.first { $0.authorID == id } ?? Review.Reviewer(authorID: id, status: .unapproved)
            }
        }
        if body.proposedCase != nil {
            for reviewer in review.reviewers.indices { review.reviewers[reviewer].status = .unapproved }
        }
        review.updatedAt = clock.now
        projects[index].reviews[position] = review
        return ok(["id": .int(review.id)])
    }

    func reviewPosition(_ index: Int, _ id: String) throws -> Int {
        let id = try pathID(id)
        guard let position = projects[index].reviews.firstIndex(where: { $0.id == id }) else {
            throw APIError(404, "Review not found")
        }
        return position
    }

    func decode<T: Decodable>(_ type: T.Type, _ call: Call) throws -> T {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(type, from: Data(call.request.body))
        } catch {
            throw APIError(400, "Data is invalid.", reason: "\(error)")
        }
    }
}
