import Logging
import TrackwatchCore

/// What `trackwatch doctor` gives a source kind to check one of its sources with: read-only, changing nothing.
public struct DiagnosisContext {
    public var poll: PollConfig
    public var environment: [String: String]
    public var logger: Logger
    /// Reads the source's password or token (`SourceContext.secret`).
    public var secret: (CredentialSource) throws -> Secret
    /// Seconds since 1970 (the local clock).
    public var wallClock: () -> Double

    public init(poll: PollConfig, environment: [String: String], logger: Logger,
                secret: @escaping (CredentialSource) throws -> Secret, wallClock: @escaping () -> Double) {
        self.poll = poll
        self.environment = environment
        self.logger = logger
        self.secret = secret
        self.wallClock = wallClock
    }
}

/// The ✔/⚠/✘ lines of `trackwatch doctor`; each is printed as one line (see `Console`), so an error text from the
/// server cannot add lines of its own.
public struct DoctorReport {
    public private(set) var lines: [String] = []
    public private(set) var failed = false

    public init() {}

    /// Another report's lines, after these.
    public mutating func append(_ other: DoctorReport) {
        lines += other.lines
        failed = failed || other.failed
    }

    public mutating func pass(_ what: String) { lines.append("✔ \(what)") }
    public mutating func warn(_ what: String) { lines.append("⚠ \(what)") }
    public mutating func skip(_ what: String) { lines.append("· skipped: \(what)") }

    public mutating func fail(_ what: String, fix: String) {
        failed = true
        lines += ["✘ \(what)", "    fix: \(fix)"]
    }

    /// Runs `body`; ✔ `what` and its value, or ✘ with the error and `fix`.
    public mutating func check<T>(_ what: String, _ body: () throws -> T, fix: String) -> T? {
        check(what, body, fix: { _ in fix })
    }

    /// Runs `body`; ✔ `what` and its value, or ✘ with the error and the fix for that error.
    public mutating func check<T>(_ what: String, _ body: () throws -> T, fix: (any Error) -> String) -> T? {
        do {
            let value = try body()
            pass(what)
            return value
        } catch {
            fail("\(what): \(error)", fix: (error as? any ErrorWithFix)?.fixLine ?? fix(error))
            return nil
        }
    }

    /// `check` of a body that asks a server.
    public mutating func check<T>(_ what: String, _ body: () async throws -> T, fix: String) async -> T? {
        await check(what, body, fix: { _ in fix })
    }

    /// `check` of a body that asks a server, with the fix for the error it met.
    public mutating func check<T>(
        _ what: String, _ body: () async throws -> T, fix: (any Error) -> String
    ) async -> T? {
        do {
            let value = try await body()
            pass(what)
            return value
        } catch {
            fail("\(what): \(error)", fix: (error as? any ErrorWithFix)?.fixLine ?? fix(error))
            return nil
        }
    }
}

/// An error that knows the one action that fixes it (`chmod 600 FILE`): `doctor` says that action rather than the
/// general fix of the check that failed.
public protocol ErrorWithFix: Error {
    var fixLine: String? { get }
}

extension CredentialSource {
    /// How a person names it: `password_file ~/.config/trackwatch/password`, `keyring`.
    public var summary: String {
        switch self {
        case .passwordFile(let path): "password_file \(path)"
        case .passwordCommand: "password_command"
        case .tokenCommand: "token_command"
        case .systemdCredential(let name): "systemd credential \(name)"
        case .tokenFile(let path): "token_file \(path)"
        case .keyring: "keyring"
        case .emptyPassword: "empty password"
        }
    }
}

extension CredentialSource {
    /// What `doctor` says to do when the `what` (a password, an API token) cannot be read from here: the action
    /// itself, with where the tracker makes one (`makeOne`, e.g. "Qase makes one under your profile, API tokens").
    public func fix(putting what: String, makeOne: String? = nil) -> String {
        let made = makeOne.map { "; \($0)" } ?? ""
        switch self {
        case .passwordFile(let path), .tokenFile(let path):
            return "put the \(what) alone on the first line of \(path), a file only you can read (chmod 600)\(made)"
        case .passwordCommand, .tokenCommand: return "make the command print the \(what) on its first line\(made)"
        case .systemdCredential(let name):
            return "give the unit the credential \(name) holding the \(what) (LoadCredential=)\(made)"
        case .keyring(let attributes):
            return "store the \(what): secret-tool store --label=trackwatch \(attributes.joined(separator: " "))\(made)"
        case .emptyPassword: return "set password_file (or another password source) holding the \(what)\(made)"
        }
    }
}

extension FailureKind {
    /// What `doctor` says to do about a failure of this kind, for the table `table` (`[server]`, `[[qase]] work`).
    public func fix(table: String) -> String {
        switch remedy {
        case .retryLater: "check that the server is up, and url, proxy and the network in \(table); then run doctor again"
        case .reportTheAnswer: "run trackwatch probe --save FILE and send FILE with a report: the server answers what trackwatch cannot read"
        case .fixCredentials: "correct the user name and the password or token of \(table)"
        case .fixConfiguration: "correct \(table) where the message says"
        }
    }
}
