/// Text that came from outside (a tracker's server above all) on its way into a channel where some characters
/// are control data: a terminal, a log line, sd_notify's `KEY=value` lines, a notification. Whatever the text
/// holds, what leaves here is one line that a terminal shows literally.
public enum SafeText {
    /// One line of literal text: line breaks (CR, LF, VT, FF, NEL, U+2028, U+2029) and tabs become spaces;
    /// the other C0 controls (ESC among them), DEL, the C1 controls (CSI U+009B, OSC U+009D …) and the
    /// bidirectional marks, embeddings, overrides and isolates are removed. So a server cannot start an escape
    /// sequence, fake a second line or reorder what is shown.
    public static func oneLine(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09...0x0D, 0x85, 0x2028, 0x2029: scalars.append(" ")
            case _ where isControl(scalar): continue
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// `oneLine(text)`, at most `maxUTF8` bytes: cut at a character boundary, `…` marking the cut.
    public static func oneLine(_ text: String, maxUTF8: Int) -> String {
        let line = oneLine(text)
        guard line.utf8.count > maxUTF8 else { return line }
        let ellipsis = "…"
        var kept = ""
        for character in line {
            guard kept.utf8.count + character.utf8.count + ellipsis.utf8.count <= maxUTF8 else { break }
            kept.append(character)
        }
        return kept + ellipsis
    }

    /// At most `limit` characters and `4 × limit` Unicode scalars, `…` marking a cut. Both counts: one character may
    /// hold any number of scalars ("Z" and 200,000 combining accents is one), so a bound by characters alone
    /// bounds nothing.
    public static func bounded(_ value: String, _ limit: Int) -> String {
        let limit = max(1, limit), maxScalars = limit * 4
        if value.unicodeScalars.count <= maxScalars, value.count <= limit { return value }
        var kept = String.UnicodeScalarView()
        var characters = 0, scalars = 0
        for character in value {
            guard characters < limit - 1 else { break }
            let count = character.unicodeScalars.count
            if scalars + count > maxScalars - 1 {
                // What fits of a character with too many marks: the base and its first marks.
                kept.append(contentsOf: character.unicodeScalars.prefix(maxScalars - 1 - scalars))
                break
            }
            kept.append(contentsOf: character.unicodeScalars)
            characters += 1
            scalars += count
        }
        return String(kept) + "…"
    }

    /// `oneLine(text)`, bounded (`bounded(_:_:)`).
    public static func oneLine(_ text: String, limit: Int) -> String { bounded(oneLine(text), limit) }

    /// The first line of `text` that says something (a comment's, a commit message's), one line, bounded.
    public static func firstLine(_ text: String?, limit: Int) -> String {
        let line = (text ?? "").split(whereSeparator: \.isNewline).first { !$0.allSatisfy(\.isWhitespace) }
        return oneLine(line.map(String.init) ?? "", limit: limit)
    }

    /// Compact JSON text (as `JSONEncoder` writes it) with every control character, line separator and
    /// bidirectional control written as a `\uXXXX` escape: the value a program decodes is unchanged, the bytes a
    /// terminal receives hold no control. `JSONEncoder` escapes C0 itself but passes DEL, C1, U+2028/2029 and the
    /// bidirectional controls through raw. Valid because compact JSON has these characters only inside strings.
    public static func escapingControls(inJSON json: String) -> String {
        var out = ""
        for scalar in json.unicodeScalars {
            if isControl(scalar) || scalar.value == 0x2028 || scalar.value == 0x2029 {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// C0, DEL, C1 and the bidirectional formatting characters.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
