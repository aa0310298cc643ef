import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import Logging
import SourceKit
import StateStore
import SystemdIntegration
import TrackwatchApp
import TrackwatchCore

/// Options every command that reads the configuration accepts.
struct ConfigOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Configuration file.", valueName: "path"))
    var config: String?

    @Flag(name: .shortAndLong, help: "Log progress to stderr.")
    var verbose = false

    func paths() -> Paths { Paths(environment: environment) }

    func loadConfiguration() throws -> Config {
        try loadConfig(path: config ?? paths().configFile)
    }

    /// The state store of each configured source, labelled unless it is a single `[server]`, whose store is the
    /// state directory's own. Without a configuration file, that store.
    func stores() throws -> [(label: String?, store: StateStore)] {
        try configuredStores().stores.map { source, store in
            (source.flatMap { $0.stateFolder.isEmpty ? nil : $0.label }, store)
        }
    }

    /// The configuration (`nil` when there is no file and none was named) and each source's store with its
    /// configuration.
    func configuredStores() throws -> (config: Config?, stores: [(source: (any SourceSettings)?, store: StateStore)]) {
        let root = paths().stateDirectory
        let path = config ?? paths().configFile
        guard config != nil || access(path, F_OK) == 0 else { return (nil, [(nil, try StateStore(directory: root))]) }
        let loaded = try loadConfig(path: path)
        return (loaded, try loaded.sources.map { source in
            (source, try StateStore(directory: SourceSession.stateDirectory(of: source, in: root)))
        })
    }

    func logger() -> Logger {
        var logger = Logger(label: "trackwatch") { TerminalLogHandler(label: $0) }
        logger.logLevel = verbose ? .debug : .warning
        return logger
    }
}

/// The process environment, read once.
let environment: [String: String] = {
    var result: [String: String] = [:]
    var pointer = environ
    while let entry = pointer.pointee {
        let text = String(cString: entry)
        if let equals = text.firstIndex(of: "=") {
            result[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        pointer += 1
    }
    return result
}()

/// Ends the command with a message for people on stderr and the documented exit status.
func fail(_ error: any Error) -> ExitCode {
    Console.error("trackwatch: \(error)")
    return ExitCode(ExitStatus.forError(error).rawValue)
}
