import ArgumentParser
import StateStore
import TrackwatchApp
import TrackwatchCore

struct Mute: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Stop bubbles for a record until it changes owner or state.",
        discussion: """
            Changes of a muted record are still journaled. The mute ends by itself when a change touches a \
            field listed in unmute_on (default Owner and State) or the record enters or leaves your records; \
            `trackwatch unmute ID` ends it at once. Without an ID, lists the muted records. Works while the \
            daemon runs.
            """)

    @OptionGroup var options: ConfigOptions

    @Argument(help: "Record id, e.g. SAMPL00000042.")
    var records: [String] = []

    func validate() throws { _ = try records.map(Self.recordID) }

    func run() throws {
        do {
            // With several servers a record id is muted on each: ids carry their database's prefix, so only
            // the server that has it ever sees it change.
            let stores = try options.stores()
            if records.isEmpty {
                for (label, store) in stores {
                    for (record, since) in try store.mutedRecords().sorted(by: { $0.key < $1.key }) {
                        Console.line("\(record)  muted since \(StatusJSON.time(since))\(label.map { "  (\($0))" } ?? "")")
                    }
                }
                return
            }
            let lifters = (try? options.loadConfiguration().notify.rules.unmuteOn) ?? BubbleRules().unmuteOn
            for record in try records.map(Self.recordID) {
                for (_, store) in stores { try store.mute(record, at: SystemClocks.wallTime()) }
                Console.line("\(record) muted: its changes are journaled, not shown, until \(Self.describe(lifters)) changes or it enters or leaves your records")
            }
        } catch {
            throw fail(error)
        }
    }

    /// `Owner or State` from `unmute_on`.
    static func describe(_ fields: [String]) -> String {
        switch fields.count {
        case 0: "it"
        case 1: "its \(fields[0])"
        default: "its " + fields.dropLast().joined(separator: ", ") + " or " + fields[fields.count - 1]
        }
    }

    /// Record ids are what people copy from bubbles and the web client; anything else is a typo.
    static func recordID(_ text: String) throws -> RecordID {
        guard !text.isEmpty, text.count <= 64, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) else {
            throw ValidationError("\"\(text)\" is not a record id such as SAMPL00000042")
        }
        return RecordID(text)
    }
}

struct Unmute: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show bubbles for a muted record again.")

    @OptionGroup var options: ConfigOptions

    @Argument(help: "Record id, e.g. SAMPL00000042.")
    var records: [String]

    func validate() throws { _ = try records.map(Mute.recordID) }

    func run() throws {
        do {
            let stores = try options.stores()
            for record in try records.map(Mute.recordID) {
                var was = false
                for (_, store) in stores where try store.unmute(record) { was = true }
                Console.line(was ? "\(record) unmuted" : "\(record) was not muted")
            }
        } catch let error as ValidationError {
            throw error
        } catch {
            throw fail(error)
        }
    }
}
