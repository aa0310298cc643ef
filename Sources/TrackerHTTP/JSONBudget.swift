/// How many values a JSON answer may hold for its size. A decoder builds every value (a tree, or Foundation's
/// map and then the payload) before any limit on items is checked, and a value costs tens of bytes however few it
/// is written in: `0,` is two bytes, so a 16 MB answer of `[0,0,…]` became 469 MB. An answer is therefore counted
/// first, without allocating, and refused when it holds more than `baseValues + size / bytesPerValue` values (an
/// array or an object counting as `containerWeight`: it costs about three numbers). Ordinary lists hold one value
/// per 6 to 12 bytes. What is let through costs at most four times its size above an idle check (4 MB for answers
/// under 1 MB): the JSON list streams its items and keeps no tree (`AnswerBoundsTests`), and a dense Qase page is
/// refused before Foundation's decoder sees it (`QaseAnswerBoundsTests`).
public enum JSONBudget {
    /// Values any answer may hold: a small answer is never refused for being dense.
    public static let baseValues = 50_000
    /// One value more per this many bytes of answer: json-sim's generic list holds one per 5.8.
    public static let bytesPerValue = 4
    /// What an array or an object counts: its storage and its slot in the one that holds it.
    public static let containerWeight = 3

    /// The values an answer of `size` bytes may hold.
    public static func values(allowedFor size: Int) -> Int { baseValues + max(0, size) / bytesPerValue }

    /// What Foundation's `JSONDecoder` builds of an answer before it decodes any of it: a map of every value, the
    /// members a client ignores too. Measured on Linux (Swift 6.3, one million values of a kind): a string takes
    /// about 25 bytes, a number 49, an empty array or object 36 — `"l0",` (5 bytes) costs five times its size and
    /// `0,` twenty-four, where the value count lets one value through per 4 bytes (a check given 15 MB of two-letter
    /// labels peaked 11.4 times their size above an ordinary one). So an answer decoded by Foundation is held to
    /// these weights: its map may cost `mapBytesPerByte` times its size, or `smallestMap` for a small answer, so that
    /// with the answer itself it stays within four times its size above an idle check (6 MB for answers under
    /// 1.5 MB; `scripts/bench-dense-answers.py` measures it).
    public enum FoundationMap {
        public static let string = 26, scalar = 50, container = 40
        public static let smallestMap = 3 * 1_048_576, mapBytesPerByte = 3

        /// The map bytes an answer of `size` bytes may cost.
        public static func mapBytes(allowedFor size: Int) -> Int { max(smallestMap, max(0, size) * mapBytesPerByte) }
    }

    /// How `foundationExcess` begins: a client that can ask for less (a smaller page) knows it by this.
    public static let tooDense = "the answer holds too many values for its size"

    /// `nil` when Foundation's decoder would map `body` within `FoundationMap.mapBytes(allowedFor:)`; otherwise why it
    /// is refused, in words for the error that names the answer.
    public static func foundationExcess(in body: [UInt8]) -> String? {
        let allowed = FoundationMap.mapBytes(allowedFor: body.count)
        let counted = body.withUnsafeBufferPointer {
            count(
                $0, upTo: allowed, string: FoundationMap.string, scalar: FoundationMap.scalar,
                container: FoundationMap.container)
        }
        guard counted.values > allowed else { return nil }
        return "\(tooDense) (\(body.count) bytes): decoded, it would take more than "
            + "\(allowed / 1_000_000) MB of memory, so it was not read. A server that sends this is broken or hostile: "
            + "tell its owner"
    }

    /// `nil` when `body` holds no more values than its size allows, or nests deeper than `maximumDepth` first (the
    /// decoder's own limit then names it); otherwise why it is refused, in words for the error that names the answer.
    public static func excess(in body: [UInt8], maximumDepth: Int = .max) -> String? {
        let allowed = values(allowedFor: body.count)
        let counted = body.withUnsafeBufferPointer { count($0, upTo: allowed, deepest: maximumDepth) }
        guard counted.values > allowed, counted.depth <= maximumDepth else { return nil }
        return "the answer has more than \(allowed) values for its size (\(body.count) bytes; an array or object "
            + "counts \(containerWeight)): decoded, it would take many times its size in memory, so it was "
            + "not read. A server that sends this is broken or hostile: tell its owner"
    }

    /// The values in `bytes` — strings and member names (`string` each), numbers and literals (`scalar`), arrays and
    /// objects (`container`) — counted, without checking the grammar, until there are more than `limit` or the
    /// nesting is deeper than `deepest`; and the nesting's depth at that point.
    public static func count(
        _ bytes: UnsafeBufferPointer<UInt8>, upTo limit: Int, deepest: Int = .max, string: Int = 1, scalar: Int = 1,
        container: Int = containerWeight
    ) -> (values: Int, depth: Int) {
        var counted = 0
        var depth = 0
        var index = 0
        while index < bytes.count, counted <= limit, depth <= deepest {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: ":"):
                index += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                index += 1
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                counted += container
                depth += 1
                index += 1
            case UInt8(ascii: "\""):
                counted += string
                index = endOfString(bytes, from: index + 1)
            default:
                counted += scalar
                index += 1
                while index < bytes.count, !isDelimiter(bytes[index]) { index += 1 }
            }
        }
        return (counted, depth)
    }

    /// The index after the quote that closes the string whose first byte is at `index`.
    private static func endOfString(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
        var index = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return index
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "]"), UInt8(ascii: "}"),
            UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "\""):
            true
        default: false
        }
    }
}
