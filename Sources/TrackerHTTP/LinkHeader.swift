/// `Link` headers (RFC 8288): `<https://…?page=2>; rel="next", <…>; rel="last"`. Only what paging needs: the
/// target of a relation. Commas and semicolons inside `<…>` and quoted strings are part of them.
public enum LinkHeader {
    /// The first target whose `rel` (one of its space-separated values, any case) is `relation`, across all the
    /// `Link` header values given.
    public static func target(_ relation: String, in values: [String]) -> String? {
        for value in values {
            for link in links(value) where link.relations.contains(relation.lowercased()) { return link.target }
        }
        return nil
    }

    /// The first target of `relation` among a response's `Link` headers.
    public static func target(_ relation: String, in response: HTTPResponse) -> String? {
        let values = response.headers.filter { $0.name.lowercased() == "link" }.map(\.value)
        return target(relation, in: values.filter { $0.utf8.count <= 16_384 })
    }

    private static func trimmed(_ text: String) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    struct Link {
        var target: String
        var relations: [String]
    }

    static func links(_ value: String) -> [Link] {
        var links: [Link] = []
        var rest = Substring(value)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let target = String(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
            let (parameters, remainder) = parameterText(rest)
            rest = remainder
            links.append(Link(target: trimmed(target), relations: relations(in: parameters)))
        }
        return links
    }

    /// The text up to the comma that ends this link (outside quotes), and what follows it.
    private static func parameterText(_ text: Substring) -> (Substring, Substring) {
        var quoted = false
        var index = text.startIndex
        while index < text.endIndex {
            switch text[index] {
            case "\"": quoted.toggle()
            case "\\" where quoted:
                index = text.index(after: index)
                if index == text.endIndex { return (text, text[text.endIndex...]) }
            case "," where !quoted: return (text[..<index], text[text.index(after: index)...])
            default: break
            }
            index = text.index(after: index)
        }
        return (text, text[text.endIndex...])
    }

    private static func relations(in parameters: Substring) -> [String] {
        for parameter in parameters.split(separator: ";") {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, trimmed(String(parts[0])).lowercased() == "rel" else { continue }
            var value = trimmed(String(parts[1]))
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            return value.lowercased().split(separator: " ").map(String.init)
        }
        return []
    }
}

