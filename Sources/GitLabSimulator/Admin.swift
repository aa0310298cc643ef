import SimulatorKit

/// What the control routes change: commits pushed, access, project paths.
extension GitLabState {
    struct PushRequest: Decodable {
        var project: String
        var iid: Int
        /// The commit's author (any name; a fixture username gives that user's name and e-mail).
        var author: String
        var message: String?
        /// Who pushes (the system note's author); default the author when a fixture user, else engineer.
        var pusher: String?
    }

    struct AccessRequest: Decodable {
        var username: String
        var project: String
        var level: AccessLevel
    }

    struct RenameRequest: Decodable {
        var project: String
        var to: String
    }

    private func projectNamed(_ name: String) throws -> Int {
        guard let index = projectIndex(name, followRenames: false) else {
            throw GitLabError(400, "No project \(name)")
        }
        return index
    }

    private func user(_ username: String) throws -> Int {
        guard let index = Directory.user(named: username) else { throw GitLabError(400, "No user \(username)") }
        return index
    }

    /// A commit on an open merge request's branch, and the `added 1 commit` system note by the pusher.
    mutating func push(_ request: PushRequest) throws -> JSONValue {
        let project = try projectNamed(request.project)
        guard let slot = index[Self.key(.mergeRequest, project: project, iid: request.iid)], items[slot].isOpen else {
            throw GitLabError(400, "No open merge request \(request.project)!\(request.iid)")
        }
        let author = Directory.user(named: request.author)
        let pusher = try request.pusher.map(user) ?? author ?? Directory.engineer
        let person = author.map { Directory.users[$0] }
        let title = request.message ?? "Update \(items[slot].title)"
        let sha = Self.sha("push \(items[slot].id) \(nextNoteID)")
        items[slot].commits.append(Commit(sha: sha, title: title, authorName: person?.name ?? request.author,
            authorEmail: person?.email ?? "\(request.author)@example.com", created: now))
        let compare = "\(projects[project].fullPath)/-/merge_requests/\(request.iid)/diffs"
        addNote("added 1 commit\n\n<ul><li>\(sha.prefix(8)) - \(title)</li></ul>\n\n[Compare with previous version]("
            + "/\(compare)?start_sha=\(items[slot].commits.dropLast().last?.sha ?? sha))", on: slot, by: pusher,
            system: true)
        return ["ok": true, "sha": .string(sha)]
    }

    /// Sets a user's access to a project: `none` (404, left out of lists), `forbidden` (403 on its issues and
    /// merge requests, left out of lists), `member`.
    mutating func setAccess(_ request: AccessRequest) throws -> JSONValue {
        let person = try user(request.username), project = try projectNamed(request.project)
        access["\(person) \(project)"] = request.level
        return ["ok": true]
    }

    /// Changes a project's path (`to`, with or without `platform/`); the id stays, reads by the old path still
    /// find it.
    mutating func renameProject(_ request: RenameRequest) throws -> JSONValue {
        let project = try projectNamed(request.project)
        let path = request.to.split(separator: "/").last.map(String.init) ?? request.to
        guard !path.isEmpty, !projects.contains(where: { $0.path.lowercased() == path.lowercased() }) else {
            throw GitLabError(400, "Path \(request.to) is taken or empty")
        }
        projects[project].formerPaths.append(projects[project].path)
        projects[project].path = path
        return ["ok": true, "path_with_namespace": .string(projects[project].fullPath)]
    }
}
