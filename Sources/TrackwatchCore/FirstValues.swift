/// The first `FirstValuesBound.count` values of a list a server sends (labels, versions), the rest not decoded.
/// Such a list is shown, never counted or searched, and a dense answer of labels once cost 13 times its size as
/// strings, rewritten, sorted and joined whole before the field was cut to 500 characters.
public struct FirstValues<Element: Decodable>: Decodable {
    public let values: [Element]
    /// The server sent more than `values`.
    public let isCut: Bool

    public init(_ values: [Element], isCut: Bool = false) {
        self.values = values
        self.isCut = isCut
    }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var values: [Element] = []
        while !container.isAtEnd, values.count < FirstValuesBound.count {
            values.append(try container.decode(Element.self))
        }
        self.init(values, isCut: !container.isAtEnd)
    }
}

extension SafeText {
    /// A list a server sent, as one field: its first `FirstValuesBound.count` values, each `oneLine(_:limit:)`, in
    /// order (`sorted` or as sent), joined by `separator`; `…` stands for those left out (`isCut`: by the decoder).
    public static func list(
        _ values: some Collection<String>, limit: Int, isCut: Bool = false, sorted: Bool = true,
        separator: String = ", "
    ) -> String {
        var shown = values.prefix(FirstValuesBound.count).map { oneLine($0, limit: limit) }
        if sorted { shown.sort() }
        if isCut || values.count > FirstValuesBound.count { shown.append("…") }
        return shown.joined(separator: separator)
    }
}

public enum FirstValuesBound {
    /// GitHub allows 100 labels on an issue; 250 of at least one character and a separator fill Jira's 500.
    public static let count = 250
}
