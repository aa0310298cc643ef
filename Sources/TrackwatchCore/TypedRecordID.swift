/// A record id as a person types it for `mute`, `unmute` and `log --record`: any source's key, as bubbles, `log`
/// and the trackers' own pages show it — `SAMPL00000042` (Compass), `WEB-42` (Jira), `acme/web#7` (GitHub),
/// `platform/web#3` and `platform/web!4` (GitLab), `DEMO-9` and `DEMO/defect/7` (Qase), and a JSON list's key,
/// which may be any text (`jd123@duke.edu`, `Room 101`, `42`).
extension RecordID {
    /// The longest id that can be typed, in UTF-8 bytes: more than any source stores (a GitLab reference is at most
    /// a 255-byte project path, `!` and 9 digits; a JSON list's key at most 256 bytes).
    public static let longestTyped = 300

    /// The id in `text`, without the spaces and tabs around it (a JSON list drops them from its keys too).
    /// Refused: nothing, more than `longestTyped` bytes, or a control character (an escape sequence, a line break,
    /// a bidirectional override) — no source stores one, and echoing it would reach the terminal.
    public static func typed(_ text: String) throws(TypedRecordIDError) -> RecordID {
        let trimmed = String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        if trimmed.isEmpty { throw TypedRecordIDError(text: text, problem: "it is empty") }
        if trimmed.utf8.count > longestTyped {
            throw TypedRecordIDError(text: text, problem: "it is longer than \(longestTyped) bytes")
        }
        if trimmed.unicodeScalars.contains(where: { SafeText.isControl($0) || $0.value == 0x2028 || $0.value == 0x2029 }) {
            throw TypedRecordIDError(text: text, problem: "it holds a control character")
        }
        return RecordID(trimmed)
    }
}

/// Typed text that is no record id of any source; its description says why, with the text made safe to show.
public struct TypedRecordIDError: Error, CustomStringConvertible, Equatable {
    public let text: String
    public let problem: String

    public var description: String {
        "\"\(SafeText.oneLine(text, maxUTF8: 60))\" is not a record id (\(problem)); give it as a bubble or "
            + "`trackwatch log` shows it, e.g. SAMPL00000042, WEB-42, acme/web#7 or 'platform/web!4'"
    }
}
