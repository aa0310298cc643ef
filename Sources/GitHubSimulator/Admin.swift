import SimulatorKit

/// What the control routes change: commits pushed, issues transferred or deleted, access, repository names.
extension GitHubState {
    struct IssueRequest: Decodable {
        var repo: String
        var number: Int
    }

    struct PushRequest: Decodable {
        var repo: String
        var number: Int
        var author: String
        var message: String?
    }

    struct TransferRequest: Decodable {
        var repo: String
        var number: Int
        var to: String
        var `as`: String?
    }

    struct AccessRequest: Decodable {
        var handle: String
        var repo: String
        var allowed: Bool
        /// Refused as an organization enforcing SAML SSO refuses a token not authorised for it: 403, not 404.
        var sso: Bool?
    }

    struct RenameRequest: Decodable {
        var repo: String
        var to: String
    }

    /// The live slot of `repo#number` (current repository name), or 400.
    private func liveSlot(_ repo: String, _ number: Int) throws -> Int {
        let index = try repoNamed(repo)
        guard case .live(let slot) = locations[Self.locationKey(repo: repos[index], number: number)] else {
            throw GitHubError(400, "No live issue \(repo)#\(number)")
        }
        return slot
    }

    private func repoNamed(_ name: String) throws -> Int {
        guard let index = repos.firstIndex(where: { $0.fullName.lowercased() == name.lowercased() }) else {
            throw GitHubError(400, "No repository \(name)")
        }
        return index
    }

    private func account(_ login: String) throws -> Int {
        guard let index = Directory.account(login: login) else { throw GitHubError(400, "No account \(login)") }
        return index
    }

    /// A commit on a pull request's branch: a `committed` timeline item with a new sha, authored by `author`.
    mutating func push(_ request: PushRequest) throws -> JSONValue {
        let slot = try liveSlot(request.repo, request.number), author = try account(request.author)
        guard issues[slot].isPull, issues[slot].isOpen else { throw GitHubError(400, "Not an open pull request") }
        let sha = GitHubState.sha("push \(issues[slot].id) \(nextEventID)")
        record(.committed(sha: sha, message: request.message ?? "Update \(issues[slot].title)"), on: slot, by: author)
        issues[slot].headSHA = sha
        return ["ok": true, "sha": .string(sha)]
    }

    /// A rebase force-pushed by `author`: each commit of the pull request gets a new sha and keeps its date (git's
    /// committer date of a rebase is when it was made, before the push), and a `head_ref_force_pushed` event dated now
    /// says who pushed. What a client learns only from that event.
    mutating func forcePush(_ request: PushRequest) throws -> JSONValue {
        let slot = try liveSlot(request.repo, request.number), author = try account(request.author)
        guard issues[slot].isPull, issues[slot].isOpen else { throw GitHubError(400, "Not an open pull request") }
        var rebased = 0
        for (index, event) in issues[slot].timeline.enumerated() {
            guard case .committed(let sha, let message) = event.kind else { continue }
            let newSHA = GitHubState.sha("rebase \(sha) \(nextEventID)")
            let commit = EventKind.committed(sha: newSHA, message: message)
            issues[slot].timeline[index] = Event(id: event.id, kind: commit, actor: event.actor, created: event.created)
            issues[slot].headSHA = newSHA
            rebased += 1
        }
        guard rebased > 0 else { throw GitHubError(400, "No commits to rebase: push one first") }
        record(.headRefForcePushed, on: slot, by: author)
        return ["ok": true, "sha": .string(issues[slot].headSHA)]
    }

    /// Moves an issue to another repository: a new number there, the same id; the old place answers 301 and its
    /// timeline 404; a `transferred` event by `as` (default lead).
    mutating func transfer(_ request: TransferRequest) throws -> JSONValue {
        let slot = try liveSlot(request.repo, request.number), target = try repoNamed(request.to)
        let actor = try account(request.as ?? "lead")
        let issue = issues[slot]
        guard !issue.isPull, target != issue.repo else { throw GitHubError(400, "Cannot transfer there") }
        let from = repos[issue.repo].fullName
        locations[Self.locationKey(repo: repos[issue.repo], number: issue.number)] = .moved(slot)
        issues[slot].repo = target
        issues[slot].number = repos[target].nextNumber
        repos[target].nextNumber += 1
        locations[Self.locationKey(repo: repos[target], number: issues[slot].number)] = .live(slot)
        record(.transferred(from: from), on: slot, by: actor)
        return ["ok": true, "repo": .string(repos[target].fullName), "number": .int(issues[slot].number)]
    }

    /// Deletes an issue: 410 from then on, gone from lists and searches.
    mutating func delete(_ request: IssueRequest) throws -> JSONValue {
        let slot = try liveSlot(request.repo, request.number)
        locations[Self.locationKey(repo: repos[issues[slot].repo], number: issues[slot].number)] = .deleted
        return ["ok": true, "id": .int(issues[slot].id)]
    }

    /// Lets an account read a repository or not (404 and missing from lists and searches).
    mutating func access(_ request: AccessRequest) throws -> JSONValue {
        let person = try account(request.handle), repo = try repoNamed(request.repo)
        if request.allowed { hidden.remove([person, repo]) } else { hidden.insert([person, repo]) }
        if request.allowed || request.sso != true { ssoRefused.remove([person, repo]) } else { ssoRefused.insert([person, repo]) }
        return ["ok": true]
    }

    /// Renames a repository (`to` is the new name, with or without the owner): the old name redirects (301).
    mutating func renameRepo(_ request: RenameRequest) throws -> JSONValue {
        let repo = try repoNamed(request.repo)
        let name = request.to.split(separator: "/").last.map(String.init) ?? request.to
        guard !name.isEmpty, !repos.contains(where: { $0.name.lowercased() == name.lowercased() }) else {
            throw GitHubError(400, "Name \(request.to) is taken or empty")
        }
        repos[repo].formerNames.append(repos[repo].name)
        repos[repo].name = name
        return ["ok": true, "full_name": .string(repos[repo].fullName)]
    }
}
