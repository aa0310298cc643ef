import SourceKit
import TrackwatchCore

/// trackwatch's documented exit codes (sysexits.h values, so that scripts and systemd can tell them apart).
public enum ExitStatus: Int32, CaseIterable, Sendable {
    case success = 0
    /// An unexpected internal error.
    case failure = 1
    /// Bad command-line usage.
    case usage = 64
    /// The tracker could not be reached, timed out or answered 5xx or 429; retrying later may help.
    case unavailable = 69
    /// The state directory or database could not be read or written.
    case stateError = 74
    /// Another trackwatch holds the state directory; try again when it is done.
    case busy = 75
    /// The tracker answered something that is not its documented API (garbage, incomplete pages).
    case protocolError = 76
    /// The tracker rejected the login or the token, or the credential could not be read.
    case credentials = 77
    /// The configuration file is missing or invalid.
    case configuration = 78

    /// The exit status for an error that ended a command.
    public static func forError(_ error: any Error) -> ExitStatus {
        switch error {
        case let error as SourceSetupError: return forError(error.underlying)
        case is ConfigError, is ConfigFileError, is UntrustedFile: return .configuration
        case is CredentialError: return .credentials
        case let error as any SourceFailure:
            switch error.failureKind.remedy {
            case .retryLater: return .unavailable
            case .reportTheAnswer: return .protocolError
            case .fixCredentials: return .credentials
            case .fixConfiguration: return .configuration
            }
        case is StateStoreFailure: return .stateError
        case is InstanceLock.Held: return .busy
        default: return .failure
        }
    }
}

/// Any store error, so that the exit status does not depend on the store's concrete error type.
public protocol StateStoreFailure: Error {}
