#if canImport(Glibc)
import Glibc
#endif
import TrackwatchCore

/// The one way commands write to the terminal. Their output carries the server's text (headlines, error
/// messages, record ids, timestamps), so every line leaves as one literal line (`SafeText.oneLine`): no
/// escape sequence, no OSC title change, no bidirectional override, no line break that fakes a line of its
/// own, and no line longer than `lineLimit` characters. JSON keeps the data exact and writes those characters as
/// `\u` escapes instead.
enum Console {
    static let lineLimit = 4_000

    /// One line on stdout.
    static func line(_ text: String) { print(SafeText.oneLine(text, limit: lineLimit)) }

    /// One JSON document (itself one line, as `JSONEncoder` writes it) on stdout.
    static func json(_ text: String) { print(SafeText.escapingControls(inJSON: text)) }

    /// One line on stderr, unbuffered.
    static func error(_ text: String) {
        var text = SafeText.oneLine(text, limit: lineLimit) + "\n"
        text.withUTF8 { buffer in _ = write(2, buffer.baseAddress, buffer.count) }
    }
}
