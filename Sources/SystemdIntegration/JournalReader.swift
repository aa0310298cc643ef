import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// Reads back the journal entries this user can see. trackwatch uses it as the record of what it already
/// delivered: an entry carrying a change's `TRACKWATCH_CHANGE_ID` proves the change went out, even if the
/// process died before the state database could note it.
public enum JournalReader {
    /// The values of `field` among entries whose `field` is one of `values`. Empty when the journal cannot be
    /// opened or this user may not read the entries (then nothing is proven delivered).
    public static func presentValues(of field: String, among values: [String]) -> Set<String> {
        guard !values.isEmpty else { return [] }
        var journal: OpaquePointer?
        guard sd_journal_open(&journal, Int32(SD_JOURNAL_LOCAL_ONLY)) >= 0, let journal else { return [] }
        defer { sd_journal_close(journal) }
        for value in values {
            let match = Array("\(field)=\(value)".utf8)
            _ = match.withUnsafeBytes { sd_journal_add_match(journal, $0.baseAddress, $0.count) }
        }
        // Matches on the same field are ORed: one pass finds every entry with any of the values.
        let prefix = Array("\(field)=".utf8)
        var found = Set<String>()
        while sd_journal_next(journal) > 0 {
            var data: UnsafeRawPointer?
            var length = 0
            guard sd_journal_get_data(journal, field, &data, &length) >= 0, let data, length >= prefix.count else { continue }
            let bytes = UnsafeRawBufferPointer(start: data, count: length).dropFirst(prefix.count)
            found.insert(String(decoding: bytes, as: UTF8.self))
        }
        return found
    }
}
