#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A GitHub account of the fixture: a person (`User`) or an app's bot account (`Bot`).
struct Account: Sendable, Equatable {
    let login: String
    let id: Int
    let name: String
    let type: String

    /// GitHub's legacy global node id (`MDQ6VXNlcjEwMDE=` is base64 of `04:User1001`).
    var nodeID: String { NodeID.make(type == "Bot" ? "03:Bot" : "04:User", id) }
    var email: String { type == "Bot" ? "\(id)+\(login)@users.noreply.github.com" : "\(login)@example.com" }
}

/// A team of the `acme` organization; review requests can name it.
struct Team: Sendable {
    let id: Int
    let name: String
    let slug: String
    let members: [Int]
}

/// What a token is: whose, classic or fine-grained, and (classic only) its scopes.
struct Token: Sendable {
    let text: String
    let user: Int
    let fineGrained: Bool
    let scopes: [String]

    /// Private repositories need the `repo` scope on a classic token; fine-grained tokens here may read every
    /// repository of the fixture.
    var readsPrivate: Bool { fineGrained || scopes.contains("repo") }
}

/// The fixture's accounts, tokens and team (docs/github-sim.md, "Accounts and tokens"); an index into `accounts`
/// stands for an account.
enum Directory {
    static let accounts: [Account] = [
        Account(login: "engineer", id: 1001, name: "Eve Engineer", type: "User"),
        Account(login: "alice", id: 1002, name: "Alice Example", type: "User"),
        Account(login: "lead", id: 1003, name: "Lena Lead", type: "User"),
        Account(login: "dependabot[bot]", id: 49_699_333, name: "dependabot[bot]", type: "Bot"),
    ]
    static let engineer = 0, alice = 1, lead = 2, dependabot = 3

    static let teams = [Team(id: 5001, name: "Reviewers", slug: "reviewers", members: [engineer, alice])]
    static let organization = (login: "acme", id: 9001)

    static let tokens: [Token] =
        accounts.indices.map { Token(text: "ghp_sim_\(accounts[$0].login)", user: $0, fineGrained: false,
            scopes: ["repo", "read:org"]) }
        + [
            Token(text: "github_pat_sim_engineer", user: engineer, fineGrained: true, scopes: []),
            Token(text: "ghp_sim_engineer_noscope", user: engineer, fineGrained: false, scopes: ["read:user"]),
        ]

    /// The index of the account with this login (case-insensitive), or nil.
    static func account(login: String) -> Int? { accounts.firstIndex { $0.login.lowercased() == login.lowercased() } }

    /// The team `acme/slug` or `slug`, or nil.
    static func team(slug: String) -> Int? {
        let bare = slug.lowercased().hasPrefix("acme/") ? String(slug.dropFirst(5)) : slug
        return teams.firstIndex { $0.slug == bare.lowercased() }
    }

    /// The token an `Authorization` header carries (`Bearer T` or `token T`), or nil.
    static func token(fromHeader header: String?) -> Token? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, ["bearer", "token"].contains(parts[0].lowercased()) else { return nil }
        return tokens.first { $0.text == parts[1].trimmed }
    }
}

/// GitHub's legacy global node ids: base64 of `NN:TypeID`.
enum NodeID {
    static func make(_ prefix: String, _ id: Int) -> String { Data("\(prefix)\(id)".utf8).base64EncodedString() }
}
