/// A JSON Pointer (RFC 6901): `""` is the whole document, `/data/0/name` walks members and array indexes;
/// `~1` stands for `/` and `~0` for `~` inside a token.
public struct JSONPointer: Equatable, Hashable, Sendable, CustomStringConvertible {
    public let tokens: [String]

    /// `nil` unless `text` is `""` or starts with `/` and every `~` is followed by `0` or `1`.
    public init?(_ text: String) {
        guard !text.isEmpty else {
            tokens = []
            return
        }
        guard text.hasPrefix("/") else { return nil }
        var tokens: [String] = []
        for raw in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            var token = ""
            var escaped = false
            for character in raw {
                if escaped {
                    guard character == "0" || character == "1" else { return nil }
                    token.append(character == "0" ? "~" : "/")
                    escaped = false
                } else if character == "~" {
                    escaped = true
                } else {
                    token.append(character)
                }
            }
            guard !escaped else { return nil }
            tokens.append(token)
        }
        self.tokens = tokens
    }

    /// A pointer to one member: `name` → `/name` (escaped).
    public init(member name: String) { tokens = [name] }

    public var description: String {
        tokens.map { "/" + $0.replacing("~", with: "~0").replacing("/", with: "~1") }.joined()
    }

    /// The value it points to in `document`, or `nil`.
    public func resolve(in document: JSONValue) -> JSONValue? {
        var value = document
        for token in tokens {
            switch value {
            case .object:
                guard let member = value[member: token] else { return nil }
                value = member
            case .array(let items):
                guard let index = Self.arrayIndex(token), index < items.count else { return nil }
                value = items[index]
            default:
                return nil
            }
        }
        return value
    }

    init(tokens: [String]) { self.tokens = tokens }

    /// `0`, `17` → the index; a leading zero, a sign or anything else → `nil` (RFC 6901 §4).
    static func arrayIndex(_ token: String) -> Int? {
        guard !token.isEmpty, token.count <= 9, token.allSatisfy({ $0.isASCII && $0.isNumber }),
            token == "0" || !token.hasPrefix("0")
        else { return nil }
        return Int(token)
    }
}

/// A field of an item as the configuration names it: a member name (`status`), or a JSON Pointer into the item
/// (`/attributes/status`). Its name in changes is what was written.
public struct FieldPath: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// As written in the configuration; the field's name in changes.
    public let name: String
    public let pointer: JSONPointer

    /// `nil` for a `/…` that is not a valid pointer, or an empty name.
    public init?(_ text: String) {
        guard !text.isEmpty else { return nil }
        if text.hasPrefix("/") {
            guard let pointer = JSONPointer(text) else { return nil }
            self.pointer = pointer
        } else {
            pointer = JSONPointer(member: text)
        }
        name = text
    }

    public var description: String { name }

    /// A plain member name (not a pointer): a top-level field.
    public var isMemberName: Bool { !name.hasPrefix("/") }

    /// The field's value in `item`.
    public func value(in item: JSONValue) -> JSONValue? { pointer.resolve(in: item) }
}
