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
    /// How long an idle libdispatch worker thread lives on Linux before it ends (its semaphore's timeout).
    static let workerLifetime = 5

    static func release() {
        trimHeap()
        for range in executableMappings() {
            _ = madvise(UnsafeMutableRawPointer(bitPattern: range.lowerBound), Int(range.upperBound - range.lowerBound), MADV_DONTNEED)
        }
    }

    /// Free heap pages back to the kernel (every arena's).
    static func trimHeap() {
        _ = malloc_trim(0)
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
        // Read as bytes, not lines of `String`: splitting ~170 lines into strings after every poll cost ~0.8 ms
        // of a 13 ms steady poll (perf, issue 33).
        codeRanges(inMaps: procFile("/proc/self/maps"))
    }

    /// A /proc file whole: read until its end, as /proc hands out whole lines per read and says no size.
    static func procFile(_ path: String) -> [UInt8] {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return [] }
        defer { close(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return bytes
    }

    /// The `r-xp` mappings of files (a path, not `[vdso]` or `[vsyscall]`: those are the kernel's) in the text of
    /// a /proc/PID/maps: `start-end perms offset dev inode path` per line, addresses in hex.
    static func codeRanges(inMaps maps: [UInt8]) -> [Range<UInt>] {
        var ranges: [Range<UInt>] = []
        var lineStart = 0
        while lineStart < maps.count {
            let lineEnd = maps[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? maps.count
            defer { lineStart = lineEnd + 1 }
            var fields: [Range<Int>] = []
            var index = lineStart
            while index < lineEnd, fields.count < 6 {
                while index < lineEnd, maps[index] == UInt8(ascii: " ") { index += 1 }
                let fieldStart = index
                while index < lineEnd, maps[index] != UInt8(ascii: " ") { index += 1 }
                if fieldStart < index { fields.append(fieldStart..<index) }
            }
            guard fields.count == 6, maps[fields[5].lowerBound] == UInt8(ascii: "/"),
                maps[fields[1]].elementsEqual("r-xp".utf8),
                let dash = maps[fields[0]].firstIndex(of: UInt8(ascii: "-")),
                let low = hex(maps[fields[0].lowerBound..<dash]),
                let high = hex(maps[(dash + 1)..<fields[0].upperBound]),
                low < high
            else { continue }
            ranges.append(low..<high)
        }
        return ranges
    }

    /// A hexadecimal address of at most 16 digits.
    private static func hex(_ digits: ArraySlice<UInt8>) -> UInt? {
        guard (1...16).contains(digits.count) else { return nil }
        var value: UInt = 0
        for digit in digits {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt(digit - UInt8(ascii: "a") + 10)
            default: return nil
            }
        }
        return value
    }
}

/// glibc's `malloc_trim` (in <malloc.h>, which Swift's Glibc module does not export).
@_silgen_name("malloc_trim")
private func malloc_trim(_ pad: Int) -> Int32
