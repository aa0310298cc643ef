// A record's fields in one compact, canonical form: the UTF-8 bytes of the JSON object
// `{"key":"value",…}` with the keys in ascending order and only the escapes JSON requires (`\"`, `\\`,
// `\n`, `\r`, `\t`, `\u00XX` for other control characters). Equal fields are equal bytes, so comparing two
// records is one `memcmp`, and it is exactly what the state store keeps in `snapshot.fields`, so loading
// and saving a snapshot copies bytes instead of building and encoding dictionaries.
//
// Why: at 100,000 records a `[String: String]` per record (a hash table of 16 buckets plus its strings,
// ~600 bytes) held twice, for the new poll and the stored snapshot, was most of a poll's 200 MB peak and
// most of its CPU (hashing, allocation, release). One string per record is ~200 bytes and one allocation.

enum CanonicalFields {
    /// The canonical JSON of `fields`.
    static func encode(_ fields: [String: String]) -> String {
        var buffer: [UInt8] = []
        encode(fields, into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// The canonical JSON of `fields` into `buffer` (cleared first).
    static func encode(_ fields: [String: String], into buffer: inout [UInt8]) {
        buffer.removeAll(keepingCapacity: true)
        buffer.append(UInt8(ascii: "{"))
        for (offset, key) in fields.keys.sorted().enumerated() {
            if offset > 0 { buffer.append(UInt8(ascii: ",")) }
            appendString(key, to: &buffer)
            buffer.append(UInt8(ascii: ":"))
            appendString(Record.stored(fields[key]!), to: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
    }

    static func appendString(_ string: String, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        defer { buffer.append(UInt8(ascii: "\"")) }
        var string = string
        string.withUTF8 { appendEscaped($0, to: &buffer) }
    }

    /// `bytes` (valid UTF-8) escaped as the inside of a JSON string.
    static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) {
        // Nearly every value needs no escaping: copy it whole.
        guard bytes.contains(where: needsEscape) else { return buffer.append(contentsOf: bytes) }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                           hexDigit(byte >> 4), hexDigit(byte & 0xF)])
            default: buffer.append(byte)
            }
        }
    }

    @inline(__always)
    static func needsEscape(_ byte: UInt8) -> Bool { byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    // MARK: Reading the canonical form

    /// Whether `bytes` are exactly what `encode` writes for some fields: a flat object of strings, no
    /// whitespace, ASCII keys in strictly ascending order, minimal escapes, valid UTF-8. Anything else
    /// (another writer, a future version) is decoded and encoded again by the caller.
    static func isCanonical(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var reader = Reader(bytes)
        guard reader.consume(UInt8(ascii: "{")) else { return false }
        if reader.consume(UInt8(ascii: "}")) { return reader.atEnd }
        var previousKey: UnsafeBufferPointer<UInt8>?
        repeat {
            guard let key = reader.canonicalString(asciiOnly: true) else { return false }
            if let previousKey, !previousKey.lexicographicallyPrecedes(key) { return false }
            previousKey = key
            guard reader.consume(UInt8(ascii: ":")), reader.canonicalString(asciiOnly: false) != nil else { return false }
        } while reader.consume(UInt8(ascii: ","))
        return reader.consume(UInt8(ascii: "}")) && reader.atEnd
    }

    /// Every key and value of canonical `bytes`, in order.
    static func forEach(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (_ key: String, _ value: String) -> Void) {
        var reader = Reader(bytes)
        guard reader.consume(UInt8(ascii: "{")), !reader.consume(UInt8(ascii: "}")) else { return }
        repeat {
            guard let key = reader.rawString(), reader.consume(UInt8(ascii: ":")), let value = reader.rawString() else {
                return
            }
            body(unescape(key), unescape(value))
        } while reader.consume(UInt8(ascii: ","))
    }

    /// The value of `field` in canonical `bytes`.
    static func value(of field: String, in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var field = field
        return field.withUTF8 { wanted -> String? in
            let escaped: [UInt8]? = wanted.contains(where: needsEscape) ? {
                var buffer: [UInt8] = []
                appendEscaped(wanted, to: &buffer)
                return buffer
            }() : nil
            var reader = Reader(bytes)
            guard reader.consume(UInt8(ascii: "{")), !reader.consume(UInt8(ascii: "}")) else { return nil }
            repeat {
                guard let key = reader.rawString(), reader.consume(UInt8(ascii: ":")), let value = reader.rawString() else {
                    return nil
                }
                let matches =
                    escaped.map { $0.withUnsafeBufferPointer { key.sameBytes(as: $0) } } ?? key.sameBytes(as: wanted)
                if matches { return unescape(value) }
            } while reader.consume(UInt8(ascii: ","))
            return nil
        }
    }

    /// The text of a JSON string's inside as `encode` escaped it.
    private static func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        guard raw.contains(UInt8(ascii: "\\")) else { return String(decoding: raw, as: UTF8.self) }
        var text: [UInt8] = []
        text.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            index += 1
            guard byte == UInt8(ascii: "\\"), index < raw.count else {
                text.append(byte)
                continue
            }
            let escaped = raw[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "u"):
                var value: UInt8 = 0
                for _ in 0..<4 where index < raw.count {
                    value = value << 4 | hexValue(raw[index])
                    index += 1
                }
                text.append(value)
            default: text.append(escaped)  // \" and \\
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return 0
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func consume(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// The 8 bytes at `index` (there must be 8), in any byte order: the checks below ask only whether some
        /// byte is special, eight at a time. A steady poll reads every stored item's fields, and a byte at a time
        /// that was ~1 ms of a 13 ms poll at 1,000 items (perf, issue 33).
        @inline(__always)
        private func word(at index: Int) -> UInt64 {
            UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
        }

        private static let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080

        /// Whether some byte of `word` is `byte` (the classic zero-byte test on `word ^ byte…`; exact).
        @inline(__always)
        private static func has(_ byte: UInt8, in word: UInt64) -> Bool {
            let x = word ^ (ones &* UInt64(byte))
            return (x &- ones) & ~x & highs != 0
        }

        /// Whether all 8 bytes need no attention inside a string: printable ASCII, neither `"` nor `\`.
        @inline(__always)
        private static func isPlain(_ word: UInt64) -> Bool {
            guard word & highs == 0, (word &- ones &* 0x20) & ~word & highs == 0 else { return false }
            return !has(UInt8(ascii: "\""), in: word) && !has(UInt8(ascii: "\\"), in: word)
        }

        /// The raw inside of a string written by `encode` (escapes left in place).
        mutating func rawString() -> UnsafeBufferPointer<UInt8>? {
            guard consume(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                if index + 8 <= bytes.count {
                    let word = word(at: index)
                    if !Self.has(UInt8(ascii: "\""), in: word) && !Self.has(UInt8(ascii: "\\"), in: word) {
                        index += 8
                        continue
                    }
                }
                index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard index < bytes.count else { return nil }
            index += 1
            return UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)])
        }

        /// Like `rawString`, but only if the string is escaped exactly as `encode` does and is valid UTF-8.
        mutating func canonicalString(asciiOnly: Bool) -> UnsafeBufferPointer<UInt8>? {
            guard consume(UInt8(ascii: "\"")) else { return nil }
            let start = index
            var ascii = true
            while index < bytes.count {
                if index + 8 <= bytes.count, Self.isPlain(word(at: index)) {
                    index += 8
                    continue
                }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") { break }
                if byte < 0x20 { return nil }
                if byte >= 0x80 { ascii = false }
                if byte == UInt8(ascii: "\\") {
                    // A key with an escape may sort differently escaped and unescaped: let the caller re-encode.
                    guard !asciiOnly, index + 1 < bytes.count else { return nil }
                    switch bytes[index + 1] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        index += 2
                    case UInt8(ascii: "u"):
                        // Only \u00XX for a control character other than \n, \r, \t, in lowercase hex.
                        guard index + 5 < bytes.count, bytes[index + 2] == UInt8(ascii: "0"),
                            bytes[index + 3] == UInt8(ascii: "0"), bytes[index + 4] == UInt8(ascii: "0")
                                || bytes[index + 4] == UInt8(ascii: "1")
                        else { return nil }
                        let low = bytes[index + 5]
                        let value: UInt8
                        switch low {
                        case UInt8(ascii: "0")...UInt8(ascii: "9"): value = low - UInt8(ascii: "0")
                        case UInt8(ascii: "a")...UInt8(ascii: "f"): value = low - UInt8(ascii: "a") + 10
                        default: return nil
                        }
                        let scalar = (bytes[index + 4] - UInt8(ascii: "0")) << 4 | value
                        guard scalar != 0x0A, scalar != 0x0D, scalar != 0x09 else { return nil }
                        index += 6
                    default: return nil
                    }
                    continue
                }
                index += 1
            }
            guard index < bytes.count else { return nil }
            let inside = UnsafeBufferPointer(rebasing: bytes[start..<index])
            index += 1
            if asciiOnly { return ascii ? inside : nil }
            if !ascii, String(validating: inside, as: UTF8.self) == nil { return nil }
            return inside
        }
    }
}

/// Turns rows of values in a fixed column order into records, writing each record's canonical fields
/// directly (no dictionary per row). Build one per column list and reuse it for every row.
public struct RecordLayout: Sendable {
    /// For each field in ascending key order: its column index and its encoded `"key":` prefix.
    private let fields: [(column: Int, prefix: [UInt8])]

    /// `columns` names the value at each position; positions in `skipping` (such as the id) are not fields.
    /// A name that appears twice keeps its last column, as `Record(id:fields:)` would.
    public init(columns: [String], skipping: Set<Int> = []) {
        var lastColumn: [String: Int] = [:]
        for (index, name) in columns.enumerated() where !skipping.contains(index) { lastColumn[name] = index }
        fields = lastColumn.keys.sorted().map { name in
            var prefix: [UInt8] = []
            CanonicalFields.appendString(name, to: &prefix)
            prefix.append(UInt8(ascii: ":"))
            return (lastColumn[name]!, prefix)
        }
    }

    /// The record `id` with the fields taken from `values` (one per column).
    public func record(id: RecordID, values: [String], buffer: inout [UInt8]) -> Record {
        buffer.removeAll(keepingCapacity: true)
        buffer.append(UInt8(ascii: "{"))
        for (offset, field) in fields.enumerated() {
            if offset > 0 { buffer.append(UInt8(ascii: ",")) }
            buffer.append(contentsOf: field.prefix)
            buffer.append(UInt8(ascii: "\""))
            var value = Record.stored(values[field.column])
            value.withUTF8 { CanonicalFields.appendEscaped($0, to: &buffer) }
            buffer.append(UInt8(ascii: "\""))
        }
        buffer.append(UInt8(ascii: "}"))
        return Record(id: id, canonicalFields: String(decoding: buffer, as: UTF8.self))
    }
}

extension Record {
    /// The record `id` with `fields` given in strictly ascending name order (as `String` orders them, so each name
    /// once), written straight into the canonical form with each value as `init(id:fields:)` stores it
    /// (`Record.stored`), without building and sorting a dictionary per record; `nil` when they are not ascending,
    /// so that the caller falls back to `init(id:fields:)`. `buffer` is scratch, reused between records.
    public init?(id: RecordID, ascendingFields fields: [(name: String, value: String)], buffer: inout [UInt8]) {
        buffer.removeAll(keepingCapacity: true)
        buffer.append(UInt8(ascii: "{"))
        for index in fields.indices {
            if index > 0 {
                guard fields[index - 1].name < fields[index].name else { return nil }
                buffer.append(UInt8(ascii: ","))
            }
            CanonicalFields.appendString(fields[index].name, to: &buffer)
            buffer.append(UInt8(ascii: ":"))
            CanonicalFields.appendString(Record.stored(fields[index].value), to: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
        self.init(id: id, canonicalFields: String(decoding: buffer, as: UTF8.self))
    }
}
