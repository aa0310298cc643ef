import SourceKit
import TrackwatchCore

// Compass's configuration: `[server]` (or named `[[server]]` profiles) and `[[watch]]` tables, and `web_url` in
// `[notify]` — the keys of 1.0, with their meaning.

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
    /// The record's page in the Compass web client, for "Open" and the page of recent changes (`web_url` in
    /// `[notify]`); `{url}`, `{repo}`, `{database}`, `{entity}` and `{id}` are filled in.
    public var webURL = ServerConfig.defaultWebURL
    /// Fields compared in the built-in watch besides Headline, State, Priority, Severity, Submitter and Owner
    /// (`extra_fields`); `nil`: `WatchQueries.defaultExtraFields`, those of them the record type has.
    public var extraFields: [String]?

    public static let defaultWebURL =
        "{url}/cqweb/#/{repo}/{database}/RECORD/{id}&recordType={entity}&format=HTML&noframes=false"

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

extension ServerConfig: SourceSettings {
    /// The source's name: the profile's, or `compass` for a single `[server]`.
    public var sourceName: String { name ?? "compass" }
    public var trackerName: String { "Compass" }
    /// What a person calls the server in messages: the profile name, or the URL for a single `[server]`.
    public var label: String { name ?? url }
    /// A single `[server]` keeps its state in the state directory itself; each `[[server]]` profile in
    /// `servers/<name>/` below it.
    public var stateFolder: String { name.map { "servers/\($0)" } ?? "" }
    public func link(for change: Change) -> String? { change.link ?? recordURL(change.record) }
    public var ownerAndStateFields: [String] { ["Owner", "State"] }
    public var files: [(key: String, path: String)] {
        var files: [(key: String, path: String)] = []
        switch credential {
        case .passwordFile(let path): files.append(("password_file", path))
        case .tokenFile(let path): files.append(("token_file", path))
        default: break
        }
        if let caFile { files.append(("ca_file", caFile)) }
        return files
    }
    /// How the client reaches the server.
    public var connection: Connection {
        Connection(url: url, caFile: caFile, insecure: insecure, requestTimeout: requestTimeout, proxy: proxy)
    }
}

/// `[server]`/`[[server]]` and `[[watch]]`, and `web_url` in `[notify]`.
public struct CompassSourceKind: SourceKind {
    public init() {}

    public var tables: [String: [String]] {
        ["server": ["name", "url", "repo", "database", "username", "password_file", "password_command", "credential",
                    "token_file", "keyring", "ca_file", "insecure", "timeout", "proxy", "extra_fields"],
         "watch": ["name", "query", "fields", "notify", "server"]]
    }
    public var sharedKeys: [String: [String]] { ["notify": ["web_url"]] }
    public var advice: String { "a [server] table with url, repo, database and username" }

    public func sources(in root: TOMLTable, reader: ConfigReader) throws(ConfigError) -> [ConfiguredSource] {
        guard let serverValue = root["server"] else {
            if let watch = root["watch"] {
                throw reader.error(watch, "watch", "a [[watch]] watches a saved query of a Compass [server]; add one")
            }
            return []
        }
        var servers = try reader.servers(serverValue)
        if let watchValue = root["watch"] { try reader.addWatches(watchValue, to: &servers) }
        if let notify = root["notify"], case .table(let table) = notify.kind,
            let template = try reader.string(table, "notify", "web_url")
        {
            guard template.hasPrefix("https://") || template.hasPrefix("http://") || template.hasPrefix("{url}") else {
                throw reader.error(table["web_url"], "notify.web_url",
                                   "expected an http(s):// URL template with {id}, found \"\(template.prefix(40))\"")
            }
            for index in servers.indices { servers[index].webURL = template }
        }
        let line: Int? = if case .array = serverValue.kind { nil } else { serverValue.line }
        return servers.map { ConfiguredSource($0, nameKey: "server.name", line: line) }
    }
}

extension Config {
    /// The Compass servers among the sources, in configuration order.
    public var servers: [ServerConfig] { sources.compactMap { $0 as? ServerConfig } }
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

extension ConfigReader {
    /// `[server]`: one unnamed server. `[[server]]`: named profiles, each with its own credentials and state.
    func servers(_ value: TOMLValue) throws(ConfigError) -> [ServerConfig] {
        guard case .array(let items) = value.kind else { return [try server(try table(value, "server"))] }
        var servers: [ServerConfig] = []
        for item in items {
            let table = try table(item, "server")
            guard let name = try string(table, "server", "name") else {
                throw ConfigError(file: file, line: item.line, key: "server.name",
                                  message: "missing; each [[server]] needs a name (letters, digits, - _ .), e.g. name = \"prod\"")
            }
            guard ConfigReader.isProfileName(name) else {
                throw error(table["name"], "server.name", "expected letters, digits, - _ or . (it names a state directory), found \"\(name.prefix(40))\"")
            }
            guard !servers.contains(where: { $0.name == name }) else {
                throw error(table["name"], "server.name", "\"\(name)\" is used by two [[server]] tables; names must differ")
            }
            var config = try server(table, line: item.line)
            config.name = name
            servers.append(config)
        }
        return servers
    }

    /// `[[watch]]` tables, each added to its server (`server = "name"`, needed when there are several).
    func addWatches(_ value: TOMLValue, to servers: inout [ServerConfig]) throws(ConfigError) {
        guard case .array(let items) = value.kind else {
            throw error(value, "watch", "expected [[watch]] tables (double brackets: one per watched query)")
        }
        for item in items {
            let table = try table(item, "watch")
            let text = try requiredString(table, "watch", "query", example: "Public Queries/Team P1s", line: item.line)
            guard let query = WorkspacePath(text) else {
                throw error(table["query"], "watch.query",
                            "expected a workspace path: the root folder (\"Public Queries\" or \"Personal Queries\", "
                                + "or their names in your Compass's language), any subfolders and the query, "
                                + "separated by /, e.g. \"Public Queries/Team P1s\", found \"\(text.prefix(60))\"")
            }
            let name = try string(table, "watch", "name") ?? query.queryName
            guard !name.isEmpty, name.count <= 100 else { throw error(table["name"], "watch.name", "expected 1 to 100 characters") }
            var watch = WatchConfig(name: name, query: query)
            if let fields = try stringArray(table, "watch", "fields") {
                guard !fields.isEmpty, fields.allSatisfy({ !$0.isEmpty }) else {
                    throw error(table["fields"], "watch.fields", "expected field names such as [\"State\", \"Priority\"]; leave it out to compare every column")
                }
                watch.fields = fields
            }
            if let rule = try string(table, "watch", "notify") {
                guard let parsed = WatchRule(rawValue: rule) else {
                    throw error(table["notify"], "watch.notify",
                                "expected one of \(WatchRule.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), found \"\(rule.prefix(40))\"")
                }
                watch.rule = parsed
            }
            let index: Int
            if let serverName = try string(table, "watch", "server") {
                guard let found = servers.firstIndex(where: { $0.name == serverName }) else {
                    let names = servers.compactMap(\.name)
                    throw error(table["server"], "watch.server",
                                names.isEmpty ? "there is a single [server] table: leave server out"
                                              : "no [[server]] is named \"\(serverName.prefix(40))\"; expected one of \(names.joined(separator: ", "))")
                }
                index = found
            } else {
                guard servers.count == 1 else {
                    throw ConfigError(file: file, line: item.line, key: "watch.server",
                                      message: "missing; with several [[server]] tables each [[watch]] names its server")
                }
                index = 0
            }
            guard !servers[index].watches.contains(where: { $0.name == name }) else {
                throw error(table["name"] ?? table["query"], "watch.name", "two [[watch]] tables of one server are named \"\(name)\"; give one a different name")
            }
            servers[index].watches.append(watch)
        }
    }

    // MARK: Tables

    /// - Parameter line: the `[[server]]` header's line, named when a key is missing (one of several tables).
    func server(_ table: TOMLTable, line: Int? = nil) throws(ConfigError) -> ServerConfig {
        let url = try requiredString(table, "server", "url", example: "https://compass.example.com:8190", line: line)
        // Checked first, and the URL never quoted: the part before @ may be a password.
        guard !ServerURL.hasUserInfo(url) else {
            throw error(table["url"], "server.url",
                        "must not contain a user name or password (the part before @, not shown here); "
                            + "put the user name in username and the password in a password source such as password_file")
        }
        let lower = url.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://"),
            let host = url.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first, !host.isEmpty
        else {
            throw error(table["url"], "server.url", "expected an http:// or https:// URL with a host, found \"\(url)\"")
        }
        var config = ServerConfig(
            url: url, repo: try requiredString(table, "server", "repo", example: "2.0.0", line: line),
            database: try requiredString(table, "server", "database", example: "SAMPL", line: line),
            username: try requiredString(table, "server", "username", example: "engineer", line: line))
        config.credential = try credential(table, url: url, username: config.username)
        config.caFile = try string(table, "server", "ca_file").map(resolved)
        config.insecure = try boolean(table, "server", "insecure") ?? false
        config.requestTimeout = try duration(table, "server", "timeout", range: 1...600) ?? config.requestTimeout
        config.proxy = try proxy(table, "server")
        if let fields = try stringArray(table, "server", "extra_fields") {
            guard fields.allSatisfy({ !$0.isEmpty && $0.count <= 200 && !$0.contains("\n") }) else {
                throw error(table["extra_fields"], "server.extra_fields",
                            "expected field names such as [\"Keywords\", \"Resolution\"], or [] for the built-in six only")
            }
            config.extraFields = fields
        }
        return config
    }

    func credential(_ table: TOMLTable, url: String, username: String) throws(ConfigError) -> CredentialSource {
        let keys = ["password_file", "password_command", "credential", "token_file", "keyring"].filter { table[$0] != nil }
        if keys.count > 1 {
            throw error(table[keys[1]], "server.\(keys[1])",
                        "set only one of \(keys.joined(separator: " and ")): each is a complete password source")
        }
        if keys.first == "keyring" {
            guard try boolean(table, "server", "keyring") == true else { return .emptyPassword }
            return .keyring(attributes: ConfigReader.keyringAttributes(url: url, username: username))
        }
        guard let key = keys.first, let value = try string(table, "server", key) else { return .emptyPassword }
        guard !value.isEmpty else { throw error(table[key], "server.\(key)", "must not be empty") }
        switch key {
        case "password_file": return .passwordFile(path: resolved(value))
        case "password_command": return .passwordCommand(value)
        case "credential":
            guard !value.contains("/") else { throw error(table[key], "server.credential", "expected a credential name without /") }
            return .systemdCredential(name: value)
        default: return .tokenFile(path: resolved(value))
        }
    }

    /// The Secret Service attributes trackwatch looks the password up by (README: `secret-tool store …`).
    public static func keyringAttributes(url: String, username: String) -> [String] {
        ["service", "trackwatch", "server", url, "user", username]
    }
}

extension ServerConfig {
    /// `webURL` with `{url}` (the server URL without `/ccmweb/rest`), `{repo}`, `{database}`, `{entity}` and
    /// `{id}` filled in; values are percent-encoded except `{url}`.
    public func recordURL(_ record: RecordID, entity: String = "Defect") -> String {
        var base = url
        while base.hasSuffix("/") { base.removeLast() }
        if base.hasSuffix("/ccmweb/rest") { base.removeLast("/ccmweb/rest".count) }
        var url = webURL
        for (key, value) in [("{url}", base), ("{repo}", Self.encode(repo)), ("{database}", Self.encode(database)),
                             ("{entity}", Self.encode(entity)), ("{id}", Self.encode(record.rawValue))] {
            url = url.split(separator: key, omittingEmptySubsequences: false).joined(separator: value)
        }
        return url
    }

    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || "-._~".utf8.contains(byte) {
                out.append(Character(Unicode.Scalar(byte)))
            } else {
                let hex = Array("0123456789ABCDEF")
                out += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 0xF)])"
            }
        }
        return out
    }
}
