#if canImport(Glibc)
import Glibc
#endif

/// Gives memory back after a poll, so that the idle daemon stays small (measured in README, Performance).
/// The daemon closes its HTTP connections first (`Source.closeIdleConnections()`): their idle timer
/// would otherwise wake it after every poll to run code paged out below.
///
/// - The heap: a large result is decoded into many short-lived allocations, and glibc keeps freed memory
///   in its arenas unless asked (without this, RSS climbs over polls of 100,000 records).
/// - Our own code: a poll touches code scattered over the executable (the HTTP client, TLS, JSON, SQLite
///   glue), and the kernel maps it in 64 KB chunks, so ~14 MB of the binary stay resident although idle
///   waiting needs almost none of it. MADV_PAGEOUT (Linux 5.4+) hands those clean, file-backed pages back.
///   No other process maps them, so the kernel drops them from the page cache as well: the next poll reads
///   what it uses back from disk (`make bench`: ~830 major page faults, ~40 ms of waiting per poll, little
///   CPU). Older kernels ignore the advice.
enum IdleMemory {
    static func release() {
        _ = malloc_trim(0)
        for range in executableMappings() {
            _ = madvise(UnsafeMutableRawPointer(bitPattern: range.lowerBound), Int(range.upperBound - range.lowerBound), madvPageout)
        }
    }

    private static let madvPageout: Int32 = 21  // MADV_PAGEOUT, not in older headers

    /// The read-only, file-backed mappings of our own executable (code and constants), from /proc/self/maps.
    private static func executableMappings() -> [Range<UInt>] {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0, let maps = fopen("/proc/self/maps", "r") else { return [] }
        defer { fclose(maps) }
        let executable = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var ranges: [Range<UInt>] = []
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), maps) != nil {
            let text = String(decoding: line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let fields = text.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[5] == executable, !fields[1].contains("w") else { continue }
            let bounds = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
            if bounds.count == 2, bounds[0] < bounds[1] { ranges.append(bounds[0]..<bounds[1]) }
        }
        return ranges
    }
}

/// glibc's `malloc_trim` (in <malloc.h>, which Swift's Glibc module does not export).
@_silgen_name("malloc_trim")
private func malloc_trim(_ pad: Int) -> Int32
