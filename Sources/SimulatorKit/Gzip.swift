import CZlib

/// gzip members (RFC 1952) for `Content-Encoding: gzip` answers, through the system zlib.
public enum Gzip {
    /// `bytes` compressed as one gzip member.
    public static func compress(_ bytes: [UInt8]) -> [UInt8] {
        header + deflate(bytes, flush: Z_FINISH) + trailer(crc: crc(of: bytes), size: bytes.count)
    }

    /// A gzip member that inflates to `inflatedSize` bytes of spaces followed by `tail` (JSON whitespace, then a
    /// value: a well-formed answer, only far too big) at about 1000:1. One MiB of spaces is deflated once, with a
    /// full flush so that the block refers to nothing before it, and repeated; zlib combines the checksums.
    public static func bomb(inflatedSize: Int, tail: [UInt8]) -> [UInt8] {
        let blockSize = 1 << 20
        let spaces = max(0, inflatedSize - tail.count)
        let block = [UInt8](repeating: UInt8(ascii: " "), count: blockSize)
        let compressedBlock = deflate(block, flush: Z_FULL_FLUSH)
        let blockCRC = crc(of: block)
        var body = header
        body.reserveCapacity(header.count + compressedBlock.count * (spaces / blockSize) + 1024)
        var checksum = crc(of: [])
        for _ in 0..<(spaces / blockSize) {
            body += compressedBlock
            checksum = crc32_combine(checksum, blockCRC, .init(blockSize))
        }
        let rest = [UInt8](repeating: UInt8(ascii: " "), count: spaces % blockSize) + tail
        body += deflate(rest, flush: Z_FINISH)
        checksum = crc32_combine(checksum, crc(of: rest), .init(rest.count))
        return body + trailer(crc: checksum, size: spaces + tail.count)
    }

    /// Magic, deflate, no flags, no time, no extra flags, OS unknown.
    private static let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]

    private static func trailer(crc: UInt, size: Int) -> [UInt8] {
        let size = UInt32(truncatingIfNeeded: size)
        return (0..<4).map { UInt8(truncatingIfNeeded: UInt32(crc) >> (8 * $0)) }
            + (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) }
    }

    private static func crc(of bytes: [UInt8]) -> UInt {
        bytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
    }

    /// A raw deflate stream (no zlib or gzip wrapper) of `bytes`, ended by `flush`.
    private static func deflate(_ bytes: [UInt8], flush: Int32) -> [UInt8] {
        var stream = z_stream()
        // deflateInit2 is a macro; -15: a raw stream with a 32 KiB window, 8: zlib's default memory level.
        guard
            deflateInit2_(
                &stream, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { preconditionFailure("zlib refused its own defaults") }
        defer { deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 64)
        let produced = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                CZlib.deflate(&stream, flush)
                return target.count - Int(stream.avail_out)
            }
        }
        return Array(output.prefix(produced))
    }
}
