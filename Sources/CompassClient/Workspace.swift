import TrackwatchCore

/// The workspace's two root folders, told apart by what they are. Their names come from the server's
/// resource file (`GetPersonalFolderName`) and may be localized — "Persönliche Abfragen", "Öffentliche
/// Abfragen" — so the English names are only the first of several clues.
struct WorkspaceRoots {
    let all: [WorkspaceItem]
    let personal: WorkspaceItem
    let publicFolder: WorkspaceItem?

    /// Personal Queries is the root named so (in English or one of the known translations), else the one root
    /// the user may write in; Public Queries the other root. A server whose roots cannot be told apart (an
    /// administrator may write in both, under names we do not know) is refused rather than guessed: a wrong
    /// guess would store trackwatch's queries where every user sees them.
    init(_ roots: [WorkspaceItem]) throws {
        all = roots
        let personal =
            Self.named(Self.personalNames, in: roots)
            ?? Self.single(roots.filter { $0.isWritable == true })
        guard let personal else {
            let names = roots.prefix(10).map { "\"\(CompassClient.serverText($0.name).prefix(60))\"" }.joined(
                separator: ", ")
            throw CompassError.invalidResponse(
                endpoint: "workspace folders",
                detail: "cannot tell which root folder is Personal Queries (the server lists "
                    + "\(names.isEmpty ? "none" : names), and none or several are writable)")
        }
        self.personal = personal
        publicFolder = Self.named(Self.publicNames, in: roots) ?? Self.single(roots.filter { $0.dbId != personal.dbId })
    }

    /// The root a `[[watch]]` path starts with: by its name as the server spells it, or by the English name of
    /// its role ("Public Queries" finds "Öffentliche Abfragen").
    func root(named name: String) -> WorkspaceItem? {
        if let exact = all.first(where: { $0.name == name || $0.pathName == name }) { return exact }
        if name == WorkspacePath.personalRoot { return personal }
        if name == WorkspacePath.publicRoot { return publicFolder }
        return nil
    }

    /// The root names the server uses, for messages.
    var names: [String] { all.map { CompassClient.serverText($0.name) } }

    private static func named(_ names: Set<String>, in roots: [WorkspaceItem]) -> WorkspaceItem? {
        single(roots.filter { names.contains($0.name) || $0.pathName.map(names.contains) == true })
    }

    private static func single(_ items: [WorkspaceItem]) -> WorkspaceItem? { items.count == 1 ? items[0] : nil }

    /// "Personal Queries" and its translations in the languages ClearQuest and Compass ship (a clue besides
    /// writability, which decides when the name is not in this list).
    static let personalNames: Set<String> = [
        "Personal Queries", "Persönliche Abfragen", "Requêtes personnelles", "Consultas personales",
        "Query personali", "Consultas pessoais",
    ]
    static let publicNames: Set<String> = [
        "Public Queries", "Öffentliche Abfragen", "Requêtes publiques", "Consultas públicas", "Query pubbliche",
    ]
}

extension CompassClient {
    /// The root folders, read once per client.
    func workspaceRoots() async throws -> WorkspaceRoots {
        if let roots { return roots }
        return try await readWorkspaceRoots()
    }

    /// The root folders as the server lists them now, with their children.
    func readWorkspaceRoots() async throws -> WorkspaceRoots {
        let response = try await send(.folders, method: .get)
        try await expectSuccess(response, .folders)
        let found = try WorkspaceRoots(try decode([WorkspaceItem].self, from: response, .folders))
        if roots == nil, found.personal.name != WorkspacePath.personalRoot {
            logger.info(
                "personal folder found by what it is", metadata: ["folder": "\(Self.serverText(found.personal.name))"])
        }
        roots = found
        return found
    }

    /// The personal root folder's name as the server spells it (for `probe`), once the workspace was read.
    public var personalFolderName: String? { roots.map { Self.serverText($0.personal.name) } }
}
