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
            let store = try StateStore(directory: options.paths().stateDirectory)
            if records.isEmpty {
                for (record, since) in try store.mutedRecords().sorted(by: { $0.key < $1.key }) {
                    print("\(record)  muted since \(StatusJSON.time(since))")
                }
                return
            }
            for record in try records.map(Self.recordID) {
                try store.mute(record, at: SystemClocks.wallTime())
                print("\(record) muted: its changes are journaled, not shown, until it changes owner or state")
            }
        } catch {
            throw fail(error)
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
            let store = try StateStore(directory: options.paths().stateDirectory)
            for record in try records.map(Mute.recordID) {
                print(try store.unmute(record) ? "\(record) unmuted" : "\(record) was not muted")
            }
        } catch let error as ValidationError {
            throw error
        } catch {
            throw fail(error)
        }
    }
}
