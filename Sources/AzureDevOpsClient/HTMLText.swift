import TrackwatchCore

/// A work item comment (`System.History`) is HTML: its first line as text, tags taken out (a line break, a
/// paragraph or a block ends a line), the common entities read. Never rendered: what is not understood is dropped.
enum HTMLText {
    static func firstLine(_ html: String?, limit: Int) -> String {
        SafeText.firstLine(
            text(SafeText.head(of: html ?? "", scalars: limit * 8 + SafeText.blankLead).head), limit: limit)
    }

    /// Blocks that end a line where they open or close.
    private static let breaking: Set<String> = [
        "br", "p", "div", "li", "ul", "ol", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre",
    ]

    static func text(_ html: String) -> String {
        var out = ""
        var rest = Substring(html)
        while let index = rest.firstIndex(where: { $0 == "<" || $0 == "&" }) {
            out += rest[..<index]
            rest = rest[index...]
            if rest.first == "<" {
                guard let end = rest.prefix(2_000).firstIndex(of: ">") else {
                    rest = rest.dropFirst()  // a lone `<`: kept as text
                    out += "<"
                    continue
                }
                let name = rest.dropFirst().drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }.lowercased()
                if breaking.contains(name) { out += "\n" }
                rest = rest[rest.index(after: end)...]
            } else {
                let entity = rest.dropFirst().prefix(10)
                if let semicolon = entity.firstIndex(of: ";"), let character = decode(entity[..<semicolon]) {
                    out.append(character)
                    rest = rest[rest.index(after: semicolon)...]
                } else {
                    out += "&"
                    rest = rest.dropFirst()
                }
            }
        }
        return out + rest
    }

    private static func decode(_ name: Substring) -> Character? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos", "#39": return "'"
        case "nbsp": return " "
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value =
                digits.hasPrefix("x") || digits.hasPrefix("X")
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            return value.flatMap(Unicode.Scalar.init).map(Character.init)
        }
    }
}
