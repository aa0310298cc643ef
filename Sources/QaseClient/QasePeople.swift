import TrackwatchCore

/// Who people are in Qase: "me" from the configured e-mail (there is no current-user endpoint, qase-api.md §2),
/// and colleagues' names by author id or UUID, each looked up once per process.
final class QasePeople {
    private let api: QaseAPI
    private let email: String
    private(set) var me: QaseMe?
    /// Names by author id (`"7"`) and by UUID (lower-cased).
    private var names: [String: String] = [:]
    /// The most names kept: a hostile server cannot grow the cache without bound.
    static let nameLimit = 10_000

    init(api: QaseAPI, email: String) {
        self.api = api
        self.email = email.lowercased()
    }

    /// Me, looked up at the first call: the author with my e-mail (searched by it, or, on servers whose search
    /// matches names only, among all people), and the user with it (plan assignees are users).
    func resolveMe() async throws -> QaseMe {
        if let me { return me }
        var authors: [WireAuthor] = try await api.list(
            ["author"], filters: [("search", email), ("type", "user")],
            endpoint: "author search")
        var author = authors.first(where: isMine)
        if author == nil {
            authors = try await api.list(["author"], filters: [("type", "user")], endpoint: "author list")
            author = authors.first(where: isMine)
        }
        guard let author, let authorID = author.id?.value, let uuid = author.uuid?.text, Self.isUUID(uuid) else {
            throw QaseError.noSuchUser(email: email, authorsSearched: authors.count)
        }
        let users: [WireUser] = try await api.list(["user"], endpoint: "user list")
        let user = users.first { $0.email?.text.lowercased() == email }?.id.value ?? author.entityID?.value
        guard let user else { throw QaseError.noSuchUser(email: email, authorsSearched: authors.count) }
        let found = QaseMe(userID: user, authorID: authorID, uuid: uuid, name: author.name?.text ?? email)
        remember(found.name, for: [String(authorID), found.uuid])
        me = found
        return found
    }

    private func isMine(_ author: WireAuthor) -> Bool {
        author.email?.text.lowercased() == email && (author.entityType?.text ?? "user") == "user"
    }

    /// The names of these people (author ids or UUIDs), each asked once (`GET /author/{id}`); someone Qase does
    /// not know is left out, and the change that names them says no name.
    func names(of people: Set<String>) async throws -> [String: String] {
        for person in people.sorted() where names[person] == nil {
            guard Int(person) != nil || Self.isUUID(person) else { continue }
            do {
                let author: WireAuthor = try await api.get(["author", person], endpoint: "author")
                if let name = author.name?.text, !name.isEmpty { remember(name, for: [person]) }
            } catch QaseError.server(status: 404, _, _, _) {
                continue
            }
        }
        return names.filter { people.contains($0.key) }
    }

    private func remember(_ name: String, for keys: [String]) {
        guard names.count < Self.nameLimit else { return }
        for key in keys { names[key] = SafeText.bounded(name, 100) }
    }

    /// `8-4-4-4-12` hexadecimal digits: safe in a path and a filter.
    static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}
