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
