import SourceKit
import TrackwatchCore

/// `[[json]]` tables: each watches one JSON list.
public struct JSONListKind: SourceKind {
    public init() {}

    static let keys = [
        "name", "url", "items", "key", "title", "fields", "ignore", "by", "link", "notify", "field_names", "value_names",
        "username", "password_file", "token_file", "header", "keyring", "password_command", "credential", "headers",
        "next", "cursor", "cursor_param", "page_param", "per_page_param", "per_page", "offset_param", "limit_param",
        "limit", "total", "max_pages", "max_size", "ca_file", "insecure", "timeout", "proxy",
    ]

    public var tables: [String: [String]] { ["json": Self.keys] }
    public var sharedKeys: [String: [String]] { [:] }
    public var advice: String { "a [[json]] table with name and url" }

    public func sources(in root: TOMLTable, reader: ConfigReader) throws(ConfigError) -> [ConfiguredSource] {
        guard let value = root["json"] else { return [] }
        var sources: [ConfiguredSource] = []
        for (table, line) in try reader.tables(value, "json") {
            sources.append(ConfiguredSource(try reader.jsonList(table, line: line), nameKey: "json.name", line: line))
        }
        return sources
    }
}

extension ConfigReader {
    func jsonList(_ table: TOMLTable, line: Int?) throws(ConfigError) -> JSONListConfig {
        let name = try sourceName(table, "json", default: nil, line: line)
        let url = try requiredString(table, "json", "url", example: "https://devices.example.com/devices", line: line)
        try checkURL(url, table)
        var config = JSONListConfig(name: name, url: url)
        if let items = try string(table, "json", "items") {
            guard let pointer = JSONPointer(items) else {
                throw error(table["items"], "json.items", Self.pointerAdvice(items))
            }
            config.items = pointer
        }
        if let key = try string(table, "json", "key") { config.key = try field(key, table, "key") }
        config.title = try template(table, "title")
        config.link = try template(table, "link")
        config.by = try string(table, "json", "by").map { (text) throws(ConfigError) in try field(text, table, "by") }
        config.fields = try fieldList(table, "fields")
        config.ignore = try fieldList(table, "ignore") ?? []
        if let fields = config.fields, let both = fields.first(where: config.ignore.contains) {
            throw error(
                table["ignore"], "json.ignore", "\(both) is in fields too; a field is either compared or ignored")
        }
        config.fieldNames = try readableNames(table, "field_names")
        config.valueNames = try readableValues(table)
        if let rule = try string(table, "json", "notify") {
            guard let parsed = WatchRule(rawValue: rule) else {
                throw error(
                    table["notify"], "json.notify",
                    "expected one of "
                        + WatchRule.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                        + ", found \"\(rule.prefix(40))\"")
            }
            config.rule = parsed
        }
        config.credentials = try listCredentials(table, url: url, name: name)
        config.headers = try headerFields(table)
        config.paging = try paging(table)
        config.maxPages = try integer(table, "json", "max_pages", range: 1...100_000) ?? config.maxPages
        config.maxSize = try size(table, "max_size") ?? config.maxSize
        config.caFile = try string(table, "json", "ca_file").map(resolved)
        config.insecure = try boolean(table, "json", "insecure") ?? false
        config.requestTimeout = try duration(table, "json", "timeout", range: 1...600) ?? config.requestTimeout
        config.proxy = try proxy(table, "json")
        return config
    }

    /// `field_names = { isCheckedOut = "Checked out" }`: each a name of one line, at most `nameLimit` characters.
    private func readableNames(
        _ table: TOMLTable, _ key: String, in parent: String = "json",
        example: String = "{ isCheckedOut = \"Checked out\" }"
    ) throws(ConfigError) -> [String: String] {
        let path = "\(parent).\(key)"
        guard let value = table[key] else { return [:] }
        guard case .table(let names) = value.kind else {
            throw error(value, path, "expected an inline table such as \(example), found \(value.typeName)")
        }
        guard names.keys.count <= JSONListConfig.readableNamesLimit else {
            throw error(value, path, "expected at most \(JSONListConfig.readableNamesLimit) names, found "
                + "\(names.keys.count)")
        }
        var readable: [String: String] = [:]
        for name in names.keys {
            guard case .string(let text) = names[name]?.kind, !text.isEmpty,
                text.count <= JSONListConfig.readableNameLimit, SafeText.oneLine(text) == text
            else {
                throw error(names[name], "\(path).\(name.prefix(40))",
                            "expected a name of at most \(JSONListConfig.readableNameLimit) characters on one line")
            }
            readable[name] = text
        }
        return readable
    }

    /// `value_names = { isCheckedOut = { true = "yes", false = "no" } }`: per field, a name for each value.
    private func readableValues(_ table: TOMLTable) throws(ConfigError) -> [String: [String: String]] {
        guard let value = table["value_names"] else { return [:] }
        guard case .table(let fields) = value.kind else {
            throw error(value, "json.value_names", "expected an inline table such as { isCheckedOut = { true = "
                + "\"yes\", false = \"no\" } }, found \(value.typeName)")
        }
        guard fields.keys.count <= JSONListConfig.readableNamesLimit else {
            throw error(value, "json.value_names", "expected at most \(JSONListConfig.readableNamesLimit) fields, "
                + "found \(fields.keys.count)")
        }
        var readable: [String: [String: String]] = [:]
        for field in fields.keys {
            readable[field] = try readableNames(
                fields, field, in: "json.value_names", example: "{ true = \"yes\", false = \"no\" }")
        }
        return readable
    }

    private func checkURL(_ url: String, _ table: TOMLTable) throws(ConfigError) {
        // Checked first, and the URL never quoted: the part before @ may be a password.
        guard !ServerURL.hasUserInfo(url) else {
            throw error(
                table["url"], "json.url",
                "must not contain a user name or password (the part before @, not "
                    + "shown here); put the user name in username and the password in password_file")
        }
        // A token in the query would be in every error message and log line that names the URL.
        if let query = url.split(separator: "?", maxSplits: 1).dropFirst().first,
            let name = query.split(separator: "&").map({ String($0.prefix { $0 != "=" }).lowercased() })
                .first(where: Self.secretParameters.contains)
        {
            throw error(table["url"], "json.url", "must not carry a secret (the \(name) parameter, not shown here); put "
                + "the token in token_file, with header = \"…\" if the server wants it in a header")
        }
        let lower = url.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), ServerURL.host(of: url) != nil,
            url.allSatisfy({ $0.isASCII && !$0.isWhitespace })
        else {
            throw error(
                table["url"], "json.url",
                "expected an http:// or https:// URL with a host and no spaces, "
                    + "found \"\(url.prefix(80))\"")
        }
    }

    /// Query parameters that carry a token (GitLab's `private_token`, OAuth's `access_token`, API keys).
    static let secretParameters: Set<String> = [
        "private_token", "access_token", "token", "api_key", "apikey", "api-key", "password", "secret",
    ]

    static func pointerAdvice(_ text: String) -> String {
        "expected a JSON Pointer: \"\" for the whole answer, or /name/… such as \"/data\" (~1 for a / in a name), "
            + "found \"\(text.prefix(60))\""
    }

    private func field(_ text: String, _ table: TOMLTable, _ key: String) throws(ConfigError) -> FieldPath {
        guard let field = FieldPath(text) else {
            throw error(
                table[key], "json.\(key)",
                text.isEmpty
                    ? "must not be empty"
                    : "expected a member name or a JSON Pointer such as \"/attributes/status\", "
                        + "found \"\(text.prefix(60))\""
            )
        }
        return field
    }

    private func fieldList(_ table: TOMLTable, _ key: String) throws(ConfigError) -> [FieldPath]? {
        guard let texts = try stringArray(table, "json", key) else { return nil }
        var fields: [FieldPath] = []
        for text in texts {
            let parsed = try field(text, table, key)
            if !fields.contains(parsed) { fields.append(parsed) }
        }
        if key == "fields", fields.isEmpty {
            throw error(
                table[key], "json.fields",
                "expected field names such as [\"status\", \"/meta/color\"]; "
                    + "leave it out to compare every field")
        }
        return fields
    }

    private func template(_ table: TOMLTable, _ key: String) throws(ConfigError) -> Template? {
        guard let text = try string(table, "json", key) else { return nil }
        do {
            return try Template(parsing: text)
        } catch {
            throw self.error(table[key], "json.\(key)", error.message)
        }
    }

    /// `"16MB"`, `"512 KB"`, `"1GB"` or a number of bytes; 1 KB to 1 GB.
    private func size(_ table: TOMLTable, _ key: String) throws(ConfigError) -> Int? {
        guard let value = table[key] else { return nil }
        let bytes: Int?
        switch value.kind {
        case .integer(let number): bytes = number
        case .string(let text): bytes = Self.bytes(in: text)
        default: bytes = nil
        }
        guard let bytes else {
            throw error(
                value, "json.\(key)",
                "expected a size such as \"64MB\", \"512KB\" or a number of bytes, found "
                    + Self.quoted(value))
        }
        guard (1_024...1_073_741_824).contains(bytes) else {
            throw error(value, "json.\(key)", "expected between 1KB and 1GB, found \(bytes) bytes")
        }
        return bytes
    }

    static func quoted(_ value: TOMLValue) -> String {
        if case .string(let text) = value.kind { return "\"\(text.prefix(40))\"" }
        return value.typeName
    }

    static func bytes(in text: String) -> Int? {
        let compact = text.filter { $0 != " " }.uppercased()
        let units: [(String, Int)] = [("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10), ("B", 1)]
        for (suffix, factor) in units where compact.hasSuffix(suffix) {
            let digits = compact.dropLast(suffix.count)
            guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy(\.isNumber), let number = Int(digits),
                number <= (1 << 40) / factor
            else { return nil }
            return number * factor
        }
        guard compact.count <= 12, compact.allSatisfy(\.isNumber) else { return nil }
        return Int(compact)
    }
}
