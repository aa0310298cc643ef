#if canImport(Glibc)
    import Glibc
#endif

/// The icon every bubble names, as the notification server will find it.
///
/// By its theme name where it is in a system icon theme (a package, `PREFIX=/usr/local`): every server finds it
/// there. Otherwise by its absolute path — Debian's dunst looks names up in the system themes only, so an icon
/// installed under `~/.local` (`make install`) would resolve to nothing — and for a run from the build tree the
/// file in the source tree (`data/`): GNOME draws a broken image for a name it cannot find. Without any of them,
/// a name every icon theme has.
public enum BubbleIcon {
    /// The icon's theme name: `data/icons/hicolor/scalable/apps/trackwatch.svg`, installed by scripts/install.sh.
    public static let name = "trackwatch"
    /// In every freedesktop icon theme (the Icon Naming Specification).
    public static let fallback = "dialog-information"
    static let themePath = "icons/hicolor/scalable/apps/trackwatch.svg"

    /// Where the icon was found and what the bubbles name.
    public enum Source: Equatable, Sendable {
        /// In a system theme: `file` is where, the bubbles name `BubbleIcon.name`.
        case systemTheme(file: String)
        /// Beside the installed binary (`PREFIX/share/icons/…`) or in the source tree: named by this path.
        case file(String)
        /// Nowhere: the bubbles name `BubbleIcon.fallback`.
        case missing

        /// What a bubble's `app_icon` says.
        public var appIcon: String {
            switch self {
            case .systemTheme: BubbleIcon.name
            case .file(let path): path
            case .missing: BubbleIcon.fallback
            }
        }
    }

    /// Looks for the icon: in the system data directories (`XDG_DATA_DIRS`), then beside `executable`
    /// (`…/bin/trackwatch` → `…/share/icons/…`), then in the source tree above it (a build directory).
    public static func find(
        executable: String?, dataDirectories: String?,
        exists: (String) -> Bool = { access($0, R_OK) == 0 }
    ) -> Source {
        let system = (dataDirectories.flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map { "\($0)/\(themePath)" }
        if let file = system.first(where: exists) { return .systemTheme(file: file) }
        guard let executable, executable.hasPrefix("/") else { return .missing }
        var directory = parent(executable)
        let installed = parent(directory) + "/share/" + themePath
        if exists(installed) { return .file(installed) }
        for _ in 0..<6 where directory != "/" {
            let source = directory + "/data/" + themePath
            if exists(source) { return .file(source) }
            directory = parent(directory)
        }
        return .missing
    }

    /// The icon of this process: its own executable (`/proc/self/exe`) and `XDG_DATA_DIRS`.
    public static func current() -> Source {
        find(executable: executablePath(), dataDirectories: getenv("XDG_DATA_DIRS").map { String(cString: $0) })
    }

    static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
