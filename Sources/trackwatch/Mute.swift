import ArgumentParser
import SourceKit
import StateStore
import TrackwatchApp
import TrackwatchCore

struct Mute: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mute",
        abstract: "Stop bubbles for a record until its owner or state changes.",
        discussion: """
            Changes of a muted record are still journaled. The mute ends by itself when a change touches a \
            field listed in unmute_on (default: its owner and state as its tracker names them, e.g. Assignee \
            and Status on Jira) or the record enters or leaves your records; `trackwatch unmute ID` ends it at \
            once. Without an ID, lists the muted records. Works while the daemon runs. Quote an id with ! or # \
            for the shell: trackwatch mute 'platform/web!4'.
            """)

    @OptionGroup var options: ConfigOptions

    @Argument(help: ArgumentHelp(
        "Record id as bubbles and `trackwatch log` show it, e.g. WEB-42, acme/web#7, 'platform/web!4', SAMPL00000042.",
        valueName: "id"))
    var records: [String] = []

    @Option(help: ArgumentHelp("Only in this source (its table's name); default: every source.", valueName: "name"))
    var source: String?

    func validate() throws { _ = try records.map(Self.recordID) }

    func run() throws {
        do {
            // With several sources a record id is muted on each (unless --source names one): ids mostly carry
            // their database's or project's prefix, so only the source that has it ever sees it change.
            let (config, all) = try options.configuredStores()
            let chosen = try Self.chosen(all, source: source, config: config)
            let stores = chosen.map { ($0.source.flatMap { $0.stateFolder.isEmpty ? nil : $0.label }, $0.store) }
            if records.isEmpty {
                for (label, store) in stores {
                    for (record, since) in try store.mutedRecords().sorted(by: { $0.key < $1.key }) {
                        Console.line("\(record)  muted since \(StatusJSON.time(since))\(label.map { "  (\($0))" } ?? "")")
                    }
                }
                return
            }
            let owned = Set(chosen.compactMap { $0.source?.ownerAndStateFields })
            let assigns = chosen.contains { $0.source?.assignsRecords ?? true }
            let lifters = config?.notify.rules.unmuteOn ?? (owned.count <= 1 ? owned.first ?? BubbleRules.ownerAndState : nil)
            for record in try records.map(Self.recordID) {
                for (_, store) in stores { try store.mute(record, at: SystemClocks.wallTime()) }
                let until = lifters.map(Self.describe) ?? "its owner or state"
                if lifters?.isEmpty == true {  // a list without a `by` field: nothing it says lifts a mute
                    Console.line("\(record) muted: its changes are journaled, not shown, until `trackwatch unmute \(record)`")
                } else {
                    let orAssignment = assigns ? " or it enters or leaves your records" : ""
                    Console.line("\(record) muted: its changes are journaled, not shown, until \(until) changes\(orAssignment)")
                }
            }
        } catch let error as ValidationError {
            throw error
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

    /// A record id as people copy it from bubbles, `log` and the trackers' pages (`RecordID.typed`): any source's
    /// key, never a control character or more than `RecordID.longestTyped` bytes.
    static func recordID(_ text: String) throws -> RecordID {
        do {
            return try RecordID.typed(text)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The stores of the source named `source`, or all of them.
    static func chosen(
        _ stores: [(source: (any SourceSettings)?, store: StateStore)], source: String?, config: Config?
    ) throws -> [(source: (any SourceSettings)?, store: StateStore)] {
        guard let source else { return stores }
        let named = stores.filter { $0.source?.sourceName == source }
        guard !named.isEmpty else {
            let names = config?.sources.map(\.sourceName).joined(separator: ", ") ?? "none"
            throw ValidationError("no source is named \(source); the configuration has: \(names)")
        }
        return named
    }
}

struct Unmute: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unmute", abstract: "Show bubbles for a muted record again.")

    @OptionGroup var options: ConfigOptions

    @Argument(help: ArgumentHelp("Record id, as `trackwatch mute` lists it.", valueName: "id"))
    var records: [String]

    @Option(help: ArgumentHelp("Only in this source (its table's name); default: every source.", valueName: "name"))
    var source: String?

    func validate() throws { _ = try records.map(Mute.recordID) }

    func run() throws {
        do {
            let (config, all) = try options.configuredStores()
            let stores = try Mute.chosen(all, source: source, config: config)
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
