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

        /// The user of HTTP Basic: the e-mail or the user name; none with a personal access token.
        var user: String {
            switch self {
            case .apiToken(let user), .password(let user): user
            case .personalToken: ""
            }
        }
        var isPassword: Bool { if case .password = self { true } else { false } }
        /// What the secret is called in `doctor` and in errors, and where one is made.
        var secret: (name: String, whereToMakeOne: String) {
            switch self {
            case .apiToken: ("API token", "make one at https://id.atlassian.com/manage-profile/security/api-tokens")
            case .personalToken: ("personal access token", "make one in Jira: your profile, Personal Access Tokens")
            case .password: ("password", "your Jira password")
            }
        }
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

/// A project key: an ASCII letter, then letters, digits or `_`; at most 40.
public enum JiraProjectKey {
    public static func isValid(_ key: String) -> Bool {
        let letter = { (byte: UInt8) in (0x61...0x7A).contains(byte | 0x20) }  // `| 0x20`: A-Z as a-z
        return (1...40).contains(key.utf8.count) && key.utf8.first.map(letter) == true
            && key.utf8.allSatisfy { letter($0) || (0x30...0x39).contains($0) || $0 == 0x5F }
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
        // `https://acme.atlassian.net` or `https://jira.example.com/jira`: a host, maybe a context path, nothing else.
        let url = try trackerURL(
            table, "jira",
            expected: "your Jira site or server, such as https://yourcompany.atlassian.net or "
                + "https://jira.example.com/jira",
            missing: "missing; add url = \"https://yourcompany.atlassian.net\" under [jira]", line: line,
            apiPath: "/rest/api",
            withoutAPI: "give the site or server without /rest/api/… (trackwatch picks the API version), e.g. "
                + "https://yourcompany.atlassian.net")
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
        let usesPassword = signIn.isPassword
        let wrong = usesPassword ? ["token_file", "token_command"] : JiraSourceKind.passwordKeys
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
            keys: usesPassword ? JiraSourceKind.passwordKeys + ["credential", "keyring"] : TrackerAccount.tokenKeys,
            url: url, user: signIn.user, line: line, missingKey: usesPassword ? "password_file" : "token_file",
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

    /// `projects = ["WEB", "OPS"]`: project keys as Jira shows them, upper-cased, each once.
    private func jiraProjects(_ table: TOMLTable) throws(ConfigError) -> [String]? {
        guard let keys = try stringArray(table, "jira", "projects") else { return nil }
        let bad = keys.first { !JiraProjectKey.isValid($0) }
        if keys.isEmpty || bad != nil {
            throw error(
                table["projects"], "jira.projects",
                bad.map { "expected project keys as Jira shows them (WEB), found \"\($0.prefix(40))\"" }
                    ?? "expected project keys such as [\"WEB\"]; leave projects out to watch every project")
        }
        var upper: [String] = []
        for key in keys.map({ $0.uppercased() }) where !upper.contains(key) { upper.append(key) }
        return upper
    }
}
