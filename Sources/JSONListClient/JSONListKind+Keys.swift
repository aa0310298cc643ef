import TrackwatchCore

// `[[json]]`'s credentials, request headers and paging keys.

extension ConfigReader {
    static let secretKeys = ["password_file", "token_file", "password_command", "credential", "keyring"]

    /// At most one way: `username` with a password (Basic), a token alone (Bearer), or `header` with a token.
    func listCredentials(_ table: TOMLTable, url: String, name: String) throws(ConfigError) -> ListCredentials {
        let username = try string(table, "json", "username")
        let header = try string(table, "json", "header")
        // As for Compass: `secret-tool store --label=trackwatch service trackwatch server URL user NAME`.
        let attributes = ["service", "trackwatch", "server", url, "user", username ?? name]
        let secret = try credential(table, "json", keys: Self.secretKeys, keyringAttributes: attributes)
        if username != nil, header != nil {
            throw error(
                table["header"], "json.header",
                "set username (HTTP Basic) or header (a token in that header), "
                    + "not both")
        }
        if let username {
            guard !username.isEmpty, !username.contains(":") else {
                throw error(table["username"], "json.username", "expected a user name without a colon (HTTP Basic)")
            }
            guard let secret else {
                throw error(
                    table["username"], "json.username",
                    "needs a password: add password_file (or "
                        + "password_command, keyring, credential)")
            }
            return .basic(username: username, password: secret)
        }
        if let header {
            guard Self.isHeaderName(header), !Self.reservedHeaders.contains(header.lowercased()) else {
                throw error(
                    table["header"], "json.header",
                    "expected a header name such as \"X-API-Key\" or "
                        + "\"PRIVATE-TOKEN\", found \"\(header.prefix(40))\"")
            }
            guard let secret else {
                throw error(
                    table["header"], "json.header",
                    "needs a token: add token_file (or password_command, "
                        + "keyring, credential)")
            }
            return .header(name: header, token: secret)
        }
        guard let secret else { return .none }
        if case .passwordFile = secret {
            throw error(
                table["password_file"], "json.password_file",
                "a password is for HTTP Basic: add username; "
                    + "for a token use token_file (sent as Authorization: Bearer)")
        }
        return .bearer(secret)
    }

    /// Headers trackwatch sets itself, or that would carry a secret in the configuration file.
    static let reservedHeaders: Set<String> = [
        "host", "content-length", "transfer-encoding", "connection", "accept-encoding", "if-none-match",
        "if-modified-since", "authorization", "proxy-authorization", "cookie",
    ]

    static func isHeaderName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64
            && name.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
                        || "!#$%&'*+-.^_`|~".unicodeScalars.contains($0))
            }
    }

    /// `headers = { Accept = "application/vnd.github+json" }`.
    func headerFields(_ table: TOMLTable) throws(ConfigError) -> [HeaderField] {
        guard let value = table["headers"] else { return [] }
        guard case .table(let headers) = value.kind else {
            throw error(
                value, "json.headers",
                "expected an inline table such as { Accept = \"application/json\" }, "
                    + "found \(value.typeName)")
        }
        var fields: [HeaderField] = []
        for name in headers.keys {
            let key = "json.headers.\(name.prefix(40))"
            guard Self.isHeaderName(name) else { throw error(headers[name], key, "expected a header name") }
            guard !Self.reservedHeaders.contains(name.lowercased()) else {
                throw error(
                    headers[name], key,
                    name.lowercased().contains("authorization") || name.lowercased() == "cookie"
                        ? "a secret does not belong in the configuration: put the token in token_file (with header = "
                            + "\"…\" for another header than Authorization: Bearer)"
                        : "trackwatch sets this header itself")
            }
            guard case .string(let text) = headers[name]?.kind, text.count <= 1_000,
                text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
            else { throw error(headers[name], key, "expected a string of at most 1000 characters on one line") }
            fields.append(HeaderField(name: name, value: text))
        }
        return fields
    }

    /// `next`, `cursor`/`cursor_param`, `page_param`/`per_page_param`/`per_page`, `offset_param`/`limit_param`/
    /// `limit`, `total`: at most one style besides `Link` headers.
    func paging(_ table: TOMLTable) throws(ConfigError) -> PagingConfig {
        var paging = PagingConfig()
        paging.next = try pointer(table, "next")
        paging.cursor = try pointer(table, "cursor")
        paging.cursorParam = try parameter(table, "cursor_param")
        paging.pageParam = try parameter(table, "page_param")
        paging.perPageParam = try parameter(table, "per_page_param")
        paging.perPage = try integer(table, "json", "per_page", range: 1...10_000)
        paging.offsetParam = try parameter(table, "offset_param")
        paging.limitParam = try parameter(table, "limit_param")
        paging.limit = try integer(table, "json", "limit", range: 1...10_000)
        paging.total = try pointer(table, "total")
        let styles = ["next", "cursor", "page_param", "offset_param"].filter { table[$0] != nil }
        if styles.count > 1 {
            throw error(
                table[styles[1]], "json.\(styles[1])", "set one way of paging: \(styles.joined(separator: " or "))")
        }
        try requireTogether(table, "cursor", "cursor_param")
        try requireTogether(table, "per_page_param", "per_page")
        try requireTogether(table, "limit_param", "limit")
        try require(table, "per_page_param", with: "page_param")
        try require(table, "limit_param", with: "offset_param")
        return paging
    }

    private func pointer(_ table: TOMLTable, _ key: String) throws(ConfigError) -> JSONPointer? {
        guard let text = try string(table, "json", key) else { return nil }
        guard let pointer = JSONPointer(text), !text.isEmpty else {
            throw error(table[key], "json.\(key)", Self.pointerAdvice(text))
        }
        return pointer
    }

    private func parameter(_ table: TOMLTable, _ key: String) throws(ConfigError) -> String? {
        guard let text = try string(table, "json", key) else { return nil }
        guard !text.isEmpty, text.count <= 64,
            text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && !"&=#?%+".unicodeScalars.contains($0) })
        else {
            throw error(
                table[key], "json.\(key)",
                "expected a query parameter name such as \"page\", found \"\(text.prefix(40))\"")
        }
        return text
    }

    private func requireTogether(_ table: TOMLTable, _ one: String, _ other: String) throws(ConfigError) {
        if table[one] != nil, table[other] == nil {
            throw error(table[one], "json.\(one)", "needs \(other) too")
        }
        if table[other] != nil, table[one] == nil {
            throw error(table[other], "json.\(other)", "needs \(one) too")
        }
    }

    private func require(_ table: TOMLTable, _ key: String, with needed: String) throws(ConfigError) {
        if table[key] != nil, table[needed] == nil { throw error(table[key], "json.\(key)", "needs \(needed) too") }
    }
}
