import Logging
import SourceKit
import TrackwatchCore

/// The validators of the last committed answer (`ETag`, `Last-Modified`), kept in the source's store with the
/// item count they vouch for. Stored only after the answer's items were committed and forgotten before a new
/// answer is, so that a 304 never stands for items that were never stored. Kept only for lists of one page: a
/// 304 for the first page says nothing about the others.
struct ConditionalState {
    let config: JSONListConfig
    let state: any PollState
    let logger: Logger

    static let key = "conditional"

    struct Stored: Equatable {
        var validators: Validators
        var count: Int
    }

    /// What the store holds, if it was stored for this configuration (another url, items, key or fields make
    /// other records of the same answer).
    func load() -> Stored? {
        guard let text = try? state.value(forKey: Self.key) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count == 4, lines[0] == fingerprint, let count = Int(lines[1]), count >= 0 else { return nil }
        let validators = Validators(
            etag: lines[2].isEmpty ? nil : lines[2],
            lastModified: lines[3].isEmpty ? nil : lines[3])
        return Stored(validators: validators, count: count)
    }

    func forget() throws { try state.setValue(nil, forKey: Self.key) }

    /// Stores `stored`; a failure only costs the next poll a full answer.
    func store(_ stored: Stored) {
        let text = [fingerprint, "\(stored.count)", stored.validators.etag ?? "", stored.validators.lastModified ?? ""]
            .joined(separator: "\n")
        do { try state.setValue(text, forKey: Self.key) } catch {
            logger.warning("could not store the list's validators", metadata: ["error": "\(error)"])
        }
    }

    /// What the stored records depend on besides the answer.
    var fingerprint: String {
        let parts = [
            config.url, config.items.description, config.key.name,
            config.fields.map { $0.map(\.name).joined(separator: "\u{1}") } ?? "*",
            config.ignore.map(\.name).joined(separator: "\u{1}"),
            config.describingFields.map(\.name).joined(separator: "\u{1}"),
        ]
        return "v1 " + String(ListReader.digest(Array(parts.joined(separator: "\u{0}").utf8)), radix: 16)
    }
}
