extension Config {
    /// The keys each table accepts; anything else is a typo and is reported, never silently ignored. Every one
    /// is in etc/config.example.toml and docs/configuration.md (ConfigurationReferenceTests).
    public static let schema: [String: [String]] = [
        "server": ["name", "url", "repo", "database", "username", "password_file", "password_command", "credential",
                   "token_file", "keyring", "ca_file", "insecure", "timeout", "proxy"],
        "watch": ["name", "query", "fields", "notify", "server"],
        "poll": ["interval", "overlap", "page_size", "first_retry"],
        "notify": ["summary_threshold", "desktop", "alert_after_failures", "quiet", "min_priority", "min_severity",
                   "unmute_on", "web_url", "opener"],
    ]

    /// Reads `config.toml` text. Every error names the file, the line and the dotted key, and says what is
    /// expected.
    public static func parse(_ text: String, file: String) throws(ConfigError) -> Config {
        let root: TOMLTable
        do {
            root = try TOML.parse(text)
        } catch let error as TOMLError {
            if let format = ForeignFormat(recognising: text) {
                throw ConfigError(file: file, line: nil, key: nil, message: format.advice)
            }
            throw ConfigError(file: file, line: error.line, key: nil, message: error.message)
        } catch {
            throw ConfigError(file: file, line: nil, key: nil, message: "\(error)")
        }
        var reader = ConfigReader(file: file)
        return try reader.config(root)
    }
}

/// Turns the TOML tree into a `Config`, with located errors.
struct ConfigReader {
    let file: String

    func error(_ value: TOMLValue?, _ key: String, _ message: String) -> ConfigError {
        ConfigError(file: file, line: value?.line, key: key, message: message)
    }

    mutating func config(_ root: TOMLTable) throws(ConfigError) -> Config {
        for key in root.keys where Config.schema[key] == nil {
            throw error(root[key], key, "unknown setting; expected the tables [server] (or [[server]]), [[watch]], [poll] and [notify]")
        }
        guard let serverValue = root["server"] else {
            throw ConfigError(file: file, line: nil, key: "server",
                              message: "missing; add a [server] table with url, repo, database and username")
        }
        var servers = try self.servers(serverValue)
        if let watchValue = root["watch"] { try addWatches(watchValue, to: &servers) }
        let poll = try root["poll"].map { (value) throws(ConfigError) in try table(value, "poll") }
        let notify = try root["notify"].map { (value) throws(ConfigError) in try table(value, "notify") }
        return Config(servers: servers, poll: try self.poll(poll), notify: try self.notify(notify))
    }

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
            guard Self.isProfileName(name) else {
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

    static func isProfileName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && name != "." && name != ".."
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") }
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

    func table(_ value: TOMLValue, _ name: String) throws(ConfigError) -> TOMLTable {
        guard case .table(let table) = value.kind else {
            throw error(value, name, "expected a table [\(name)], found \(value.typeName)")
        }
        for key in table.keys where !(Config.schema[name] ?? []).contains(key) {
            throw error(table[key], "\(name).\(key)",
                        "unknown key; expected one of: \((Config.schema[name] ?? []).joined(separator: ", "))")
        }
        return table
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
        config.proxy = try proxy(table)
        return config
    }

    /// `proxy = "http://host:port"` (credentials allowed), or `""` for none; absent: the environment decides.
    func proxy(_ table: TOMLTable) throws(ConfigError) -> ProxySetting {
        guard let text = try string(table, "server", "proxy") else { return .environment }
        if text.isEmpty { return .direct }
        do {
            return .proxy(try ProxyURL(parsing: text))
        } catch {
            throw self.error(
                table["proxy"], "server.proxy",
                "\(error.message) (expected \"http://host:port\", or \"\" for no proxy)")
        }
    }

    func credential(_ table: TOMLTable, url: String, username: String) throws(ConfigError) -> CredentialSource {
        let keys = ["password_file", "password_command", "credential", "token_file", "keyring"].filter { table[$0] != nil }
        if keys.count > 1 {
            throw error(table[keys[1]], "server.\(keys[1])",
                        "set only one of \(keys.joined(separator: " and ")): each is a complete password source")
        }
        if keys.first == "keyring" {
            guard try boolean(table, "server", "keyring") == true else { return .emptyPassword }
            return .keyring(attributes: Self.keyringAttributes(url: url, username: username))
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

    /// A relative path in the file is relative to the file's directory, not to wherever trackwatch was started
    /// (a unit starts it in the home directory, a terminal anywhere). `~/…` and absolute paths stay as written.
    func resolved(_ path: String) -> String {
        guard !path.hasPrefix("/"), path != "~", !path.hasPrefix("~/"), let slash = file.lastIndex(of: "/") else { return path }
        return String(file[...slash]) + path
    }

    func poll(_ table: TOMLTable?) throws(ConfigError) -> PollConfig {
        var config = PollConfig()
        guard let table else { return config }
        if let interval = try duration(table, "poll", "interval", range: 0...86_400) {
            guard interval >= PollConfig.minimumInterval else {
                throw error(table["interval"], "poll.interval",
                            "must be at least \(PollConfig.minimumInterval)s so that the server is not flooded, found \(interval)s")
            }
            config.interval = interval
        }
        config.overlap = try duration(table, "poll", "overlap", range: 0...86_400) ?? config.overlap
        config.pageSize = try integer(table, "poll", "page_size", range: 1...100_000) ?? config.pageSize
        config.firstRetry = try duration(table, "poll", "first_retry", range: 1...86_400) ?? config.firstRetry
        return config
    }

    func notify(_ table: TOMLTable?) throws(ConfigError) -> NotifyConfig {
        var config = NotifyConfig()
        guard let table else { return config }
        config.summaryThreshold = try integer(table, "notify", "summary_threshold", range: 1...1_000) ?? config.summaryThreshold
        config.desktop = try boolean(table, "notify", "desktop") ?? config.desktop
        config.alertAfterFailures = try integer(table, "notify", "alert_after_failures", range: 1...1_000)
            ?? config.alertAfterFailures
        if let text = try string(table, "notify", "quiet") {
            guard let quiet = QuietHours(parsing: text) else {
                throw error(table["quiet"], "notify.quiet", "expected \"HH:MM-HH:MM\" in local time, e.g. \"22:00-08:00\", found \"\(text.prefix(40))\"")
            }
            config.rules.quiet = quiet
        }
        config.rules.minPriority = try integer(table, "notify", "min_priority", range: 1...9)
        config.rules.minSeverity = try integer(table, "notify", "min_severity", range: 1...9)
        config.rules.unmuteOn = try stringArray(table, "notify", "unmute_on") ?? config.rules.unmuteOn
        if let template = try string(table, "notify", "web_url") {
            guard template.hasPrefix("https://") || template.hasPrefix("http://") || template.hasPrefix("{url}") else {
                throw error(table["web_url"], "notify.web_url", "expected an http(s):// URL template with {id}, found \"\(template.prefix(40))\"")
            }
            config.webURL = template
        }
        config.opener = try string(table, "notify", "opener") ?? config.opener
        return config
    }

    /// The Secret Service attributes trackwatch looks the password up by (README: `secret-tool store …`).
    static func keyringAttributes(url: String, username: String) -> [String] {
        ["service", "trackwatch", "server", url, "user", username]
    }

    // MARK: Typed values

    func requiredString(_ table: TOMLTable, _ name: String, _ key: String, example: String, line: Int? = nil) throws(ConfigError) -> String {
        guard let text = try string(table, name, key) else {
            throw ConfigError(file: file, line: line, key: "\(name).\(key)",
                              message: "missing; add \(key) = \"\(example)\" under [\(name)]")
        }
        guard !text.isEmpty else { throw error(table[key], "\(name).\(key)", "must not be empty") }
        return text
    }

    func string(_ table: TOMLTable, _ name: String, _ key: String) throws(ConfigError) -> String? {
        guard let value = table[key] else { return nil }
        guard case .string(let text) = value.kind else {
            throw error(value, "\(name).\(key)", "expected a string, found \(value.typeName)")
        }
        return text
    }

    func stringArray(_ table: TOMLTable, _ name: String, _ key: String) throws(ConfigError) -> [String]? {
        guard let value = table[key] else { return nil }
        guard case .array(let items) = value.kind else {
            throw error(value, "\(name).\(key)", "expected an array of strings such as [\"Owner\", \"State\"], found \(value.typeName)")
        }
        var strings: [String] = []
        for item in items {
            guard case .string(let text) = item.kind else {
                throw error(item, "\(name).\(key)", "expected strings in the array, found \(item.typeName)")
            }
            strings.append(text)
        }
        return strings
    }

    func boolean(_ table: TOMLTable, _ name: String, _ key: String) throws(ConfigError) -> Bool? {
        guard let value = table[key] else { return nil }
        guard case .boolean(let flag) = value.kind else {
            throw error(value, "\(name).\(key)", "expected true or false, found \(value.typeName)")
        }
        return flag
    }

    func integer(_ table: TOMLTable, _ name: String, _ key: String, range: ClosedRange<Int>) throws(ConfigError) -> Int? {
        guard let value = table[key] else { return nil }
        guard case .integer(let number) = value.kind else {
            throw error(value, "\(name).\(key)", "expected an integer, found \(value.typeName)")
        }
        guard range.contains(number) else {
            throw error(value, "\(name).\(key)", "expected \(range.lowerBound)…\(range.upperBound), found \(number)")
        }
        return number
    }

    /// `"30s"`, `"5m"`, `"1h30m"`, `"90"` or an integer, in seconds.
    func duration(_ table: TOMLTable, _ name: String, _ key: String, range: ClosedRange<Int>) throws(ConfigError) -> Int? {
        guard let value = table[key] else { return nil }
        let seconds: Int?
        switch value.kind {
        case .integer(let number): seconds = number
        case .string(let text): seconds = Self.seconds(in: text)
        default: seconds = nil
        }
        guard let seconds else {
            throw error(value, "\(name).\(key)", "expected a duration such as \"30s\", \"5m\" or \"1h\", found \(Self.describe(value))")
        }
        guard range.contains(seconds) else {
            throw error(value, "\(name).\(key)", "expected between \(range.lowerBound)s and \(range.upperBound)s, found \(seconds)s")
        }
        return seconds
    }

    static func describe(_ value: TOMLValue) -> String {
        if case .string(let text) = value.kind { return "\"\(text.prefix(40))\"" }
        return value.typeName
    }

    /// Parses `1h30m`, `5m`, `30s`, `90`; `nil` when malformed or absurdly large.
    static func seconds(in text: String) -> Int? {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        var total = 0, digits = "", sawUnit = false
        for character in text.filter({ $0 != " " }) {
            if character.isASCII, character.isNumber {
                digits.append(character)
                guard digits.count <= 9 else { return nil }
            } else if let unit = units[character], let number = Int(digits) {
                total += number * unit
                digits = ""
                sawUnit = true
            } else {
                return nil
            }
        }
        if !digits.isEmpty {
            guard !sawUnit, let number = Int(digits) else { return nil }
            total += number
        } else if !sawUnit {
            return nil
        }
        return total
    }
}

/// A configuration written in another format than TOML, recognised when the TOML reader fails, so that the
/// error says what the file is rather than pointing at its first brace or colon.
enum ForeignFormat: String {
    case json = "JSON", yaml = "YAML"

    init?(recognising text: String) {
        let lines = text.split(whereSeparator: \.isNewline).map { line in
            String(line.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        }
        guard let first = lines.first(where: { !$0.isEmpty && !$0.hasPrefix("#") }) else { return nil }
        if first.hasPrefix("{") || first == "[" || first.hasPrefix("[{") || first.hasPrefix("[\"") {
            self = .json
        } else if first == "---" || Self.isYAMLKey(first) {
            self = .yaml
        } else {
            return nil
        }
    }

    /// `server:` or `url: https://…`: a key, a colon and a space or the line's end, before any `=`.
    private static func isYAMLKey(_ line: String) -> Bool {
        guard let colon = line.firstIndex(of: ":") else { return false }
        let key = line[..<colon]
        let after = line[line.index(after: colon)...]
        return !key.isEmpty && !key.contains("=") && !key.contains(" ")
            && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
            && (after.isEmpty || after.first == " ")
    }

    var advice: String {
        "this looks like \(rawValue), but the configuration is TOML: `key = value` lines under table headers such as "
            + "[server] (see config.example.toml in /usr/share/doc/trackwatch or etc/ of the source)"
    }
}
