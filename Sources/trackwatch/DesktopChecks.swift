import DesktopNotifier
import SourceKit
#if canImport(Glibc)
    import Glibc
#endif

/// `doctor`'s look at what the desktop needs besides a notification server: the desktop entry the bubbles name
/// (GNOME applies the app's name and per-app notification settings only through it) and the icon.
enum DesktopChecks {
    static let entryName = "trackwatch.desktop"

    static func run(_ report: inout DoctorReport, environment: [String: String]) {
        checkEntry(&report, environment: environment)
        switch BubbleIcon.current() {
        case .systemTheme(let file), .file(let file):
            report.pass("icon \(file)")
        case .missing:
            report.warn(
                "icon trackwatch.svg not found (make install puts it in place): bubbles show \(BubbleIcon.fallback)")
        }
    }

    /// The entry as GLib (and so GNOME) takes it: the first `trackwatch.desktop` in the data directories, ignored
    /// unless the programs of its `TryExec=` and `Exec=` are found — by absolute path, or on the PATH of the
    /// session, which often lacks `~/.local/bin`.
    static func checkEntry(_ report: inout DoctorReport, environment: [String: String]) {
        let home =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (environment["HOME"] ?? "")
            + "/.local/share"
        let system = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        let candidates = ([home] + system.split(separator: ":").map(String.init)).map {
            "\($0)/applications/\(entryName)"
        }
        guard let path = candidates.first(where: { access($0, R_OK) == 0 }), let text = read(path) else {
            report.warn(
                "no desktop entry \(entryName) (make install puts it in place): GNOME shows the bubbles without "
                    + "trackwatch's name and per-app notification settings")
            return
        }
        let programs = ["TryExec", "Exec"].compactMap { key in value(of: key, in: text).map { (key, program(in: $0)) } }
        guard let exec = programs.last, exec.0 == "Exec" else {
            report.fail("desktop entry \(path) has no Exec=", fix: "make install (it writes the entry)")
            return
        }
        for (key, program) in programs where !program.hasPrefix("/") || access(program, X_OK) != 0 {
            let onPath =
                !program.contains("/")
                && (environment["PATH"] ?? "").split(separator: ":").contains {
                    access("\($0)/\(program)", X_OK) == 0
                }
            if onPath {
                report.warn(
                    "desktop entry \(path): \(key)=\(program) is found only on this shell's PATH; GNOME ignores "
                        + "the entry where the session's PATH lacks it (make install writes the absolute path)")
            } else {
                report.fail(
                    "desktop entry \(path): GNOME ignores it: \(key)=\(program) is not found",
                    fix: "make install (it writes \(key)= with the absolute path of trackwatch)")
            }
            return
        }
        report.pass("desktop entry \(path) (Exec=\(exec.1))")
    }

    /// The value of `key` in the `[Desktop Entry]` group.
    static func value(of key: String, in text: String) -> String? {
        var inEntry = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("[") { inEntry = line == "[Desktop Entry]" }
            if inEntry, line.hasPrefix(key + "=") { return String(line.dropFirst(key.count + 1)) }
        }
        return nil
    }

    /// The program of an `Exec=` value: its first word, unquoted.
    static func program(in value: String) -> String {
        let trimmed = value.drop { $0 == " " }
        if trimmed.first == "\"" { return String(trimmed.dropFirst().prefix { $0 != "\"" }) }
        return String(trimmed.prefix { $0 != " " })
    }

    static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4_096)
        while bytes.count < 65_536 {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
