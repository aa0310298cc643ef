/// Finding a repository or issue for a caller, with GitHub's answers for what moved, went, or is hidden.
extension GitHubState {
    /// The index of `owner/name` if the token may read it: 301 to `/repositories/{id}/…` for a former name (the
    /// rest of the path kept), else 404.
    func repoIndex(_ owner: String, _ name: String, _ call: Call, _ view: View) throws -> Int {
        let fullName = "\(owner)/\(name)".lowercased()
        if let index = repos.firstIndex(where: { $0.fullName.lowercased() == fullName }) {
            if ssoRefused.contains([view.token.user, index]) { throw GitHubError.ssoRequired }
            guard canRead(view.token, repo: index) else { throw GitHubError.notFound }
            return index
        }
        guard let index = repos.firstIndex(where: { repo in
            repo.formerNames.contains { "\(repo.owner)/\($0)".lowercased() == fullName }
        }), canRead(view.token, repo: index) else { throw GitHubError.notFound }
        let rest = call.segments.dropFirst(3).joined(separator: "/")
        throw Self.moved(to: "\(view.api)/repositories/\(repos[index].id)" + (rest.isEmpty ? "" : "/" + rest))
    }

    /// The slot of issue `number` in a readable repository: 301 to its new place if transferred (`followMoves`),
    /// 410 if deleted, else 404.
    func slot(_ parameters: [String], _ call: Call, _ view: View, followMoves: Bool = true) throws -> Int {
        let repo = try repoIndex(parameters[0], parameters[1], call, view)
        guard let number = Int(parameters[2]) else { throw GitHubError.notFound }
        switch locations[Self.locationKey(repo: repos[repo], number: number)] {
        case .live(let slot):
            return slot
        case .moved(let slot):
            let issue = issues[slot]
            guard followMoves, isLive(slot), canRead(view.token, repo: issue.repo) else { throw GitHubError.notFound }
            throw Self.moved(to: "\(view.api)/repositories/\(repos[issue.repo].id)/issues/\(issue.number)")
        case .deleted:
            throw GitHubError(410, "This issue was deleted", documentation: "https://docs.github.com/rest/issues")
        case nil:
            throw GitHubError.notFound
        }
    }

    /// The slot of pull request `number`: 404 for an issue.
    func pullSlot(_ parameters: [String], _ call: Call, _ view: View) throws -> Int {
        let slot = try slot(parameters, call, view, followMoves: false)
        guard issues[slot].isPull else { throw GitHubError.notFound }
        return slot
    }

    /// 301 with `Location` and `{"message": "Moved Permanently", "url": …}`.
    static func moved(to url: String) -> GitHubError {
        var error = GitHubError(301, "Moved Permanently", documentation: "https://docs.github.com/v3/#http-redirects")
        error.extra = [("url", .string(url))]
        error.headers = [("Location", url)]
        return error
    }
}
