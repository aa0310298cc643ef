import TrackwatchCore

/// ClearQuest's notes: `Notes_Log` holds every note, each under a header line such as
/// `==== State: Opened by: alice on 2026-11-24 10:05:00 ====`, the newest last. A record keeps the newest note's first
/// line, how many notes there are and a fingerprint of the whole log — what a bubble needs to say "Note: Please
/// retest on Linux", and enough to see any change — not the log itself, which grows with every note.
enum NotesLog {
    /// `Please retest on Linux [3 notes, #9c1e…]`, or `""` for an empty log.
    static func summary(_ log: String) -> String {
        guard !log.isEmpty else { return "" }
        let notes = self.notes(in: log)
        let newest = notes.last ?? []
        let line = newest.first { !$0.allSatisfy(\.isWhitespace) }.map(String.init) ?? ""
        let count = notes.count == 1 ? "1 note" : "\(notes.count) notes"
        return "\(SafeText.bounded(SafeText.oneLine(line), 200)) [\(count), #\(Record.fingerprint(log))]"
    }

    /// The newest note's first line in a `summary`; `nil` when there is none.
    static func newestLine(ofSummary summary: String) -> String? {
        guard summary.hasSuffix("]"), let open = summary.ranges(of: " [").last else { return nil }
        let line = String(summary[..<open.lowerBound])
        return line.isEmpty ? nil : line
    }

    /// The notes, each as its lines: the text under each header; a log without headers is one note whose newest
    /// part is its last line.
    private static func notes(in log: String) -> [[Substring]] {
        let lines = log.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        var notes: [[Substring]] = []
        for line in lines {
            let trimmed = line.trimmingPrefix(while: \.isWhitespace)
            if trimmed.hasPrefix("====") && trimmed.hasSuffix("====") {
                notes.append([])
            } else if notes.isEmpty {
                notes.append([line])
            } else {
                notes[notes.count - 1].append(line)
            }
        }
        if notes.count == 1, !lines.contains(where: { $0.trimmingPrefix(while: \.isWhitespace).hasPrefix("====") }) {
            // No headers: what was added last is at the end.
            return [[notes[0].last { !$0.allSatisfy(\.isWhitespace) } ?? ""]]
        }
        return notes
    }
}

extension Substring {
    fileprivate func trimmingPrefix(while predicate: (Character) -> Bool) -> Substring { drop(while: predicate) }
}
