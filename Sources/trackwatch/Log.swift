import ArgumentParser
import StateStore
import TrackwatchApp
import TrackwatchCore

struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Show past changes from the state store, newest first.",
        discussion: """
            Examples: `trackwatch log --since 1d`, `trackwatch log --record WEB-42 --json`, `trackwatch log --record 'platform/web!4'`, \
            `trackwatch log --html > changes.html`. \
            --since takes a duration back from now (30m, 12h, 1d, 2w) or a date (2026-11-20, UTC).
            """)

    @OptionGroup var options: ConfigOptions

    @Option(help: ArgumentHelp("Only changes detected since then: 30m, 12h, 1d, 2w, or YYYY-MM-DD.", valueName: "when"))
    var since: String?

    @Option(help: ArgumentHelp("Only this record's changes (its id as a line of the log shows it).", valueName: "id"))
    var record: String?

    @Option(help: "At most this many changes.")
    var limit: Int = 100

    @Flag(help: "One JSON object per line, as `check --json` prints, plus `detected`.")
    var json = false

    @Flag(help: ArgumentHelp(
        "An HTML page of the changes, as the daemon keeps it in the state directory (changes.html), on stdout.",
        discussion: "Each record is linked to its page in its tracker (for HCL Compass, web_url in [notify])."))
    var html = false

    func validate() throws {
        if json && html { throw ValidationError("--json and --html: choose one") }
        if let since, Self.start(since, now: 0) == nil {
            throw ValidationError("--since \(since): expected a duration such as 30m, 12h, 1d, 2w, or a date such as 2026-11-20")
        }
        guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
        _ = try record.map(Mute.recordID)
    }

    func run() throws {
        do {
            let from = since.flatMap { Self.start($0, now: SystemClocks.wallTime()) }
            let id = try record.map(Mute.recordID)
            if html {
                let page = try RecentChanges.page(stores: try options.configuredStores().stores, since: from,
                                                  record: id, limit: limit, now: SystemClocks.wallTime())
                print(page, terminator: "")
                return
            }
            // Several servers: their logs merged, newest first, each line naming its server.
            let stores = try options.stores()
            var changes: [(server: String?, change: StoredChange)] = []
            for (label, store) in stores {
                changes += try store.changes(since: from, record: id, limit: limit).map { (label, $0) }
            }
            changes.sort { $0.change.detectedAt > $1.change.detectedAt }
            for (server, stored) in changes.prefix(limit) {
                if json {
                    Console.json(ChangeLine(stored.change, detectedAt: StatusJSON.time(stored.detectedAt), server: server,
                                            muted: stored.muted).json)
                } else {
                    let muted = stored.muted ? " [muted]" : ""
                    Console.line("\(SystemClocks.localDateTime(stored.detectedAt))  \(server.map { "[\($0)] " } ?? "")\(stored.change.sentence)\(muted)")
                }
            }
        } catch let error as ValidationError {
            throw error
        } catch {
            throw fail(error)
        }
    }

    /// Seconds since 1970 for `--since`: `now` minus a duration, or midnight UTC of a date.
    static func start(_ text: String, now: Double) -> Double? {
        let units: [Character: Double] = ["m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
        if let unit = text.last.flatMap({ units[$0] }), let count = Double(text.dropLast()), count >= 0 {
            return now - count * unit
        }
        let parts = text.split(separator: "-").map { Int($0) }
        guard parts.count == 3, let year = parts[0], let month = parts[1], let day = parts[2],
            (1970...9999).contains(year), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        return Double(daysSince1970(year: year, month: month, day: day) * 86_400)
    }

    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        return era * 146_097 + yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear - 719_468
    }

}
