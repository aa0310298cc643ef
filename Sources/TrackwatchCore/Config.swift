/// trackwatch's configuration, as read from `config.toml`. Parsing lives in `ConfigParser.swift`.
public struct Config: Sendable {
    /// Every configured source, in the file's order: each kind's tables (`SourceKind`); never empty.
    public var sources: [any SourceSettings]
    public var poll: PollConfig
    public var notify: NotifyConfig
    public var log: LogConfig

    public init(sources: [any SourceSettings], poll: PollConfig = PollConfig(), notify: NotifyConfig = NotifyConfig(),
                log: LogConfig = LogConfig()) {
        precondition(!sources.isEmpty, "a configuration has at least one source")
        self.sources = sources
        self.poll = poll
        self.notify = notify
        self.log = log
    }

    /// The source named `name`.
    public func source(named name: String) -> (any SourceSettings)? { sources.first { $0.sourceName == name } }
}

extension Config: Equatable {
    public static func == (lhs: Config, rhs: Config) -> Bool {
        lhs.poll == rhs.poll && lhs.notify == rhs.notify && lhs.log == rhs.log && lhs.sources.count == rhs.sources.count
            && zip(lhs.sources, rhs.sources).allSatisfy { $0.isEqual(to: $1) }
    }
}

/// One source as configured: a table of one kind of source (`SourceKind`), each defined by its source module.
/// Everything after a poll (the outbox, delivery, bubbles, the journal, the page of recent changes, `log`,
/// `mute`, `status`) knows a source only through this.
public protocol SourceSettings: Sendable {
    /// Unique among the configuration's sources: the `source` of its changes (`check --json`, the journal's
    /// `TRACKWATCH_SOURCE`) and, for most kinds, its state folder's name.
    var sourceName: String { get }
    /// What people call the tracker in a sentence ("4 … changes", "Cannot reach …"): its product's name, or a
    /// list's own name.
    var trackerName: String { get }
    /// How messages and `status` name this source among several: a profile name, a URL.
    var label: String { get }
    /// The server's URL as the user wrote it (the journal's `TRACKWATCH_SERVER`).
    var url: String { get }
    /// Its state folder relative to the state directory; `""` is the directory itself (a single `[server]`).
    var stateFolder: String { get }
    /// The web page of a change's record, for "Open" and the page of recent changes; `nil` when unknown.
    func link(for change: Change) -> String?
    /// The fields whose change lifts a mute when `unmute_on` is not set: the record's owner and state.
    var ownerAndStateFields: [String] { get }
    /// Whether its changes include records becoming yours or leaving you (`assigned`, `unassigned`), which lift a
    /// mute; a list's items only enter and leave the list, which does not.
    var assignsRecords: Bool { get }
    /// Seconds a request may take (the daemon's watchdog allows a poll this much per request).
    var requestTimeout: Int { get }
    /// The files it reads besides the configuration, by their key (`password_file`, `ca_file`, …): the daemon's
    /// sandbox must show them, and only their owner may change them.
    var files: [(key: String, path: String)] { get }
    func isEqual(to other: any SourceSettings) -> Bool
}

extension SourceSettings {
    public var assignsRecords: Bool { true }
}

extension SourceSettings where Self: Equatable {
    public func isEqual(to other: any SourceSettings) -> Bool { (other as? Self) == self }
}

/// Where the password or token comes from. The secret itself is never part of the configuration.
public enum CredentialSource: Equatable, Sendable {
    /// `password_file`: a file readable only by its owner, holding the password (trailing newline ignored).
    case passwordFile(path: String)
    /// `password_command`: run with `/bin/sh -c`; the first line of its output is the password.
    case passwordCommand(String)
    /// `token_command`: the same, for a token (`gh auth token`); named as the configuration names it.
    case tokenCommand(String)
    /// `credential`: a systemd credential, `$CREDENTIALS_DIRECTORY/<name>` (`LoadCredential=`).
    case systemdCredential(name: String)
    /// `token_file`: a file holding a token (an API or personal access token), which the source sends its way.
    case tokenFile(path: String)
    /// `keyring = true`: the Secret Service (GNOME Keyring, KWallet) via `secret-tool lookup`, under these
    /// attribute/value pairs (`service trackwatch server <url> user <username>`).
    case keyring(attributes: [String])
    /// No secret configured: an empty password.
    case emptyPassword
}

/// Which differences of a watched query are reported (`notify` in `[[watch]]`).
public enum WatchRule: String, Equatable, Sendable, CaseIterable {
    /// Records that enter the result set.
    case entries
    /// Records that enter or leave it.
    case entriesAndExits = "entries_and_exits"
    /// Entries, exits, and any change of a compared field.
    case changes
}

public struct PollConfig: Equatable, Sendable {
    public static let minimumInterval = 10

    /// Seconds between polls (`interval = "5m"`); at least `minimumInterval`.
    public var interval: Int
    /// How far before the checkpoint the "modified by others" query looks again, in seconds (`overlap`).
    public var overlap: Int
    /// Rows requested per result-set page (`page_size`).
    public var pageSize: Int
    /// Seconds before the first retry of a failed poll; each further retry waits twice as long, up to the
    /// interval (`first_retry`).
    public var firstRetry: Int
    /// Seconds one source's poll may take in all, every request and page included (`deadline`): past it the poll
    /// fails and changes nothing, so that a slow server holds the other sources no longer than this.
    public var deadline: Int

    public init(interval: Int = 300, overlap: Int = 600, pageSize: Int = 1000, firstRetry: Int = 30,
                deadline: Int = 300) {
        self.interval = interval
        self.overlap = overlap
        self.pageSize = pageSize
        self.firstRetry = firstRetry
        self.deadline = deadline
    }
}

/// How much of its past trackwatch keeps (`[log]`): changes and poll log rows older than `keep` seconds, or beyond
/// the newest `maxChanges` / `maxPolls` of a source, are deleted after each poll. A change not yet delivered (or
/// waiting for the end of quiet hours) is never deleted.
public struct LogConfig: Equatable, Sendable {
    public var keep: Int
    public var maxChanges: Int
    public var maxPolls: Int

    public init(keep: Int = 90 * 86_400, maxChanges: Int = 10_000, maxPolls: Int = 10_000) {
        self.keep = keep
        self.maxChanges = maxChanges
        self.maxPolls = maxPolls
    }
}

public struct NotifyConfig: Equatable, Sendable {
    /// More changes than this in one poll become one summary bubble (`summary_threshold`).
    public var summaryThreshold: Int
    /// Send desktop notifications at all (`desktop`); the journal always gets every change.
    public var desktop: Bool
    /// Failed polls in a row (retries included) before the outage bubble ("Cannot reach …") is shown
    /// (`alert_after_failures`); credential and configuration errors are shown at once.
    public var alertAfterFailures: Int
    /// Quiet hours, priority threshold and what lifts a mute (`quiet`, `min_priority`, `min_severity`,
    /// `unmute_on`).
    public var rules: BubbleRules
    /// The program that opens a record's web page (`opener`).
    public var opener: String

    public init(summaryThreshold: Int = 3, desktop: Bool = true, alertAfterFailures: Int = 3,
                rules: BubbleRules = BubbleRules(), opener: String = "xdg-open") {
        self.summaryThreshold = summaryThreshold
        self.desktop = desktop
        self.alertAfterFailures = alertAfterFailures
        self.rules = rules
        self.opener = opener
    }
}

/// A configuration problem, located so that a person can fix it: file, line and key.
public struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    public let file: String
    /// 1-based line, or `nil` when the problem is a missing key or table.
    public let line: Int?
    /// Dotted key such as `poll.interval`, or `nil` for a syntax error not tied to a key.
    public let key: String?
    public let message: String

    public init(file: String, line: Int?, key: String?, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if let key { text += "\(key): " }
        return text + message
    }
}
