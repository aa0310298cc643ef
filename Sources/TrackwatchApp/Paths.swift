#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import TrackwatchCore

/// Where trackwatch keeps things, per the XDG Base Directory specification.
public struct Paths: Sendable {
    /// `$XDG_CONFIG_HOME/trackwatch/config.toml`, default `~/.config/trackwatch/config.toml`.
    public let configFile: String
    /// `$XDG_STATE_HOME/trackwatch`, default `~/.local/state/trackwatch`.
    public let stateDirectory: String

    public init(environment: [String: String]) {
        let home = environment["HOME"] ?? "/"
        // The spec says relative values are invalid and must be ignored.
        func base(_ variable: String, _ fallback: String) -> String {
            if let value = environment[variable], value.hasPrefix("/") { return value }
            return home + "/" + fallback
        }
        configFile = base("XDG_CONFIG_HOME", ".config") + "/trackwatch/config.toml"
        stateDirectory = base("XDG_STATE_HOME", ".local/state") + "/trackwatch"
    }
}


/// The configuration file could not be read.
public struct ConfigFileError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    /// No file at `path` at all: a first run, which `doctor` answers with where the example is.
    public var missing = false
    public var description: String { "cannot read the configuration \(path): \(reason)" }
}

/// Reads and parses the configuration file, after making sure that only you (or root) can change it. A
/// relative `path` is taken from the working directory once, here: the paths inside the file are relative to
/// the file's directory.
public func loadConfig(path: String) throws -> Config {
    let path = absolutePath(path)
    try FileTrust.checkConfiguration(path)
    let data: Data
    do {
        data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
        let missing = (error as? CocoaError)?.code == .fileReadNoSuchFile
        throw ConfigFileError(
            path: path,
            reason: missing
                ? "no such file. Copy the example there (/usr/share/doc/trackwatch/config.example.toml, or "
                    + "etc/config.example.toml in the source) and uncomment your tracker's table ([[github]], "
                    + "[[gitlab]], [[jira]], [[qase]], [[json]], or [server] for HCL Compass), or pass --config PATH"
                : "\(error)",
            missing: missing)
    }
    guard let text = String(validating: data, as: UTF8.self) else {
        throw ConfigFileError(path: path, reason: "the file is not UTF-8 text")
    }
    return try Config.parse(text, file: path, kinds: SourceRegistry.kinds)
}

/// `path` from the working directory when it is relative.
func absolutePath(_ path: String) -> String {
    guard !path.hasPrefix("/"), let directory = getcwd(nil, 0) else { return path }
    defer { free(directory) }
    let base = String(cString: directory)
    return (base.hasSuffix("/") ? base : base + "/") + path
}
