// A record's fields are stored as one flat JSON object of strings with sorted keys, so that equal records
// are stored as equal bytes. That is the canonical form a `Record` keeps its fields in
// (TrackwatchCore/CanonicalFields.swift): snapshots are written and read back without encoding or decoding.
// This file reads what another writer may have stored instead (any flat object of strings, by hand, or
// JSONDecoder for anything else); such records are encoded canonically again when loaded.

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TrackwatchCore

enum FieldsJSON {
    /// `fields` as `{"key":"value",…}` in ascending key order, UTF-8, into `buffer` (cleared first): the
    /// canonical form a `Record` keeps its fields in (`Record.withCanonicalJSON`).
    static func encode(_ fields: [String: String], into buffer: inout [UInt8]) {
        buffer = Record(id: RecordID(""), fields: fields).withCanonicalJSON { Array($0) }
    }

    /// The fields in `bytes`; `nil` when the bytes are not a JSON object of strings.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> [String: String]? {
        var parser = FlatObjectParser(bytes)
        if let fields = parser.parse() { return fields }
        // Written by another tool or a future version with a shape the fast parser does not take.
        return try? JSONDecoder().decode([String: String].self, from: Data(bytes))
    }
}

/// Parses `{"k":"v",…}` with JSON string escapes; returns `nil` on anything else.
private struct FlatObjectParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func parse() -> [String: String]? {
        var fields: [String: String] = [:]
        guard consume(UInt8(ascii: "{")) else { return nil }
        if consume(UInt8(ascii: "}")) { return atEnd ? fields : nil }
        repeat {
            guard let key = string(), consume(UInt8(ascii: ":")), let value = string() else { return nil }
            fields[key] = value
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "}")) && atEnd ? fields : nil
    }

    private var atEnd: Bool {
        mutating get {
            skipWhitespace()
            return index == bytes.count
        }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func string() -> String? {
        guard consume(UInt8(ascii: "\"")) else { return nil }
        let start = index
        // Fast path: no escapes, which is nearly every tracker's value.
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
            index += 1
        }
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "\"") {
            index += 1
            return String(validating: UnsafeBufferPointer(rebasing: bytes[start..<index - 1]), as: UTF8.self)
        }
        var utf8 = Array(bytes[start..<index])
        while bytes[index] == UInt8(ascii: "\\") {
            index += 1
            guard escape(into: &utf8) else { return nil }
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
                utf8.append(bytes[index])
                index += 1
            }
            guard index < bytes.count else { return nil }
        }
        index += 1  // closing quote
        return String(validating: utf8, as: UTF8.self)
    }

    /// Appends the character escaped after a backslash; `index` is just past the backslash.
    private mutating func escape(into utf8: inout [UInt8]) -> Bool {
        guard index < bytes.count else { return false }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            guard let scalar = unicodeEscape() else { return false }
            utf8.append(contentsOf: Array(String(Character(scalar)).utf8))
        default: return false
        }
        return true
    }

    /// The scalar of `XXXX` (or a `XXXX\uXXXX` surrogate pair) after `\u`.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let high = hex4() else { return nil }
        guard (0xD800..<0xDC00).contains(high) else { return Unicode.Scalar(high) }
        guard consumeRaw(UInt8(ascii: "\\")), consumeRaw(UInt8(ascii: "u")), let low = hex4(),
            (0xDC00..<0xE000).contains(low)
        else { return nil }
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    }

    private mutating func consumeRaw(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
            value = value << 4 + UInt32(digit)
        }
        index += 4
        return value
    }
}
