import SourceKit
import TrackwatchCore

/// One `[[json]]` table: a JSON list on some server, its items, what identifies and describes them, and how to
/// read it whole (credentials, paging, limits).
public struct JSONListConfig: Equatable, Sendable {
    /// Unique among all sources; names the state folder (`sources/<name>/`) and the list in changes.
    public var name: String
    public var url: String
    /// Where the list is in the answer; `""`: the answer is the list (an array, or NDJSON).
    public var items = JSONPointer("")!
    /// The field that identifies an item.
    public var key = FieldPath("id")!
    /// The headline; `nil`: the key.
    public var title: Template?
    /// Compared fields; `nil`: every member of the item but the key and `ignore`.
    public var fields: [FieldPath]?
    public var ignore: [FieldPath] = []
    /// The field naming who made a change.
    public var by: FieldPath?
    /// What "Open" opens.
    public var link: Template?
    /// What changes call a field (`field_names`), and its values (`value_names`): `Checked out: no → yes`.
    public var fieldNames: [String: String] = [:]
    public var valueNames: [String: [String: String]] = [:]
    public var rule = WatchRule.changes
    public var credentials = ListCredentials.none
    /// Sent with every request (`headers = { Accept = "…" }`).
    public var headers: [HeaderField] = []
    public var paging = PagingConfig()
    /// The largest answer accepted, after decompression, in bytes (`max_size`).
    public var maxSize = JSONListConfig.defaultMaxSize
    /// Pages read at most in one poll (`max_pages`): a paging that never ends stops here.
    public var maxPages = JSONListConfig.defaultMaxPages
    public var caFile: String?
    public var insecure = false
    public var requestTimeout = 30
    public var proxy = ProxySetting.environment

    public static let defaultMaxSize = 16 * 1_048_576
    /// Entries of `field_names`, of `value_names` and of each field's names in it.
    public static let readableNamesLimit = 200
    /// Characters of one readable name.
    public static let readableNameLimit = 80
    public static let defaultMaxPages = 1_000

    public init(name: String, url: String) {
        self.name = name
        self.url = url
    }

    /// `field` as changes say it: the field's readable name and its values' (`field_names`, `value_names`).
    func readable(_ field: FieldChange) -> FieldChange {
        let values = valueNames[field.field] ?? [:]
        return FieldChange(
            field: fieldNames[field.field] ?? field.field, old: field.old.map { values[$0] ?? $0 },
            new: field.new.map { values[$0] ?? $0 })
    }

    /// How the source reaches the server.
    public var connection: Connection {
        Connection(url: url, caFile: caFile, insecure: insecure, requestTimeout: requestTimeout, proxy: proxy)
    }

    /// The fields a record keeps besides the compared ones: what `title`, `by` and `link` need to describe an item
    /// that has left the list.
    var describingFields: [FieldPath] {
        var fields = (title?.fields ?? []) + (link?.fields ?? [])
        if let by { fields.append(by) }
        return fields.filter { $0 != key }
    }
}

/// A request header a list needs besides the credentials (`headers`).
public struct HeaderField: Equatable, Sendable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// How the list's server is told who asks, at most one way.
public enum ListCredentials: Equatable, Sendable {
    case none
    /// HTTP Basic: `username` with a password (`password_file`, `password_command`, `keyring`, `credential`).
    case basic(username: String, password: CredentialSource)
    /// `Authorization: Bearer <token>`.
    case bearer(CredentialSource)
    /// `<header>: <token>` (`X-API-Key`, `PRIVATE-TOKEN`).
    case header(name: String, token: CredentialSource)

    public var secretSource: CredentialSource? {
        switch self {
        case .none: nil
        case .basic(_, let source), .bearer(let source), .header(_, let source): source
        }
    }

    /// How `doctor` names them.
    public var summary: String {
        switch self {
        case .none: "no credentials"
        case .basic(let username, let source): "HTTP Basic as \(username), \(source.summary)"
        case .bearer(let source): "a bearer token, \(source.summary)"
        case .header(let name, let source): "the header \(name), \(source.summary)"
        }
    }
}

/// How the list is read page by page, besides `Link` headers (always followed).
public struct PagingConfig: Equatable, Sendable {
    /// `next`: where the next page's URL is in the body.
    public var next: JSONPointer?
    /// `cursor` and `cursor_param`: an opaque cursor in the body, passed back as that parameter.
    public var cursor: JSONPointer?
    public var cursorParam: String?
    /// `page_param` (`per_page_param`, `per_page`): numbered pages from 1.
    public var pageParam: String?
    public var perPageParam: String?
    public var perPage: Int?
    /// `offset_param` (`limit_param`, `limit`): items skipped, from 0.
    public var offsetParam: String?
    public var limitParam: String?
    public var limit: Int?
    /// `total`: where the answer states how many items the whole list has.
    public var total: JSONPointer?

    public init() {}

    /// How `doctor` and `probe` name the configured style.
    public var summary: String {
        if let next { return "the next page's URL at \(next.description.isEmpty ? "\"\"" : next.description)" }
        if let cursor, let cursorParam { return "a cursor at \(cursor) passed back as \(cursorParam)" }
        if let pageParam { return "numbered pages (\(pageParam)\(perPageParam.map { ", \($0)" } ?? ""))" }
        if let offsetParam { return "offsets (\(offsetParam)\(limitParam.map { ", \($0)" } ?? ""))" }
        return "Link headers only"
    }
}

extension JSONListConfig: SourceSettings {
    public var sourceName: String { name }
    /// A list is called by its own name: "Cannot reach devices", "3 devices changes".
    public var trackerName: String { name }
    public var label: String { name }
    public var stateFolder: String { "sources/\(name)" }
    public func link(for change: Change) -> String? { change.link }
    /// A change by someone else (`by`) lifts a mute; without `by`, only `unmute_on` in `[notify]` or `unmute` does.
    public var ownerAndStateFields: [String] { by.map { [$0.name] } ?? [] }
    public var assignsRecords: Bool { false }
    public var files: [(key: String, path: String)] {
        var files: [(key: String, path: String)] = []
        switch credentials.secretSource {
        case .passwordFile(let path)?: files.append(("password_file", path))
        case .tokenFile(let path)?: files.append(("token_file", path))
        default: break
        }
        if let caFile { files.append(("ca_file", caFile)) }
        return files
    }
}
