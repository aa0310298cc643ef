import Logging
import TrackwatchCore

extension CredentialSource {
    /// The token `secret` reads from here, checked: it goes into an HTTP header, so it must be one line of visible
    /// ASCII (a password may hold spaces: `visibleASCII` false checks only that there is one). `what` names it in the
    /// error ("the API token"), `place` where it is read from, `advice` where the tracker makes one.
    public func headerToken(
        _ secret: (CredentialSource) throws -> Secret, what: String, place: String? = nil, advice: String? = nil,
        visibleASCII: Bool = true
    ) throws -> Secret {
        let token = try secret(self)
        guard !token.value.isEmpty, !visibleASCII || token.value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw ConfigurationProblem(
                "\(what) is empty or holds spaces or other characters no token has; put it alone in "
                    + "\(place ?? summary)\(advice.map { " (\($0))" } ?? "")")
        }
        return token
    }
}

extension Logger {
    /// This logger with the source's name in every entry's metadata (`source=work`).
    public func forSource(_ name: String) -> Logger {
        var logger = self
        logger[metadataKey: "source"] = "\(name)"
        return logger
    }
}
