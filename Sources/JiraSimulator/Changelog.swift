import SimulatorKit

/// The read side of "who changed what": the bulk changelog, an issue's changelog and comments, its transitions.
extension JiraState {
    /// `POST /rest/api/3/changelog/bulkfetch`: histories of up to 1000 issues, optionally only those touching
    /// `fieldIds` (≤ 10, items filtered to them), oldest first across issues, paged by `maxResults` histories.
    /// Issues the caller cannot see, and issues without a matching history, are left out.
    func bulkChangelog(_ call: Call, _ view: View) throws -> JSONValue {
        guard let body = try? JSONValue.parse(call.request.body), let object = body.object else {
            throw JiraError(400, "The request body is not valid JSON.")
        }
        let known: Set = ["issueIdsOrKeys", "fieldIds", "maxResults", "nextPageToken"]
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw JiraError(400, "Unrecognized field \"\(unknown)\".")
        }
        guard let names = body["issueIdsOrKeys"]?.array?.compactMap(\.string), !names.isEmpty,
            names.count == body["issueIdsOrKeys"]?.array?.count
        else { throw JiraError(400, "issueIdsOrKeys must be a list of 1 to 1000 issue ids or keys.") }
        guard names.count <= 1000 else { throw JiraError(400, "Too many issues: issueIdsOrKeys takes at most 1000.") }
        let fieldIDs = body["fieldIds"]?.array?.compactMap(\.string) ?? []
        guard fieldIDs.count <= 10, fieldIDs.count == (body["fieldIds"]?.array?.count ?? 0) else {
            throw JiraError(400, "fieldIds must be a list of at most 10 field ids.")
        }
        let size = min(max(body["maxResults"]?.int ?? 1000, 1), clamp(10_000))
        let tokenText = "bulk:" + names.joined(separator: ",") + "|" + fieldIDs.joined(separator: ",")
        let offset = try body["nextPageToken"]?.string.map { try PageToken.offset($0, jql: tokenText) } ?? 0
        let all = bulkHistories(names, fieldIDs: Set(fieldIDs), caller: view.caller)
        let page = all.dropFirst(offset).prefix(size)
        var logs: [(issueID: Int, histories: [JSONValue])] = []
        for (issueID, history) in page {
            let json = view.history(history, epochCreated: true)
            if logs.last?.issueID == issueID { logs[logs.count - 1].histories.append(json) } else {
                logs.append((issueID, [json]))
            }
        }
        var members: [(key: String, value: JSONValue)] = [
            ("issueChangeLogs", .array(logs.map { ["issueId": .string(String($0.issueID)), "changeHistories": .array($0.histories)] }))
        ]
        if offset + page.count < all.count {
            members.append(("nextPageToken", .string(PageToken.make(offset + page.count, jql: tokenText))))
        }
        return .object(members)
    }

    /// (issue id, history) pairs, oldest first, then by issue id and history id.
    private func bulkHistories(_ names: [String], fieldIDs: Set<String>, caller: Int) -> [(Int, History)] {
        var seen = Set<Int>()
        var pairs: [(Int, History)] = []
        for name in names {
            guard let slot = try? slot(name, for: caller), let issue = issues[slot], seen.insert(issue.id).inserted
            else { continue }
            for history in issue.histories {
                let items = fieldIDs.isEmpty ? history.items : history.items.filter { fieldIDs.contains($0.fieldId) }
                guard !items.isEmpty else { continue }
                pairs.append((issue.id, History(id: history.id, author: history.author, created: history.created, items: items)))
            }
        }
        return pairs.sorted { ($0.1.created, $0.0, $0.1.id) < ($1.1.created, $1.0, $1.1.id) }
    }

    /// `GET …/issue/{idOrKey}/changelog`: an offset page of histories, oldest first (Cloud).
    func changelogPage(_ key: String, _ call: Call, _ view: View) throws -> JSONValue {
        let issue = issues[try slot(key, for: view.caller)]!
        let startAt = max(Int(call.query("startAt") ?? "") ?? 0, 0)
        let size = min(max(Int(call.query("maxResults") ?? "") ?? 100, 1), clamp(100))
        let page = issue.histories.dropFirst(startAt).prefix(size)
        let isLast = startAt + page.count >= issue.histories.count
        let url = "\(view.api)/issue/\(issue.id)/changelog"
        var members: [(key: String, value: JSONValue)] = [("self", .string("\(url)?maxResults=\(size)&startAt=\(startAt)"))]
        if !isLast { members.append(("nextPage", .string("\(url)?maxResults=\(size)&startAt=\(startAt + page.count)"))) }
        members += [
            ("maxResults", .int(size)), ("startAt", .int(startAt)), ("total", .int(issue.histories.count)),
            ("isLast", .bool(isLast)), ("values", .array(page.map { view.history($0) })),
        ]
        return .object(members)
    }

    /// `GET …/issue/{idOrKey}/comment`: an offset page, `orderBy` `created` (default), `-created` or `+created`.
    func commentPage(_ key: String, _ call: Call, _ view: View) throws -> JSONValue {
        let issue = issues[try slot(key, for: view.caller)]!
        let startAt = max(Int(call.query("startAt") ?? "") ?? 0, 0)
        let size = min(max(Int(call.query("maxResults") ?? "") ?? 5000, 0), clamp(5000))
        let comments = call.query("orderBy") == "-created" ? issue.comments.reversed() : issue.comments
        let page = comments.dropFirst(startAt).prefix(size)
        return [
            "startAt": .int(startAt), "maxResults": .int(size), "total": .int(comments.count),
            "comments": .array(page.map { view.comment($0, issueID: issue.id) }),
        ]
    }

    /// `GET …/issue/{idOrKey}/transitions`: to every status but the current one (ids 11, 21, 31).
    func transitions(_ key: String, _ view: View) throws -> JSONValue {
        let issue = issues[try slot(key, for: view.caller)]!
        let available = Workflow.statuses.indices.filter { $0 != issue.status }.map { index -> JSONValue in
            let status = Workflow.statuses[index]
            return [
                "id": .string(status.transitionID), "name": .string(status.name),
                "to": statusJSON(index, view), "hasScreen": false, "isGlobal": true, "isInitial": false,
                "isAvailable": true, "isConditional": false, "isLooped": false,
            ]
        }
        return ["expand": "transitions", "transitions": .array(available)]
    }
}
