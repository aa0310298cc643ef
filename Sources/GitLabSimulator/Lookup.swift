/// Finding a project, issue or merge request for a caller, with GitLab's answers for what is hidden or forbidden.
extension GitLabState {
    /// The project the path parameter names, if the user may see it (404 `Project Not Found` otherwise); with
    /// `items`, 403 when the user is a member without the right to its issues and merge requests. Writes do not
    /// follow a former path.
    func project(_ id: String, _ view: View, items: Bool = true, write: Bool = false) throws -> Int {
        guard let index = projectIndex(id, followRenames: !write) else { throw GitLabError.projectNotFound }
        switch accessLevel(view.me, project: index) {
        case .none: throw GitLabError.projectNotFound
        case .forbidden where items: throw GitLabError.forbidden
        default: return index
        }
    }

    /// The slot of `kind` `iid` in the project: 404 `Issue Not Found` / `Merge Request Not Found`.
    func slot(_ kind: ItemKind, _ parameters: [String], _ view: View, write: Bool = false) throws -> Int {
        let project = try project(parameters[0], view, write: write)
        guard let iid = Int(parameters[1]), let slot = index[Self.key(kind, project: project, iid: iid)] else {
            throw GitLabError.notFound(kind == .issue ? "Issue" : "Merge Request")
        }
        return slot
    }
}
