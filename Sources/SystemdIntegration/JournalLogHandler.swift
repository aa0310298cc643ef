import Logging
import TrackwatchCore
#if canImport(Glibc)
import Glibc
#endif

/// A swift-log backend writing structured journal entries: the level becomes `PRIORITY`, metadata keys
/// become upper-case fields (`TRACKWATCH_…`), the message is `MESSAGE`.
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public let label: String

    public init(label: String) { self.label = label }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        Journal.send(Self.fields(level: event.level, message: event.message,
                                 metadata: metadata.merging(event.metadata ?? [:]) { $1 },
                                 file: event.file, function: event.function, line: event.line))
    }

    /// The longest field value, in characters.
    static let valueLimit = 4_000

    static func fields(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata, file: String,
                       function: String, line: UInt) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = [
            ("MESSAGE", metadata["error"].map { "\(message): \($0)" } ?? "\(message)"),
            ("PRIORITY", String(priority(of: level).rawValue)),
            ("SYSLOG_IDENTIFIER", "trackwatch"),
            ("CODE_FILE", file), ("CODE_LINE", String(line)), ("CODE_FUNC", function),
        ]
        // Programs read these fields whole; bounded all the same, as a field can hold the server's text.
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            fields.append(("TRACKWATCH_" + Journal.fieldName(key), SafeText.bounded("\(value)", valueLimit)))
        }
        return fields
    }

    public static func priority(of level: Logger.Level) -> Journal.Priority {
        switch level {
        case .trace, .debug: return .debug
        case .info: return .info
        case .notice: return .notice
        case .warning: return .warning
        case .error: return .error
        case .critical: return .critical
        }
    }

    /// True when stderr is connected to the journal (systemd sets `JOURNAL_STREAM` to its device and inode),
    /// so that logging natively loses nothing and duplicates nothing.
    public static func stderrIsJournal(environment: [String: String]) -> Bool {
        guard let stream = environment["JOURNAL_STREAM"] else { return false }
        let parts = stream.split(separator: ":").compactMap { UInt64($0) }
        var info = stat()
        guard parts.count == 2, fstat(2, &info) == 0 else { return false }
        return UInt64(info.st_dev) == parts[0] && UInt64(info.st_ino) == parts[1]
    }
}
