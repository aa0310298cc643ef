import SimulatorKit

/// Renders the server's model as Azure DevOps' JSON for one caller and base URL.
struct View {
    /// The organization or collection URL the request came in on: `http://host/acme` or
    /// `http://host/tfs/DefaultCollection`.
    let base: String
    let me: Int
    let server: Bool

    /// Azure DevOps' timestamps: seconds, then the fraction without trailing zeros (`…:13.04Z`, `…:13Z`).
    static func timestamp(_ milliseconds: Int) -> String {
        let seconds = String(HTTPDate.iso8601(milliseconds / 1000).dropLast())
        var fraction = String(milliseconds % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return seconds + (fraction.isEmpty ? "" : "." + fraction) + "Z"
    }

    func uniqueName(_ index: Int) -> String {
        let person = Directory.people[index]
        if person.isGroup { return "[Web]\\\(person.username)" }
        if index == Directory.tfs { return "\(person.id)@2c895908-04e0-4952-89fd-54b0046d6288" }
        if index == Directory.buildService { return "Build\\\(Directory.projectID(0))" }
        return server ? "CONTOSO\\\(person.username)" : "\(person.username)@example.com"
    }

    func descriptor(_ index: Int) -> String {
        let person = Directory.people[index]
        let kind = person.isGroup ? "vssgp" : index == Directory.tfs ? "s2s" : person.isService ? "svc"
            : server ? "win" : "aad"
        return kind + "." + Self.base64(person.id)
    }

    /// An `IdentityRef`: `{displayName, url, _links.avatar, id, uniqueName, imageUrl, descriptor}` (+ `isContainer`).
    func identity(_ index: Int) -> JSONValue {
        let person = Directory.people[index]
        let avatar = "\(base)/_apis/GraphProfile/MemberAvatars/\(descriptor(index))"
        var value: JSONValue = [
            "displayName": .string(person.name), "url": .string("\(base)/_apis/Identities/\(person.id)"),
            "_links": ["avatar": ["href": .string(avatar)]], "id": .string(person.id),
            "uniqueName": .string(uniqueName(index)), "imageUrl": .string(avatar), "descriptor": .string(descriptor(index)),
        ]
        if person.isGroup { value["isContainer"] = true }
        return value
    }

    func project(_ index: Int) -> JSONValue {
        [
            "id": .string(Directory.projectID(index)), "name": .string(Directory.projectNames[index]),
            "description": .string("The \(Directory.projectNames[index]) project."),
            "url": .string("\(base)/_apis/projects/\(Directory.projectID(index))"), "state": "wellFormed",
            "revision": .int(400 + index), "visibility": "private", "lastUpdateTime": "2024-01-01T00:00:00.0Z",
        ]
    }

    func field(_ value: FieldValue) -> JSONValue {
        switch value {
        case .text(let text): .string(text)
        case .number(let number): .int(number)
        case .person(let index): identity(index)
        case .date(let milliseconds):
            .string(milliseconds >= 253_402_300_799_000 ? "9999-01-01T00:00:00Z" : Self.timestamp(milliseconds))
        }
    }

    func workItemURL(_ id: Int) -> String { "\(base)/_apis/wit/workItems/\(id)" }

    /// A work item: `{id, rev, fields, url}`; only `fields` (reference names) when given, those present.
    func workItem(_ item: WorkItem, fields wanted: [String]?) -> JSONValue {
        var fields: [(key: String, value: JSONValue)] = []
        let order = wanted ?? Self.fieldOrder.filter { item.fields[$0] != nil }
            + item.fields.keys.filter { !Self.fieldOrder.contains($0) }.sorted()
        for name in order {
            guard let key = item.fields.keys.first(where: { $0.lowercased() == name.lowercased() }),
                let value = item.fields[key], !Self.updateOnly.contains(key)
            else { continue }
            fields.append((key, field(value)))
        }
        return [
            "id": .int(item.id), "rev": .int(item.rev), "fields": .object(fields),
            "url": .string(workItemURL(item.id)),
        ]
    }

    /// The order Azure DevOps writes fields in.
    static let fieldOrder = [
        "System.Id", "System.AreaPath", "System.TeamProject", "System.IterationPath", "System.WorkItemType",
        "System.State", "System.Reason", "System.AssignedTo", "System.CreatedDate", "System.CreatedBy",
        "System.ChangedDate", "System.ChangedBy", "System.CommentCount", "System.Title", "System.History",
        "Microsoft.VSTS.Common.Priority", "System.Tags",
    ]

    /// Fields that appear only in updates.
    static let updateOnly: Set<String> = ["System.AuthorizedDate", "System.RevisedDate", "System.AuthorizedAs",
        "System.Watermark", "System.Rev"]

    /// A `WorkItemUpdate`: `{id, workItemId, rev, revisedBy, revisedDate, fields: {ref: {oldValue, newValue}}, url}`;
    /// `revisedDate` is when the next revision replaced it (9999-01-01 for the latest).
    func update(_ item: WorkItem, _ index: Int) -> JSONValue {
        let update = item.updates[index]
        var revisedBy = identity(update.by)
        revisedBy["name"] = .string("\(Directory.people[update.by].name) <\(uniqueName(update.by))>")
        let next = index + 1 < item.updates.count ? item.updates[index + 1].at : 253_402_300_799_000
        let fields: [(key: String, value: JSONValue)] = update.changes.map { change in
            var members: [(key: String, value: JSONValue)] = []
            if let old = change.old { members.append(("oldValue", field(old))) }
            if let new = change.new { members.append(("newValue", field(new))) }
            return (change.field, .object(members))
        }
        return [
            "id": .int(index + 1), "workItemId": .int(item.id), "rev": .int(update.rev), "revisedBy": revisedBy,
            "revisedDate": field(.date(next)), "fields": .object(fields),
            "url": .string("\(workItemURL(item.id))/updates/\(index + 1)"),
        ]
    }

    func comment(_ comment: WorkItemComment, of item: WorkItem) -> JSONValue {
        [
            "mentions": [], "workItemId": .int(item.id), "id": .int(comment.id), "version": 1,
            "text": .string(comment.text), "renderedText": .string(comment.text), "format": "html",
            "createdBy": identity(comment.by), "createdDate": field(.date(comment.at)),
            "modifiedBy": identity(comment.by), "modifiedDate": field(.date(comment.at)), "isDeleted": false,
            "url": .string("\(base)/\(Directory.projectID(item.project))/_apis/wit/workItems/\(item.id)/comments/"
                + "\(comment.id)"),
        ]
    }

    func repository(_ project: Int) -> JSONValue {
        let name = Directory.projectNames[project]
        return [
            "id": .string(Directory.repositoryID(project)), "name": .string(name),
            "url": .string("\(base)/\(Directory.projectID(project))/_apis/git/repositories/"
                + Directory.repositoryID(project)),
            "project": self.project(project),
        ]
    }

    func reviewer(_ reviewer: Reviewer, of pull: PullRequest) -> JSONValue {
        var value: JSONValue = [
            "reviewerUrl": .string("\(pullURL(pull))/reviewers/\(Directory.people[reviewer.who].id)"),
            "vote": .int(reviewer.vote), "hasDeclined": false, "isRequired": .bool(reviewer.isRequired),
            "isFlagged": false,
        ]
        if !reviewer.votedFor.isEmpty {
            value["votedFor"] = .array(reviewer.votedFor.map { group in
                self.reviewer(pull.reviewers.first { $0.who == group } ?? Reviewer(who: group), of: pull)
            })
        }
        if case .object(let person) = identity(reviewer.who), case .object(var object) = value {
            object.members += person.members
            value = .object(object)
        }
        return value
    }

    func pullURL(_ pull: PullRequest) -> String {
        "\(base)/\(Directory.projectID(pull.project))/_apis/git/repositories/\(Directory.repositoryID(pull.project))"
            + "/pullRequests/\(pull.id)"
    }

    func commit(_ id: String, project: Int) -> JSONValue {
        ["commitId": .string(id), "url": .string("\(base)/\(Directory.projectID(project))/_apis/git/repositories/"
            + "\(Directory.repositoryID(project))/commits/\(id)")]
    }

    /// A `GitPullRequest`; in lists the description is cut to 400 characters.
    func pullRequest(_ pull: PullRequest, inList: Bool) -> JSONValue {
        var value: JSONValue = [
            "repository": repository(pull.project), "pullRequestId": .int(pull.id), "codeReviewId": .int(pull.id),
            "status": .string(pull.status), "createdBy": identity(pull.author),
            "creationDate": field(.date(pull.created)), "title": .string(pull.title),
            "description": .string(inList ? String(pull.description.prefix(400)) : pull.description),
            "sourceRefName": .string(pull.sourceBranch), "targetRefName": "refs/heads/main",
            "mergeStatus": "succeeded", "isDraft": .bool(pull.isDraft),
            "mergeId": .string(AzureDevOpsState.sha("merge \(pull.id)")),
            "lastMergeSourceCommit": commit(pull.head, project: pull.project),
            "lastMergeTargetCommit": commit(AzureDevOpsState.sha("main \(pull.project)"), project: pull.project),
            "reviewers": .array(pull.reviewers.map { reviewer($0, of: pull) }), "url": .string(pullURL(pull)),
            "supportsIterations": true,
            "artifactId": .string("vstfs:///Git/PullRequestId/\(Directory.projectID(pull.project))%2f"
                + "\(Directory.repositoryID(pull.project))%2f\(pull.id)"),
        ]
        if let closed = pull.closed { value["closedDate"] = field(.date(closed)) }
        if let closedBy = pull.closedBy { value["closedBy"] = identity(closedBy) }
        return value
    }

    func thread(_ thread: PullRequestThread, of pull: PullRequest) -> JSONValue {
        var properties: [(key: String, value: JSONValue)] = []
        if let kind = thread.kind {
            properties.append(("CodeReviewThreadType", ["$type": "System.String", "$value": .string(kind)]))
        } else {
            properties.append(("Microsoft.TeamFoundation.Discussion.SupportsMarkdown",
                ["$type": "System.Int32", "$value": 1]))
        }
        for (name, value) in thread.properties {
            switch value {
            case .string(let text): properties.append((name, ["$type": "System.String", "$value": .string(text)]))
            case .int(let number): properties.append((name, ["$type": "System.Int32", "$value": .int(number)]))
            }
        }
        var value: JSONValue = [
            "pullRequestThreadContext": .null, "id": .int(thread.id), "publishedDate": field(.date(thread.at)),
            "lastUpdatedDate": field(.date(thread.updated)),
            "comments": .array(thread.comments.map { comment in
                [
                    "id": .int(comment.id), "parentCommentId": .int(comment.parent), "author": identity(comment.author),
                    "content": .string(comment.content), "publishedDate": field(.date(comment.at)),
                    "lastUpdatedDate": field(.date(comment.at)), "lastContentUpdatedDate": field(.date(comment.at)),
                    "commentType": comment.system ? "system" : "text", "usersLiked": [],
                    "_links": ["self": ["href": .string("\(pullURL(pull))/threads/\(thread.id)/comments/\(comment.id)")]],
                ]
            }),
            "status": thread.kind == nil ? "active" : "unknown", "threadContext": .null,
            "properties": .object(properties), "identities": .null, "isDeleted": false,
            "_links": ["self": ["href": .string("\(pullURL(pull))/threads/\(thread.id)")]],
        ]
        if !thread.identities.isEmpty {
            value["identities"] = .object(thread.identities.enumerated().map { (String($0.offset + 1), identity($0.element)) })
        }
        return value
    }

    func iteration(_ iteration: Iteration, of pull: PullRequest) -> JSONValue {
        [
            "id": .int(iteration.id), "description": .string(pull.title), "author": identity(iteration.author),
            "createdDate": field(.date(iteration.at)), "updatedDate": field(.date(iteration.at)),
            "sourceRefCommit": ["commitId": .string(iteration.commit)],
            "targetRefCommit": ["commitId": .string(AzureDevOpsState.sha("main \(pull.project)"))],
            "commonRefCommit": ["commitId": .string(AzureDevOpsState.sha("main \(pull.project)"))],
            "hasMoreCommits": false, "reason": .string(iteration.reason),
        ]
    }

    /// Standard base64 of UTF-8 text.
    static func base64(_ text: String) -> String {
        let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
            let n = (Int(chunk[0]) << 16) | (chunk.count > 1 ? Int(chunk[1]) << 8 : 0) | (chunk.count > 2 ? Int(chunk[2]) : 0)
            out += [table[(n >> 18) & 63], table[(n >> 12) & 63]]
            out.append(chunk.count > 1 ? table[(n >> 6) & 63] : UInt8(ascii: "="))
            out.append(chunk.count > 2 ? table[n & 63] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
