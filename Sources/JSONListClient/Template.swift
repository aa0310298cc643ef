/// A text with fields of an item in braces — `{device} ({os})`, `https://example.com/#/device/{id}`,
/// `{/attributes/title}` — as `title` and `link` are written. `{{` and `}}` are literal braces.
public struct Template: Equatable, Sendable {
    public enum Part: Equatable, Sendable {
        case text(String)
        case field(FieldPath)
    }

    public let parts: [Part]

    /// - Throws: a sentence saying what is wrong (an unclosed brace, an empty or invalid field).
    public init(parsing text: String) throws(TemplateError) {
        var parts: [Part] = []
        var literal = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == "{", next < text.endIndex, text[next] == "{" {
                literal.append("{")
                index = text.index(after: next)
            } else if character == "}", next < text.endIndex, text[next] == "}" {
                literal.append("}")
                index = text.index(after: next)
            } else if character == "{" {
                guard let close = text[next...].firstIndex(of: "}") else {
                    throw TemplateError("a { without its }; write {{ for a literal brace")
                }
                let name = String(text[next..<close])
                guard let field = FieldPath(name) else {
                    throw TemplateError(
                        "{\(name)} is not a field: write a member name or a JSON Pointer such as {/meta/color}")
                }
                if !literal.isEmpty { parts.append(.text(literal)) }
                literal = ""
                parts.append(.field(field))
                index = text.index(after: close)
            } else if character == "}" {
                throw TemplateError("a } without its {; write }} for a literal brace")
            } else {
                literal.append(character)
                index = next
            }
        }
        if !literal.isEmpty { parts.append(.text(literal)) }
        self.parts = parts
    }

    /// The fields it names.
    public var fields: [FieldPath] {
        parts.compactMap { if case .field(let field) = $0 { field } else { nil } }
    }

    /// The text with each field's value put in by `value` (`nil`: empty).
    public func render(_ value: (FieldPath) -> String?) -> String {
        parts.map { part in
            switch part {
            case .text(let text): text
            case .field(let field): value(field) ?? ""
            }
        }.joined()
    }

    /// The template is one field alone (`{html_url}`): its value is the whole text, a link as the server wrote it.
    public var singleField: FieldPath? {
        if parts.count == 1, case .field(let field) = parts[0] { return field }
        return nil
    }
}

public struct TemplateError: Error, Equatable {
    public let message: String

    init(_ message: String) { self.message = message }
}
