import SimulatorKit

/// Answers meant to exhaust a client's memory or stack. The big ones are built once per size and kept.
struct HostilePayloads {
    static let defaultHugeSize = 50 * 1_048_576
    static let defaultBombSize = 1 << 30
    static let defaultDepth = 100_000
    /// No payload is built larger than this (4 GiB inflated; a huge answer is held in memory).
    static let largest = 1 << 32

    private var hugeCache: (size: Int, bytes: [UInt8])?
    private var bombCache: (size: Int, bytes: [UInt8])?

    /// A well-formed JSON list of items `{"id", "title", "padding"}` of about `size` bytes: nothing wrong but
    /// its size.
    mutating func huge(_ size: Int) -> [UInt8] {
        if let hugeCache, hugeCache.size == size { return hugeCache.bytes }
        let size = min(size, 1 << 30)
        let padding = String(repeating: "x", count: 1_000)
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(size + 1_100)
        var number = 1
        while bytes.count + 1_100 < size {
            if number > 1 { bytes.append(UInt8(ascii: ",")) }
            bytes += Array(#"{"id":\#(number),"title":"Item \#(number)","padding":"\#(padding)"}"#.utf8)
            number += 1
        }
        bytes.append(UInt8(ascii: "]"))
        hugeCache = (size, bytes)
        return bytes
    }

    /// A gzip member inflating to `size` bytes: spaces, then `[]`.
    mutating func bomb(_ size: Int) -> [UInt8] {
        if let bombCache, bombCache.size == size { return bombCache.bytes }
        let bytes = Gzip.bomb(inflatedSize: size, tail: Array("[]".utf8))
        bombCache = (size, bytes)
        return bytes
    }

    static let defaultDenseSize = 16_000_000

    /// A list of `element` again and again, `size` bytes at most: `[0,0,…]` or `[[[0]],[[0]],…]`, values as
    /// densely as JSON allows. With `count`, that many elements and then one string of `x`s up to `size`.
    static func dense(_ element: String, _ size: Int, count: Int? = nil) -> [UInt8] {
        let element = Array(element.utf8), size = min(size, 1 << 30)
        let fitting = max(1, (size - 1) / (element.count + 1))
        let count = min(count ?? fitting, fitting)
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(size + 4)
        for index in 0..<count {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += element
        }
        if count < fitting, bytes.count + 4 < size {
            bytes += Array(",\"".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: size - bytes.count - 4)
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "]"))
        return bytes
    }

    /// `{"items": list, "junk": [0,0,…]}` of `size` bytes at most: `list` as it is, and beside it zeros as
    /// densely as JSON allows (`count` of them, then a string, as `dense` does).
    static func beside(_ list: [UInt8], _ size: Int, count: Int? = nil) -> [UInt8] {
        let head = Array(#"{"items":"#.utf8) + list + Array(#","junk":"#.utf8)
        return head + dense("0", max(0, min(size, 1 << 30) - head.count - 1), count: count) + [UInt8(ascii: "}")]
    }

    /// `depth` nested arrays: `[[[…]]]`.
    static func deep(_ depth: Int) -> [UInt8] {
        let depth = min(max(1, depth), 100_000_000)
        return [UInt8](repeating: UInt8(ascii: "["), count: depth) + [UInt8](repeating: UInt8(ascii: "]"), count: depth)
    }

    /// `body` with 0xC3 0x28 (a lead byte followed by one that cannot continue it) at the start of its first
    /// string value after a colon, or appended to the first string anywhere.
    static func breakingUTF8(_ body: [UInt8]) -> [UInt8] {
        let marker = Array(#"":""#.utf8)
        var index = 0
        while index + marker.count <= body.count {
            if Array(body[index..<index + marker.count]) == marker {
                let at = index + marker.count
                return Array(body[..<at]) + [0xC3, 0x28] + Array(body[at...])
            }
            index += 1
        }
        guard let quote = body.firstIndex(of: UInt8(ascii: "\"")) else { return body + [0xC3, 0x28] }
        return Array(body[...quote]) + [0xC3, 0x28] + Array(body[(quote + 1)...])
    }
}
