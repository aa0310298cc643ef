import SimulatorKit

/// The work item routes: WIQL, the batch read, one or several by id, updates, comments.
extension AzureDevOpsState {
    /// The JSON object of a request body, or 400.
    func bodyObject(_ call: Call) throws -> JSONValue {
        guard let value = try? JSONValue.parse(call.request.body), value.object != nil else {
            throw AzureDevOpsError(400, "The request body must be a JSON object.", "VssRequestContentException")
        }
        return value
    }

    /// `POST …/_apis/wit/wiql`: ids only; more than `wiqlLimit` without `$top` is 400 `VS402337`.
    func wiql(_ call: Call, project: Int?, _ view: View) throws -> Answer {
        guard let text = try bodyObject(call)["query"]?.string else {
            throw AzureDevOpsError.badRequest("The query is missing: send {\"query\": \"SELECT …\"}.")
        }
        let query = try WiqlQuery(text)
        let context = WiqlContext(me: view.me, project: project,
            timePrecision: call.query("timePrecision")?.lowercased() == "true", now: now)
        let asOf = now
        var found: [WorkItem] = []
        for item in workItems where !item.deleted && reads(view.me, project: item.project) {
            if try query.condition.map({ try context.matches(item, $0) }) ?? true { found.append(item) }
        }
        let order = query.order.isEmpty ? [("System.Id", false)] : query.order
        found.sort { a, b in
            for (field, descending) in order {
                let c = Self.compare(a[field], b[field])
                if c != 0 { return descending ? c > 0 : c < 0 }
            }
            return a.id < b.id
        }
        let top = call.query("$top").flatMap { Int($0) }
        if top == nil, found.count > switches.wiqlLimit {
            throw AzureDevOpsError(400, "VS402337: The number of work items returned exceeds the size limit of "
                + "\(switches.wiqlLimit). Change the query to return fewer items.",
                "WorkItemTrackingQueryResultSizeLimitExceededException")
        }
        if let top { found = Array(found.prefix(max(0, top))) }
        func column(_ field: String) -> JSONValue {
            [
                "referenceName": .string(field), "name": .string(WiqlQuery.fields[field]?.name ?? field),
                "url": .string("\(view.base)/_apis/wit/fields/\(field)"),
            ]
        }
        return Answer([
            "queryType": "flat", "queryResultType": "workItem", "asOf": .string(View.timestamp(asOf)),
            "columns": .array(query.columns.map(column)),
            "sortColumns": .array(query.order.map { ["field": column($0.field), "descending": .bool($0.descending)] }),
            "workItems": .array(found.map { ["id": .int($0.id), "url": .string(view.workItemURL($0.id))] }),
        ])
    }

    static func compare(_ a: FieldValue?, _ b: FieldValue?) -> Int {
        switch (a, b) {
        case (.number(let x)?, .number(let y)?), (.date(let x)?, .date(let y)?), (.person(let x)?, .person(let y)?):
            return x < y ? -1 : x > y ? 1 : 0
        case (.text(let x)?, .text(let y)?): return x.lowercased() < y.lowercased() ? -1 : x.lowercased() > y.lowercased() ? 1 : 0
        case (nil, nil): return 0
        case (nil, _): return -1
        case (_, nil): return 1
        default: return 0
        }
    }

    /// `POST …/_apis/wit/workitemsbatch`: at most 200 ids (`VS403474`); one unreadable id fails the batch with
    /// 404 `TF401232` unless `errorPolicy` is `Omit` (then null in its place).
    func batch(_ call: Call, _ view: View) throws -> Answer {
        let body = try bodyObject(call)
        guard let ids = body["ids"]?.array?.compactMap(\.int), !ids.isEmpty else {
            throw AzureDevOpsError.badRequest("VS403478: The ids of the work items to read are missing.")
        }
        let fields = body["fields"]?.array?.compactMap(\.string)
        let omit = body["errorPolicy"]?.string?.lowercased() == "omit" || body["errorPolicy"]?.int == 2
        return Answer.list(try read(ids, fields: fields, omit: omit, view))
    }

    /// `GET …/_apis/wit/workitems?ids=1,2`: the same rules as the batch.
    func workItemsByIDs(_ call: Call, _ view: View) throws -> Answer {
        let ids = (call.query("ids") ?? "").split(separator: ",").compactMap { Int($0.trimmingCharacters(" ")) }
        guard !ids.isEmpty else { throw AzureDevOpsError.badRequest("VS403478: The ids parameter is missing.") }
        return Answer.list(try read(ids, fields: fieldList(call.query("fields")),
            omit: call.query("errorPolicy")?.lowercased() == "omit", view))
    }

    private func read(_ ids: [Int], fields: [String]?, omit: Bool, _ view: View) throws -> [JSONValue] {
        guard ids.count <= 200 else {
            throw AzureDevOpsError(400, "VS403474: You requested \(ids.count) work items which exceeds the limit of 200",
                "VssServiceException")
        }
        return try ids.map { id in
            guard let slot = visibleWorkItem(id, by: view.me) else {
                if omit { return .null }
                throw AzureDevOpsError.workItemNotFound(id)
            }
            return view.workItem(workItems[slot], fields: fields)
        }
    }

    /// `GET …/_apis/wit/workItems/{id}/updates`: oldest first, `$skip`, `$top` (at most 200).
    func updates(_ slot: Int, _ call: Call, _ view: View) throws -> Answer {
        let item = workItems[slot]
        let skip = max(0, call.query("$skip").flatMap { Int($0) } ?? 0)
        let top = max(0, min(call.query("$top").flatMap { Int($0) } ?? 200, 200))
        let window = item.updates.indices.dropFirst(skip).prefix(top)
        return Answer.list(window.map { view.update(item, $0) })
    }

    /// `GET|POST {project}/_apis/wit/workItems/{id}/comments` (preview): newest first unless `order=asc`, `$top`
    /// (default and at most 200) and `continuationToken`; POST `{"text": …}` comments as the caller.
    mutating func comments(_ slot: Int, _ call: Call, _ view: View) throws -> Answer {
        if call.method == "POST" {
            guard let text = try bodyObject(call)["text"]?.string, !text.isEmpty else {
                throw AzureDevOpsError.badRequest("The comment text is missing: send {\"text\": …}.")
            }
            let added = comment(slot, text, by: view.me, at: now)
            return Answer(view.comment(added, of: workItems[slot]))
        }
        let item = workItems[slot]
        let ascending = call.query("order")?.lowercased() == "asc"
        let all = ascending ? item.comments : item.comments.reversed()
        let top = max(1, min(call.query("$top").flatMap { Int($0) } ?? 200, 200))
        let start = max(0, call.query("continuationToken").flatMap { Int($0) } ?? 0)
        let page = Array(all.dropFirst(start).prefix(top))
        var body: JSONValue = [
            "totalCount": .int(all.count), "count": .int(page.count),
            "comments": .array(page.map { view.comment($0, of: item) }),
        ]
        if start + page.count < all.count {
            let token = String(start + page.count)
            body["continuationToken"] = .string(token)
            body["nextPage"] = .string("\(view.base)/\(Directory.projectID(item.project))/_apis/wit/workItems/"
                + "\(item.id)/comments?continuationToken=\(token)&$top=\(top)")
        }
        return Answer(body)
    }
}
