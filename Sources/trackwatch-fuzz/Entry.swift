// libFuzzer targets for the code that reads untrusted input, and a replayer for their corpora.
//
// `scripts/fuzz.sh` builds this with `-sanitize=fuzzer,address -DFUZZING` and runs each target
// (TRACKWATCH_FUZZ=config|compass|csv|timestamp picks it) for a fixed time. The ordinary build is the replayer:
// `trackwatch-fuzz TARGET FILE_OR_DIRECTORY…` runs inputs through the same function (`make test` replays the
// committed corpus, so a crash found once stays fixed).
#if canImport(Glibc)
import Glibc
#endif

/// Writes to stderr (fd 2) without the C `stderr` global, which Swift 6 treats as shared mutable state.
func complain(_ text: String) {
    var bytes = Array(text.utf8)
    _ = write(2, &bytes, bytes.count)
}

#if FUZZING
private let target: @Sendable (UnsafeRawBufferPointer) -> Void = {
    let name = getenv("TRACKWATCH_FUZZ").map { String(cString: $0) } ?? ""
    guard let target = targets[name] else {
        complain("set TRACKWATCH_FUZZ to one of: \(targets.keys.sorted().joined(separator: ", "))\n")
        exit(2)
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    target(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// SwiftPM links an executable's entry point as `<module>_main` (so that tests can link the module);
/// libFuzzer's own `main` is therefore never used, and this hands control to its driver instead.
@_cdecl("trackwatch_fuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, fuzzerTestOneInput)
}
#else
@main
enum Replay {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = targets[name] else {
            complain("usage: trackwatch-fuzz \(targets.keys.sorted().joined(separator: "|")) FILE_OR_DIRECTORY…\n")
            exit(64)
        }
        var count = 0
        for path in arguments.dropFirst() {
            for file in filesUnder(path) {
                guard let bytes = readFile(file) else {
                    complain("cannot read \(file)\n")
                    exit(1)
                }
                bytes.withUnsafeBytes(target)
                count += 1
            }
        }
        print("\(name): replayed \(count) inputs without a crash")
    }

    private static func filesUnder(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [path] }
        defer { closedir(directory) }
        var files: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { files.append(path + "/" + name) }
        }
        return files.sorted()
    }

    private static func readFile(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }
}
#endif
