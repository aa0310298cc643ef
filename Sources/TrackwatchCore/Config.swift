/// trackwatch's configuration, as read from `config.toml`. Parsing lives in `ConfigParser.swift`.
public struct Config: Equatable, Sendable {
    /// One `[server]` table, or several `[[server]]` profiles (each named); never empty.
    public var servers: [ServerConfig]
    public var poll: PollConfig
    public var notify: NotifyConfig

    public init(servers: [ServerConfig], poll: PollConfig = PollConfig(), notify: NotifyConfig = NotifyConfig()) {
        precondition(!servers.isEmpty, "a configuration has at least one server")
        self.servers = servers
        self.poll = poll
        self.notify = notify
    }
}

/// Where the password or token comes from. The secret itself is never part of the configuration.
public enum CredentialSource: Equatable, Sendable {
    /// `password_file`: a file readable only by its owner, holding the password (trailing newline ignored).
    case passwordFile(path: String)
    /// `password_command`: run with `/bin/sh -c`; the first line of its output is the password.
    case passwordCommand(String)
    /// `credential`: a systemd credential, `$CREDENTIALS_DIRECTORY/<name>` (`LoadCredential=`).
    case systemdCredential(name: String)
    /// `token_file`: a personal access token, sent as `Authorization: Basic <token>`, no login.
    case tokenFile(path: String)
    /// `keyring = true`: the Secret Service (GNOME Keyring, KWallet) via `secret-tool lookup`, under these
    /// attribute/value pairs (`service trackwatch server <url> user <username>`).
    case keyring(attributes: [String])
    /// No secret configured: an empty password (the sample `admin` user has one).
    case emptyPassword
}

public struct ServerConfig: Equatable, Sendable {
    /// The profile's name (`[[server]]` `name`); `nil` for a single `[server]` table. Profiles keep their state
    /// apart (`servers/<name>/` under the state directory).
    public var name: String?
    /// The base URL as users know it, e.g. `https://compass.example.com:8190`.
    public var url: String
    public var repo: String
    public var database: String
    public var username: String
    public var credential: CredentialSource
    /// A PEM file with the CA (or self-signed certificate) to trust besides the system store.
    public var caFile: String?
    /// Skip TLS verification. Only when written in the config; warned about on every start.
    public var insecure: Bool
    /// Timeout for each HTTP request, in seconds.
    public var requestTimeout: Int
    /// `proxy`: the environment's proxy variables (default), none, or this proxy.
    public var proxy: ProxySetting
    /// Saved queries watched on this server besides the two built-in ones (`[[watch]]`).
    public var watches: [WatchConfig]

    public init(
        url: String, repo: String, database: String, username: String,
        credential: CredentialSource = .emptyPassword, caFile: String? = nil, insecure: Bool = false,
        requestTimeout: Int = 30, name: String? = nil, watches: [WatchConfig] = [], proxy: ProxySetting = .environment
    ) {
        self.proxy = proxy
        self.name = name
        self.watches = watches
        self.url = url
        self.repo = repo
        self.database = database
        self.username = username
        self.credential = credential
        self.caFile = caFile
        self.insecure = insecure
        self.requestTimeout = requestTimeout
    }
}

/// What a person calls the server in messages: the profile name, or the URL for a single `[server]`.
extension ServerConfig {
    public var label: String { name ?? url }
}

/// A saved query watched for changes (`[[watch]]`): its results are diffed like the built-in queries, with
/// the same snapshot, exactly-once and fault rules.
public struct WatchConfig: Equatable, Sendable {
    /// What bubbles and the journal call it (`Team P1s`); unique per server. Also the store's key.
    public var name: String
    /// The query's workspace path, e.g. `Public Queries/Team P1s`.
    public var query: WorkspacePath
    /// The columns compared between polls; `nil` compares every column but `id` and `dbid`.
    public var fields: [String]?
    public var rule: WatchRule

    public init(name: String, query: WorkspacePath, fields: [String]? = nil, rule: WatchRule = .entriesAndExits) {
        self.name = name
        self.query = query
        self.fields = fields
        self.rule = rule
    }

    /// The watch's key in the state store; the built-in watch is `assigned`, so the prefix keeps them apart.
    public var storeKey: String { "watch:" + name }
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

/// A query's place in the Compass workspace: `Public Queries/Team/P1s` — a root folder, subfolders, the query.
///
/// The root folders' names come from the server's resource file and may be localized ("Persönliche
/// Abfragen"), so any root name is accepted here; the English names also find the localized folders by what
/// they are (see `CompassClient`'s workspace lookup).
public struct WorkspacePath: Equatable, Sendable, CustomStringConvertible {
    /// The English root names, which work on any server whatever its language.
    public static let publicRoot = "Public Queries"
    public static let personalRoot = "Personal Queries"
    /// Root folder first, query name last.
    public let components: [String]

    /// `nil` unless the path names a root folder and a query below it, with no empty part.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { String($0) }
        guard parts.count >= 2, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        components = parts
    }

    public var description: String { components.joined(separator: "/") }
    public var queryName: String { components[components.count - 1] }
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

    public init(interval: Int = 300, overlap: Int = 600, pageSize: Int = 1000, firstRetry: Int = 30) {
        self.interval = interval
        self.overlap = overlap
        self.pageSize = pageSize
        self.firstRetry = firstRetry
    }
}

public struct NotifyConfig: Equatable, Sendable {
    /// More changes than this in one poll become one summary bubble (`summary_threshold`).
    public var summaryThreshold: Int
    /// Send desktop notifications at all (`desktop`); the journal always gets every change.
    public var desktop: Bool
    /// Failed polls in a row (retries included) before "Cannot reach Compass" is shown
    /// (`alert_after_failures`); credential and configuration errors are shown at once.
    public var alertAfterFailures: Int
    /// Quiet hours, priority threshold and what lifts a mute (`quiet`, `min_priority`, `min_severity`,
    /// `unmute_on`).
    public var rules: BubbleRules
    /// The record's page in the Compass web client, for the "Open" button (`web_url`); `{url}`, `{repo}`,
    /// `{database}`, `{entity}` and `{id}` are filled in.
    public var webURL: String
    /// The program that opens `web_url` (`opener`).
    public var opener: String

    public static let defaultWebURL = "{url}/cqweb/#/{repo}/{database}/RECORD/{id}&recordType={entity}&format=HTML&noframes=false"

    public init(summaryThreshold: Int = 3, desktop: Bool = true, alertAfterFailures: Int = 3,
                rules: BubbleRules = BubbleRules(), webURL: String = NotifyConfig.defaultWebURL, opener: String = "xdg-open") {
        self.summaryThreshold = summaryThreshold
        self.desktop = desktop
        self.alertAfterFailures = alertAfterFailures
        self.rules = rules
        self.webURL = webURL
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
