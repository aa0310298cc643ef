/// Cross-references: a comment or description naming another issue or merge request (`#5`, `!7`,
/// `platform/api#5`) gives that one a `mentioned in …` system note by the writer, as GitLab does.
extension GitLabState {
    mutating func noteMentions(_ text: String, from slot: Int, by user: Int) {
        let source = items[slot]
        var seen: Set<Int> = []
        for (path, kind, iid) in Self.references(in: text) {
            let project = path.map { projectIndex($0, followRenames: false) } ?? source.project
            guard let project, let target = index[Self.key(kind, project: project, iid: iid)], target != slot,
                !seen.contains(target), reads(user, project: project)
            else { continue }
            seen.insert(target)
            let name = source.kind == .issue ? "issue" : "merge request"
            let shown = project == source.project ? source.kind.sigil + String(source.iid) : reference(source)
            addNote("mentioned in \(name) \(shown)", on: target, by: user, system: true)
        }
    }

    /// `(project path or nil, kind, iid)` of each reference in `text`.
    static func references(in text: String) -> [(String?, ItemKind, Int)] {
        let characters = Array(text)
        var found: [(String?, ItemKind, Int)] = []
        for (offset, character) in characters.enumerated() where character == "#" || character == "!" {
            var end = offset + 1
            while end < characters.count, characters[end].isASCII, characters[end].isNumber { end += 1 }
            guard end > offset + 1, let iid = Int(String(characters[offset + 1..<end])) else { continue }
            var start = offset
            while start > 0, characters[start - 1].isLetter || characters[start - 1].isNumber
                || "/_.-".contains(characters[start - 1]) { start -= 1 }
            let path = start < offset ? String(characters[start..<offset]) : nil
            if let path, !path.contains("/") { continue }
            found.append((path, character == "#" ? .issue : .mergeRequest, iid))
        }
        return found
    }
}
