import SourceKit
import TrackwatchCore

// Jira's answers as trackwatch reads them (shared/trackers-api.md §2.3–2.4). Every member is optional or tolerant
// where servers differ: ids as strings or numbers, timestamps with or without milliseconds or as epoch numbers,
// bodies as plain text (API v2, Data Center) or Atlassian Document Format (API v3, Cloud).

struct JiraServerInfo: Decodable {
    var deploymentType, version: String?
}

/// A person or an app. Cloud names people by `accountId` (`name` and `key` are gone for privacy); Data Center by
/// `key` (stable) and `name` (the login, which can be renamed).
struct JiraUser: Decodable, Equatable {
    var accountId, accountType, key, name, displayName: String?

    /// The stable id: the account id on Cloud, the user key on Data Center.
    var id: String? { accountId ?? key ?? name }

    var actor: Actor? {
        guard let id else { return nil }
        let display = displayName.map { SafeText.oneLine($0, limit: 120) }
        return Actor(id: id, name: display ?? id, login: name, isApp: accountType == "app")
    }
}

struct JiraSearchPage: Decodable {
    /// An issue that cannot be read (an id that is no number) is left out and counted.
    var issues: LossyList<JiraIssue>
    /// Cloud (`search/jql`): absent on the last page.
    var nextPageToken: String?
    var isLast: Bool?
    /// Data Center (`search`): offset paging with a total.
    var total: Int?
}

struct JiraIssue: Decodable {
    var id: JiraID
    var key: String
    var fields: JiraIssueFields?
    var changelog: JiraChangelogPage?
}

struct JiraIssueFields: Decodable {
    struct Named: Decodable { var name: String? }
    struct Project: Decodable { var key: String? }
    struct Watches: Decodable { var isWatching: Bool? }

    var summary: String?
    var status, priority, issuetype: Named?
    var assignee, reporter, creator: JiraUser?
    var labels: FirstValues<String>?
    var fixVersions: FirstValues<Named>?
    var created, updated: JiraTime?
    var project: Project?
    var watches: Watches?
    var comment: JiraCommentPage?
}

// Histories and comments are read as the search reads issues (`LossyList`): one that cannot be read is left out and
// named, never the issue's whole log. A change it made is still told, without a name, from the issue's fields.
struct JiraChangelogPage: Decodable {
    var total: Int?
    var histories: LossyList<JiraHistory>?
    /// `GET /issue/{id}/changelog` names them `values`.
    var values: LossyList<JiraHistory>?
    var isLast: Bool?

    /// The histories under either name.
    var entries: LossyList<JiraHistory> { histories ?? values ?? LossyList() }
}

struct JiraHistory: Decodable {
    struct Item: Decodable { var field, fromString, toString: String? }

    var id: JiraID
    var author: JiraUser?
    var created: JiraTime?
    var items: LossyList<Item>?
}

struct JiraBulkChangelog: Decodable {
    struct IssueLog: Decodable {
        var issueId: JiraID
        var changeHistories: LossyList<JiraHistory>?
    }

    var issueChangeLogs: LossyList<IssueLog>?
    var nextPageToken: String?
}

struct JiraCommentPage: Decodable {
    var comments: LossyList<JiraComment>?
    var total: Int?
}

struct JiraComment: Decodable {
    var id: JiraID
    var author: JiraUser?
    var body: JiraText?
    var created: JiraTime?
}

struct JiraErrorBody: Decodable {
    var errorMessages: [String]?
    var errors: [String: String]?
    var message: String?

    /// The messages, one line, bounded.
    var text: String {
        let all = (errorMessages ?? []) + (errors ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
            + [message].compactMap { $0 }
        return SafeText.oneLine(all.joined(separator: "; "), limit: 300)
    }
}

/// An id that Jira sends as a string (`"10001"`) and some servers as a number: kept only when it is digits.
struct JiraID: Decodable, Hashable {
    let value: String

    init(_ value: String) { self.value = value }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self), number >= 0 {
            value = String(number)
        } else {
            let text = try container.decode(String.self)
            guard !text.isEmpty, text.utf8.count <= 20, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "an id that is not a number")
            }
            value = text
        }
    }
}

/// A timestamp as Jira prints it (`2026-01-17T12:34:00.000+0000`, or without milliseconds) or as epoch seconds
/// or milliseconds (the bulk changelog's example); anything else is `nil`, never a failed read.
struct JiraTime: Decodable {
    let timestamp: Timestamp?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            timestamp = Self.epoch(number)
        } else {
            let text = (try? container.decode(String.self)).flatMap { $0.utf8.count <= 64 ? $0 : nil }
            timestamp = text.flatMap { Timestamp.parse($0)?.timestamp }
        }
    }

    /// Seconds or milliseconds since 1970, bounded before any conversion. The milliseconds are kept, in the form
    /// `Timestamp.parse` gives Jira's text (`.123`, trailing zeros dropped): cut to the second, a colleague's change
    /// in the same second as one already read was taken as seen.
    static func epoch(_ number: Double) -> Timestamp? {
        guard number.isFinite, number >= 0, number < 1e15 else { return nil }
        let milliseconds = Int((number >= 1e11 ? number : number * 1000).rounded())
        let whole = Timestamp(secondsSinceEpoch: milliseconds / 1000)
        guard milliseconds % 1000 > 0 else { return whole }
        var digits = String(String(1000 + milliseconds % 1000).dropFirst())  // `050`
        while digits.hasSuffix("0") { digits.removeLast() }
        return Timestamp(whole.rawValue + "." + digits)
    }
}

/// A description or comment body: plain text (API v2) or an Atlassian Document Format tree (API v3), read as text.
struct JiraText: Decodable {
    let text: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        text = (try? container.decode(String.self)) ?? (try? container.decode(ADFNode.self))?.firstLine() ?? ""
    }

    /// The first line that says something, one line, bounded.
    var firstLine: String { SafeText.firstLine(text, limit: 200) }
}

/// An ADF node: `{"type": "paragraph", "content": [{"type": "text", "text": "…"}]}`.
struct ADFNode: Decodable {
    var type: String?
    var text: String?
    var content: [ADFNode]?

    /// Bytes of inline text joined for a first line: more than `SafeText.firstLine` reads of it.
    static let longestLine = 65_536

    /// The text of the first block that has any, its inline nodes joined (mentions and emoji by their text).
    func firstLine(depth: Int = 0) -> String {
        guard depth < 32 else { return "" }
        if let text { return text }
        guard let content else { return "" }
        if content.contains(where: { $0.text != nil }) {
            // Only what a first line can show is joined (SafeText.firstLine reads no further), not a huge paragraph.
            var line = ""
            for node in content where line.utf8.count < Self.longestLine { line += node.text ?? "" }
            return line
        }
        for node in content {
            let line = node.firstLine(depth: depth + 1)
            if !line.allSatisfy(\.isWhitespace) { return line }
        }
        return ""
    }
}
