import TrackwatchCore

/// What every tracker's table says about reaching it and signing in: `name`, `url`, the credential keys,
/// `ca_file`, `insecure`, `timeout`, `proxy`. A tracker's settings hold one (`TrackerSettings`) beside their own keys.
public struct TrackerAccount: Equatable, Sendable {
    /// Unique among all sources; names the state folder (`sources/<name>`).
    public var name: String
    public var credential: CredentialSource
    /// The URL as the user wrote it, `ca_file`, `insecure`, `timeout` and `proxy`.
    public var connection: Connection

    /// The keys that give a token, in the order the tables list them.
    public static let tokenKeys = ["token_file", "token_command", "credential", "keyring"]
    /// The keys of `connection` besides `url`.
    public static let connectionKeys = ["ca_file", "insecure", "timeout", "proxy"]

    public init(name: String, credential: CredentialSource, connection: Connection) {
        self.name = name
        self.credential = credential
        self.connection = connection
    }

    /// An account at `url` with the connection's defaults.
    public init(name: String, url: String, credential: CredentialSource) {
        self.init(name: name, credential: credential, connection: Connection(url: url))
    }

    public var url: String { connection.url }

    /// The files it reads: the secret's file (`token_file`, `password_file`) and `ca_file`.
    public var files: [(key: String, path: String)] {
        var files: [(key: String, path: String)] = []
        switch credential {
        case .tokenFile(let path): files.append(("token_file", path))
        case .passwordFile(let path): files.append(("password_file", path))
        default: break
        }
        if let caFile = connection.caFile { files.append(("ca_file", caFile)) }
        return files
    }
}

/// The settings of a tracker whose table is a `TrackerAccount` and the tracker's own keys: the `SourceSettings`
/// members every such tracker answers alike come from the account.
public protocol TrackerSettings: SourceSettings, Equatable {
    /// The table's name: `github` for `[[github]]`.
    static var table: String { get }
    var account: TrackerAccount { get set }
}

extension TrackerSettings {
    public var name: String { account.name }
    public var url: String { account.url }
    public var credential: CredentialSource { account.credential }
    public var insecure: Bool { account.connection.insecure }
    public var connection: Connection { account.connection }
    /// `[[github]] work`: how fixes name the table.
    public var tableName: String { "[[\(Self.table)]] \(name)" }

    public var sourceName: String { name }
    public var label: String { name }
    public var stateFolder: String { "sources/\(name)" }
    public var requestTimeout: Int { account.connection.requestTimeout }
    public var files: [(key: String, path: String)] { account.files }
}

extension ConfigReader {
    /// The account of a tracker's table: `name` and `url` as the tracker read them, its `credential`, and
    /// `ca_file`, `insecure`, `timeout`, `proxy` read here.
    public func account(
        _ table: TOMLTable, _ kind: String, name: String, url: String, credential: CredentialSource
    ) throws(ConfigError) -> TrackerAccount {
        let defaults = Connection(url: url)
        let connection = Connection(
            url: url, caFile: try string(table, kind, "ca_file").map(resolved),
            insecure: try boolean(table, kind, "insecure") ?? false,
            requestTimeout: try duration(table, kind, "timeout", range: 1...600) ?? defaults.requestTimeout,
            proxy: try proxy(table, kind))
        return TrackerAccount(name: name, credential: credential, connection: connection)
    }

    /// The secret's source among `keys` (a token's by default), looked up in the keyring under the server and the
    /// user; missing, an error at `missingKey` that says `missing; add <missing>, or token_command, credential or
    /// keyring = true` (for a token).
    public func requiredCredential(
        _ table: TOMLTable, _ kind: String, keys: [String] = TrackerAccount.tokenKeys, url: String, user: String,
        line: Int?, missingKey: String = "token_file", missing: String
    ) throws(ConfigError) -> CredentialSource {
        guard
            let credential = try credential(
                table, kind, keys: keys, keyringAttributes: ["service", "trackwatch", "server", url, "user", user])
        else {
            throw ConfigError(
                file: file, line: table["keyring"]?.line ?? line, key: "\(kind).\(missingKey)", message: missing)
        }
        return credential
    }

    /// `missing; add token_file = "~/.config/trackwatch/<kind>-token" (<what>), or token_command, …`.
    public static func missingToken(_ kind: String, _ what: String) -> String {
        "missing; add token_file = \"~/.config/trackwatch/\(kind)-token\" (\(what)), or token_command, credential "
            + "or keyring = true"
    }
}

/// The `SourceKind` of a tracker's `[[table]]`s: the account's keys and the tracker's own, each table read by
/// `read`.
public protocol TrackerSourceKind: SourceKind {
    associatedtype Settings: TrackerSettings
    /// The table's keys besides `name`, `url`, a token's and the connection's (`repos`, `ignore_bots`).
    var ownKeys: [String] { get }
    /// One table; `line` is its header's, named when a key is missing.
    func read(_ table: TOMLTable, line: Int?, reader: ConfigReader) throws(ConfigError) -> Settings
}

extension TrackerSourceKind {
    public var tables: [String: [String]] {
        [Settings.table: ["name", "url"] + TrackerAccount.tokenKeys + ownKeys + TrackerAccount.connectionKeys]
    }
    public var sharedKeys: [String: [String]] { [:] }
    public var advice: String { "a [[\(Settings.table)]] table with token_file" }

    public func sources(in root: TOMLTable, reader: ConfigReader) throws(ConfigError) -> [ConfiguredSource] {
        try reader.sourceTables(root, Settings.table) { (table, line) throws(ConfigError) in
            try read(table, line: line, reader: reader)
        }
    }
}
