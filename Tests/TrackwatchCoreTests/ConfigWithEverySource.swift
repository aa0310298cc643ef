import TrackwatchApp
import TrackwatchCore

// The configuration tests read files as trackwatch does: with the tables of every kind of source it knows.
extension Config {
    static func parse(_ text: String, file: String) throws(ConfigError) -> Config {
        try parse(text, file: file, kinds: SourceRegistry.kinds)
    }

    /// Every table's keys, with every kind of source.
    static var schema: [String: [String]] { schema(SourceRegistry.kinds) }
}
