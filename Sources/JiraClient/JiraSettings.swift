import SourceKit
import TrackwatchCore

// Jira's configuration: one `[[jira]]` table per Jira site (Cloud) or server (Data Center), each a source of its
// own with its own credentials and its own state folder.

/// One `[[jira]]` table.
public struct JiraSettings: TrackerSettings {
    /// How trackwatch signs in: the flavour is asked of the server (`serverInfo`), never guessed from the host.
    public enum SignIn: Equatable, Sendable {
        /// `email` + an API token, as HTTP Basic (Jira Cloud).
        case apiToken(email: String)
        /// A personal access token as `Authorization: Bearer` (Jira Data Center 8.14+).
        case personalToken
        /// `username` + a password, as HTTP Basic (Data Center).
        case password(username: String)
    }

    public static let table = "jira"
    /// `url`: the site (`https://acme.atlassian.net`) or the server with its context path
    /// (`https://jira.example.com/jira`), without a trailing slash. Default name `jira`.
    public var account: TrackerAccount
    public var signIn: SignIn
    /// JQL that narrows what is watched, ANDed with "mine"; `nil`: everything assigned to me, reported by me or
    /// watched by me.
    public var jql: String?
    /// Project keys to watch, upper-cased; `nil`: every project. A project the account cannot see is named and left
    /// out; the others are watched.
    public var projects: [String]?
    public var ignoreApps = false
    /// Account ids, user names or display names whose changes are silent.
    public var ignoreUsers: [String] = []

    public static let defaultName = "jira"

    /// The other keys as when left out; the reader sets them.
    public init(account: TrackerAccount, signIn: SignIn) {
        self.account = account
        self.signIn = signIn
    }

    public var trackerName: String { "Jira" }
    /// An issue's page in Jira's web UI: `<url>/browse/WEB-42` on both flavours.
    public func link(for change: Change) -> String? {
        if let link = change.link { return link }
        return JiraIssueKey.isValid(change.record.rawValue) ? "\(url)/browse/\(change.record.rawValue)" : nil
    }
    /// A mute lifts when an issue's status or assignee changes.
    public var ownerAndStateFields: [String] { [JiraFields.status, JiraFields.assignee] }
}

/// An issue key as Jira makes them: a project key (a letter, then letters, digits or `_`), `-`, a number. Keys
/// from the server are checked before they name a record, a link or a mute.
public enum JiraIssueKey {
    public static func isValid(_ key: String) -> Bool {
        guard key.utf8.count <= 64, let dash = key.lastIndex(of: "-") else { return false }
        let project = key[..<dash], number = key[key.index(after: dash)...]
        return JiraProjectKey.isValid(String(project)) && !number.isEmpty && number.count <= 12
            && number.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
}

public enum JiraProjectKey {
    public static func isValid(_ key: String) -> Bool {
        guard let first = key.utf8.first, (1...40).contains(key.utf8.count), (0x41...0x5A).contains(first) || (0x61...0x7A).contains(first)
        else { return false }
        return key.utf8.allSatisfy {
            (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x5F
        }
    }
}

/// `[[jira]]` tables.
public struct JiraSourceKind: TrackerSourceKind {
    public init() {}

    static let passwordKeys = ["password_file", "password_command"]

    public var tables: [String: [String]] {
        [
            "jira": ["name", "url", "email", "username"] + TrackerAccount.tokenKeys + Self.passwordKeys + ownKeys
                + TrackerAccount.connectionKeys
        ]
    }
    public var ownKeys: [String] { ["jql", "projects", "ignore_apps", "ignore_users"] }
    public var advice: String { "a [[jira]] table with url, email and token_file" }

    public func read(_ table: TOMLTable, line: Int?, reader: ConfigReader) throws(ConfigError) -> JiraSettings {
        try reader.jira(table, line: line)
    }
}

extension ConfigReader {
    /// One `[[jira]]` table; `line` is its header's, named when a key is missing.
    func jira(_ table: TOMLTable, line: Int?) throws(ConfigError) -> JiraSettings {
        let name = try sourceName(table, "jira", default: JiraSettings.defaultName, line: line)
        let url = try jiraURL(table, line: line)
        let signIn = try jiraSignIn(table)
        let credential = try jiraCredential(table, url: url, signIn: signIn, line: line)
        var settings = JiraSettings(
            account: try account(table, "jira", name: name, url: url, credential: credential), signIn: signIn)
        settings.jql = try jql(table)
        settings.projects = try jiraProjects(table)
        settings.ignoreApps = try boolean(table, "jira", "ignore_apps") ?? false
        settings.ignoreUsers = try stringArray(table, "jira", "ignore_users") ?? []
        return settings
    }

    /// `https://acme.atlassian.net` or `https://jira.example.com/jira`: a host, maybe a context path, nothing else.
    private func jiraURL(_ table: TOMLTable, line: Int?) throws(ConfigError) -> String {
        guard
            let url = try serverURL(
                table, "jira", "url",
                expected: "your Jira site or server, such as https://yourcompany.atlassian.net or "
                    + "https://jira.example.com/jira")
        else {
            return try requiredString(table, "jira", "url", example: "https://yourcompany.atlassian.net", line: line)
        }
        if url.lowercased().contains("/rest/api") {
            throw error(
                table["url"], "jira.url",
                "give the site or server without /rest/api/… (trackwatch picks the API version), e.g. "
                    + "https://yourcompany.atlassian.net")
        }
        return url
    }

    private func jiraSignIn(_ table: TOMLTable) throws(ConfigError) -> JiraSettings.SignIn {
        let email = try string(table, "jira", "email"), username = try string(table, "jira", "username")
        if email != nil, username != nil {
            throw error(
                table["username"], "jira.username",
                "set email (Jira Cloud: e-mail and API token) or username (Data Center: user name and password), "
                    + "not both")
        }
        if let email {
            guard email.contains("@"), email.count <= 254, !email.contains(where: { $0.isWhitespace }) else {
                throw error(
                    table["email"], "jira.email",
                    "expected the e-mail address of your Atlassian account, found \"\(email.prefix(60))\"")
            }
            return .apiToken(email: email)
        }
        if let username {
            guard !username.isEmpty, username.count <= 255, !username.contains(":"),
                username.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
            else {
                throw error(table["username"], "jira.username", "expected your Jira user name (no colon)")
            }
            return .password(username: username)
        }
        return .personalToken
    }

    private func jiraCredential(
        _ table: TOMLTable, url: String, signIn: JiraSettings.SignIn, line: Int?
    ) throws(ConfigError) -> CredentialSource {
        let user: String
        switch signIn {
        case .apiToken(let email): user = email
        case .password(let username): user = username
        case .personalToken: user = ""
        }
        let usesPassword: Bool = if case .password = signIn { true } else { false }
        let wrong = usesPassword ? TrackerAccount.tokenKeys.filter { $0 != "keyring" && $0 != "credential" }
            : JiraSourceKind.passwordKeys
        if let key = wrong.first(where: { table[$0] != nil }) {
            throw error(
                table[key], "jira.\(key)",
                usesPassword
                    ? "with username, give the password in password_file (or password_command, credential, keyring)"
                    : "a password goes with username (Data Center); with a token use token_file (or token_command, "
                        + "credential, keyring)")
        }
        return try requiredCredential(
            table, "jira",
            keys: usesPassword ? JiraSourceKind.passwordKeys + ["credential", "keyring"] : TrackerAccount.tokenKeys, url: url, user: user, line: line, missingKey: usesPassword ? "password_file" : "token_file",
            missing: usesPassword
                ? "missing; add password_file = \"~/.config/trackwatch/jira-password\", or password_command, "
                    + "credential or keyring = true"
                : Self.missingToken(
                    "jira", "Cloud: an API token from id.atlassian.com; Data Center: a personal access token from your "
                        + "profile"))
    }

    /// JQL that narrows the watch: one line, bounded, without `ORDER BY` (trackwatch orders its own queries).
    private func jql(_ table: TOMLTable) throws(ConfigError) -> String? {
        guard let jql = try string(table, "jira", "jql") else { return nil }
        let trimmed = String(jql.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        guard !trimmed.isEmpty else { return nil }
        guard trimmed.count <= 2_000, !trimmed.contains(where: { $0.isNewline }) else {
            throw error(table["jql"], "jira.jql", "expected one line of JQL of at most 2,000 characters")
        }
        if trimmed.lowercased().split(separator: " ").contains("order") {
            throw error(
                table["jql"], "jira.jql",
                "leave ORDER BY out: the jql only narrows what is watched (it is ANDed with your issues)")
        }
        return trimmed
    }

    /// `projects = ["WEB", "OPS"]`: project keys as Jira shows them.
    private func jiraProjects(_ table: TOMLTable) throws(ConfigError) -> [String]? {
        guard let keys = try stringArray(table, "jira", "projects") else { return nil }
        guard !keys.isEmpty else {
            throw error(
                table["projects"], "jira.projects",
                "expected project keys such as [\"WEB\"]; leave projects out to watch every project")
        }
        var upper: [String] = []
        for key in keys {
            guard JiraProjectKey.isValid(key) else {
                throw error(
                    table["projects"], "jira.projects",
                    "expected project keys as Jira shows them (WEB), found \"\(key.prefix(40))\"")
            }
            if !upper.contains(key.uppercased()) { upper.append(key.uppercased()) }
        }
        return upper
    }
}
