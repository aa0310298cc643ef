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

    /// `oneLine(text)`, at most `maxUTF8` bytes: cut at a character boundary, `…` marking the cut. Only the text's
    /// first `maxUTF8 + 1` scalars are read (each is a byte at least), so a huge text costs what its head does.
    public static func oneLine(_ text: String, maxUTF8: Int) -> String {
        let (head, isCut) = self.head(of: text, scalars: max(0, maxUTF8) + 1)
        let line = oneLine(head)
        guard line.utf8.count > maxUTF8 || isCut else { return line }
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
    /// bounds nothing. Only the first `4 × limit + 1` scalars are read.
    public static func bounded(_ value: String, _ limit: Int) -> String {
        let limit = max(1, limit)
        let (head, isCut) = self.head(of: value, scalars: limit * 4 + 1)
        return bounded(head, limit, isCut: isCut)
    }

    /// `bounded(_:_:)` of a head already cut to `4 × limit + 1` scalars; `isCut` says that the text went on.
    private static func bounded(_ head: String, _ limit: Int, isCut: Bool) -> String {
        let limit = max(1, limit), maxScalars = limit * 4
        if !isCut, head.unicodeScalars.count <= maxScalars, head.count <= limit { return head }
        var kept = String.UnicodeScalarView()
        var characters = 0, scalars = 0
        for character in head {
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

    /// `oneLine(text)`, bounded (`bounded(_:_:)`). The text is cut to its first `4 × limit + 1` scalars before it
    /// is rewritten: a 15 MB title once took seconds and its size again in memory to yield 500 characters. So
    /// controls removed from that head leave the result shorter than `limit`, still marked as cut.
    public static func oneLine(_ text: String, limit: Int) -> String {
        let limit = max(1, limit)
        let (head, isCut) = self.head(of: text, scalars: limit * 4 + 1)
        return bounded(oneLine(head), limit, isCut: isCut)
    }

    /// The first line of `text` that says something (a comment's, a commit message's), one line, bounded. It is
    /// looked for in the text's first `4 × limit + blankLead` scalars, and no line is split off past them: a
    /// comment of a million short lines costs what its head does.
    public static func firstLine(_ text: String?, limit: Int) -> String {
        let limit = max(1, limit)
        let (head, isCut) = self.head(of: text ?? "", scalars: limit * 4 + 1 + blankLead)
        var rest = Substring(head)
        while let end = rest.firstIndex(where: \.isNewline) {
            if !rest[..<end].allSatisfy(\.isWhitespace) { return oneLine(String(rest[..<end]), limit: limit) }
            rest = rest[rest.index(after: end)...]
        }
        guard !rest.allSatisfy(\.isWhitespace) else { return "" }
        let line = oneLine(String(rest), limit: limit)
        return isCut && !line.hasSuffix("…") ? line + "…" : line
    }

    /// How much blank text before a first line `firstLine` looks through.
    public static let blankLead = 4_096

    /// The first `scalars` Unicode scalars of `text`, and whether it held more. Reads no further than that.
    public static func head(of text: String, scalars: Int) -> (head: String, isCut: Bool) {
        var end = text.unicodeScalars.startIndex
        guard text.unicodeScalars.formIndex(&end, offsetBy: max(0, scalars), limitedBy: text.unicodeScalars.endIndex)
        else { return (text, false) }
        return end == text.unicodeScalars.endIndex ? (text, false) : (String(text.unicodeScalars[..<end]), true)
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
