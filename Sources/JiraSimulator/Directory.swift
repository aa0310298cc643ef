#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A person (or the automation app) of the fixture, with every identity Jira gives them in either flavour.
struct Person: Sendable, Equatable {
    let handle: String
    let displayName: String
    /// Cloud's `accountType`: `atlassian` for people, `app` for the automation app.
    let accountType: String
    /// Data Center's stable user key (`JIRAUSER10001`); `name` there is the handle.
    let key: String

    var accountId: String { "acc-\(handle)" }
    var email: String { "\(handle)@example.com" }
    /// The e-mail a Cloud API token is sent with: Atlassian's connect address for the app.
    var cloudLogin: String { accountType == "app" ? "\(handle)@connect.atlassian.com" : email }
    var apiToken: String { "jira-sim-\(handle)-token" }
    var pat: String { "jira-sim-\(handle)-pat" }
    var password: String { "\(handle)-password" }
}

/// The fixture's people (docs/jira-sim.md, "People and tokens"); an index into `people` stands for a person.
enum Directory {
    static let people: [Person] = [
        Person(handle: "engineer", displayName: "Eve Engineer", accountType: "atlassian", key: "JIRAUSER10001"),
        Person(handle: "alice", displayName: "Alice Example", accountType: "atlassian", key: "JIRAUSER10002"),
        Person(handle: "lead", displayName: "Lena Lead", accountType: "atlassian", key: "JIRAUSER10003"),
        Person(handle: "automation", displayName: "Automation for Jira", accountType: "app", key: "JIRAUSER10004"),
    ]
    static let engineer = 0, alice = 1, lead = 2, automation = 3

    /// The index of the person with this handle, or nil.
    static func person(handle: String) -> Int? { people.firstIndex { $0.handle == handle } }

    /// The person a JQL value or a write body names: Cloud by accountId or e-mail, Data Center by name, key or
    /// e-mail (Cloud refuses user names in JQL "due to privacy reasons").
    static func person(named value: String, flavor: JiraSimulatorOptions.Flavor) -> Int? {
        let lower = value.lowercased()
        return people.firstIndex { person in
            switch flavor {
            case .cloud: return person.accountId == value || person.email == lower
            case .dc: return person.handle == lower || person.key == value || person.email == lower
            }
        }
    }

    /// The person the `Authorization` header names, or nil for none, a wrong one, or one of the wrong kind for
    /// the flavour (Cloud: Basic e-mail:API token; Data Center: Bearer PAT, or Basic name:password).
    static func authenticate(_ header: String?, flavor: JiraSimulatorOptions.Flavor) -> Int? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        switch (parts[0].lowercased(), flavor) {
        case ("bearer", .dc):
            return people.firstIndex { $0.pat == parts[1] }
        case ("basic", _):
            guard let data = Data(base64Encoded: parts[1]),
                let pair = String(data: data, encoding: .utf8)?.split(separator: ":", maxSplits: 1).map(String.init),
                pair.count == 2
            else { return nil }
            return people.firstIndex { person in
                flavor == .cloud
                    ? person.cloudLogin == pair[0] && person.apiToken == pair[1]
                    : person.handle == pair[0] && person.password == pair[1]
            }
        default:
            return nil
        }
    }
}
