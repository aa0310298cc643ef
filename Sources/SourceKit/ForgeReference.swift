/// `owner/name` of a forge's repository (GitHub, Forgejo): two segments of letters, digits, `-`, `_`, `.`; checked
/// before it goes into a path.
public enum ForgeRepo {
    public static func isValid(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { $0.utf8.count <= 100 && PathSegment.isPlain($0) }
    }
}

/// `owner/name#42`: a forge's own reference to an issue or pull request, checked before it names a record, a link
/// or a request.
public struct ForgeReference: Equatable, Sendable {
    public let repo: String
    public let number: Int

    public init?(_ text: String) {
        guard let hash = text.lastIndex(of: "#"), let number = Int(text[text.index(after: hash)...]), number > 0,
            number < 1_000_000_000, ForgeRepo.isValid(String(text[..<hash]))
        else { return nil }
        repo = String(text[..<hash])
        self.number = number
    }

    public init?(repo: String, number: Int) {
        self.init("\(repo)#\(number)")
    }

    public var key: String { "\(repo)#\(number)" }
}
