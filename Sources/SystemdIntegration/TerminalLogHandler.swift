import Logging
import TrackwatchCore

/// swift-log's `StreamLogHandler` on stderr, for commands and for the daemon outside systemd, with the message
/// and every metadata value made one literal, bounded line first (`SafeText.oneLine`): log lines carry the
/// server's text (error messages, headlines), and a terminal must neither run its escape sequences nor show a
/// line break in it as a log line of its own, nor a line as long as the server likes.
public struct TerminalLogHandler: LogHandler {
    /// The longest message, and the longest metadata value, in characters.
    static let messageLimit = 1_000, valueLimit = 300

    private var stream: StreamLogHandler
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    public init(label: String) {
        stream = StreamLogHandler.standardError(label: label, metadataProvider: nil)
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var event = event
        var merged = metadata.merging(event.metadata ?? [:]) { $1 }
        if let error = event.error {
            merged["error.message"] = "\(error)"
            event.error = nil
        }
        event.metadata = merged.isEmpty ? nil : merged.mapValues(Self.literal)
        event.message = "\(SafeText.oneLine(event.message.description, limit: Self.messageLimit))"
        stream.log(event: event)
    }

    static func literal(_ value: Logger.MetadataValue) -> Logger.MetadataValue {
        switch value {
        case .string(let text): .string(SafeText.oneLine(text, limit: valueLimit))
        case .stringConvertible(let value): .string(SafeText.oneLine(value.description, limit: valueLimit))
        case .array(let values): .array(values.prefix(20).map(literal))
        case .dictionary(let values):
            .dictionary(Dictionary(values.prefix(20).map { (SafeText.oneLine($0.key, limit: 64), literal($0.value)) }) { $1 })
        }
    }
}
