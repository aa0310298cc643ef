/// One kind of source as the configuration file has it: the tables it owns and how they become sources. Each
/// source module defines one; the application passes them all to `Config.parse`, so that the reader itself
/// knows no tracker.
public protocol SourceKind: Sendable {
    /// The root tables this kind reads, each with the keys it accepts (anything else there is reported).
    var tables: [String: [String]] { get }
    /// Keys of the shared tables (`notify`, `poll`) that this kind reads besides the shared ones.
    var sharedKeys: [String: [String]] { get }
    /// How to add one source of this kind, for the error of a file without any (`a [[name]] table with url …`).
    var advice: String { get }
    /// This kind's sources in `root`: its tables are already known to hold only the keys it accepts.
    func sources(in root: TOMLTable, reader: ConfigReader) throws(ConfigError) -> [ConfiguredSource]
}

/// A source read from a table, with the table's name and line, so that errors about it can point there.
public struct ConfiguredSource: Sendable {
    public var settings: any SourceSettings
    /// The dotted key of the table's name, such as `table.name`.
    public var nameKey: String
    public var line: Int?

    public init(_ settings: any SourceSettings, nameKey: String, line: Int?) {
        self.settings = settings
        self.nameKey = nameKey
        self.line = line
    }
}

extension Config {
    /// The shared tables and their keys.
    static let sharedSchema: [String: [String]] = [
        "poll": ["interval", "overlap", "page_size", "first_retry", "deadline"],
        "notify": ["summary_threshold", "desktop", "alert_after_failures", "quiet", "min_priority", "min_severity",
                   "unmute_on", "opener"],
        "log": ["keep", "max_changes", "max_polls"],
    ]

    /// The keys each table accepts with these kinds of source; anything else is a typo and is reported, never
    /// silently ignored. Every one is in etc/config.example.toml and docs/configuration.md
    /// (ConfigurationReferenceTests).
    public static func schema(_ kinds: [any SourceKind]) -> [String: [String]] {
        var schema = sharedSchema
        for kind in kinds {
            schema.merge(kind.tables) { $0 + $1 }
            schema.merge(kind.sharedKeys) { $0 + $1 }
        }
        return schema
    }

    /// Reads `config.toml` text with these kinds of source. Every error names the file, the line and the dotted
    /// key, and says what is expected.
    public static func parse(_ text: String, file: String, kinds: [any SourceKind]) throws(ConfigError) -> Config {
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
        let reader = ConfigReader(file: file, schema: schema(kinds))
        return try reader.config(root, kinds: kinds)
    }
}

/// Turns the TOML tree into a `Config`, with located errors. Source kinds read their tables with it.
public struct ConfigReader: Sendable {
    public let file: String
    /// The keys each table accepts (`Config.schema`).
    let schema: [String: [String]]

    public func error(_ value: TOMLValue?, _ key: String, _ message: String) -> ConfigError {
        ConfigError(file: file, line: value?.line, key: key, message: message)
    }

    func config(_ root: TOMLTable, kinds: [any SourceKind]) throws(ConfigError) -> Config {
        for key in root.keys where schema[key] == nil {
            let tables = kinds.flatMap { $0.tables.keys.sorted() }.map { "[\($0)]" }
            throw error(root[key], key, "unknown setting; expected the tables \(tables.joined(separator: ", ")), "
                            + "[poll], [notify] and [log]")
        }
        var sources: [ConfiguredSource] = []
        for kind in kinds { sources += try kind.sources(in: root, reader: self) }
        guard !sources.isEmpty else {
            // No table is the one to blame: say what each tracker needs (config.example.toml has each, commented).
            throw ConfigError(file: file, line: nil, key: nil,
                              message: "no tracker to watch; uncomment or add your tracker's table: "
                                  + kinds.map(\.advice).joined(separator: "; or "))
        }
        var seen: [String: ConfiguredSource] = [:]
        for source in sources {
            if let other = seen[source.settings.sourceName] {
                throw ConfigError(
                    file: file, line: source.line, key: source.nameKey,
                    message: "\"\(source.settings.sourceName)\" also names the source at line \(other.line.map(String.init) ?? "?"); "
                        + "each source needs a name of its own (it names its state folder)")
            }
            seen[source.settings.sourceName] = source
        }
        let poll = try root["poll"].map { (value) throws(ConfigError) in try table(value, "poll") }
        let notify = try root["notify"].map { (value) throws(ConfigError) in try table(value, "notify") }
        let log = try root["log"].map { (value) throws(ConfigError) in try table(value, "log") }
        return Config(sources: sources.map(\.settings), poll: try self.poll(poll), notify: try self.notify(notify),
                      log: try self.log(log))
    }

    /// `value` as the table `name`, holding only the keys `name` accepts.
    public func table(_ value: TOMLValue, _ name: String) throws(ConfigError) -> TOMLTable {
        guard case .table(let table) = value.kind else {
            throw error(value, name, "expected a table [\(name)], found \(value.typeName)")
        }
        for key in table.keys where !(schema[name] ?? []).contains(key) {
            throw error(table[key], "\(name).\(key)",
                        "unknown key; expected one of: \((schema[name] ?? []).joined(separator: ", "))")
        }
        return table
    }

    /// `value` as an array of tables `[[name]]`, each holding only the keys `name` accepts.
    public func tables(_ value: TOMLValue, _ name: String) throws(ConfigError) -> [(table: TOMLTable, line: Int?)] {
        guard case .array(let items) = value.kind else {
            throw error(value, name, "expected [[\(name)]] tables (double brackets: one per \(name) source)")
        }
        var tables: [(TOMLTable, Int?)] = []
        for item in items { tables.append((try table(item, name), item.line)) }
        return tables
    }

    /// Every `[[name]]` table of `root` as a source, each read by `read` (its header's line given), their names unique
    /// within the kind (the configuration checks them across kinds).
    public func sourceTables(
        _ root: TOMLTable, _ name: String, _ read: (TOMLTable, Int?) throws(ConfigError) -> any SourceSettings
    ) throws(ConfigError) -> [ConfiguredSource] {
        guard let value = root[name] else { return [] }
        var sources: [ConfiguredSource] = []
        for (table, line) in try tables(value, name) {
            let settings = try read(table, line)
            if let other = sources.first(where: { $0.settings.sourceName == settings.sourceName }) {
                throw ConfigError(
                    file: file, line: table["name"]?.line ?? line, key: "\(name).name",
                    message: "\"\(settings.sourceName)\" also names the [[\(name)]] at line "
                        + "\(other.line.map(String.init) ?? "?"); give each [[\(name)]] a name of its own (it names "
                        + "its state folder)")
            }
            sources.append(ConfiguredSource(settings, nameKey: "\(name).name", line: line))
        }
        return sources
    }

    /// `key` of `table` as a server's URL: `http(s)://` with a host, no user name or password (refused without being
    /// quoted: it may be a secret), no query or fragment, without its trailing slashes; `nil` when absent.
    /// `expected` says what belongs there ("your Jira site, such as https://…").
    public func serverURL(_ table: TOMLTable, _ name: String, _ key: String, expected: String) throws(ConfigError) -> String? {
        guard var url = try string(table, name, key) else { return nil }
        guard !ServerURL.hasUserInfo(url) else {
            throw error(
                table[key], "\(name).\(key)",
                "must not contain a user name or password (the part before @, not shown here); put the token in "
                    + "token_file")
        }
        let lower = url.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), ServerURL.host(of: url) != nil,
            !url.contains("?"), !url.contains("#")
        else {
            throw error(table[key], "\(name).\(key)", "expected \(expected), found \"\(url.prefix(80))\"")
        }
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    /// The secret's source among `keys` of `table` (at most one may be set): `password_file`, `token_file`,
    /// `password_command` or `token_command`, `credential` (systemd), `keyring = true` (looked up under
    /// `keyringAttributes`); `nil` when none is set.
    public func credential(
        _ table: TOMLTable, _ name: String, keys: [String], keyringAttributes: [String]
    ) throws(ConfigError) -> CredentialSource? {
        let set = keys.filter { table[$0] != nil }
        if set.count > 1 {
            throw error(table[set[1]], "\(name).\(set[1])",
                        "set only one of \(set.joined(separator: " and ")): each is a complete password source")
        }
        guard let key = set.first else { return nil }
        if key == "keyring" {
            return try boolean(table, name, key) == true ? .keyring(attributes: keyringAttributes) : nil
        }
        guard let value = try string(table, name, key) else { return nil }
        guard !value.isEmpty else { throw error(table[key], "\(name).\(key)", "must not be empty") }
        switch key {
        case "password_file": return .passwordFile(path: resolved(value))
        case "token_file": return .tokenFile(path: resolved(value))
        case "password_command": return .passwordCommand(value)
        case "token_command": return .tokenCommand(value)
        case "credential":
            guard !value.contains("/") else { throw error(table[key], "\(name).credential", "expected a credential name without /") }
            return .systemdCredential(name: value)
        default: return nil
        }
    }

    /// A relative path in the file is relative to the file's directory, not to wherever trackwatch was started
    /// (a unit starts it in the home directory, a terminal anywhere). `~/…` and absolute paths stay as written.
    public func resolved(_ path: String) -> String {
        guard !path.hasPrefix("/"), path != "~", !path.hasPrefix("~/"), let slash = file.lastIndex(of: "/") else { return path }
        return String(file[...slash]) + path
    }

    /// `proxy = "http://host:port"` (credentials allowed), or `""` for none; absent: the environment decides.
    public func proxy(_ table: TOMLTable, _ name: String) throws(ConfigError) -> ProxySetting {
        guard let text = try string(table, name, "proxy") else { return .environment }
        if text.isEmpty { return .direct }
        do {
            return .proxy(try ProxyURL(parsing: text))
        } catch {
            throw self.error(
                table["proxy"], "\(name).proxy",
                "\(error.message) (expected \"http://host:port\", or \"\" for no proxy)")
        }
    }

    /// A source's `name`: letters, digits, `-`, `_` and `.`, as it names a state folder.
    public func sourceName(_ table: TOMLTable, _ name: String, default fallback: String?, line: Int?) throws(ConfigError) -> String {
        guard let text = try string(table, name, "name") ?? fallback else {
            throw ConfigError(file: file, line: line, key: "\(name).name",
                              message: "missing; each [[\(name)]] needs a name (letters, digits, - _ .), e.g. name = \"team\"")
        }
        guard Self.isProfileName(text) else {
            throw error(table["name"], "\(name).name",
                        "expected letters, digits, - _ or . (it names a state directory), found \"\(text.prefix(40))\"")
        }
        return text
    }

    public static func isProfileName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && name != "." && name != ".."
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") }
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
        config.deadline = try duration(table, "poll", "deadline", range: 1...3_600) ?? config.deadline
        return config
    }

    func log(_ table: TOMLTable?) throws(ConfigError) -> LogConfig {
        var config = LogConfig()
        guard let table else { return config }
        config.keep = try duration(table, "log", "keep", range: 3_600...(100 * 366 * 86_400)) ?? config.keep
        config.maxChanges = try integer(table, "log", "max_changes", range: 1...10_000_000) ?? config.maxChanges
        config.maxPolls = try integer(table, "log", "max_polls", range: 1...10_000_000) ?? config.maxPolls
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
        config.rules.unmuteOn = try stringArray(table, "notify", "unmute_on")
        config.opener = try string(table, "notify", "opener") ?? config.opener
        return config
    }

    // MARK: Typed values

    public func requiredString(_ table: TOMLTable, _ name: String, _ key: String, example: String, line: Int? = nil) throws(ConfigError) -> String {
        guard let text = try string(table, name, key) else {
            throw ConfigError(file: file, line: line, key: "\(name).\(key)",
                              message: "missing; add \(key) = \"\(example)\" under [\(name)]")
        }
        guard !text.isEmpty else { throw error(table[key], "\(name).\(key)", "must not be empty") }
        return text
    }

    public func string(_ table: TOMLTable, _ name: String, _ key: String) throws(ConfigError) -> String? {
        guard let value = table[key] else { return nil }
        guard case .string(let text) = value.kind else {
            throw error(value, "\(name).\(key)", "expected a string, found \(value.typeName)")
        }
        return text
    }

    public func stringArray(_ table: TOMLTable, _ name: String, _ key: String) throws(ConfigError) -> [String]? {
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

    public func boolean(_ table: TOMLTable, _ name: String, _ key: String) throws(ConfigError) -> Bool? {
        guard let value = table[key] else { return nil }
        guard case .boolean(let flag) = value.kind else {
            throw error(value, "\(name).\(key)", "expected true or false, found \(value.typeName)")
        }
        return flag
    }

    public func integer(_ table: TOMLTable, _ name: String, _ key: String, range: ClosedRange<Int>) throws(ConfigError) -> Int? {
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
    public func duration(_ table: TOMLTable, _ name: String, _ key: String, range: ClosedRange<Int>) throws(ConfigError) -> Int? {
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
    public static func seconds(in text: String) -> Int? {
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
            + "[[github]] (see config.example.toml in /usr/share/doc/trackwatch or etc/ of the source)"
    }
}
