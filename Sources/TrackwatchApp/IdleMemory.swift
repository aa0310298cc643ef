#if canImport(Glibc)
import Glibc
#endif

/// Gives memory back after a poll, so that the idle daemon stays small (docs/performance.md).
/// The daemon closes its HTTP connections first (`Source.closeIdleConnections()`): their idle timer
/// would otherwise wake it after every poll.
///
/// - The heap: a large result is decoded into many short-lived allocations, and glibc keeps freed memory
///   in its arenas unless asked (without this, RSS climbs over polls of 100,000 records).
/// - Our own code: a poll touches code scattered over the executable (the HTTP client, TLS, JSON, SQLite
///   glue), and the kernel maps it in 64 KB chunks, so ~14 MB of the binary stay mapped although idle waiting
///   needs almost none of it. `MADV_DONTNEED` on the code mappings of the executable and its libraries (`r-xp`: never written, so
///   nothing of it is lost) unmaps those pages but leaves them in the page cache, where the kernel keeps them
///   while it has memory to spare and drops them (clean, no writing back) when it needs it: the next poll maps
///   them again with minor faults. `MADV_PAGEOUT`, used before, dropped them from the page cache as well, and
///   the next poll read them back from disk: ~600–970 major page faults and twice the CPU per poll
///   (docs/performance.md). Read-only data (`r--p`) is left alone: its relocated part (RELRO) was written at
///   start-up, and `MADV_DONTNEED` would give it back as the file's unrelocated bytes.
enum IdleMemory {
    static func release() {
        _ = malloc_trim(0)
        for range in executableMappings() {
            _ = madvise(UnsafeMutableRawPointer(bitPattern: range.lowerBound), Int(range.upperBound - range.lowerBound), MADV_DONTNEED)
        }
    }

    /// What the idle daemon costs the machine, for systemd's status line: its private memory (`RssAnon`, what
    /// nothing else can share or drop) and its proportional set size (`Pss`: shared pages divided among their
    /// users), in KiB, from /proc/self/status and /proc/self/smaps_rollup. Nil where /proc does not say.
    static func usage() -> (privateKiB: Int, proportionalKiB: Int)? {
        guard let anon = field("RssAnon:", in: "/proc/self/status"), let pss = field("Pss:", in: "/proc/self/smaps_rollup")
        else { return nil }
        return (anon, pss)
    }

    /// The number after `key` on its line of a /proc file of `key value kB` lines.
    private static func field(_ key: String, in path: String) -> Int? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix(key) else { continue }
            return Int(text.dropFirst(key.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }

    /// The code mappings (`r-xp`) of files, ours and the shared libraries', from /proc/self/maps. Libraries' code
    /// is shared with other processes only on a busy desktop; on a quiet machine sqlite's, glib's and systemd's
    /// count whole in the daemon's PSS (~2.5 MB).
    private static func executableMappings() -> [Range<UInt>] {
        guard let maps = fopen("/proc/self/maps", "r") else { return [] }
        defer { fclose(maps) }
        var ranges: [Range<UInt>] = []
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), maps) != nil {
            let text = String(decoding: line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let fields = text.split(separator: " ", omittingEmptySubsequences: true)
            // A file's path, not [vdso] or [vsyscall]: those are the kernel's.
            guard fields.count >= 6, fields[5].hasPrefix("/"), fields[1] == "r-xp" else { continue }
            let bounds = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
            if bounds.count == 2, bounds[0] < bounds[1] { ranges.append(bounds[0]..<bounds[1]) }
        }
        return ranges
    }
}

/// glibc's `malloc_trim` (in <malloc.h>, which Swift's Glibc module does not export).
@_silgen_name("malloc_trim")
private func malloc_trim(_ pad: Int) -> Int32
