/// A JSON value as a list's server sent it, parsed by `JSONParser` within its limits. Numbers keep their
/// canonical spelling (`JSONNumber`), so that `1.0` and `1` are one value; objects keep their members in the
/// server's order (a later member of the same name wins, as in most parsers). Not `indirect`: arrays and objects
/// are already behind a pointer, and boxing every number and string too cost 54 bytes a value (`JSONBudget`).
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// The number's canonical spelling (`JSONNumber.canonical`).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// The member `name` of an object (the last of that name), else `nil`.
    public subscript(member name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.name == name }?.value
    }

    /// What a person calls this kind of value: `an object`, `an array of 12`, `a string`.
    public var kindDescription: String { kind.description }

    var kind: ValueKind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .number: .number
        case .string: .string
        case .array(let items): .array(count: items.count)
        case .object: .object
        }
    }

    /// The value as one field's text: a string as it is, a number in its canonical spelling, `true`/`false`,
    /// an array or object as canonical JSON (members sorted by name); `nil` for null, which counts as absent.
    public var fieldText: String? {
        switch self {
        case .null: nil
        case .bool(let flag): flag ? "true" : "false"
        case .number(let number): number
        case .string(let text): text
        case .array, .object: canonicalJSON
        }
    }

    /// Compact JSON with every object's members sorted by name (the last of a repeated name kept), numbers
    /// canonical and strings minimally escaped: values that mean the same are the same text.
    public var canonicalJSON: String {
        var out: [UInt8] = []
        appendCanonical(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func appendCanonical(to out: inout [UInt8]) {
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let flag): out += Array((flag ? "true" : "false").utf8)
        case .number(let number): out += Array(number.utf8)
        case .string(let text): Self.appendQuoted(text, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.appendCanonical(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            var byName: [String: JSONValue] = [:]
            for member in members { byName[member.name] = member.value }
            out.append(UInt8(ascii: "{"))
            for (index, name) in byName.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.appendQuoted(name, to: &out)
                out.append(UInt8(ascii: ":"))
                byName[name]!.appendCanonical(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// This value without what `pointer` names (an `ignore`d nested field); unchanged when it names nothing.
    public func removing(_ pointer: JSONPointer) -> JSONValue {
        removing(pointer.tokens[...])
    }

    private func removing(_ tokens: ArraySlice<String>) -> JSONValue {
        guard let first = tokens.first else { return self }
        let rest = tokens.dropFirst()
        switch self {
        case .object(let members):
            if rest.isEmpty { return .object(members.filter { $0.name != first }) }
            return .object(
                members.map { $0.name == first ? JSONMember(name: $0.name, value: $0.value.removing(rest)) : $0 })
        case .array(var items):
            guard let index = JSONPointer.arrayIndex(first), index < items.count else { return self }
            if rest.isEmpty {
                items.remove(at: index)
            } else {
                items[index] = items[index].removing(rest)
            }
            return .array(items)
        default:
            return self
        }
    }
}

/// One member of a JSON object.
public struct JSONMember: Equatable, Sendable {
    public var name: String
    public var value: JSONValue

    public init(name: String, value: JSONValue) {
        self.name = name
        self.value = value
    }
}
