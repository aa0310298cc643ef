import SourceKit
import TrackwatchCore

// Qase TestOps' configuration: one `[[qase]]` table per Qase workspace (or per token), each a source of its own
// with its own credentials and its own state folder.

/// One `[[qase]]` table.
public struct QaseSettings: Equatable, Sendable {
    /// Unique among all sources; names the state folder (`sources/<name>`). Default `qase`.
    public var name: String
    /// The API base with its version, as Qase's docs give it: `https://api.qase.io/v1`, or a dedicated host's
    /// `https://api-<company>.qase.io/v1`. No trailing slash.
    public var url: String
    /// The web app, for links: `https://app.qase.io`; `nil` when unknown (then nothing is linked).
    public var webURL: String?
    /// Who "me" is: resolved at the first poll to a user, an author id and an author UUID.
    public var email: String
    public var credential: CredentialSource
    /// Project codes to watch, upper-cased; `nil`: every project the token can see.
    public var projects: [String]?
    public var caFile: String?
    public var insecure: Bool
    public var requestTimeout: Int
    public var proxy: ProxySetting

    public static let defaultName = "qase"
    /// Qase's cloud: its web app is known, so links work without `web_url`.
    static let cloudAPIHost = "api.qase.io", cloudWebURL = "https://app.qase.io"

    public init(
        name: String = QaseSettings.defaultName, url: String, webURL: String? = nil, email: String,
        credential: CredentialSource, projects: [String]? = nil, caFile: String? = nil, insecure: Bool = false,
        requestTimeout: Int = 30, proxy: ProxySetting = .environment
    ) {
        self.name = name
        self.url = url
        self.webURL = webURL
        self.email = email
        self.credential = credential
        self.projects = projects
        self.caFile = caFile
        self.insecure = insecure
        self.requestTimeout = requestTimeout
        self.proxy = proxy
    }

    /// How the client reaches the API.
    public var connection: Connection {
        Connection(url: url, caFile: caFile, insecure: insecure, requestTimeout: requestTimeout, proxy: proxy)
    }

    /// The web app's base: `web_url`, or Qase's cloud app for the cloud API.
    var webBase: String? {
        if let webURL { return webURL }
        return ServerURL.host(of: url)?.lowercased() == Self.cloudAPIHost ? Self.cloudWebURL : nil
    }
}

extension QaseSettings: SourceSettings {
    public var sourceName: String { name }
    public var trackerName: String { "Qase" }
    public var label: String { name }
    public var stateFolder: String { "sources/\(name)" }
    public func link(for change: Change) -> String? {
        change.link ?? webBase.flatMap { QaseLink.url(for: change.record, web: $0) }
    }
    /// A mute lifts when an item's status changes or its cases assigned to you do (entering or leaving your
    /// items always lifts it).
    public var ownerAndStateFields: [String] { [QaseFields.status, QaseFields.yourCases] }
    public var files: [(key: String, path: String)] {
        var files: [(key: String, path: String)] = []
        if case .tokenFile(let path) = credential { files.append(("token_file", path)) }
        if let caFile { files.append(("ca_file", caFile)) }
        return files
    }
}

/// `[[qase]]` tables.
public struct QaseSourceKind: SourceKind {
    public init() {}

    static let credentialKeys = ["token_file", "token_command", "credential", "keyring"]

    public var tables: [String: [String]] {
        [
            "qase": ["name", "url", "web_url", "email", "projects"] + Self.credentialKeys
                + ["ca_file", "insecure", "timeout", "proxy"]
        ]
    }
    public var sharedKeys: [String: [String]] { [:] }
    public var advice: String { "a [[qase]] table with url, email and token_file" }

    public func sources(in root: TOMLTable, reader: ConfigReader) throws(ConfigError) -> [ConfiguredSource] {
        try reader.sourceTables(root, "qase") { (table, line) throws(ConfigError) in try reader.qase(table, line: line) }
    }
}

extension ConfigReader {
    /// One `[[qase]]` table; `line` is its header's, named when a key is missing.
    func qase(_ table: TOMLTable, line: Int?) throws(ConfigError) -> QaseSettings {
        let name = try sourceName(table, "qase", default: QaseSettings.defaultName, line: line)
        let url = try httpURL(table, "url", example: "https://api.qase.io/v1", line: line)
        let webURL =
            try string(table, "qase", "web_url") == nil ? nil : try httpURL(table, "web_url", example: "", line: line)
        let email = try requiredString(table, "qase", "email", example: "you@example.com", line: line)
        guard email.contains("@"), email.count <= 254, !email.contains(where: { $0.isWhitespace }) else {
            throw error(
                table["email"], "qase.email",
                "expected the e-mail address of your Qase account, found \"\(email.prefix(60))\"")
        }
        guard
            let credential = try credential(
                table, "qase", keys: QaseSourceKind.credentialKeys,
                keyringAttributes: ["service", "trackwatch", "server", url, "user", email])
        else {
            throw ConfigError(
                file: file, line: table["keyring"]?.line ?? line, key: "qase.token_file",
                message: "missing; add token_file = \"~/.config/trackwatch/qase-token\" (a personal API token "
                    + "from Qase's API tokens page), or token_command, credential or keyring = true")
        }
        var settings = QaseSettings(name: name, url: url, webURL: webURL, email: email, credential: credential)
        settings.projects = try projects(table)
        settings.caFile = try string(table, "qase", "ca_file").map(resolved)
        settings.insecure = try boolean(table, "qase", "insecure") ?? false
        settings.requestTimeout = try duration(table, "qase", "timeout", range: 1...600) ?? settings.requestTimeout
        settings.proxy = try proxy(table, "qase")
        return settings
    }

    /// An `http(s)://` URL with a host and no user info, without its trailing slashes.
    private func httpURL(_ table: TOMLTable, _ key: String, example: String, line: Int?) throws(ConfigError) -> String {
        var url = try requiredString(table, "qase", key, example: example, line: line)
        // Checked first, and the URL never quoted: the part before @ may be a secret.
        guard !ServerURL.hasUserInfo(url) else {
            throw error(
                table[key], "qase.\(key)",
                "must not contain a user name or password (the part before @, not shown "
                    + "here); put the API token in token_file")
        }
        let lower = url.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), ServerURL.host(of: url) != nil,
            !url.contains("?"), !url.contains("#")
        else {
            throw error(
                table[key], "qase.\(key)",
                "expected an http:// or https:// URL with a host, found \"\(url.prefix(80))\"")
        }
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    /// `projects = ["DEMO", "WEB"]`: codes of 2 to 10 letters or digits, as Qase allows them.
    private func projects(_ table: TOMLTable) throws(ConfigError) -> [String]? {
        guard let codes = try stringArray(table, "qase", "projects") else { return nil }
        guard !codes.isEmpty else {
            throw error(
                table["projects"], "qase.projects",
                "expected project codes such as [\"DEMO\"]; leave projects out to "
                    + "watch every project the token can see")
        }
        var upper: [String] = []
        for code in codes {
            guard (2...10).contains(code.count), QaseProjectCode.isValid(code) else {
                throw error(
                    table["projects"], "qase.projects",
                    "expected project codes of 2 to 10 letters or digits, as Qase shows them (DEMO), "
                        + "found \"\(code.prefix(40))\""
                )
            }
            if !upper.contains(code.uppercased()) { upper.append(code.uppercased()) }
        }
        return upper
    }
}

/// A project's code: the prefix of every key (`DEMO-9`, `DEMO/defect/7`) and part of every project's path and
/// query. Qase allows 2 to 10 letters or digits; a code from the server is checked before it goes anywhere.
public enum QaseProjectCode {
    public static func isValid(_ code: String) -> Bool {
        (1...20).contains(code.utf8.count)
            && code.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
            }
    }
}
