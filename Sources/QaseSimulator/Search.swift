import SimulatorKit

/// `GET /search?query=<QQL>`: every project the token can see, unless the query names some.
extension QaseState {
    func search(_ call: Call, _ actor: Actor) throws -> JSONValue {
        if switches.searchRefusal == 402 { throw APIError(402, "QQL is not available on your subscription plan") }
        if switches.searchRefusal == 403 { throw APIError(403, "Your plan does not allow QQL search") }
        guard let text = call.query["query"], !text.isEmpty else {
            throw APIError.invalid("query", "The query field is required.")
        }
        guard text.count <= 1_000 else {
            throw APIError.invalid("query", "The query may not be greater than 1000 characters.")
        }
        let (limit, offset) = try paging(call)
        let search = try QQLSearch.compile(try QQLParser.parse(text), defectAssignee: switches.qqlDefectAssignee)
        var rows = projects.enumerated().filter { canSee($0.element, actor) }
            .flatMap { order, project in searchRows(of: search.entity, in: project, order: order) }
            .filter { search.matches($0, actor: actor, now: clock.now) }
        rows.sort { ($0.id, $0.projectOrder) < ($1.id, $1.projectOrder) }
        if search.descending { rows.reverse() }
        let page = rows.dropFirst(offset).prefix(limit)
        return ok(["total": .int(rows.count), "entities": .array(page.map { $0.render() })])
    }

    /// The project's items of one QQL entity, with the values conditions ask for.
    func searchRows(of entity: String, in project: Project, order: Int) -> [QQLRow] {
        let enumsAsInts = switches.defectEnumsAsInts
        func row(_ id: Int, _ values: [String: QQLItemValue], _ render: @escaping () -> JSONValue) -> QQLRow {
            QQLRow(project: project.code, projectOrder: order, id: id, values: values, render: render)
        }
        switch entity {
        case "case":
            return project.cases.map { item in
                row(
                    item.id,
                    [
                        "id": .id(item.id), "author": .author(item.authorID), "createdby": .author(item.authorID),
                        "updatedby": .author(item.updatedBy), "created": .time(item.createdAt),
                        "updated": .time(item.updatedAt),
                        "status": .text(CaseEnums.status[item.status]),
                        "severity": .text(CaseEnums.severity[item.severity]),
                    ]
                ) { item.qql }
            }
        case "defect":
            return project.defects.map { item in
                row(
                    item.id,
                    [
                        "id": .id(item.id), "author": .author(item.authorID), "createdby": .author(item.authorID),
                        "assignee": .user(item.assigneeUserID), "created": .time(item.createdAt),
                        "updated": .time(item.updatedAt), "resolved": .time(item.resolvedAt),
                        "status": .text(item.status.rawValue), "severity": .text(item.severityName),
                        "isresolved": .flag(item.status == .resolved),
                    ]
                ) { item.qql(enumsAsInts: enumsAsInts) }
            }
        case "plan":
            return project.plans.map { item in
                row(item.id, ["id": .id(item.id), "created": .time(item.createdAt), "updated": .time(item.updatedAt)]) {
                    item.qql
                }
            }
        case "run":
            return project.runs.map { item in
                let results = project.results.filter { $0.runID == item.id }
                return row(
                    item.id,
                    [
                        "id": .id(item.id), "author": .author(item.authorID), "createdby": .author(item.authorID),
                        "started": .time(item.startTime), "ended": .time(item.endTime),
                        "status": .text(item.statusText(results: results)),
                    ]
                ) { item.rest(results: results, includeCases: true, qql: true) }
            }
        case "result":
            return project.results.enumerated().map { position, item in
                row(
                    position + 1,
                    [
                        "author": .author(item.authorID), "assignee": .author(item.authorID),
                        "createdby": .author(item.authorID), "ended": .time(item.endTime), "status": .text(item.status),
                        "caseid": .id(item.caseID),
                    ]
                ) { item.rest(qql: true) }
            }
        default:
            return []  // requirements: none in the simulator
        }
    }
}
