/// A JSON value exactly as written: object members keep their order and numbers their spelling, because a
/// simulator's answers differ in nothing else when `42` becomes `"42"`, `1` becomes `1.0` or keys swap places.
/// The Qase and JSON-list simulators build their answers from it; json-sim reads request bodies into it too.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// The number's text, e.g. `1`, `1.0`, `2.50`, `1e3`.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// `value` as a JSON number, or null.
    public static func int(_ value: Int?) -> JSONValue { value.map { .number(String($0)) } ?? .null }

    /// An object of `members`, in their order.
    public static func object(_ members: [(key: String, value: JSONValue)]) -> JSONValue {
        .object(JSONObject(members.map { JSONObject.Member($0.key, $0.value) }))
    }

    /// The member `key` of an object, or nil.
    public subscript(key: String) -> JSONValue? {
        get {
            guard case .object(let object) = self else { return nil }
            return object[key]
        }
        set {
            guard case .object(var object) = self else { return }
            object[key] = newValue
            self = .object(object)
        }
    }

    /// A copy with the member `key` set as the subscript sets it (in its place, or last when new); a value that is
    /// not an object comes back as it is.
    public func with(_ key: String, _ value: JSONValue) -> JSONValue {
        var copy = self
        copy[key] = value
        return copy
    }

    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The integer a number or a string of digits spells (`42`, `"42"`, `42.0`), or nil.
    public var int: Int? {
        switch self {
        case .number(let text), .string(let text):
            if let value = Int(text) { return value }
            if let value = Double(text), value.rounded() == value, abs(value) < 1e15 { return Int(value) }
            return nil
        default:
            return nil
        }
    }

    public var array: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    public var object: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }
}

/// Object members in their order. Setting an existing key keeps its place; a new key goes last; nil removes.
public struct JSONObject: Sendable, Equatable {
    public var members: [Member]

    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: JSONValue

        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    public init(_ members: [Member] = []) { self.members = members }

    public var keys: [String] { members.map(\.key) }

    public subscript(key: String) -> JSONValue? {
        get { members.first { $0.key == key }?.value }
        set {
            let index = members.firstIndex { $0.key == key }
            switch (index, newValue) {
            case (let index?, let value?): members[index].value = value
            case (let index?, nil): members.remove(at: index)
            case (nil, let value?): members.append(Member(key, value))
            case (nil, nil): break
            }
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .number(String(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// Keeps the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONObject.Member($0.0, $0.1) }))
    }
}

extension JSONValue {
    /// `value` as a JSON string, or null.
    public static func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }

    /// The compact UTF-8 serialization.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        write(to: &out)
        return out
    }

    public func write(to out: inout [UInt8]) {
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let value): out += Array((value ? "true" : "false").utf8)
        case .number(let text): out += Array(text.utf8)
        case .string(let text): Self.writeString(text, to: &out)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (index, member) in object.members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// Quotes, backslashes and control characters escaped (`\n`, `\r` and `\t` in their short forms, the others as
    /// `\u00XX`); everything else as its UTF-8.
    static func writeString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out.append(contentsOf: text.utf8)  // the common case, and a 1.5 MB picture, in one copy
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20: out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension JSONValue {
    /// This answer with member `field` of the item whose `id` is `id` set to `value` (raw JSON: a hostile server's
    /// `1e30`), wherever the answer holds it: a list, a search's `items`, or the item alone. Only objects that also
    /// have `marker` (`number`, `iid`) are items; the events of a log, which have ids too, are left alone.
    public func settingMember(_ field: String, to value: JSONValue, ofItem id: Int, marker: String) -> JSONValue {
        if let items = array {
            return .array(items.map { $0.settingMember(field, to: value, ofItem: id, marker: marker) })
        }
        if let items = self["items"], items.array != nil {
            return with("items", items.settingMember(field, to: value, ofItem: id, marker: marker))
        }
        return self["id"]?.int == id && self[marker] != nil ? with(field, value) : self
    }
}
