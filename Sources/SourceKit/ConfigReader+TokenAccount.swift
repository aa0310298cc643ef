import TrackwatchCore

extension ConfigReader {
    /// The account of a table signed in with a token, read in the order its errors are told: `name` (`defaultName`
    /// when left out), `url` as `url` reads and checks it, the token's keys (missing: `token_file` with `what` the
    /// token is and where to make it), then the connection's keys.
    public func tokenAccount(
        _ table: TOMLTable, _ kind: String, defaultName: String, line: Int?, token what: String,
        url readURL: (TOMLTable) throws(ConfigError) -> String
    ) throws(ConfigError) -> TrackerAccount {
        let name = try sourceName(table, kind, default: defaultName, line: line)
        let url = try readURL(table)
        let credential = try requiredCredential(
            table, kind, url: url, user: name, line: line, missing: Self.missingToken(kind, what))
        return try account(table, kind, name: name, url: url, credential: credential)
    }
}
